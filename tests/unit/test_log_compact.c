// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Log compaction at close: a small linear log ends right after the type
 * slots it uses and reads back whole; a big one, a LOOP log and a log whose
 * data offset the caller chose keep their layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "log/log.h"
#include "log/log_format.h"

#define NTYPES 7

static void meta_init(struct log_meta *m, int policy, uint64_t max)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "compact");
	strcpy(m->genversion, "ptbpf test");
	m->stream_min_size = 1 << 20;
	m->max_data_size = 4096;
	m->log_max_size = max;
	m->log_full_policy = policy;
}

static void ev_make(uint64_t i, struct pt_event_hdr *h, unsigned char *data)
{
	memset(h, 0, sizeof(*h));
	h->id = 1 + (uint32_t)(i % NTYPES);
	h->pid = 100;
	h->tid = 100 + (int32_t)(i % 3);
	h->ts = 1000000000ull + i * 1000;
	h->data_len = (uint32_t)(i % 40);
	for (uint32_t j = 0; j < h->data_len; j++)
		data[j] = (unsigned char)(i + j + 1);
}

/* A log of n events on fd, closed; its file size. */
static off_t write_log(int fd, int policy, uint64_t max, const struct log_writer_opts *o,
		       uint64_t n)
{
	struct log_writer *w;
	struct log_meta m;
	struct log_status st = { .events_written = n, .events_lost = 3 };
	struct pt_event_hdr h;
	unsigned char d[64];
	char name[32];
	struct stat sb;

	meta_init(&m, policy, max);
	assert_int_equal(log_writer__open(&w, fd, &m, o), 0);
	for (int t = 1; t <= NTYPES; t++) {
		snprintf(name, sizeof(name), "type_%d", t);
		assert_int_equal(log_writer__add_type(w, (uint32_t)t, name), 0);
	}
	for (uint64_t i = 0; i < n; i++) {
		ev_make(i, &h, d);
		assert_int_equal(log_writer__append(w, &h, d), 0);
		if (i % 1000 == 999)
			assert_int_equal(log_writer__flush(w), 0);
	}
	assert_int_equal(log_writer__close(w, &st), 0);
	assert_int_equal(fstat(fd, &sb), 0);
	return sb.st_size;
}

/* Everything reads back from rfd: n events in order, the types, the trailer. */
static void check_log(int rfd, uint64_t n)
{
	struct log_reader *r;
	struct log_status st;
	struct pt_event_hdr h, want;
	unsigned char d[64];
	const void *data;
	const char *name;
	char expect[32];
	uint64_t i;

	assert_int_equal(log_reader__open(&r, rfd), 0);
	assert_int_equal(log_reader__type_count(r), NTYPES);
	for (int t = 1; t <= NTYPES; t++) {
		snprintf(expect, sizeof(expect), "type_%d", t);
		assert_int_equal(log_reader__type_name(r, (uint32_t)t, &name), 0);
		assert_string_equal(name, expect);
	}
	for (i = 0; log_reader__next(r, &h, &data) == 1; i++) {
		ev_make(i, &want, d);
		assert_int_equal(h.id, want.id);
		assert_int_equal(h.ts, want.ts);
		assert_int_equal(h.data_len, want.data_len);
		assert_memory_equal(data, d, want.data_len);
	}
	assert_int_equal(i, n);
	assert_int_equal(log_reader__status(r, &st), 0);
	assert_int_equal(st.events_written, n);
	assert_int_equal(st.events_lost, 3);
	assert_int_equal(st.log_events, n);
	log_reader__close(r);
}

static uint64_t hdr_data_off(int fd)
{
	struct log_file_hdr h;

	assert_int_equal(pread(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
	return h.data_off;
}

static void test_small_append(void **state)
{
	int fd = memfd_create("compact", 0);
	off_t size = write_log(fd, LOG_POLICY_APPEND, 0, NULL, 300);

	(void)state;
	/* header, the slots used, a few KiB of events, the trailer */
	assert_int_equal(hdr_data_off(fd), LOG_HDR_SIZE + NTYPES * LOG_TYPE_REC_MAX);
	assert_true(size < 16 * 1024);
	check_log(fd, 300);
	close(fd);
}

static void test_small_until_full(void **state)
{
	int fd = memfd_create("compact", 0);
	off_t size = write_log(fd, LOG_POLICY_UNTIL_FULL, 1 << 20, NULL, 300);

	(void)state;
	assert_true(size < 16 * 1024);
	check_log(fd, 300);
	close(fd);
}

/* ptbpf record opens its log write-only: nothing is read back */
static void test_write_only_fd(void **state)
{
	char path[] = "/tmp/test_log_compact.XXXXXX";
	int fd = mkstemp(path), wfd, rfd;
	off_t size;

	(void)state;
	assert_true(fd >= 0);
	wfd = open(path, O_WRONLY);
	assert_true(wfd >= 0);
	size = write_log(wfd, LOG_POLICY_APPEND, 0, NULL, 300);
	assert_true(size < 16 * 1024);
	rfd = open(path, O_RDONLY);
	assert_true(rfd >= 0);
	check_log(rfd, 300);
	close(rfd);
	close(wfd);
	close(fd);
	unlink(path);
}

static void test_big_kept(void **state)
{
	int fd = memfd_create("compact", 0);
	uint64_t n = 100000; /* about 3 MiB of events */
	off_t size = write_log(fd, LOG_POLICY_APPEND, 0, NULL, n);

	(void)state;
	assert_int_equal(hdr_data_off(fd), LOG_HDR_SIZE + LOG_MAX_TYPES * LOG_TYPE_REC_MAX);
	assert_true(size > 1 << 20);
	check_log(fd, n);
	close(fd);
}

static void test_loop_kept(void **state)
{
	int fd = memfd_create("compact", 0);
	off_t size = write_log(fd, LOG_POLICY_LOOP, 1 << 20, NULL, 300);

	(void)state;
	assert_true(size > 1 << 20);
	assert_int_equal(hdr_data_off(fd), LOG_HDR_SIZE + LOG_MAX_TYPES * LOG_TYPE_REC_MAX);
	close(fd);
}

static void test_chosen_offset_kept(void **state)
{
	struct log_writer_opts o = { .data_off = 1 << 20 };
	int fd = memfd_create("compact", 0);

	(void)state;
	write_log(fd, LOG_POLICY_APPEND, 0, &o, 300);
	assert_int_equal(hdr_data_off(fd), 1 << 20);
	check_log(fd, 300);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_append),  cmocka_unit_test(test_small_until_full),
		cmocka_unit_test(test_write_only_fd), cmocka_unit_test(test_big_kept),
		cmocka_unit_test(test_loop_kept),     cmocka_unit_test(test_chosen_offset_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
