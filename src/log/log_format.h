/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * On-disk layout of a ptbpf trace log (see docs/log-format.md).
 * Every multi-byte field is little-endian; every struct here is packed by
 * construction (natural alignment, no holes) and checked by static asserts.
 * Internal to src/log (and the tests and the fuzz target).
 */
#ifndef PTBPF_LOG_FORMAT_H
#define PTBPF_LOG_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define LOG_MAGIC "PTBPFLOG"
/*
 * 4.0: 3.0 with memory images stored as their difference from the last
 * (log_image.h; written when the writer is given an image id); 3.0:
 * events packed in EVENTS records, an event's data without its zero tail
 * (the writer's default); 2.0: the same, data always whole; 1.0: an EVENT
 * record per event (LOG_WRITER_EVENT_RECORDS). All four are read.
 */
#define LOG_VERSION_MAJOR_V4 4
#define LOG_VERSION_MAJOR    3
#define LOG_VERSION_MAJOR_V2 2
#define LOG_VERSION_MAJOR_V1 1
#define LOG_VERSION_MINOR    2 /* 1: pidns_ino; 2: arch */

#define LOG_HDR_SIZE  4096u /* space reserved for the file header */
#define LOG_REC_ALIGN 8u
#define LOG_MAX_DATA  65536u /* max payload bytes of one event */
#define LOG_NAME_MAX  64u    /* names: at most 63 bytes + NUL */
#define LOG_MAX_TYPES 4096u  /* max TYPE records (type area slots) */

/* record types */
#define LOG_REC_EVENT  1
#define LOG_REC_TYPE   2
#define LOG_REC_WRAP   3
#define LOG_REC_STATUS 4
#define LOG_REC_EVENTS 5 /* 2.0 and up: packed events (log_pack.h) */

/* log_file_hdr.layout */
#define LOG_LAYOUT_LINEAR 0 /* APPEND, UNTIL_FULL: records from data_off to the end */
#define LOG_LAYOUT_RING	  1 /* LOOP: circular region [data_off, data_off + data_cap) */

struct log_file_hdr {
	char magic[8];	     /* "PTBPFLOG" */
	uint16_t major;	     /* incompatible changes */
	uint16_t minor;	     /* compatible additions (new record types, fields in reserved) */
	uint32_t hdr_size;   /* bytes covered by hdr_crc, >= sizeof v1.0 header, <= 4096 */
	uint32_t hdr_crc;    /* crc32c of hdr_size bytes with this field zero */
	uint32_t seed;	     /* random; seeds the crc of every record of this log */
	uint32_t layout;     /* LOG_LAYOUT_* */
	uint32_t type_slots; /* capacity of the type area in records */
	uint64_t type_off;   /* type area: TYPE records, [type_off, type_off + type_size) */
	uint64_t type_size;
	uint64_t data_off; /* first event record (ring: start of the ring) */
	uint64_t data_cap; /* ring capacity in bytes (multiple of 8); 0 for LINEAR */
	int64_t file_sec;  /* when the log file was created (CLOCK_REALTIME) */
	int64_t file_nsec;
	/* the stream attributes (struct log_meta) */
	char name[64];
	char genversion[64];
	int64_t create_sec;
	int64_t create_nsec;
	int64_t clockres_nsec;
	uint64_t stream_min_size;
	uint64_t max_data_size;
	uint64_t log_max_size;
	int32_t stream_full_policy;
	int32_t log_full_policy;
	int32_t inheritance;
	uint32_t arch;	    /* 3.2: struct log_meta's; 0 before (x86_64) */
	uint64_t pidns_ino; /* 3.1: struct log_meta's; 0 before */
	uint64_t reserved[7];
};
_Static_assert(sizeof(struct log_file_hdr) == 336, "log_file_hdr layout");

/* Every record starts with this header; the record is len bytes long. */
struct log_rec_hdr {
	uint32_t crc;  /* crc32c(seed, bytes [4, len) of the record) */
	uint32_t len;  /* total length: 24 + payload rounded up to 8 */
	uint16_t type; /* LOG_REC_* */
	uint16_t flags;
	uint32_t plen; /* payload length before padding */
	uint64_t seq;  /* consecutive per area (type area from 0, data from 0) */
};
_Static_assert(sizeof(struct log_rec_hdr) == 24, "log_rec_hdr layout");

/* EVENT payload: struct pt_event_hdr (48 bytes, little-endian) + data */
#define LOG_EVENT_HDR_SIZE 48u

/* EVENTS payload: this header, then count packed events (log_pack.h) */
struct log_events_hdr {
	uint64_t base_ts; /* ts of the first event */
	uint32_t count;	  /* events in the record, >= 1 */
	uint32_t reserved;
};
_Static_assert(sizeof(struct log_events_hdr) == 16, "log_events_hdr layout");
#define LOG_PACK_HDR_MAX 64u /* longest encoding of a packed event's header */

/* Largest record: an EVENTS record of one event of LOG_MAX_DATA bytes. */
#define LOG_MAX_REC (24u + 16u + LOG_PACK_HDR_MAX + LOG_MAX_DATA)

/* TYPE payload */
struct log_type_rec {
	uint32_t id;
	uint16_t name_len; /* 1..63, no NUL stored */
	uint16_t reserved;
	/* name bytes */
};
#define LOG_TYPE_REC_MAX 96u /* 24 + 8 + 63 rounded up to 8 */

/* STATUS payload (the trailer, the last record of the file) */
struct log_status_rec {
	int32_t v[7];
	uint32_t log_full;
	uint64_t events_written;
	uint64_t events_lost;
	uint64_t log_events;
	uint64_t log_dropped;
	uint64_t self_off; /* file offset of this record */
	uint64_t head_off; /* ring: offset of the write position in the ring */
	uint64_t head_seq; /* next data seq */
	uint32_t wrapped;  /* ring: the writer wrapped at least once */
	uint32_t reserved0;
	uint64_t reserved[4];
};
_Static_assert(sizeof(struct log_status_rec) == 128, "log_status_rec layout");
#define LOG_STATUS_REC_LEN (24u + 128u)

static inline uint64_t log_round8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* CRC-32C (Castagnoli), zlib-style chaining: crc = log_crc32c(crc, buf, len), start 0. */
uint32_t log_crc32c(uint32_t crc, const void *buf, size_t len);
/* tests only: 0 forces the portable tables, 1 restores the run-time choice */
void log_crc32c__set_hw(int on);

#endif
