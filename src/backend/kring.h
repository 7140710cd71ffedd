/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Consumer of one BPF ring buffer map (BPF_MAP_TYPE_RINGBUF), mapped the
 * way the kernel lays it out (what libbpf's ring_buffer does), but a
 * record at a time: the kernel backend merges the CPUs' rings by looking
 * at the head record of each (libbpf 1.1 can only empty one ring after the
 * other, which leaves the first ring's newer records behind the others').
 */
#ifndef PTBPF_BACKEND_KRING_H
#define PTBPF_BACKEND_KRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>

struct kring {
	size_t mask;		 /* data size - 1 (a power of two) */
	unsigned long *consumer; /* consumer position (page 0, read-write) */
	unsigned long *producer; /* producer position (page 1, read-only) */
	unsigned char *data;	 /* data pages, then their first KRING_WRAP_READ bytes again */
	size_t map_len;		 /* of the read-only part */
	unsigned long cons;	 /* our copy of the consumer position */
	unsigned long published; /* the consumer position the producers see */
	size_t publish_every;	 /* bytes taken between two publications */
	size_t head_len;	 /* bytes of the record kring__peek() found */
	size_t touched;		 /* bytes of the data faulted in, from its start */
};

/* What kring__open() faults in of a ring's data (see common/pages.h). */
#define KRING_EAGER (1u << 20)
/*
 * Of the second copy only the start is ever read, and mapped: the rest of
 * a record that wraps (the largest, a copied user stack, is under 17 KiB).
 */
#define KRING_WRAP_READ (64u << 10)

/*
 * Map the ring of map_fd, whose data size is size bytes; its first
 * KRING_EAGER bytes are faulted in, the rest left to kring__populate().
 */
int kring__open(struct kring *r, int map_fd, size_t size);
void kring__close(struct kring *r);

/*
 * Fault in up to chunk more bytes of the data and of the start of its
 * second copy, reading them (the records are not changed): false once all
 * are.
 */
bool kring__populate(struct kring *r, size_t chunk);

/* The producer position: a drain takes the records written before it. */
unsigned long kring__producer_pos(const struct kring *r);

/* True when the producers wrote nothing the consumer has not taken. */
bool kring__empty(const struct kring *r);

/* Thousandths of the ring written and not taken yet. */
unsigned int kring__fill(const struct kring *r);

#define KRING_HDR_SZ 8u /* BPF_RINGBUF_HDR_SZ: u32 len (+ busy, discard bits), u32 pg_off */

/* Pass over what the ring holds (a kept ring's last stream's records). */
static inline void kring__skip(struct kring *r)
{
	r->cons = __atomic_load_n(r->producer, __ATOMIC_ACQUIRE);
	__atomic_store_n(r->consumer, r->cons, __ATOMIC_RELEASE);
	r->published = r->cons;
}

/* Give everything taken back to the producers now (at the end of a drain). */
static inline void kring__publish(struct kring *r)
{
	if (r->published == r->cons)
		return;
	__atomic_store_n(r->consumer, r->cons, __ATOMIC_RELEASE);
	r->published = r->cons;
}

/*
 * The oldest committed record before position limit: 1 with *data and
 * *size, or 0 (none, or the next one is still being written: what follows
 * it waits too). Discarded records are skipped. Inline, as
 * kring__advance(): called for every record.
 */
static inline int kring__peek(struct kring *r, unsigned long limit, const void **data, size_t *size)
{
	while (r->cons < limit) {
		const uint32_t *hdr = (const uint32_t *)(r->data + (r->cons & r->mask));
		uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		size_t rlen;

		if (len & BPF_RINGBUF_BUSY_BIT)
			return 0;
		rlen = ((len & ~(uint32_t)BPF_RINGBUF_DISCARD_BIT) + KRING_HDR_SZ + 7) & ~(size_t)7;
		if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
			r->head_len = rlen;
			*data = hdr + 2;
			*size = len;
			return 1;
		}
		r->cons += rlen;
		if (r->cons - r->published >= r->publish_every)
			kring__publish(r);
	}
	return 0;
}

/* A short pause in a spin on what another CPU writes. */
static inline void kring__relax(void)
{
	for (int i = 0; i < 64; i++) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ __volatile__("yield" ::: "memory");
#else
		__asm__ __volatile__("" ::: "memory");
#endif
	}
}

/*
 * After kring__peek() returned 0: true when it stopped before limit, at a
 * record not committed yet, and wait_ns have not passed since the first
 * call (now: CLOCK_MONOTONIC ns; *deadline: 0 before it), after a short
 * pause; then peek again. The record's BPF program runs on another CPU
 * and does not sleep: it commits within microseconds, unless that CPU
 * stops (a virtual CPU the host does not run).
 */
bool kring__wait_busy(const struct kring *r, unsigned long limit, uint64_t now, uint64_t wait_ns,
		      uint64_t *deadline);

/*
 * Take the record kring__peek() returned: its space goes back to the
 * producers at the next publication, every publish_every bytes (the
 * producers read the consumer position at every reservation: written at
 * every record, its cache line would move between CPUs at every record).
 */
static inline void kring__advance(struct kring *r)
{
	r->cons += r->head_len;
	r->head_len = 0;
	if (r->cons - r->published >= r->publish_every)
		kring__publish(r);
}

#endif
