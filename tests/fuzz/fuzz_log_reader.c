// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the log reader. Every input is read twice: as the raw
 * file, and with its checksums recomputed (header, type slots, the chain of
 * records from data_off, the trailer) so that mutations reach the record
 * parsing and the ring recovery behind the crc checks.
 */
#include <endian.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log/log.h"
#include "log/log_format.h"

static volatile uint32_t sink;

static void consume(int fd)
{
	struct log_reader *r;
	struct pt_event_hdr h;
	struct log_status st;
	const void *data;
	const char *name;
	size_t it = 0;
	uint32_t id;

	if (log_reader__open(&r, fd))
		return;
	sink += (uint32_t)strlen(log_reader__meta(r)->name);
	sink += (uint32_t)strlen(log_reader__meta(r)->genversion);
	while (log_reader__type_next(r, &it, &id, &name) == 1) {
		const char *again;

		sink += (uint32_t)strlen(name);
		if (log_reader__type_name(r, id, &again) || again != name)
			abort();
	}
	if (log_reader__status(r, &st) == 0)
		sink += (uint32_t)st.v[0];
	for (int pass = 0; pass < 2; pass++) {
		for (int n = 0; n < 1000000 && log_reader__next(r, &h, &data) == 1; n++) {
			const unsigned char *d = data;

			if (h.data_len > LOG_MAX_DATA)
				abort();
			if (h.data_len)
				sink += d[0] + d[h.data_len - 1];
			if (log_reader__type_name(r, h.id, &name) == 0)
				sink += (uint32_t)name[0];
		}
		log_reader__rewind(r);
	}
	log_reader__close(r);
}

static void fix_rec(unsigned char *b, size_t size, uint32_t seed, uint64_t off, uint64_t limit,
		    uint32_t *len_out)
{
	uint32_t len, crc;

	*len_out = 0;
	if (off > size || size - off < 24 || off > limit || limit - off < 24)
		return;
	memcpy(&len, b + off + 4, 4);
	len = le32toh(len);
	if (len < 24 || (len & 7) || len > LOG_MAX_REC + 8 || len > size - off || len > limit - off)
		return;
	crc = htole32(log_crc32c(seed, b + off + 4, len - 4));
	memcpy(b + off, &crc, 4);
	*len_out = len;
}

static void fixup(unsigned char *b, size_t size)
{
	struct log_file_hdr h;
	uint64_t type_off, type_size, data_off, cap, end, off;
	uint32_t hsize, len;

	if (size < sizeof(h))
		return;
	memcpy(&h, b, sizeof(h));
	hsize = le32toh(h.hdr_size);
	if (hsize < sizeof(h) || hsize > size || hsize > LOG_HDR_SIZE)
		hsize = sizeof(h);
	h.hdr_size = htole32(hsize);
	h.hdr_crc = 0;
	memcpy(b, &h, sizeof(h));
	h.hdr_crc = htole32(log_crc32c(0, b, hsize));
	memcpy(b, &h, sizeof(h));

	type_off = le64toh(h.type_off);
	type_size = le64toh(h.type_size);
	data_off = le64toh(h.data_off);
	cap = le64toh(h.data_cap);
	for (uint64_t i = 0; i < 4096 && type_off < size && i * LOG_TYPE_REC_MAX < type_size; i++) {
		off = type_off + i * LOG_TYPE_REC_MAX;
		fix_rec(b, size, le32toh(h.seed), off, off + LOG_TYPE_REC_MAX, &len);
		if (!len)
			break;
	}
	end = le32toh(h.layout) == LOG_LAYOUT_RING && cap && data_off + cap > data_off
		      ? data_off + cap
		      : size;
	for (off = data_off; off < end; off += len) {
		fix_rec(b, size, le32toh(h.seed), off, end, &len);
		if (!len)
			break;
	}
	if (size >= LOG_STATUS_REC_LEN)
		fix_rec(b, size, le32toh(h.seed), size - LOG_STATUS_REC_LEN, size, &len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	unsigned char *copy;

	if (fd < 0)
		fd = memfd_create("fuzz-log", 0);
	if (fd < 0 || size > (8u << 20))
		return 0;
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		return 0;
	consume(fd);

	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	fixup(copy, size);
	if (!ftruncate(fd, 0) && (!size || pwrite(fd, copy, size, 0) == (ssize_t)size))
		consume(fd);
	free(copy);
	return 0;
}
