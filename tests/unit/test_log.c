// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Log writer and reader: round trip, policies, crash tolerance, hostile input,
 * write errors, 64-bit offsets.
 *
 * Write errors: there is no small filesystem to fill in a unit test, so the
 * ENOSPC path is exercised with RLIMIT_FSIZE (SIGXFSZ ignored), which makes
 * write(2) fail the same way (EFBIG, after a short write) at a chosen size.
 *
 * With LOG_CORPUS_OUT=dir in the environment, the seed logs of the fuzz corpus
 * are written to dir (tests/fuzz/corpus/log holds the committed copy).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "log/log.h"
#include "log/log_format.h"
#include "log/log_pack.h"

#define EV_MAX_DATA 300

/*
 * Writer flags of the group running: 0 (format 3.0, packed EVENTS
 * records) or LOG_WRITER_EVENT_RECORDS (1.0, whose exact record sizes some
 * tests rely on).
 */
static uint32_t g_wflags;
#define PACKED (!(g_wflags & LOG_WRITER_EVENT_RECORDS))

/* Most bytes event i of ev_make() takes in a packed log, and fewest. */
#define PACK_EV_MAX(i) (LOG_PACK_HDR_MAX + ev_len(i))
#define PACK_EV_MIN(i) (4u + ev_stored(i))

static int memfile(void)
{
	int fd = memfd_create("ptbpf-test-log", 0);

	assert_true(fd >= 0);
	return fd;
}

static void meta_init(struct log_meta *m, int policy, uint64_t max)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "stream-name");
	strcpy(m->genversion, "ptbpf 0.1.0 test");
	m->create_sec = 1700000000;
	m->create_nsec = 123456789;
	m->clockres_nsec = 1;
	m->stream_min_size = 1 << 20;
	m->max_data_size = 4096;
	m->log_max_size = max;
	m->stream_full_policy = 7;
	m->log_full_policy = policy;
	m->inheritance = 1;
	m->arch = EM_AARCH64;
}

static uint32_t ev_len(uint64_t i)
{
	return (uint32_t)((i * 37) % EV_MAX_DATA);
}

static void ev_make(uint64_t i, struct pt_event_hdr *h, unsigned char *data)
{
	memset(h, 0, sizeof(*h));
	h->id = 1 + (uint32_t)(i % 5);
	h->trunc = (uint16_t)(i % 2);
	h->pid = 100 + (int32_t)i;
	h->tid = 200 + (int32_t)i;
	h->ts = 1000000000ull * 5 + i;
	h->prog_addr = 0x400000 + i;
	h->thread = 0x7f0000000000ull + i;
	h->data_len = ev_len(i);
	for (uint32_t j = 0; j < h->data_len; j++)
		data[j] = (unsigned char)(i * 7 + j);
	/* every 4th event ends in zeros, which format 3.0 leaves out */
	if (i % 4 == 3)
		memset(data + h->data_len / 2, 0, h->data_len - h->data_len / 2);
}

/* The bytes of event i's data that a packed log keeps. */
static uint32_t ev_stored(uint64_t i)
{
	struct pt_event_hdr h;
	unsigned char d[EV_MAX_DATA];

	ev_make(i, &h, d);
	return log_pack__stored_len(d, h.data_len);
}

static uint64_t rec_size(uint64_t i)
{
	return 24 + log_round8(48 + ev_len(i));
}

/* The event i as written; returns 1 if (h, data) is it. */
static int ev_is(uint64_t i, const struct pt_event_hdr *h, const void *data)
{
	struct pt_event_hdr e;
	unsigned char d[EV_MAX_DATA];

	ev_make(i, &e, d);
	return !memcmp(&e, h, sizeof(e)) && !memcmp(d, data, e.data_len);
}

/* Index of the event from its ts. */
static uint64_t ev_index(const struct pt_event_hdr *h)
{
	return h->ts - 1000000000ull * 5;
}

static struct log_writer *wopen(int fd, int policy, uint64_t max, const struct log_writer_opts *o)
{
	struct log_writer_opts opts = { 0 };
	struct log_writer *w;
	struct log_meta m;

	if (o)
		opts = *o;
	opts.flags |= g_wflags;
	meta_init(&m, policy, max);
	assert_int_equal(log_writer__open(&w, fd, &m, &opts), 0);
	return w;
}

static void add_types(struct log_writer *w)
{
	assert_int_equal(log_writer__add_type(w, 1, "posix/start"), 0);
	assert_int_equal(log_writer__add_type(w, 2, "posix/stop"), 0);
	assert_int_equal(log_writer__add_type(w, 3, "user/three"), 0);
	assert_int_equal(log_writer__add_type(w, 4, "user/four"), 0);
	assert_int_equal(log_writer__add_type(w, 5, "user/five"), 0);
}

static int append(struct log_writer *w, uint64_t i)
{
	struct pt_event_hdr h;
	unsigned char d[EV_MAX_DATA] = { 0 };

	ev_make(i, &h, d);
	return log_writer__append(w, &h, d);
}

/* Read everything; check the events are first, first+1, ...; return the count. */
static uint64_t read_seq(struct log_reader *r, uint64_t first)
{
	struct pt_event_hdr h;
	const void *d;
	uint64_t n = 0;
	int rc;

	while ((rc = log_reader__next(r, &h, &d)) == 1) {
		assert_true(ev_is(first + n, &h, d));
		n++;
	}
	assert_int_equal(rc, 0);
	return n;
}

static int ropen(int fd, struct log_reader **r)
{
	return log_reader__open(r, fd);
}

/* ------------------------------------------------------------------ crc */

static void test_crc32c(void **state)
{
	static unsigned char buf[16000];

	assert_int_equal(log_crc32c(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(log_crc32c(0, "", 0), 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 131 + 7 + (i >> 8) * 17);
	/* short lengths, and long ones (three streams of 1 KiB, then the rest) */
	for (size_t off = 0; off < 9; off++) {
		for (size_t len = 0; len < 15900; len += len < 300 ? 7 : 509) {
			uint32_t hw, sw, chained;

			log_crc32c__set_hw(1);
			hw = log_crc32c(0x1234, buf + off, len);
			chained = log_crc32c(log_crc32c(0x1234, buf + off, len / 2),
					     buf + off + len / 2, len - len / 2);
			log_crc32c__set_hw(0);
			sw = log_crc32c(0x1234, buf + off, len);
			log_crc32c__set_hw(1);
			assert_int_equal(hw, sw);
			assert_int_equal(hw, chained);
		}
	}
}

/* ------------------------------------------------------------------ round trip */

static void test_round_trip(void **state)
{
	int fd = memfile();
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, NULL);
	struct log_status st, got;
	struct log_reader *r;
	const struct log_meta *m;
	struct pt_event_hdr h;
	const void *d;
	const char *name;
	size_t it = 0;
	uint32_t id;
	unsigned char *big;
	int i;

	add_types(w);
	for (i = 0; i < 1000; i++)
		assert_int_equal(append(w, (uint64_t)i), 0);
	/* a type appearing late, and a too-big event (cut to LOG_MAX_DATA) */
	assert_int_equal(log_writer__add_type(w, 77, "user/late"), 0);
	assert_int_equal(log_writer__add_type(w, 77, "user/late"), 0);
	big = calloc(1, LOG_MAX_DATA + 100);
	memset(&h, 0, sizeof(h));
	h.id = 77;
	h.data_len = LOG_MAX_DATA + 100;
	big[LOG_MAX_DATA - 1] = 0xab;
	assert_int_equal(log_writer__append(w, &h, big), 0);
	assert_int_equal(log_writer__events(w), 1001);
	memset(&st, 0, sizeof(st));
	for (i = 0; i < 7; i++)
		st.v[i] = i * 11 - 3;
	st.events_written = 1001;
	st.events_lost = 42;
	assert_int_equal(log_writer__close(w, &st), 0);

	assert_int_equal(ropen(fd, &r), 0);
	m = log_reader__meta(r);
	assert_string_equal(m->name, "stream-name");
	assert_string_equal(m->genversion, "ptbpf 0.1.0 test");
	assert_int_equal(m->create_sec, 1700000000);
	assert_int_equal(m->create_nsec, 123456789);
	assert_int_equal(m->clockres_nsec, 1);
	assert_int_equal(m->stream_min_size, 1 << 20);
	assert_int_equal(m->max_data_size, 4096);
	assert_int_equal(m->stream_full_policy, 7);
	assert_int_equal(m->log_full_policy, LOG_POLICY_APPEND);
	assert_int_equal(m->inheritance, 1);
	assert_int_equal(m->arch, EM_AARCH64);
	assert_true(m->file_sec > 1600000000);

	assert_int_equal(log_reader__type_count(r), 6);
	assert_int_equal(log_reader__type_name(r, 3, &name), 0);
	assert_string_equal(name, "user/three");
	assert_int_equal(log_reader__type_name(r, 77, &name), 0);
	assert_string_equal(name, "user/late");
	assert_int_equal(log_reader__type_name(r, 6, &name), -ENOENT);
	for (i = 0; log_reader__type_next(r, &it, &id, &name) == 1; i++)
		assert_int_equal(id, i < 5 ? (uint32_t)i + 1 : 77);
	assert_int_equal(i, 6);

	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < 1000; i++) {
			assert_int_equal(log_reader__next(r, &h, &d), 1);
			assert_true(ev_is((uint64_t)i, &h, d));
		}
		assert_int_equal(log_reader__next(r, &h, &d), 1);
		assert_int_equal(h.id, 77);
		assert_int_equal(h.data_len, LOG_MAX_DATA);
		assert_int_equal(h.trunc, PT_TRUNCATED_RECORD);
		assert_int_equal(((const unsigned char *)d)[LOG_MAX_DATA - 1], 0xab);
		assert_int_equal(log_reader__next(r, &h, &d), 0);
		assert_int_equal(log_reader__next(r, &h, &d), 0);
		assert_int_equal(log_reader__rewind(r), 0);
	}
	assert_int_equal(log_reader__status(r, &got), 0);
	assert_memory_equal(got.v, st.v, sizeof(st.v));
	assert_int_equal(got.events_written, 1001);
	assert_int_equal(got.events_lost, 42);
	assert_int_equal(got.log_events, 1001);
	assert_int_equal(got.log_dropped, 0);
	assert_int_equal(got.log_full, 0);
	log_reader__close(r);
	free(big);
	close(fd);
}

/* A log without an architecture (before 3.2: the header's word 0) is x86_64's. */
static void test_arch_absent(void **state)
{
	int fd = memfile();
	struct log_writer *w;
	struct log_reader *r;
	struct log_meta m;

	meta_init(&m, LOG_POLICY_APPEND, 0);
	m.arch = 0;
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), 0);
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(log_reader__meta(r)->arch, EM_X86_64);
	log_reader__close(r);
	close(fd);
}

static void test_types(void **state)
{
	int fd = memfile();
	struct log_writer_opts o = { .type_slots = 4 };
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
	char longname[LOG_NAME_MAX + 1];
	struct log_reader *r;
	const char *name;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[LOG_NAME_MAX] = 0;
	assert_int_equal(log_writer__add_type(w, 1, longname), -EINVAL);
	longname[LOG_NAME_MAX - 1] = 0; /* 63 bytes: fits */
	assert_int_equal(log_writer__add_type(w, 1, longname), 0);
	assert_int_equal(log_writer__add_type(w, 1, ""), -EINVAL);
	assert_int_equal(log_writer__add_type(w, 5, "old"), 0);
	assert_int_equal(log_writer__add_type(w, 5, "new"), 0);
	assert_int_equal(log_writer__add_type(w, 0xffffffffu, "max"), 0);
	assert_int_equal(log_writer__add_type(w, 6, "one too many"), -ENOSPC);
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(log_reader__type_count(r), 3);
	assert_int_equal(log_reader__type_name(r, 1, &name), 0);
	assert_string_equal(name, longname);
	assert_int_equal(log_reader__type_name(r, 5, &name), 0);
	assert_string_equal(name, "new");
	assert_int_equal(log_reader__type_name(r, 0xffffffffu, &name), 0);
	assert_string_equal(name, "max");
	log_reader__close(r);
	close(fd);
}

/* Names in one batch: as one by one (a repeat is a no-op, a new name for an
 * id replaces the old), nothing when one is bad, -ENOSPC past the slots. */
static void test_types_batch(void **state)
{
	int fd = memfile();
	struct log_writer_opts o = { .type_slots = 5 };
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
	const struct log_type_name bad[] = { { 9, "fine" }, { 10, "" } };
	const struct log_type_name batch[] = {
		{ 1, "one" }, { 2, "two" }, { 1, "one" }, { 3, "three" }, { 2, "deux" },
	};
	const struct log_type_name more[] = { { 3, "three" }, { 4, "four" }, { 5, "five" } };
	struct log_reader *r;
	const char *name;

	(void)state;
	assert_int_equal(log_writer__add_types(w, bad, 2), -EINVAL);
	assert_int_equal(log_writer__add_types(w, NULL, 1), -EINVAL);
	assert_int_equal(log_writer__add_types(w, NULL, 0), 0);
	assert_int_equal(log_writer__add_types(w, batch, 5), 0); /* slots: 1 2 3 2 */
	/* one slot left: 3 is a no-op, 4 fits, 5 does not */
	assert_int_equal(log_writer__add_types(w, more, 3), -ENOSPC);
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(log_reader__type_count(r), 4);
	assert_int_equal(log_reader__type_name(r, 1, &name), 0);
	assert_string_equal(name, "one");
	assert_int_equal(log_reader__type_name(r, 2, &name), 0);
	assert_string_equal(name, "deux");
	assert_int_equal(log_reader__type_name(r, 3, &name), 0);
	assert_string_equal(name, "three");
	assert_int_equal(log_reader__type_name(r, 4, &name), 0);
	assert_string_equal(name, "four");
	assert_int_equal(log_reader__type_name(r, 5, &name), -ENOENT);
	assert_int_equal(log_reader__type_name(r, 9, &name), -ENOENT);
	log_reader__close(r);
	close(fd);
}

/* ------------------------------------------------------------------ policies */

static void test_until_full(void **state)
{
	int fd = memfile();
	struct log_writer *w = wopen(fd, LOG_POLICY_UNTIL_FULL, 3000, NULL);
	struct log_reader *r;
	struct log_status st;
	uint64_t used = 0, n = 0, i;
	int rc;

	for (i = 0; i < 100; i++) {
		rc = append(w, i);
		if (rc == 0) {
			assert_int_equal(n, i); /* no event accepted after the first refusal */
			used += PACKED ? 0 : rec_size(i);
			n++;
		} else {
			assert_int_equal(rc, 1);
		}
	}
	/* 128 bytes stay free for the last event (append_last) */
	if (PACKED) {
		/* the refused event would have needed at most a new record */
		used = log_writer__bytes(w);
		assert_true(used + 24 + log_round8(16 + PACK_EV_MAX(EV_MAX_DATA)) > 3000 - 128);
	} else {
		assert_true(used + rec_size(n) > 3000 - 128);
	}
	assert_true(used <= 3000 - 128);
	assert_true(n > 5);
	assert_int_equal(log_writer__full(w), 1);
	assert_int_equal(log_writer__dropped(w), 100 - n);
	assert_int_equal(log_writer__bytes(w), used);
	{
		struct pt_event_hdr h = { .id = 3, .ts = 1000 + n, .data_len = 0 };

		assert_int_equal(log_writer__append_last(w, &h, NULL), 0);
		assert_int_equal(log_writer__append(w, &h, NULL), 1); /* still full */
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	{
		struct pt_event_hdr h;
		const void *d;

		for (i = 0; i < n; i++) {
			assert_int_equal(log_reader__next(r, &h, &d), 1);
			assert_true(ev_is(i, &h, d));
		}
		/* the last event, in the reserved room */
		assert_int_equal(log_reader__next(r, &h, &d), 1);
		assert_int_equal(h.id, 3);
		assert_int_equal(log_reader__next(r, &h, &d), 0);
	}
	assert_int_equal(log_reader__status(r, &st), 0);
	assert_int_equal(st.log_full, 1);
	assert_int_equal(st.log_dropped, 100 - n + 1);
	log_reader__close(r);
	close(fd);
}

static void test_append_unlimited(void **state)
{
	int fd = memfile();
	struct log_writer_opts o = { .buf_size = 1 }; /* the minimum buffer: many writes */
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 100, &o);
	struct log_reader *r;
	uint64_t i;

	for (i = 0; i < 20000; i++)
		assert_int_equal(append(w, i), 0);
	assert_int_equal(log_writer__full(w), 0);
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(read_seq(r, 0), 20000);
	log_reader__close(r);
	close(fd);
}

/*
 * LOOP: after n events, the log holds the newest ones: the reader returns
 * first..n-1 in order, and (all laps considered) at least cap - 2 * max record
 * bytes of them.
 */
static void check_loop(int fd, uint64_t cap, uint64_t n, int closed)
{
	struct log_reader *r;
	struct pt_event_hdr h;
	const void *d;
	uint64_t first = UINT64_MAX, cnt = 0, bytes = 0, most = 0;
	int rc;

	assert_int_equal(ropen(fd, &r), 0);
	for (int pass = 0; pass < 2; pass++) {
		uint64_t c = 0;

		while ((rc = log_reader__next(r, &h, &d)) == 1) {
			uint64_t i = ev_index(&h);

			if (c == 0) {
				if (pass == 0)
					first = i;
				assert_int_equal(i, first);
			}
			assert_int_equal(i, first + c);
			assert_true(ev_is(i, &h, d));
			if (pass == 0 && PACKED) {
				bytes += PACK_EV_MIN(i);
				most += PACK_EV_MAX(i);
			} else if (pass == 0) {
				bytes += rec_size(i);
			}
			c++;
		}
		assert_int_equal(rc, 0);
		if (pass == 0)
			cnt = c;
		assert_int_equal(c, cnt);
		log_reader__rewind(r);
	}
	if (n) {
		assert_int_equal(first + cnt, n);
		assert_true(bytes <= cap);
		if (PACKED) {
			/*
			 * Lost: the record being overwritten, the WRAP (less than
			 * a record); a record holds up to cap / 16 (at least 128)
			 * bytes of events, or one event.
			 */
			uint64_t rec_max = 24 + (cap / 16 > 128 ? cap / 16 : 128) + 8 +
					   PACK_EV_MAX(EV_MAX_DATA);

			assert_true(most + 2 * rec_max > cap || first == 0);
		} else {
			/* the oldest lap may have lost up to one record to the WRAP */
			assert_true(bytes + 2 * rec_size(0) +
						    2 * (24 + log_round8(48 + EV_MAX_DATA)) >
					    cap ||
				    first == 0);
		}
	} else {
		assert_int_equal(cnt, 0);
	}
	if (!closed) {
		struct log_status st;

		assert_int_equal(log_reader__status(r, &st), -ENOENT);
	}
	log_reader__close(r);
}

static void test_loop(void **state)
{
	const uint64_t cap = 2000;
	struct log_status st;
	struct log_reader *r;

	for (uint64_t n = 0; n < 120; n += 1 + n / 10) {
		for (int closed = 0; closed < 2; closed++) {
			int fd = memfile();
			struct log_writer *w = wopen(fd, LOG_POLICY_LOOP, cap, NULL);

			add_types(w);
			for (uint64_t i = 0; i < n; i++)
				assert_int_equal(append(w, i), 0);
			if (closed) {
				assert_int_equal(log_writer__close(w, NULL), 0);
			} else {
				assert_int_equal(log_writer__flush(w), 0);
				log_writer__free(w);
			}
			check_loop(fd, cap, n, closed);
			if (closed && n > 50) {
				assert_int_equal(ropen(fd, &r), 0);
				assert_int_equal(log_reader__status(r, &st), 0);
				assert_int_equal(st.log_full, 1);
				assert_int_equal(st.log_events, n);
				assert_int_equal(log_reader__type_count(r), 5);
				log_reader__close(r);
			}
			close(fd);
		}
	}
}

static void test_loop_too_big(void **state)
{
	int fd = memfile();
	struct log_writer *w = wopen(fd, LOG_POLICY_LOOP, 200, NULL);
	struct pt_event_hdr h;
	unsigned char d[300];
	struct log_reader *r;
	const void *p;

	memset(d, 0x5a, sizeof(d)); /* no zero tail to leave out */
	memset(&h, 0, sizeof(h));
	h.data_len = 200;
	assert_int_equal(log_writer__append(w, &h, d), 1);
	assert_int_equal(log_writer__dropped(w), 1);
	for (uint64_t i = 0; i < 30; i++) {
		struct pt_event_hdr e;

		ev_make(i, &e, d);
		e.data_len = 0;
		assert_int_equal(log_writer__append(w, &e, d), 0);
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	if (PACKED) {
		/* the newest events, in order, up to the last */
		uint64_t n = 0, prev = 0;

		while (log_reader__next(r, &h, &p) == 1) {
			assert_true(n == 0 || ev_index(&h) == prev + 1);
			prev = ev_index(&h);
			n++;
		}
		assert_true(n >= 2);
		assert_int_equal(prev, 29);
	} else {
		/* 200 bytes hold two 72-byte records */
		assert_int_equal(log_reader__next(r, &h, &p), 1);
		assert_int_equal(ev_index(&h), 28);
	}
	log_reader__close(r);
	close(fd);
}

/* one event of index i with a record of exactly size bytes */
static int append_sized(struct log_writer *w, uint64_t i, uint32_t size)
{
	struct pt_event_hdr h;
	unsigned char d[EV_MAX_DATA * 2];

	ev_make(i, &h, d);
	h.data_len = size - 72;
	return log_writer__append(w, &h, d);
}

/*
 * LOOP: records of a lap older than the previous one must never come back.
 * Lap A: 13 x 72 bytes (0..864 + WRAP at 936); lap B: 3 x 264 (WRAP at 792);
 * lap C: 264 + 8 x 72 = 840. Lap A's record at 864 is intact on disk unless
 * lap B's WRAP covered it: the reader must return lap C only.
 */
static void test_loop_stale_lap(void **state)
{
	for (int closed = 0; closed < 2; closed++) {
		int fd = memfile();
		struct log_writer *w = wopen(fd, LOG_POLICY_LOOP, 1000, NULL);
		struct log_reader *r;
		struct pt_event_hdr h;
		const void *d;
		uint64_t i = 0, want = 16;

		for (; i < 13; i++)
			assert_int_equal(append_sized(w, i, 72), 0);
		for (; i < 17; i++)
			assert_int_equal(append_sized(w, i, 264), 0);
		for (; i < 25; i++)
			assert_int_equal(append_sized(w, i, 72), 0);
		if (closed) {
			assert_int_equal(log_writer__close(w, NULL), 0);
		} else {
			assert_int_equal(log_writer__flush(w), 0);
			log_writer__free(w);
		}
		assert_int_equal(ropen(fd, &r), 0);
		while (log_reader__next(r, &h, &d) == 1)
			assert_int_equal(ev_index(&h), want++);
		assert_int_equal(want, 25);
		log_reader__close(r);
		close(fd);
	}
}

/* A valid record in the wrong place (replayed, or left by a torn write) ends the log. */
static void test_replayed_record(void **state)
{
	int fd = memfile();
	struct log_writer_opts o = { .type_slots = 1 };
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
	uint64_t data_off = LOG_HDR_SIZE + LOG_TYPE_REC_MAX;
	unsigned char rec[80];
	struct log_reader *r;

	for (uint64_t i = 0; i < 10; i++)
		assert_int_equal(append_sized(w, i, 80), 0);
	assert_int_equal(log_writer__close(w, NULL), 0);
	/* record 2 copied over record 3 */
	assert_int_equal(pread(fd, rec, 80, (off_t)(data_off + 2 * 80)), 80);
	assert_int_equal(pwrite(fd, rec, 80, (off_t)(data_off + 3 * 80)), 80);
	assert_int_equal(ropen(fd, &r), 0);
	{
		struct pt_event_hdr h;
		const void *d;
		uint64_t n = 0;

		while (log_reader__next(r, &h, &d) == 1)
			assert_int_equal(ev_index(&h), n++);
		assert_int_equal(n, 3);
	}
	log_reader__close(r);
	close(fd);
}

static void test_bad_args(void **state)
{
	struct log_writer *w;
	struct log_reader *r;
	struct log_meta m;
	char path[] = "/tmp/ptbpf-test-logXXXXXX";
	int fd, pfd[2];

	meta_init(&m, LOG_POLICY_APPEND, 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	fd = open(path, O_WRONLY | O_APPEND);
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), -EINVAL);
	close(fd);
	fd = open(path, O_RDONLY);
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), -EBADF);
	close(fd);
	assert_int_equal(log_writer__open(&w, -1, &m, NULL), -EBADF);
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(log_writer__open(&w, pfd[1], &m, NULL), -EINVAL);
	assert_int_equal(log_reader__open(&r, pfd[0]), -EINVAL);
	close(pfd[0]);
	close(pfd[1]);
	fd = open(path, O_RDWR);
	m.log_full_policy = 99;
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), -EINVAL);
	m.log_full_policy = LOG_POLICY_LOOP;
	m.log_max_size = 10; /* too small to hold any record */
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), -EINVAL);
	/* an empty file is not a log */
	assert_int_equal(log_reader__open(&r, fd), -EINVAL);
	close(fd);
	unlink(path);
}

static void patch_hdr(int fd, size_t off, const void *val, size_t len, int fix_crc)
{
	struct log_file_hdr h;

	assert_int_equal(pread(fd, &h, sizeof(h), 0), sizeof(h));
	memcpy((char *)&h + off, val, len);
	if (fix_crc) {
		h.hdr_crc = 0;
		h.hdr_crc = log_crc32c(0, &h, sizeof(h));
	}
	assert_int_equal(pwrite(fd, &h, sizeof(h), 0), sizeof(h));
}

static void test_bad_header(void **state)
{
	struct log_reader *r;
	uint16_t v;
	int fd;

	for (int c = 0; c < 5; c++) {
		struct log_writer *w;

		fd = memfile();
		w = wopen(fd, LOG_POLICY_APPEND, 0, NULL);
		assert_int_equal(append(w, 1), 0);
		assert_int_equal(log_writer__close(w, NULL), 0);
		assert_int_equal(ropen(fd, &r), 0);
		log_reader__close(r);
		switch (c) {
		case 0: /* bad magic, crc fixed */
			patch_hdr(fd, 0, "PTBPFLOX", 8, 1);
			break;
		case 1: /* unknown major (1.0 to 4.0 are read) */
			v = 5;
			patch_hdr(fd, offsetof(struct log_file_hdr, major), &v, 2, 1);
			break;
		case 2: /* bad crc */
			patch_hdr(fd, offsetof(struct log_file_hdr, name), "X", 1, 0);
			break;
		case 3: /* not a log at all */
			assert_int_equal(pwrite(fd, "hello world\n", 12, 0), 12);
			assert_int_equal(ftruncate(fd, 12), 0);
			break;
		case 4: /* bad layout */
			v = 7;
			patch_hdr(fd, offsetof(struct log_file_hdr, layout), &v, 2, 1);
			break;
		}
		assert_int_equal(ropen(fd, &r), -EINVAL);
		close(fd);
	}
	/* a newer minor version is read */
	{
		struct log_writer *w;

		fd = memfile();
		w = wopen(fd, LOG_POLICY_APPEND, 0, NULL);
		assert_int_equal(append(w, 0), 0);
		assert_int_equal(log_writer__close(w, NULL), 0);
		v = 9;
		patch_hdr(fd, offsetof(struct log_file_hdr, minor), &v, 2, 1);
		assert_int_equal(ropen(fd, &r), 0);
		assert_int_equal(read_seq(r, 0), 1);
		log_reader__close(r);
		close(fd);
	}
}

/* ------------------------------------------------------------------ crash tolerance */

static void test_no_trailer(void **state)
{
	int fd = memfile();
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, NULL);
	struct log_reader *r;
	struct log_status st;
	const char *name;

	add_types(w);
	for (uint64_t i = 0; i < 500; i++)
		assert_int_equal(append(w, i), 0);
	assert_int_equal(log_writer__flush(w), 0);
	for (uint64_t i = 500; i < 600; i++)
		assert_int_equal(append(w, i), 0);
	log_writer__free(w); /* died: the last 100 were never written */
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(log_reader__status(r, &st), -ENOENT);
	assert_int_equal(log_reader__type_name(r, 4, &name), 0);
	assert_string_equal(name, "user/four");
	assert_int_equal(read_seq(r, 0), 500);
	log_reader__close(r);
	close(fd);
}

/* A child writes and flushes, and is SIGKILLed while writing more. */
static void test_sigkill(void **state)
{
	int fd = memfile(), pfd[2];
	struct log_reader *r;
	uint64_t flushed = 0, n;
	pid_t pid;
	int st;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, NULL);

		add_types(w);
		for (uint64_t i = 0;; i++) {
			if (append(w, i) != 0)
				_exit(1);
			if (i % 1000 == 999) {
				if (log_writer__flush(w))
					_exit(1);
				if (write(pfd[1], &i, sizeof(i)) != sizeof(i))
					_exit(1);
			}
		}
	}
	close(pfd[1]);
	for (int k = 0; k < 50; k++)
		assert_int_equal(read(pfd[0], &flushed, sizeof(flushed)), sizeof(flushed));
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(pfd[0]);
	assert_int_equal(ropen(fd, &r), 0);
	n = read_seq(r, 0);
	assert_true(n >= flushed + 1);
	assert_int_equal(log_reader__type_count(r), 5);
	log_reader__close(r);
	close(fd);
}

/* ------------------------------------------------------------------ hostile input */

static size_t file_read(int fd, unsigned char **buf)
{
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	*buf = malloc((size_t)st.st_size + 1);
	assert_int_equal(pread(fd, *buf, (size_t)st.st_size, 0), st.st_size);
	return (size_t)st.st_size;
}

static int file_of(const unsigned char *buf, size_t len)
{
	int fd = memfile();

	assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
	return fd;
}

static int small_log(int policy, uint64_t n, uint64_t max, int closed)
{
	struct log_writer_opts o = { .type_slots = 3 };
	int fd = memfile();
	struct log_writer *w = wopen(fd, policy, max, &o);

	assert_int_equal(log_writer__add_type(w, 1, "t1"), 0);
	assert_int_equal(log_writer__add_type(w, 2, "t2"), 0);
	for (uint64_t i = 0; i < n; i++)
		assert_true(append(w, i) >= 0);
	if (closed) {
		struct log_status st = { .v = { 1, 2, 3, 4, 5, 6, 7 } };

		assert_int_equal(log_writer__close(w, &st), 0);
	} else {
		assert_int_equal(log_writer__flush(w), 0);
		log_writer__free(w);
	}
	return fd;
}

/* Open and read all; linear logs must give a prefix, rings any in-order run. */
static int read_any(int fd, int linear, uint64_t *count)
{
	struct log_reader *r;
	struct pt_event_hdr h;
	struct log_status st;
	const void *d;
	const char *name;
	uint64_t n = 0, prev = 0;
	size_t it = 0;
	uint32_t id;
	int rc;

	rc = ropen(fd, &r);
	if (rc)
		return rc;
	while (log_reader__type_next(r, &it, &id, &name) == 1)
		assert_true(strlen(name) < LOG_NAME_MAX);
	log_reader__status(r, &st);
	while ((rc = log_reader__next(r, &h, &d)) == 1) {
		uint64_t i = ev_index(&h);

		if (linear) {
			assert_int_equal(i, n);
			assert_true(ev_is(i, &h, d));
		} else if (n) {
			assert_true(i > prev);
		}
		prev = i;
		n++;
	}
	assert_int_equal(rc, 0);
	log_reader__close(r);
	*count = n;
	return 0;
}

static void test_truncate_everywhere(void **state)
{
	static const struct {
		int policy;
		uint64_t n, max;
		int closed;
	} cases[] = {
		{ LOG_POLICY_APPEND, 20, 0, 1 },
		{ LOG_POLICY_UNTIL_FULL, 20, 1000, 1 },
		{ LOG_POLICY_LOOP, 40, 1500, 1 },
		{ LOG_POLICY_LOOP, 40, 1500, 0 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int fd = small_log(cases[c].policy, cases[c].n, cases[c].max, cases[c].closed);
		int linear = cases[c].policy != LOG_POLICY_LOOP;
		unsigned char *buf;
		size_t len = file_read(fd, &buf);
		uint64_t full, n, last = 0;
		int opened = 0;

		close(fd);
		assert_int_equal(read_any(fd = file_of(buf, len), linear, &full), 0);
		close(fd);
		assert_true(full > 0);
		for (size_t cut = 0; cut <= len; cut++) {
			fd = file_of(buf, cut);
			if (read_any(fd, linear, &n) == 0) {
				opened++;
				if (linear)
					assert_true(n >= last); /* more file, never fewer events */
				last = n;
			}
			close(fd);
		}
		assert_int_equal(last, full);
		assert_true(opened > 0);
		free(buf);
	}
}

static void test_byte_flips(void **state)
{
	int fds[2] = { small_log(LOG_POLICY_APPEND, 30, 0, 1),
		       small_log(LOG_POLICY_LOOP, 60, 2000, 1) };

	srandom(12345);
	for (int k = 0; k < 2; k++) {
		unsigned char *buf;
		size_t len = file_read(fds[k], &buf);
		uint64_t n;

		close(fds[k]);
		for (int iter = 0; iter < 3000; iter++) {
			unsigned char *copy = malloc(len);
			int fd, flips = 1 + (int)(random() % 3);

			memcpy(copy, buf, len);
			for (int f = 0; f < flips; f++) {
				size_t pos = (size_t)random() % len;

				/* aim at the interesting parts more often than the zero padding */
				if (iter % 2 && len > LOG_HDR_SIZE)
					pos = (size_t)random() % 336;
				else if (iter % 3 == 0)
					pos = len - 1 -
					      (size_t)random() % (len < 4000 ? len : 4000);
				copy[pos] ^= (unsigned char)(1 + random() % 255);
			}
			fd = file_of(copy, len);
			read_any(fd, k == 0, &n);
			close(fd);
			free(copy);
		}
		free(buf);
	}
}

/*
 * A log whose event i has timestamp ts (the others as ev_make()'s), flushed
 * before it when flush_before: in a packed log that event then starts an
 * EVENTS record, whose base_ts it is.
 */
static int log_with_ts(uint64_t n, uint64_t i, uint64_t ts, int flush_before)
{
	struct log_writer_opts o = { .type_slots = 5 }; /* a small file: a fuzz seed */
	int fd = memfile();
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
	unsigned char d[EV_MAX_DATA];
	struct pt_event_hdr h;

	add_types(w);
	for (uint64_t k = 0; k < n; k++) {
		ev_make(k, &h, d);
		if (k == i) {
			if (flush_before)
				assert_int_equal(log_writer__flush(w), 0);
			h.ts = ts;
		}
		assert_int_equal(log_writer__append(w, &h, d), 0);
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	return fd;
}

/*
 * A timestamp of 2^63 ns or more (beyond struct timespec's range as
 * nanoseconds in an int64_t, 292 years) is damage: the reader gives the
 * events before it and stops there.
 */
static void test_hostile_ts(void **state)
{
	static const uint64_t bad[] = { 1ull << 63, UINT64_MAX };
	struct log_reader *r;

	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		for (int flush = 0; flush < 2; flush++) {
			for (uint64_t at = 0; at < 8; at += 3) {
				int fd = log_with_ts(8, at, bad[b], flush);

				assert_int_equal(ropen(fd, &r), 0);
				assert_int_equal(read_seq(r, 0), at);
				log_reader__close(r);
				close(fd);
			}
		}
	}
	/* the last timestamp below 2^63 is one */
	{
		int fd = log_with_ts(1, 0, INT64_MAX, 0);
		struct pt_event_hdr h;
		const void *d;

		assert_int_equal(ropen(fd, &r), 0);
		assert_int_equal(log_reader__next(r, &h, &d), 1);
		assert_int_equal(h.ts, INT64_MAX);
		assert_int_equal(log_reader__next(r, &h, &d), 0);
		log_reader__close(r);
		close(fd);
	}
}

/* ------------------------------------------------------------------ write errors */

static void test_write_error(void **state)
{
	char path[] = "/tmp/ptbpf-test-logXXXXXX";
	struct log_writer_opts o = { .type_slots = 8 };
	struct rlimit old, lim;
	struct log_writer *w;
	struct log_reader *r;
	uint64_t data_off = LOG_HDR_SIZE + 8 * LOG_TYPE_REC_MAX, bytes = 0, fit = 0, i;
	int fd, rc;

	signal(SIGXFSZ, SIG_IGN);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
	assert_int_equal(log_writer__add_type(w, 1, "t1"), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = data_off + 5000;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 200; i++) {
		assert_int_equal(append(w, i), 0);
		bytes += rec_size(i);
		if (bytes <= 5000)
			fit = i + 1;
	}
	rc = log_writer__flush(w);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_true(rc == -EFBIG || rc == -ENOSPC);
	/* what reached the file is readable, the torn record is ignored */
	assert_int_equal(ropen(fd, &r), 0);
	if (PACKED)
		assert_true(read_seq(r, 0) < 200); /* whole records only, in order */
	else
		assert_int_equal(read_seq(r, 0), fit);
	log_reader__close(r);
	/* space again: the flush completes what was left */
	assert_int_equal(log_writer__flush(w), 0);
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(read_seq(r, 0), 200);
	log_reader__close(r);
	/* a full disk on the trailer: the events stay readable */
	lim.rlim_cur = data_off + log_writer__bytes(w) + 10;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	rc = log_writer__close(w, NULL);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_true(rc == -EFBIG || rc == -ENOSPC);
	assert_int_equal(ropen(fd, &r), 0);
	assert_int_equal(read_seq(r, 0), 200);
	log_reader__close(r);
	close(fd);

	/* a LOOP log bigger than the file size limit fails at open */
	strcpy(path, "/tmp/ptbpf-test-logXXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	{
		struct log_meta m;

		meta_init(&m, LOG_POLICY_LOOP, 1ull << 40);
		lim.rlim_cur = 1 << 20;
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
		rc = log_writer__open(&w, fd, &m, NULL);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
		assert_int_equal(rc, -ENOSPC);
	}
	close(fd);
}

/* ------------------------------------------------------------------ writeback */

/* The writer's calls of sync_file_range (linked with --wrap). */
static struct {
	int fd, calls, bad_flags;
} g_sfr = { .fd = -1 };

int __real_sync_file_range(int fd, off_t off, off_t n, unsigned int flags);
int __wrap_sync_file_range(int fd, off_t off, off_t n, unsigned int flags);

int __wrap_sync_file_range(int fd, off_t off, off_t n, unsigned int flags)
{
	if (fd == g_sfr.fd) {
		g_sfr.calls++;
		if (flags != SYNC_FILE_RANGE_WRITE || off || n)
			g_sfr.bad_flags++; /* it must start writeback, never wait */
	}
	return __real_sync_file_range(fd, off, n, flags);
}

/*
 * Writeback starts every 8 MiB written, without waiting for it, and not
 * before: the disk works while events are recorded.
 */
static void test_writeback(void **state)
{
	char path[] = "/tmp/ptbpf-test-logXXXXXX";
	struct log_writer *w;
	struct log_reader *r;
	uint64_t i = 0, chunk = 8u << 20;

	(void)state;
	memset(&g_sfr, 0, sizeof(g_sfr));
	g_sfr.fd = mkstemp(path);
	assert_true(g_sfr.fd >= 0);
	unlink(path);
	w = wopen(g_sfr.fd, LOG_POLICY_APPEND, 0, NULL);
	add_types(w);
	/* flushed every 1000 events, as the stream's flusher does */
	while (log_writer__bytes(w) < chunk - (1u << 20)) {
		assert_int_equal(append(w, i++), 0);
		if (!(i % 1000))
			assert_int_equal(log_writer__flush(w), 0);
	}
	assert_int_equal(log_writer__flush(w), 0);
	assert_int_equal(g_sfr.calls, 0);
	while (log_writer__bytes(w) < 3 * chunk + (1u << 20)) {
		assert_int_equal(append(w, i++), 0);
		if (!(i % 1000))
			assert_int_equal(log_writer__flush(w), 0);
	}
	assert_int_equal(log_writer__flush(w), 0);
	assert_int_equal(g_sfr.calls, 3);
	assert_int_equal(g_sfr.bad_flags, 0);
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(g_sfr.fd, &r), 0);
	assert_int_equal(read_seq(r, 0), i);
	log_reader__close(r);
	close(g_sfr.fd);
	g_sfr.fd = -1;
}

/*
 * An APPEND log's blocks are allocated ahead of its writes, and what is
 * left past its end is freed at close; LOG_WRITER_NO_PREALLOC goes without.
 */
static void test_prealloc(void **state)
{
	for (int pre = 1; pre >= 0; pre--) {
		struct log_writer_opts o = { .flags = pre ? 0 : LOG_WRITER_NO_PREALLOC };
		int fd = memfile();
		struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
		struct log_reader *r;
		struct stat sb;
		uint64_t i = 0;

		add_types(w);
		while (log_writer__bytes(w) < (40u << 20)) {
			assert_int_equal(append(w, i++), 0);
			if (!(i % 1000))
				assert_int_equal(log_writer__flush(w), 0);
		}
		assert_int_equal(log_writer__flush(w), 0);
		assert_int_equal(fstat(fd, &sb), 0);
		if (pre) /* 16-32 MiB ahead of the end */
			assert_true((uint64_t)sb.st_blocks * 512 >=
				    (uint64_t)sb.st_size + (16u << 20));
		else
			assert_true((uint64_t)sb.st_blocks * 512 <= (uint64_t)sb.st_size + 4096);
		assert_int_equal(log_writer__close(w, NULL), 0);
		assert_int_equal(fstat(fd, &sb), 0);
		assert_true((uint64_t)sb.st_blocks * 512 <= (uint64_t)sb.st_size + 4096);
		assert_int_equal(ropen(fd, &r), 0);
		assert_int_equal(read_seq(r, 0), i);
		log_reader__close(r);
		close(fd);
	}
}

/* ------------------------------------------------------------------ 64-bit offsets */

static void test_large_offsets(void **state)
{
	char path[] = "/tmp/ptbpf-test-logXXXXXX";
	struct log_writer_opts o = { .data_off = (5ull << 30) + 8,
				     .flags = LOG_WRITER_NO_PREALLOC };
	struct log_reader *r;
	struct stat st;
	uint64_t events;

	for (int policy = LOG_POLICY_APPEND; policy <= LOG_POLICY_LOOP; policy++) {
		int fd = mkstemp(path);
		struct log_writer *w;

		assert_true(fd >= 0);
		unlink(path);
		strcpy(path, "/tmp/ptbpf-test-logXXXXXX");
		w = wopen(fd, policy, 100000, &o);
		add_types(w);
		for (uint64_t i = 0; i < 3000; i++)
			assert_true(append(w, i) >= 0);
		events = log_writer__events(w);
		assert_int_equal(log_writer__close(w, NULL), 0);
		assert_int_equal(fstat(fd, &st), 0);
		assert_true((uint64_t)st.st_size > (5ull << 30));
		assert_int_equal(ropen(fd, &r), 0);
		if (policy == LOG_POLICY_APPEND)
			assert_int_equal(read_seq(r, 0), 3000);
		else if (policy == LOG_POLICY_UNTIL_FULL)
			assert_int_equal(read_seq(r, 0), events);
		log_reader__close(r);
		if (policy == LOG_POLICY_LOOP)
			check_loop(fd, 100000, 3000, 1);
		close(fd);
	}
}

/* ------------------------------------------------------------------ packed events */

/* Event i of a mix of 10 thread contexts, irregular times and addresses. */
static void pk_make(uint64_t i, struct pt_event_hdr *h, unsigned char *data)
{
	uint64_t t = (i * 7 + i / 3) % 10;

	memset(h, 0, sizeof(*h));
	h->id = (uint32_t)(i % 3 == 0 ? i * 977 : 40 + i % 4);
	h->trunc = i % 11 == 0 ? PT_TRUNCATED_RECORD : PT_NOT_TRUNCATED;
	h->pid = t == 9 ? INT32_MIN : (int32_t)(1000 + t / 2);
	h->tid = t == 8 ? -1 : (int32_t)(2000 + t);
	h->thread = t == 7 ? UINT64_MAX : 0x7f0000001000ull * (t + 1);
	h->prog_addr = i % 5 == 0 ? 0x401000 + i : 0x7f1234567890ull + t;
	/* mostly rising, sometimes back in time, once near the last timestamp
	 * the reader takes (2^63 - 1: deltas of 10-byte varints both ways) */
	h->ts = i == 50 ? INT64_MAX - 5 : 1000000 + i * 333 - (i % 13 == 0 ? 5000 : 0);
	h->data_len = (uint32_t)(i % 23);
	for (uint32_t j = 0; j < h->data_len; j++)
		data[j] = (unsigned char)(i + j * 3);
}

static void test_pack_codec(void **state)
{
	enum { N = 300 };
	static unsigned char buf[N * (LOG_PACK_HDR_MAX + 32)];
	struct log_pack wp = { 0 }, rp = { 0 };
	struct pt_event_hdr h, out;
	const unsigned char *pos, *data;
	unsigned char d[32];
	size_t len = 0, first_len = 0;
	uint32_t slot;

	log_pack__reset(&wp, 999);
	for (uint64_t i = 0; i < N; i++) {
		size_t n;

		pk_make(i, &h, d);
		n = log_pack__encode(&wp, &h, h.trunc, h.data_len, h.data_len, false, buf + len,
				     &slot);
		assert_true(n >= 4 && n <= LOG_PACK_HDR_MAX);
		memcpy(buf + len + n, d, h.data_len);
		log_pack__commit(&wp, slot, &h);
		len += n + h.data_len;
		if (i == 0)
			first_len = len;
	}
	log_pack__reset(&rp, 999);
	pos = buf;
	for (uint64_t i = 0; i < N; i++) {
		pk_make(i, &h, d);
		assert_int_equal(log_pack__decode(&rp, &pos, buf + len, &out, &data), 0);
		assert_memory_equal(&out, &h, sizeof(h));
		assert_memory_equal(data, d, h.data_len);
	}
	assert_ptr_equal(pos, buf + len);
	assert_int_equal(log_pack__decode(&rp, &pos, buf + len, &out, &data), -EINVAL);

	/* every cut of the first event fails cleanly */
	for (size_t cut = 0; cut < first_len; cut++) {
		log_pack__reset(&rp, 999);
		pos = buf;
		assert_int_equal(log_pack__decode(&rp, &pos, buf + cut, &out, &data), -EINVAL);
		assert_ptr_equal(pos, buf);
	}
	{
		/*
		 * reserved tag bits; a slot never filled; an 11-byte varint; data
		 * past the end; zero tails: as long as the data, on data over
		 * LOG_PACK_ZEXT_MAX, stored past the end
		 */
		static const unsigned char bad[][16] = {
			{ 0x40, 0, 1, 0, 0 },
			{ 0x27, 0, 0, 0, 0, 1, 0, 4, 4, 1, 2, 3, 4 },
			{ 0x27, 0, 0, 0, 0, 1, 0, 0x81, 0x08, 1, 5 },
			{ 0x27, 0, 0, 0, 0, 1, 0, 10, 9, 1 },
			{ 0x03, 0, 1, 0, 0 },
			{ 0x17, 0, 0, 0, 0, 1, 0, 0 },
			{ 0x07, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0 },
			{ 0x07, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0 },
			{ 0x07, 0, 0, 0, 0, 1, 0, 9, 1, 2 },
		};

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			log_pack__reset(&rp, 0);
			pos = bad[k];
			assert_int_equal(log_pack__decode(&rp, &pos, bad[k] + 16, &out, &data),
					 -EINVAL);
		}
	}
}

/* Format 3.0: data without its zero tail, put back by the reader. */
static void test_pack_zero_tail(void **state)
{
	static const uint32_t lens[] = { 0, 1, 3, 7, 8, 9, 16, 72, 100, 584, 1024, 1025, 4000 };
	static unsigned char buf[64 * 1024];
	static unsigned char d[4096];
	const unsigned char one[] = { 0x27, 0, 0, 0, 0, 1, 0, 6, 2, 0xaa, 0xbb };
	const unsigned char *pos, *data;
	struct pt_event_hdr h, out;
	struct log_pack wp = { 0 }, rp = { 0 };
	size_t len = 0;
	uint32_t slot;

	/* what the writer keeps */
	memset(d, 0, sizeof(d));
	assert_int_equal(log_pack__stored_len(d, 0), 0);
	assert_int_equal(log_pack__stored_len(d, 72), 0);
	assert_int_equal(log_pack__stored_len(d, 1024), 0);
	assert_int_equal(log_pack__stored_len(d, 1025), 1025); /* too long to leave out */
	d[0] = 110; /* a getppid's entry: its number, no arguments */
	assert_int_equal(log_pack__stored_len(d, 66), 1);
	assert_int_equal(log_pack__stored_len(d, 72), 1);
	d[13] = 1;
	assert_int_equal(log_pack__stored_len(d, 72), 14);
	assert_int_equal(log_pack__stored_len(d, 16), 14 + 2); /* 2 zeros: not worth it */
	assert_int_equal(log_pack__stored_len(d, 17), 14);
	/* every place of the last non-zero byte, every alignment of the data */
	for (uint32_t off = 0; off < 8; off++) {
		for (uint32_t n = 0; n <= 200; n++) {
			for (uint32_t last = 0; last <= n; last++) { /* last: bytes up to it */
				uint32_t want = n - last > 2 ? last : n;

				memset(d, 0, 256);
				for (uint32_t j = 0; j < last; j++)
					d[off + j] = (unsigned char)(j * 7 % 5);
				if (last)
					d[off + last - 1] = (unsigned char)(0x80 >> (last % 8));
				assert_int_equal(log_pack__stored_len(d + off, n), want);
			}
		}
	}

	/* round trip: tails of every length of data with zeros inside too */
	log_pack__reset(&wp, 5);
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		for (uint32_t keep = 0; keep <= lens[k]; keep += keep < 20 ? 1 : 97) {
			uint32_t stored, n;

			memset(&h, 0, sizeof(h));
			h.id = 7;
			h.pid = h.tid = 42;
			h.ts = 1000 + len;
			h.data_len = lens[k];
			memset(d, 0, sizeof(d));
			for (uint32_t j = 0; j < keep; j++)
				d[j] = (unsigned char)(j % 3 ? j : 0);
			stored = log_pack__stored_len(d, h.data_len);
			assert_true(stored <= h.data_len);
			if (stored < h.data_len)
				assert_true(h.data_len - stored > 2);
			if (len + LOG_PACK_HDR_MAX + stored > sizeof(buf))
				break;
			n = (uint32_t)log_pack__encode(&wp, &h, 0, h.data_len, stored, false,
						       buf + len, &slot);
			memcpy(buf + len + n, d, stored);
			log_pack__commit(&wp, slot, &h);
			len += n + stored;
		}
	}
	log_pack__reset(&rp, 5);
	pos = buf;
	while (pos < buf + len) {
		assert_int_equal(log_pack__decode(&rp, &pos, buf + len, &out, &data), 0);
		memset(d, 0, sizeof(d));
		assert_true(out.data_len <= sizeof(d));
		/* the data as written: a prefix as made above, then zeros */
		for (uint32_t j = 0; j < out.data_len; j++)
			if (data[j])
				assert_int_equal(data[j], (unsigned char)j);
	}
	assert_ptr_equal(pos, buf + len);

	/* one by hand: 6 bytes, 2 of them stored */
	log_pack__reset(&rp, 0);
	pos = one;
	assert_int_equal(log_pack__decode(&rp, &pos, one + sizeof(one), &out, &data), 0);
	assert_ptr_equal(pos, one + sizeof(one));
	assert_int_equal(out.data_len, 6);
	assert_memory_equal(data, "\xaa\xbb\0\0\0\0", 6);
}

/* Many threads through writer and reader: context slots are reused alike. */
static void test_pack_threads(void **state)
{
	int fd = memfile();
	struct log_writer_opts o = { .buf_size = 1 };
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, &o);
	struct log_reader *r;
	struct pt_event_hdr h, e;
	const void *data;
	unsigned char d[32];
	uint64_t i;

	for (i = 0; i < 20000; i++) {
		pk_make(i, &h, d);
		assert_int_equal(log_writer__append(w, &h, d), 0);
		if (i % 4999 == 0)
			assert_int_equal(log_writer__flush(w), 0);
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(ropen(fd, &r), 0);
	for (i = 0; log_reader__next(r, &e, &data) == 1; i++) {
		pk_make(i, &h, d);
		assert_memory_equal(&e, &h, sizeof(h));
		assert_memory_equal(data, d, h.data_len);
	}
	assert_int_equal(i, 20000);
	log_reader__close(r);
	close(fd);
}

/*
 * What packing is for: two threads alternating 16-byte events (a syscall
 * exit) take at most 24 bytes each, against 88 in format 1.0.
 */
static void test_pack_size(void **state)
{
	int fd = memfile();
	struct log_writer *w = wopen(fd, LOG_POLICY_APPEND, 0, NULL);
	struct pt_event_hdr h;
	unsigned char d[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	unsigned char entry[66] = { 110 }; /* a getppid's entry: its number, no arguments */
	const uint64_t n = 100000;
	uint64_t before;

	for (uint64_t i = 0; i < 2 * n; i++) {
		memset(&h, 0, sizeof(h));
		h.id = 1100;
		h.pid = 4242;
		h.tid = 4242 + (int32_t)(i % 2);
		h.thread = 0x7f0000000000ull + (i % 2) * 0x1000;
		h.prog_addr = 0x7f00000abcdeull;
		h.ts = 5000000000ull + i * 300;
		h.data_len = i < n ? sizeof(d) : sizeof(entry);
		assert_int_equal(log_writer__append(w, &h, i < n ? d : entry), 0);
		if (i == n - 1) {
			assert_int_equal(log_writer__flush(w), 0);
			before = log_writer__bytes(w);
			/* 16 bytes of data, 4-6 of header and the record's share */
			assert_true(before <= 24 * n);
			assert_true(before >= 20 * n);
		}
	}
	assert_int_equal(log_writer__flush(w), 0);
	/* tag, ts, id (2), data_len, stored, 1 byte of data */
	assert_true(log_writer__bytes(w) - before <= 9 * n);
	assert_true(log_writer__bytes(w) - before >= 8 * n);
	log_writer__free(w);
	close(fd);
}

/* ------------------------------------------------------------------ corpus */

/* Writes the log of fd to dir as a seed named after the format and name; closes fd. */
static void write_seed(const char *dir, const char *name, int fd)
{
	unsigned char *buf;
	size_t len = file_read(fd, &buf);
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s", dir, PACKED ? "v3-" : "v1-", name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
	free(buf);
	close(fd);
}

static void write_corpus(const char *dir)
{
	static const struct {
		const char *name;
		int policy;
		uint64_t n, max;
		int closed;
	} c[] = {
		{ "append-closed.log", LOG_POLICY_APPEND, 6, 0, 1 },
		{ "append-crashed.log", LOG_POLICY_APPEND, 5, 0, 0 },
		{ "until-full.log", LOG_POLICY_UNTIL_FULL, 20, 600, 1 },
		{ "loop-closed.log", LOG_POLICY_LOOP, 30, 900, 1 },
		{ "loop-crashed.log", LOG_POLICY_LOOP, 30, 900, 0 },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++)
		write_seed(dir, c[k].name, small_log(c[k].policy, c[k].n, c[k].max, c[k].closed));
	/* events at 2^63 ns, the first timestamp the reader refuses, and at
	 * the last of all */
	write_seed(dir, "ts-2p63.log", log_with_ts(8, 5, 1ull << 63, 0));
	write_seed(dir, "ts-max.log", log_with_ts(8, 5, UINT64_MAX, 0));
}

static void test_corpus(void **state)
{
	const char *dir = getenv("LOG_CORPUS_OUT");

	if (dir)
		write_corpus(dir);
}

static int setup_v1(void **state)
{
	g_wflags = LOG_WRITER_EVENT_RECORDS;
	return 0;
}

static int setup_packed(void **state)
{
	g_wflags = 0;
	return 0;
}

int main(void)
{
	/* format 1.0: every test, some with exact record sizes */
	const struct CMUnitTest v1[] = {
		cmocka_unit_test(test_crc32c),		 cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_arch_absent),	 cmocka_unit_test(test_types),
		cmocka_unit_test(test_types_batch),	 cmocka_unit_test(test_until_full),
		cmocka_unit_test(test_append_unlimited), cmocka_unit_test(test_loop),
		cmocka_unit_test(test_loop_too_big),	 cmocka_unit_test(test_loop_stale_lap),
		cmocka_unit_test(test_replayed_record),	 cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_bad_header),	 cmocka_unit_test(test_no_trailer),
		cmocka_unit_test(test_sigkill),		 cmocka_unit_test(test_truncate_everywhere),
		cmocka_unit_test(test_byte_flips),	 cmocka_unit_test(test_hostile_ts),
		cmocka_unit_test(test_write_error),	 cmocka_unit_test(test_writeback),
		cmocka_unit_test(test_large_offsets),	 cmocka_unit_test(test_corpus),
	};
	/* format 3.0, the default: the same without the 1.0 layouts, and packing */
	const struct CMUnitTest v3[] = {
		cmocka_unit_test(test_pack_codec),	    cmocka_unit_test(test_pack_zero_tail),
		cmocka_unit_test(test_pack_threads),	    cmocka_unit_test(test_pack_size),
		cmocka_unit_test(test_round_trip),	    cmocka_unit_test(test_types),
		cmocka_unit_test(test_types_batch),	    cmocka_unit_test(test_until_full),
		cmocka_unit_test(test_append_unlimited),    cmocka_unit_test(test_loop),
		cmocka_unit_test(test_loop_too_big),	    cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_no_trailer),	    cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_truncate_everywhere), cmocka_unit_test(test_byte_flips),
		cmocka_unit_test(test_hostile_ts),	    cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_writeback),	    cmocka_unit_test(test_prealloc),
		cmocka_unit_test(test_large_offsets),	    cmocka_unit_test(test_corpus),
	};
	int failed = cmocka_run_group_tests_name("log format 1.0", v1, setup_v1, NULL);

	return failed + cmocka_run_group_tests_name("log format 3.0", v3, setup_packed, NULL);
}
