// SPDX-License-Identifier: LGPL-2.1-or-later
/* Memory images in the log (format 4.0): the codec, hostile bodies, a log of stacks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "log/log.h"
#include "log/log_format.h"
#include "log/log_image.h"
#include "log/log_pack.h"

/* A stack event's shape: 8 bytes, 17 registers (sp the 8th), then the stack. */
#define PREFIX	 (8 + 17 * 8)
#define ADDR_OFF (8 + 7 * 8)
#define IMAGE_ID 26

static unsigned char *mkdata(uint64_t sp, uint32_t len, unsigned seed)
{
	unsigned char *d = malloc(PREFIX + len);
	uint64_t le = htole64(sp);

	assert_non_null(d);
	for (uint32_t i = 0; i < PREFIX; i++)
		d[i] = (unsigned char)(i * 7 + seed);
	memcpy(d + ADDR_OFF, &le, 8);
	/* the stack: a byte per address, the same at the same address */
	for (uint32_t i = 0; i < len; i++)
		d[PREFIX + i] = (unsigned char)((sp + i) * 2654435761u >> 13);
	return d;
}

static struct log_image image_new(void)
{
	struct log_image img = { .buf = malloc(LOG_MAX_DATA) };

	assert_non_null(img.buf);
	return img;
}

/* encode data against base, decode it back, check it; returns the body's length */
static size_t roundtrip(const struct log_image *base, const unsigned char *d, uint32_t len)
{
	unsigned char *body = malloc(LOG_IMAGE_BODY_MAX(len));
	struct log_image out = image_new();
	size_t n;

	n = log_image__encode(base, d, len, PREFIX, ADDR_OFF, body);
	assert_true(n <= LOG_IMAGE_BODY_MAX(len));
	assert_int_equal(log_image__decode(base, body, n, len, &out), 0);
	assert_int_equal(out.len, len);
	assert_memory_equal(out.buf, d, len);
	free(body);
	free(out.buf);
	return n;
}

static void test_codec(void **state)
{
	struct log_image base = image_new();
	unsigned char *a = mkdata(0x7ffd0000, 8192, 1), *b;

	(void)state;
	/* no base: the whole image, plus a few bytes */
	assert_true(roundtrip(NULL, a, PREFIX + 8192) <= PREFIX + 8192 + 16);
	log_image__set(&base, a, PREFIX + 8192, PREFIX, ADDR_OFF);
	/* the same stack again, its registers too: two copies */
	assert_true(roundtrip(&base, a, PREFIX + 8192) <= 16);
	/* another rax (the syscall's number): 8 bytes of the registers more */
	a[8] ^= 0x55;
	assert_true(roundtrip(&base, a, PREFIX + 8192) <= 8 + 24);
	a[8] ^= 0x55;
	/* 256 bytes deeper (a callee's frame) with one changed word above */
	b = mkdata(0x7ffd0000 - 256, 8192, 1);
	memset(b + PREFIX + 256 + 1000, 0xee, 8);
	assert_true(roundtrip(&base, b, PREFIX + 8192) <= PREFIX + 256 + 8 + 32);
	/* a byte changed at the very end, and an image shorter than the prefix's */
	b[PREFIX + 8191] ^= 1;
	assert_true(roundtrip(&base, b, PREFIX + 8192) <= PREFIX + 256 + 8 + 40);
	assert_int_equal(roundtrip(&base, b, PREFIX) > 0, 1);
	assert_true(roundtrip(&base, b, PREFIX + 5) <= PREFIX + 5 + 8);
	/* shallower: the image runs past the base's end, which it does not hold */
	free(b);
	b = mkdata(0x7ffd0000 + 4096, 8192, 1);
	assert_true(roundtrip(&base, b, PREFIX + 8192) <= PREFIX + 4096 + 16);
	/* nothing in common */
	free(b);
	b = mkdata(0x10000, 8192, 1);
	assert_true(roundtrip(&base, b, PREFIX + 8192) <= PREFIX + 8192 + 16);
	/* addresses at the top of the address space: no wrap to the base's */
	free(b);
	b = mkdata(UINT64_MAX - 100, 8192, 1);
	roundtrip(&base, b, PREFIX + 8192);
	log_image__set(&base, b, PREFIX + 8192, PREFIX, ADDR_OFF);
	roundtrip(&base, b, PREFIX + 8192);
	roundtrip(&base, a, PREFIX + 8192);
	free(a);
	free(b);
	free(base.buf);
}

/* a body by hand: prefix_len, addr_off, the prefix, then the pairs */
static size_t mkbody(unsigned char *out, uint64_t prefix, uint64_t addr_off, uint64_t addr,
		     int npairs, ...)
{
	size_t n = 0;
	va_list ap;

	n += log_varint__put(out + n, prefix);
	n += log_varint__put(out + n, addr_off);
	if (prefix) {
		/* the prefix as one literal pair */
		n += log_varint__put(out + n, 0);
		n += log_varint__put(out + n, prefix);
		memset(out + n, 0x5a, prefix);
		if (addr_off + 8 <= prefix) {
			uint64_t le = htole64(addr);

			memcpy(out + n + addr_off, &le, 8);
		}
		n += prefix;
	}
	va_start(ap, npairs);
	for (int i = 0; i < npairs; i++) {
		uint64_t copy = va_arg(ap, uint64_t), lit = va_arg(ap, uint64_t);

		n += log_varint__put(out + n, copy);
		n += log_varint__put(out + n, lit);
		memset(out + n, 0x33, lit);
		n += lit;
	}
	va_end(ap);
	return n;
}

static void test_hostile(void **state)
{
	static unsigned char body[4096];
	struct log_image base = image_new(), out = image_new();
	unsigned char *a = mkdata(0x1000, 256, 2);
	size_t n;

	(void)state;
	log_image__set(&base, a, PREFIX + 256, PREFIX, ADDR_OFF);
	/* well formed: copy 16 from the base, 8 literal */
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000, 1, (uint64_t)16, (uint64_t)8);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 24, &out), 0);
	assert_memory_equal(out.buf + PREFIX, a + PREFIX, 16);
	/* ... but not without a base, nor with an empty one */
	assert_int_equal(log_image__decode(NULL, body, n, PREFIX + 24, &out), -EINVAL);
	base.len = 0;
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 24, &out), -EINVAL);
	log_image__set(&base, a, PREFIX + 256, PREFIX, ADDR_OFF);
	/* short of data_len, past it, a body with bytes left over */
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 25, &out), -EINVAL);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 23, &out), -EINVAL);
	assert_int_equal(log_image__decode(&base, body, n + 1, PREFIX + 24, &out), -EINVAL);
	/* cut anywhere */
	for (size_t k = 0; k < n; k++)
		assert_int_equal(log_image__decode(&base, body, k, PREFIX + 24, &out), -EINVAL);
	/* copies the base does not hold: past its end, before its start */
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000 + 250, 1, (uint64_t)8, (uint64_t)0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 8, &out), -EINVAL);
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000 - 8, 1, (uint64_t)16, (uint64_t)0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 16, &out), -EINVAL);
	/* an address that wraps past the top onto the base's */
	n = mkbody(body, PREFIX, ADDR_OFF, UINT64_MAX - 7, 2, (uint64_t)0, (uint64_t)8, (uint64_t)8,
		   (uint64_t)0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 16, &out), -EINVAL);
	/* an empty pair (it would not advance), a huge copy or literal */
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000, 2, (uint64_t)0, (uint64_t)0, (uint64_t)8,
		   (uint64_t)0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 8, &out), -EINVAL);
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000, 1, (uint64_t)1 << 40, (uint64_t)0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 8, &out), -EINVAL);
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000, 1, (uint64_t)0, (uint64_t)100);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX + 8, &out), -EINVAL);
	/* a prefix too long for the data, or without room for the address */
	n = mkbody(body, PREFIX, ADDR_OFF, 0x1000, 0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX - 1, &out), -EINVAL);
	n = mkbody(body, 8, 4, 0, 0);
	assert_int_equal(log_image__decode(&base, body, n, 8, &out), -EINVAL);
	n = mkbody(body, 8, 0, 0x1000, 0);
	assert_int_equal(log_image__decode(&base, body, n, 8, &out), 0);
	/* the registers copied from the base's: only from a base whose
	 * prefix is as long */
	n = 0;
	n += log_varint__put(body + n, PREFIX);
	n += log_varint__put(body + n, ADDR_OFF);
	n += log_varint__put(body + n, PREFIX);
	n += log_varint__put(body + n, 0);
	assert_int_equal(log_image__decode(&base, body, n, PREFIX, &out), 0);
	assert_memory_equal(out.buf, a, PREFIX);
	assert_int_equal(log_image__decode(NULL, body, n, PREFIX, &out), -EINVAL);
	base.prefix = PREFIX - 8;
	assert_int_equal(log_image__decode(&base, body, n, PREFIX, &out), -EINVAL);
	free(a);
	free(base.buf);
	free(out.buf);
}

/* ------------------------------------------------------------------ in a log */

static int memfile(void)
{
	int fd = memfd_create("ptbpf-test-image", 0);

	assert_true(fd >= 0);
	return fd;
}

static void meta_init(struct log_meta *m, int policy, uint64_t max)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->name, "stacks");
	strcpy(m->genversion, "ptbpf test");
	m->log_max_size = max;
	m->log_full_policy = policy;
}

/* Event i: a stack of thread 100 + i % 3 at a depth that moves, a small one between. */
static void mkevent(uint32_t i, struct pt_event_hdr *h, unsigned char **d)
{
	uint64_t sp = 0x7ff000000000ull + 0x100000ull * (i % 3) - 64 * (i % 5);

	memset(h, 0, sizeof(*h));
	h->pid = 100;
	h->tid = 100 + (int32_t)(i % 3);
	h->ts = 1000 + i;
	if (i % 4 == 3) {
		h->id = 7;
		h->data_len = 16;
		*d = calloc(1, 16);
		(*d)[0] = (unsigned char)i;
		return;
	}
	h->id = IMAGE_ID;
	h->data_len = PREFIX + 6000 + (i % 7) * 8;
	*d = mkdata(sp, h->data_len - PREFIX, 3);
	/* a local that changes at each call */
	memcpy(*d + PREFIX + 300, &i, sizeof(i));
}

static void write_and_read(int policy, uint64_t max, uint32_t nev)
{
	struct log_writer_opts o = { .image_id = IMAGE_ID,
				     .image_prefix = PREFIX,
				     .image_addr_off = ADDR_OFF };
	struct log_writer *w;
	struct log_reader *r;
	struct log_file_hdr fh;
	struct pt_event_hdr h, e;
	struct log_meta m;
	uint64_t raw = 0;
	const void *data;
	unsigned char *d;
	uint32_t i, got = 0, first = 0;
	int fd = memfile();

	meta_init(&m, policy, max);
	assert_int_equal(log_writer__open(&w, fd, &m, &o), 0);
	for (i = 0; i < nev; i++) {
		mkevent(i, &h, &d);
		raw += h.data_len;
		assert_int_equal(log_writer__append(w, &h, d), 0);
		free(d);
		if (i % 50 == 49)
			assert_int_equal(log_writer__flush(w), 0);
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(pread(fd, &fh, sizeof(fh), 0), (ssize_t)sizeof(fh));
	assert_int_equal(le16toh(fh.major), 4);
	if (policy == LOG_POLICY_APPEND)
		/* each thread's stacks after its first in a record: what changed */
		assert_true((uint64_t)lseek(fd, 0, SEEK_END) < raw / 4);

	assert_int_equal(log_reader__open(&r, fd), 0);
	while (log_reader__next(r, &e, &data) == 1) {
		if (!got)
			first = (uint32_t)(e.ts - 1000);
		i = first + got++;
		mkevent(i, &h, &d);
		assert_int_equal(e.id, h.id);
		assert_int_equal(e.tid, h.tid);
		assert_int_equal(e.data_len, h.data_len);
		assert_memory_equal(data, d, h.data_len);
		free(d);
	}
	assert_int_equal(first + got, nev);
	if (policy == LOG_POLICY_APPEND)
		assert_int_equal(got, nev);
	log_reader__close(r);
	close(fd);
}

static void test_log_append(void **state)
{
	(void)state;
	write_and_read(LOG_POLICY_APPEND, 0, 600);
}

static void test_log_loop(void **state)
{
	(void)state;
	/* the ring wraps: the records left decode on their own */
	write_and_read(LOG_POLICY_LOOP, 256 << 10, 600);
}

/* A writer without an image id writes 3.0, its stacks whole. */
static void test_log_no_image(void **state)
{
	struct log_file_hdr fh;
	struct log_writer *w;
	struct pt_event_hdr h;
	struct log_meta m;
	unsigned char *d;
	int fd = memfile();

	(void)state;
	meta_init(&m, LOG_POLICY_APPEND, 0);
	assert_int_equal(log_writer__open(&w, fd, &m, NULL), 0);
	for (uint32_t i = 0; i < 30; i++) {
		mkevent(i, &h, &d);
		assert_int_equal(log_writer__append(w, &h, d), 0);
		free(d);
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	assert_int_equal(pread(fd, &fh, sizeof(fh), 0), (ssize_t)sizeof(fh));
	assert_int_equal(le16toh(fh.major), 3);
	assert_true(lseek(fd, 0, SEEK_END) > 22 * 6000);
	close(fd);
}

/* A fuzz seed (tests/fuzz/corpus/log) with LOG_CORPUS_OUT set: small stacks of 3 threads. */
static void test_corpus(void **state)
{
	struct log_writer_opts o = { .type_slots = 4,
				     .image_id = IMAGE_ID,
				     .image_prefix = PREFIX,
				     .image_addr_off = ADDR_OFF };
	const char *dir = getenv("LOG_CORPUS_OUT");
	unsigned char *d, buf[16384];
	struct log_writer *w;
	struct pt_event_hdr h;
	struct log_meta m;
	char path[4096];
	ssize_t n;
	FILE *f;
	int fd;

	(void)state;
	if (!dir)
		return;
	fd = memfile();
	meta_init(&m, LOG_POLICY_APPEND, 0);
	assert_int_equal(log_writer__open(&w, fd, &m, &o), 0);
	assert_int_equal(log_writer__add_type(w, IMAGE_ID, "user_stack"), 0);
	for (uint32_t i = 0; i < 12; i++) {
		mkevent(i, &h, &d);
		if (h.id == IMAGE_ID)
			h.data_len = PREFIX + 320 + (i % 5) * 8;
		assert_int_equal(log_writer__append(w, &h, d), 0);
		free(d);
	}
	assert_int_equal(log_writer__close(w, NULL), 0);
	n = pread(fd, buf, sizeof(buf), 0);
	assert_true(n > 0 && n < (ssize_t)sizeof(buf));
	snprintf(path, sizeof(path), "%s/v4-stacks.log", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec),	     cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_log_append),   cmocka_unit_test(test_log_loop),
		cmocka_unit_test(test_log_no_image), cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
