// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ptbpf command's lines for what an exit or a signal payload brings
 * beyond older logs: the paths an entry could not read, put in its place
 * (and a malformed payload left alone, the address kept); a signal payload
 * of an older log (32 bytes) printed as before; the SIGKILL of a dying
 * process's threads printed as nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"

const char *cli_prog = "test_cli_fmt_late";

#define NR_STATFS 137

struct out {
	char *s;
	size_t len;
	FILE *f;
	struct fmt fmt;
};

static void out_open(struct out *o)
{
	memset(o, 0, sizeof(*o));
	o->f = open_memstream(&o->s, &o->len);
	assert_non_null(o->f);
	fmt_init(&o->fmt, o->f, 0, 0);
}

static const char *out_text(struct out *o)
{
	fmt_flush(&o->fmt);
	fflush(o->f);
	return o->s ? o->s : "";
}

static void out_close(struct out *o)
{
	fmt_fini(&o->fmt);
	fclose(o->f);
	free(o->s);
}

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, const void *data,
		    size_t len)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = 100;
	ev->tid = 100;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
	ev->data = data;
	ev->len = len;
}

/* statfs(0x1000, 0x2000) whose path faulted at entry, then its exit with
 * the payload x of xlen bytes: the line printed */
static void statfs_late(struct out *o, const void *x, size_t xlen)
{
	struct ptbpf_ev_sys_enter se;
	struct cli_ev ev;

	memset(&se, 0, sizeof(se));
	se.nr = NR_STATFS;
	se.args[0] = 0x1000;
	se.args[1] = 0x2000;
	se.flags = PTBPF_SYS_PATH0_FAULT;
	ev_init(&ev, PTBPF_EV_SYS_ENTER(NR_STATFS), "sys_enter_statfs", &se, sizeof(se));
	fmt_event(&o->fmt, &ev);
	ev_init(&ev, PTBPF_EV_SYS_EXIT(NR_STATFS), "sys_exit_statfs", x, xlen);
	fmt_event(&o->fmt, &ev);
}

static void test_late_path(void **state)
{
	static const char path[] = "/etc/hosts";
	struct {
		struct ptbpf_ev_sys_exit_ext h;
		char p[sizeof(path)];
	} x;
	struct out o;

	(void)state;
	memset(&x, 0, sizeof(x));
	x.h.nr = NR_STATFS;
	x.h.path_len[0] = sizeof(path);
	memcpy(x.p, path, sizeof(path));
	out_open(&o);
	statfs_late(&o, &x, sizeof(x));
	assert_string_equal(out_text(&o), "0.000000 100/100 statfs(\"/etc/hosts\", 0x2000) = 0\n");
	out_close(&o);

	/* a path longer than the payload: the address stays */
	x.h.path_len[0] = 200;
	out_open(&o);
	statfs_late(&o, &x, sizeof(x));
	assert_string_equal(out_text(&o), "0.000000 100/100 statfs(0x1000, 0x2000) = 0\n");
	out_close(&o);

	/* an exit of an older log (16 bytes) */
	out_open(&o);
	statfs_late(&o, &x, sizeof(struct ptbpf_ev_sys_exit));
	assert_string_equal(out_text(&o), "0.000000 100/100 statfs(0x1000, 0x2000) = 0\n");
	out_close(&o);
}

static void signal_line(struct out *o, const struct ptbpf_ev_signal *s, size_t len)
{
	struct cli_ev ev;

	ev_init(&ev, PTBPF_EV_SIGNAL_DELIVER, "signal_deliver", s, len);
	fmt_event(&o->fmt, &ev);
}

static void test_signal_payloads(void **state)
{
	struct ptbpf_ev_signal s;
	struct out o;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.signo = 17;
	s.code = 1; /* CLD_EXITED */
	s.sender_pid = 7;
	s.status = 3;
	s.utime = 1;
	s.stime = 2;
	s.flags = PTBPF_SIG_CHLD;
	out_open(&o);
	signal_line(&o, &s, offsetof(struct ptbpf_ev_signal, flags)); /* an older log's */
	signal_line(&o, &s, sizeof(s));
	s.signo = 9;
	s.code = 0;
	s.flags = PTBPF_SIG_GROUP_KILL;
	signal_line(&o, &s, sizeof(s));
	signal_line(&o, &s, 20); /* short: the name and the bytes */
	assert_string_equal(
		out_text(&o),
		"0.000000 100/100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, "
		"si_uid=0} ---\n"
		"0.000000 100/100 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=7, "
		"si_uid=0, si_status=3, si_utime=1, si_stime=2} ---\n"
		"0.000000 100/100 signal_deliver len=20 "
		"data=0900000000000000070000000000000000000000 "
		"\"....................\"\n");
	out_close(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_path),
		cmocka_unit_test(test_signal_payloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
