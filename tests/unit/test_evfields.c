/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table of event fields (<ptbpf/evfields.h>): complete, within its
 * structs, and bounded on hostile payloads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <ptbpf/evfields.h>

#include "core/evtypes.h"

static const char *const groups[] = { "posix", "proc", "signal", "sched", "stack", "fd" };

static void check_desc(const struct ptbpf_event_desc *d)
{
	uint32_t id = 0;
	unsigned int i, j;
	int gok = 0;

	assert_non_null(d->name);
	assert_int_equal(evtypes__system_id(d->name, &id), 0);
	assert_int_equal(id, d->id);
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		gok |= !strcmp(d->group, groups[i]);
	assert_true(gok);
	assert_true(d->min_size <= d->size);
	assert_true(!d->nfields == !d->fields);
	for (i = 0; i < d->nfields; i++) {
		const struct ptbpf_event_field *f = &d->fields[i];

		/* within the struct: a flexible member (size 0) at its end */
		assert_true(f->offset + f->size <= d->size);
		if (!f->size)
			assert_true(f->kind == PTBPF_FIELD_BYTES || f->kind == PTBPF_FIELD_ARRAY);
		for (j = 0; j < i; j++) {
			assert_string_not_equal(f->name, d->fields[j].name);
			if (f->label)
				assert_string_not_equal(f->label, d->fields[j].name);
		}
		if (f->kind <= PTBPF_FIELD_LENGTH)
			assert_true(f->size == 2 || f->size == 4 || f->size == 8);
		if (f->kind == PTBPF_FIELD_ENUM || f->kind == PTBPF_FIELD_FLAGS)
			assert_non_null(f->values);
		if (f->kind == PTBPF_FIELD_STRING)
			assert_true(f->len_field >= 0);
		if (f->kind == PTBPF_FIELD_ARRAY)
			assert_true(f->elem == 8);
		if (f->len_field >= 0) {
			assert_true(f->len_field < (int)d->nfields);
			assert_int_equal(d->fields[f->len_field].kind, PTBPF_FIELD_LENGTH);
			assert_true(d->fields[f->len_field].offset + d->fields[f->len_field].size <=
				    d->min_size);
		}
		if (f->follows >= 0) {
			assert_true(f->follows < (int)i);
			assert_int_equal(d->fields[f->follows].offset, f->offset);
		}
	}
}

static void test_every_id(void **state)
{
	size_t n;

	(void)state;
	for (trace_event_id_t id = PTBPF_EV_KERNEL_FIRST; id <= PTBPF_EV_KERNEL_LAST; id++) {
		const struct ptbpf_event_desc *d = ptbpf_event_desc(id);

		assert_non_null(d);
		assert_int_equal(d->id, id);
		assert_true(d->nfields > 0);
		assert_ptr_equal(ptbpf_event_fields(id, &n), d->fields);
		assert_int_equal(n, d->nfields);
		check_desc(d);
	}
	for (trace_event_id_t id = 0; id < PTBPF_EV_KERNEL_FIRST; id++) {
		const struct ptbpf_event_desc *d = ptbpf_event_desc(id);
		char name[TRACE_EVENT_NAME_MAX];

		/* a POSIX event is described exactly when it has a name */
		assert_int_equal(!d, evtypes__name(NULL, id, name) != 0);
		if (d)
			check_desc(d);
	}
	assert_null(ptbpf_event_desc(PTBPF_EV_KERNEL_LAST + 1));
	assert_null(ptbpf_event_desc(PTBPF_EV_SYS_ENTER(0)));
	assert_null(ptbpf_event_desc(PTBPF_EV_USER_BASE));
	assert_null(ptbpf_event_fields(PTBPF_EV_USER_BASE, &n));
	assert_int_equal(n, 0);
	assert_null(ptbpf_event_fields(POSIX_TRACE_START, &n));
}

/* Every length of a payload of 0xff bytes (lengths that claim far more
 * than it holds), each in its own allocation so ASan sees an overread. */
static void test_hostile_lengths(void **state)
{
	(void)state;
	for (trace_event_id_t id = 1; id <= PTBPF_EV_KERNEL_LAST; id++) {
		const struct ptbpf_event_desc *d = ptbpf_event_desc(id);

		if (!d)
			continue;
		for (size_t len = 0; len <= d->size + 64; len++) {
			unsigned char *p = malloc(len ? len : 1);

			assert_non_null(p);
			memset(p, 0xff, len);
			for (unsigned int i = 0; i < d->nfields; i++) {
				size_t at = 0, n = 0;
				unsigned long long v;

				if (!ptbpf_event_field_span(d, i, p, len, &at, &n)) {
					assert_true(at <= len && n <= len - at);
					assert_true(at + d->fields[i].size <= len ||
						    d->fields[i].kind > PTBPF_FIELD_CHARS);
				}
				if (d->fields[i].kind <= PTBPF_FIELD_LENGTH)
					assert_int_equal(ptbpf_event_field_int(d, i, p, len, &v),
							 d->fields[i].offset + d->fields[i].size <=
									 len
								 ? 0
								 : -1);
			}
			free(p);
		}
	}
	assert_int_equal(ptbpf_event_field_span(NULL, 0, "", 0, NULL, NULL), -1);
}

static int find(const struct ptbpf_event_desc *d, const char *name)
{
	for (unsigned int i = 0; i < d->nfields; i++)
		if (!strcmp(d->fields[i].name, name))
			return (int)i;
	fail_msg("no field %s", name);
	return -1;
}

static void test_values(void **state)
{
	const struct ptbpf_event_desc *d = ptbpf_event_desc(PTBPF_EV_PROC_EXEC);
	struct ptbpf_ev_exec e;
	struct ptbpf_ev_exit x = { 1, 2, -1, 1 };
	struct ptbpf_ev_proc_map m;
	unsigned long long v;
	size_t at, n;
	int fi;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.pid = -5;
	e.filename_len = 100000; /* more than the payload */
	memcpy(e.filename, "/bin/true", 10);
	fi = find(d, "filename");
	assert_int_equal(ptbpf_event_field_span(
				 d, fi, &e, offsetof(struct ptbpf_ev_exec, filename) + 4, &at, &n),
			 0);
	assert_int_equal(at, offsetof(struct ptbpf_ev_exec, filename));
	assert_int_equal(n, 4); /* cut by the payload's end */
	assert_int_equal(ptbpf_event_field_span(d, fi, &e, sizeof(e), &at, &n), 0);
	assert_int_equal(n, 9); /* up to its NUL */
	e.filename_len = 3;
	assert_int_equal(ptbpf_event_field_span(d, fi, &e, sizeof(e), &at, &n), 0);
	assert_int_equal(n, 3); /* up to its length */
	assert_int_equal(ptbpf_event_field_int(d, find(d, "pid"), &e, sizeof(e), &v), 0);
	assert_int_equal((long long)v, -5);
	assert_int_equal(ptbpf_event_field_int(d, find(d, "pid"), &e, 2, &v), -1);
	assert_int_equal(ptbpf_event_field_int(d, fi, &e, sizeof(e), &v), -1); /* not an integer */

	d = ptbpf_event_desc(PTBPF_EV_PROC_EXIT);
	assert_int_equal(ptbpf_event_field_int(d, find(d, "exit_code"), &x, sizeof(x), &v), 0);
	assert_int_equal((long long)v, -1);
	assert_int_equal(ptbpf_event_field_int(d, find(d, "group_dead"), &x, sizeof(x), &v), 0);
	assert_int_equal(v, 1);

	/* the build-id after the path's NUL, bounded by the member */
	d = ptbpf_event_desc(PTBPF_EV_PROC_MAP);
	memset(&m, 0, sizeof(m));
	memcpy(m.path, "/lib/x", 7);
	m.path_len = 7;
	m.build_id_len = 4;
	memcpy(m.path + 7, "\x01\x02\x03\x04", 4);
	fi = find(d, "build_id");
	assert_int_equal(ptbpf_event_field_span(d, fi, &m, sizeof(m), &at, &n), 0);
	assert_int_equal(at, offsetof(struct ptbpf_ev_proc_map, path) + 7);
	assert_int_equal(n, 4);
	m.path_len = 100000;
	assert_int_equal(ptbpf_event_field_span(d, fi, &m, sizeof(m), &at, &n), 0);
	assert_int_equal(at + n, sizeof(m));
	assert_int_equal(n, 0);

	/* a signal of an older log (32 bytes): no flags */
	d = ptbpf_event_desc(PTBPF_EV_SIGNAL_DELIVER);
	assert_int_equal(d->min_size, 32);
	assert_int_equal(ptbpf_event_field_span(d, find(d, "flags"), &m, 32, &at, &n), -1);
	assert_int_equal(ptbpf_event_field_span(d, find(d, "group"), &m, 32, &at, &n), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_id),
		cmocka_unit_test(test_hostile_lengths),
		cmocka_unit_test(test_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
