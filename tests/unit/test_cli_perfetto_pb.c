// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * convert --to perfetto's protobuf encoder (varints, fixed64, nested
 * messages whose length takes more than a byte) and its table of interned
 * names (iids per namespace, each name written once, the cap, the reset).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "convert/perfetto_int.h"

/* Reads a varint at *p (advanced); the protobuf spec's decoding. */
static uint64_t get_varint(const uint8_t **p)
{
	uint64_t v = 0;

	for (int shift = 0;; shift += 7) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80)
			return v;
	}
}

static void test_varints(void **state)
{
	static const struct {
		uint64_t v;
		const char *bytes;
		size_t n;
	} t[] = {
		{ 0, "\x00", 1 },
		{ 1, "\x01", 1 },
		{ 127, "\x7f", 1 },
		{ 128, "\x80\x01", 2 },
		{ 300, "\xac\x02", 2 },
		{ UINT64_MAX, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10 },
	};
	uint8_t b[10];
	struct sbuf s = { 0 };
	const uint8_t *p;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(pb_varint(b, t[i].v), t[i].n);
		assert_memory_equal(b, t[i].bytes, t[i].n);
	}
	/* field 8 (tag 0x40), an int64 below 0: ten bytes, two's complement */
	pb_int(&s, 8, -2);
	assert_int_equal(s.len, 11);
	p = (const uint8_t *)s.s;
	assert_int_equal(get_varint(&p), 8 << 3);
	assert_int_equal((int64_t)get_varint(&p), -2);
	sb_free(&s);
}

static void test_fixed64_and_bytes(void **state)
{
	struct sbuf s = { 0 };

	(void)state;
	pb_fixed64(&s, 47, 0x0102030405060708ULL);
	/* tag 47 << 3 | 1 = 377: 0xf9 0x02, then little-endian */
	assert_int_equal(s.len, 10);
	assert_memory_equal(s.s, "\xf9\x02\x08\x07\x06\x05\x04\x03\x02\x01", 10);
	sb_reset(&s);
	pb_str(&s, 2, "ab");
	assert_memory_equal(s.s,
			    "\x12\x02"
			    "ab",
			    4);
	sb_free(&s);
}

/* A message of n bytes nested in one: the length's varint grows, the
 * content moves after it unchanged. */
static void test_nested_lengths(void **state)
{
	static const size_t lens[] = { 0, 1, 127, 128, 300, 16383, 16384, 70000 };
	struct sbuf s = { 0 };
	char *content = malloc(70000);

	(void)state;
	assert_non_null(content);
	for (size_t i = 0; i < 70000; i++)
		content[i] = (char)(i * 7);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		const uint8_t *p;
		size_t outer, inner;
		uint64_t len;

		sb_reset(&s);
		sb_putc(&s, 'x');
		outer = pb_open(&s, 11);
		inner = pb_open(&s, 4);
		sb_putn(&s, content, lens[i]);
		pb_close(&s, inner);
		pb_uint(&s, 9, 3);
		pb_close(&s, outer);
		p = (const uint8_t *)s.s + 1;
		assert_int_equal(get_varint(&p), 11 << 3 | 2);
		len = get_varint(&p);
		assert_int_equal(len, (uint64_t)(s.s + s.len - (const char *)p));
		assert_int_equal(get_varint(&p), 4 << 3 | 2);
		assert_int_equal(get_varint(&p), lens[i]);
		assert_memory_equal(p, content, lens[i]);
		p += lens[i];
		assert_int_equal(get_varint(&p), 9 << 3);
		assert_int_equal(get_varint(&p), 3);
		assert_ptr_equal(p, (const uint8_t *)s.s + s.len);
	}
	free(content);
	sb_free(&s);
}

/* One InternedData entry at *p: its field, iid and name. */
static void get_entry(const uint8_t **p, unsigned int *field, uint64_t *iid, char *name)
{
	const uint8_t *end;
	uint64_t len;

	*field = (unsigned int)(get_varint(p) >> 3);
	len = get_varint(p);
	end = *p + len;
	assert_int_equal(get_varint(p), 1 << 3);
	*iid = get_varint(p);
	assert_int_equal(get_varint(p), 2 << 3 | 2);
	len = get_varint(p);
	memcpy(name, *p, len);
	name[len] = '\0';
	*p += len;
	assert_ptr_equal(*p, end);
}

static void test_intern(void **state)
{
	struct pf_intern *t = pf_intern_new(4);
	struct sbuf id = { 0 };
	const uint8_t *p;
	unsigned int field;
	uint64_t iid;
	char name[32];

	(void)state;
	assert_non_null(t);
	assert_int_equal(pf_intern(t, PF_NS_EVENT, "read", 4, &id), 1);
	assert_int_equal(pf_intern(t, PF_NS_EVENT, "write", 5, &id), 2);
	assert_int_equal(pf_intern(t, PF_NS_ANNOTATION, "read", 4, &id), 1); /* its own iids */
	p = (const uint8_t *)id.s;
	get_entry(&p, &field, &iid, name);
	assert_true(field == PF_ID_EVENT_NAMES && iid == 1 && !strcmp(name, "read"));
	get_entry(&p, &field, &iid, name);
	assert_true(field == PF_ID_EVENT_NAMES && iid == 2 && !strcmp(name, "write"));
	get_entry(&p, &field, &iid, name);
	assert_true(field == PF_ID_ANNOTATION_NAMES && iid == 1 && !strcmp(name, "read"));
	assert_ptr_equal(p, (const uint8_t *)id.s + id.len);
	/* a name known: its iid, nothing written */
	sb_reset(&id);
	assert_int_equal(pf_intern(t, PF_NS_EVENT, "write", 5, &id), 2);
	assert_int_equal(id.len, 0);
	assert_false(pf_intern_full(t));
	assert_int_equal(pf_intern(t, PF_NS_EVENT, "open", 4, &id), 3);
	assert_true(pf_intern_full(t));
	/* past the cap a packet's own names still fit, until the reset */
	assert_int_equal(pf_intern(t, PF_NS_EVENT, "close", 5, &id), 4);
	pf_intern_reset(t);
	assert_false(pf_intern_full(t));
	sb_reset(&id);
	assert_int_equal(pf_intern(t, PF_NS_EVENT, "close", 5, &id), 1);
	assert_int_not_equal(id.len, 0);
	pf_intern_free(t);
	sb_free(&id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varints),
		cmocka_unit_test(test_fixed64_and_bytes),
		cmocka_unit_test(test_nested_lengths),
		cmocka_unit_test(test_intern),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
