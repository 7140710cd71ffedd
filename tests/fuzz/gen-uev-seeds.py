#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the seed corpus of tests/fuzz/fuzz_uev_consumer.c.

    tests/fuzz/gen-uev-seeds.py [DIR]     (default tests/fuzz/corpus/uev)

An input is a header then operations, each an opcode byte (taken modulo
11) and its arguments, all little-endian; the harness reads zeros once the
input is used up. The builders below follow the harness's decoding
(setup() and the op_* functions there); the seeds are small programs a
fuzzer mutates into deeper ones: clean runs checked against the model,
drops, adoption of a provisional slot, forged records and attacks on the
slot's fields.
"""
import os
import struct
import sys

WRITE, BURST, CONSUME, QUERY, NAME, SUBF, SLOTF, SLOTB, RINGB, REC, ATTACH = range(11)

# struct uev_rec flags
REC_THREAD, REC_LOST, REC_TSHI, REC_PROG = 0x02, 0x04, 0x08, 0x10


def header(ring_class=0, md=0, md_class=0, inherit=False, prov=None):
    """ring_class: 0-5 4 KiB, up to 13 256 KiB (ring_shift[]), 14 max_data
    md * 32 (up to 1 MiB: a ring of 8 MiB, slow), 15 raw (not here);
    md_class: md masked with 0x1ff, 0x1ff, 0xfff, 0x3fff. prov: None, or
    (ring class, max_data) of a provisional slot."""
    b0 = ring_class | (0x10 if inherit else 0) | (0x20 if prov else 0) | (md_class << 6)
    out = struct.pack("<BH", b0, md)
    if prov:
        out += struct.pack("<BH", prov[0], prov[1])
    return out


def write(idx, length, tsb=0, prog=0):
    """length below 0x8000: modulo max_data + 33; 0x8000 | n: n; 0xc000 | n:
    max_data + n - 128 (see pick_len). tsb: 0x00 in order, 0x3f the clock's
    (read by the producer once it reserved the record), 0x40 | n in the past
    with another high half, 0x80 | n in the future, a lie the consumer
    rejects (see pick_ts)."""
    return struct.pack("<BBHBB", WRITE, idx, length, tsb, prog)


def burst(n, lb, idx=0):
    return struct.pack("<BBBB", BURST, n - 1, lb, idx)


def consume(stop=0, ret1=False, lost=True, run=False, nest_at=0, nest_ops=0):
    b = stop | (0x20 if ret1 else 0) | (0 if lost else 0x40) | (0x80 if run else 0)
    return struct.pack("<BBB", CONSUME, b, nest_at | nest_ops << 4)


def query(blen=64, idx=0):
    return struct.pack("<BBB", QUERY, blen, idx)


def name(idx, text):
    """A name registered as the producer does (letters only)."""
    return struct.pack("<BBBB", NAME, 1, idx, len(text)) + bytes(ord(c) - ord("a") for c in text)


def name_raw(idx, raw, count=None):
    mode = 2 | (4 if count is not None else 0)
    out = struct.pack("<BBB", NAME, mode, idx) + raw.ljust(64, b"\0")[:64]
    if count is not None:
        out += struct.pack("<I", count)
    return out


def subf(sub, field, mode, arg=b""):
    """field: 0 head, 1 dropped, 2 drop_ts, 3 tail, 4 tail_cache."""
    return struct.pack("<BB", SUBF, sub | field << 2 | mode << 5) + arg


def slotf(field, value=None, delta=1):
    """field: index into slot_fields[] (0 own, 1 gen, 4 max_data, 5 ring_size, ...)."""
    if value is None:
        return struct.pack("<BBB", SLOTF, field, (delta << 1) & 0xfe)
    size = (8, 4, 4, 4, 4, 8, 8, 8, 8, 4, 8, 4)[field]
    return struct.pack("<BBB", SLOTF, field, 1) + value.to_bytes(size, "little")


def ringb(sub, where, delta, data):
    """where: 0 near the tail, 1 near the head, 2 from offset 0."""
    return struct.pack("<BBhB", RINGB, sub | where << 2, delta, len(data)) + data


def punch(page, pages):
    return struct.pack("<BBHB", RINGB, 0x80, page, pages - 1)


def rec(sub, sane=True, kind=0, flags=REC_THREAD | REC_TSHI | REC_PROG, idx=1, ts_lo=1000,
        dlen=16, extra=None, wrong_tag=False, advance=0, pad=False, commit_len=None):
    """kind (not sane): 0-2 DATA, 3 PAD, 4 RESV, 5 RESV_OWN, 6 zero, 7 kind 15;
    commit_len: the commit word's length field, whatever the record holds."""
    if commit_len is not None:
        kind |= 0x80
    b = sub | (4 if sane else 0) | (8 if wrong_tag else 0) | advance << 4 | (0x40 if pad else 0)
    out = struct.pack("<BBBBHIH", REC, b, kind, flags, idx, ts_lo, dlen)
    n = sum(s for f, s in ((REC_THREAD, 16), (REC_LOST, 16), (REC_TSHI, 4), (REC_PROG, 8))
            if flags & f)
    out += (extra or bytes(range(1, n + 1)))[:n].ljust(n, b"\0")
    if not sane and commit_len is not None:
        out += commit_len.to_bytes(3, "little")
    if not sane and advance == 3:
        out += b"\x02"
    return out


def attach():
    return bytes([ATTACH])


SEEDS = {
    # 4 KiB ring, max_data 200: names, events of every timestamp kind, stops
    "clean-names": header(0, 200) + attach()
    + name(1, "open") + name(2, "close") + name(5, "x")
    + write(1, 10) + write(2, 0, prog=0x80) + write(5, 199, tsb=0x41) + write(0, 0x8000 | 300)
    + write(1, 0xc000 | 0x90, tsb=0x3f) + query(64)
    + consume(stop=2, ret1=True) + consume(stop=1) + consume() + query(4, 2),
    # the clock read after the reservation, after records of another high
    # half: the reservation becomes a PAD (wrapping too) and the record follows
    "clean-now": header(0, 200) + attach()
    + write(1, 10, tsb=0x3f) + write(1, 10, tsb=0x41) + write(1, 10, tsb=0x3f) + consume()
    + b"".join(write(1, 100, tsb=0x42) + write(2, 60, tsb=0x3f) + consume() for _ in range(40))
    + burst(40, 200) + write(3, 20, tsb=0x41) + write(3, 20, tsb=0x3f) + consume()
    + write(3, 20, tsb=0x3f) + consume(stop=1) + consume(run=True),
    # times in the future: of a record, of drops carried or left at the end
    "hostile-future": header(0, 200) + attach()
    + write(1, 10) + write(2, 10, tsb=0x85) + consume() + write(1, 10, tsb=0x3f) + consume()
    + burst(40, 200) + write(2, 200, tsb=0x81) + consume() + write(1, 20) + consume()
    + subf(0, 2, 0, struct.pack("<Q", 1 << 62)) + subf(0, 1, 0, struct.pack("<Q", 2)) + consume(),
    # PADs in the middle of a sub-ring: of a reservation given up, too short, odd
    "hostile-pad": header(0, 200) + attach()
    + write(1, 10) + rec(0, sane=False, kind=3, dlen=20) + write(1, 10, tsb=0x3f) + consume()
    + rec(0, sane=False, kind=3, dlen=0, commit_len=8) + consume()
    + rec(0, sane=False, kind=3, dlen=0, commit_len=20) + consume() + write(2, 10) + consume(),
    # a small ring overrun: drops carried by the next event and at the end
    "clean-drops": header(0, 400) + attach()
    + burst(40, 200) + consume() + write(3, 50) + burst(30, 250, 4)
    + consume(nest_at=2, nest_ops=3) + write(1, 8) + write(1, 9) + burst(20, 100)
    + consume(run=True) + consume(lost=False) + query(20),
    # a provisional slot (4 KiB, max_data 300) written before it is adopted
    "prov-adopt": header(1, 100, prov=(0, 300))
    + write(1, 250) + write(2, 299) + burst(20, 255) + attach() + write(3, 120)
    + consume() + burst(8, 64) + consume(stop=3) + consume() + query(30),
    # records forged in every sub-ring: well formed, wrong tag, reserved, PAD
    "hostile-recs": header(0, 256) + attach()
    + rec(0) + rec(1, dlen=40) + rec(2, flags=REC_THREAD) + rec(3, flags=0, dlen=0)
    + consume() + rec(1, sane=False, wrong_tag=True) + consume()
    + rec(2, sane=False, kind=4, extra=struct.pack("<iiQ", 0x3ffffff0, 1, 0)) + consume()
    + rec(1, flags=REC_THREAD, extra=struct.pack("<iiQ", 0x3ffffff1, 0x3ffffff1, 7))
    + rec(1, sane=False, kind=5, flags=0) + consume()
    + rec(2, sane=False, kind=4, flags=0, commit_len=13) + consume()
    + rec(3, sane=False, kind=3, dlen=100) + rec(0, dlen=200) + rec(0, dlen=200, pad=True)
    + consume() + ringb(0, 1, 0, b"\x41\x00\x00\x01") + subf(0, 0, 4, b"\x03")
    + consume() + write(2, 30) + consume(),
    # the slot's fields and the names: gen and own changed, lengths, holes
    "hostile-ctl": header(2, 1000) + write(0, 20) + attach() + write(1, 40)
    + slotf(4, 0xffffffff) + write(1, 0x3fff | 0x8000) + consume()
    + name_raw(7, b"A" * 64) + name_raw(8, b"ok", count=300) + query(70, 7)
    + subf(1, 1, 0, struct.pack("<Q", 5)) + consume()
    + punch(0, 1) + write(2, 64) + consume() + slotf(1) + consume()
    + slotf(0, 12345) + consume() + query(10)
    + b"".join(slotf(1) + consume(run=True) for _ in range(16)) + write(1, 10) + consume(),
    # sub-ring 3 filled close to its end, then records that do not fit
    "hostile-end": header(0, 700, md_class=2) + attach()
    + b"".join(rec(3, dlen=200) + consume() for _ in range(15))
    + rec(3, sane=False, dlen=600) + consume() + rec(3, dlen=600) + consume(),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "uev")
    os.makedirs(out, exist_ok=True)
    for name_, data in SEEDS.items():
        with open(os.path.join(out, name_), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
