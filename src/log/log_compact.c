// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A small linear log made small on disk at close: its data moved down to
 * right after the type slots in use (see docs/log-format.md, "Compaction").
 */
#define _FILE_OFFSET_BITS 64
#include "log/log_compact.h"

#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Copied while the data is at most this long: a copy this size costs the
 * writer nothing it would notice, and a bigger log gains little from the
 * type area's few hundred KiB.
 */
#define COMPACT_DATA_MAX (1u << 20)
/* Not worth a rewrite for less. */
#define COMPACT_MIN_GAIN (16u << 10)

void log_compact__init(struct log_compact *c, const void *hdr)
{
	memcpy(c->hdr, hdr, sizeof(c->hdr));
	c->data = malloc(COMPACT_DATA_MAX);
	c->len = 0;
}

void log_compact__add(struct log_compact *c, const void *p, size_t n)
{
	if (!c->data)
		return;
	if (n > COMPACT_DATA_MAX - c->len) {
		log_compact__fini(c);
		return;
	}
	memcpy(c->data + c->len, p, n);
	c->len += n;
}

void log_compact__fini(struct log_compact *c)
{
	free(c->data);
	c->data = NULL;
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

int log_compact__linear(struct log_compact *c, int fd, const unsigned char *rec,
			uint32_t used_slots)
{
	unsigned char tr[LOG_STATUS_REC_LEN];
	struct log_file_hdr h;
	struct log_status_rec s;
	uint64_t data_off, new_off, delta;
	uint32_t crc;
	int err;

	if (!c->data)
		return 0;
	memcpy(&h, c->hdr, sizeof(h));
	data_off = le64toh(h.data_off);
	new_off = le64toh(h.type_off) + (uint64_t)used_slots * LOG_TYPE_REC_MAX;
	if (le32toh(h.layout) != LOG_LAYOUT_LINEAR || le32toh(h.hdr_size) != sizeof(h) ||
	    new_off > data_off)
		return 0;
	delta = data_off - new_off;
	/*
	 * Only where the new copy lands on unused type slots alone: until the
	 * header says where the data now is, the log as it was stays whole.
	 */
	if (delta < COMPACT_MIN_GAIN || c->len + LOG_STATUS_REC_LEN > delta)
		return 0;
	/* the trailer gives its own offset and, linear, the write position */
	memcpy(tr, rec, sizeof(tr));
	memcpy(&s, tr + sizeof(struct log_rec_hdr), sizeof(s));
	if (le64toh(s.self_off) != data_off + c->len)
		return 0;
	s.self_off = htole64(new_off + c->len);
	s.head_off = htole64(le64toh(s.head_off) - delta);
	memcpy(tr + sizeof(struct log_rec_hdr), &s, sizeof(s));
	crc = htole32(log_crc32c(le32toh(h.seed), tr + 4, sizeof(tr) - 4));
	memcpy(tr, &crc, 4);
	err = pwrite_all(fd, c->data, c->len, new_off);
	if (!err)
		err = pwrite_all(fd, tr, sizeof(tr), new_off + c->len);
	if (err)
		return err;
	h.type_slots = htole32(used_slots);
	h.type_size = htole64((uint64_t)used_slots * LOG_TYPE_REC_MAX);
	h.data_off = htole64(new_off);
	h.hdr_crc = 0;
	h.hdr_crc = htole32(log_crc32c(0, &h, sizeof(h)));
	err = pwrite_all(fd, &h, sizeof(h), 0);
	if (err)
		return err;
	if (ftruncate(fd, (off_t)(new_off + c->len + sizeof(tr))) < 0)
		return -errno;
	return 0;
}
