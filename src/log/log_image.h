/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory images in packed events (log format 4.0, docs/log-format.md): an
 * event whose data is a prefix that holds an address, then bytes of memory
 * from that address (a thread's user stack after its registers), stored as
 * what differs from the last image of the same context in the same EVENTS
 * record, byte for byte at the same address. A thread's stacks at its
 * successive syscalls share their callers' frames: only the frames that
 * changed cost their bytes again.
 *
 * Encoded body of an image event of data_len bytes:
 *   varint prefix_len (at most data_len), varint addr_off (addr_off + 8 <=
 *   prefix_len); then pairs until the prefix_len bytes of the prefix are
 *   made (the image's address: the little-endian u64 at addr_off in it),
 *   then pairs until the image's data_len - prefix_len bytes are. A pair:
 *   varint copy, varint literal (not both 0), literal bytes; copy takes
 *   the bytes at the same offsets from the context's last prefix (if as
 *   long), at the same addresses from its last image, which must hold
 *   them all.
 * Internal to src/log.
 */
#ifndef PTBPF_LOG_IMAGE_H
#define PTBPF_LOG_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The last image of a context: the whole data of its event. */
struct log_image {
	unsigned char *buf; /* LOG_MAX_DATA bytes once allocated */
	uint32_t len;	    /* data bytes; 0: no image */
	uint32_t prefix;    /* of which the prefix */
	uint64_t addr;	    /* the address of buf[prefix] */
};

/* Room the body of data_len bytes of data may take at most (two parts,
 * each at most its bytes and one pair more: copies are COPY_MIN or more). */
#define LOG_IMAGE_BODY_MAX(data_len) ((size_t)(data_len) + (size_t)(data_len) / 8 + 48)

/*
 * Encode data (len bytes: prefix bytes with the address at addr_off, then
 * the image) against base (NULL or len 0: none) into out, which has
 * LOG_IMAGE_BODY_MAX(len) bytes; returns the body's length. The caller
 * checks addr_off + 8 <= prefix <= len.
 */
size_t log_image__encode(const struct log_image *base, const unsigned char *data, uint32_t len,
			 uint32_t prefix, uint32_t addr_off, unsigned char *out);

/*
 * Decode a body of n bytes into out->buf (data_len bytes), against base
 * (which may not be out). 0, or -EINVAL for a body that does not make
 * exactly data_len bytes from what it holds and base's bytes.
 */
int log_image__decode(const struct log_image *base, const unsigned char *body, size_t n,
		      uint32_t data_len, struct log_image *out);

/* Make img the image of data (len bytes, its prefix given): a copy. */
void log_image__set(struct log_image *img, const unsigned char *data, uint32_t len, uint32_t prefix,
		    uint32_t addr_off);

#endif
