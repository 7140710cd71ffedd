// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -y / -yy (cli/fdtable.c) through the view: fd_info events name the fds
 * of the lines after them, as strace -y / -yy prints them (escapes, pipes,
 * sockets with their endpoints, devices, deleted files, the working
 * directory); fork copies a table, exec drops close-on-exec fds, close and
 * close_range drop fds; hostile payloads (short, long, unterminated, fds
 * and lengths out of range) are bounded, and an fd_info is no line.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "decode/fdtable.h"
#include "view/view.h"
#include "view_out.h"

#define NR_READ	  0
#define NR_CLOSE  3
#define NR_FCNTL  72
#define NR_OPENAT 257

static void out_open(struct out *o, int level)
{
	out_begin(o);
	o->o.fds = level;
	out_view(o);
}

static void ev_init(struct cli_ev *ev, trace_event_id_t id, const char *name, pid_t pid)
{
	memset(ev, 0, sizeof(*ev));
	ev->info.posix_event_id = id;
	ev->info.posix_pid = pid;
	ev->tid = pid;
	snprintf(ev->name_buf, sizeof(ev->name_buf), "%s", name);
	ev->name = ev->name_buf;
	ev->sys_off = (uint8_t)sys_name_offset(ev->name);
	ev->desc = ev->sys_off ? sys_desc(ev->name + ev->sys_off) : NULL;
}

static void other(struct out *o, trace_event_id_t id, const char *name, pid_t pid, const void *data,
		  size_t len)
{
	struct cli_ev ev;

	ev_init(&ev, id, name, pid);
	ev.data = data;
	ev.len = len;
	view_event(o->v, &ev);
}

/* A whole call of process pid: its entry with args, its exit with ret. */
static void call(struct out *o, const char *sys, int nr, pid_t pid, const uint64_t *args,
		 int64_t ret)
{
	struct ptbpf_ev_sys_enter se = { .nr = nr };
	struct ptbpf_ev_sys_exit x = { .nr = nr, .ret = ret };
	char name[TRACE_EVENT_NAME_MAX];

	memcpy(se.args, args, sizeof(se.args));
	snprintf(name, sizeof(name), "sys_enter_%s", sys);
	other(o, PTBPF_EV_SYS_ENTER(nr), name, pid, &se,
	      offsetof(struct ptbpf_ev_sys_enter, paths));
	snprintf(name, sizeof(name), "sys_exit_%s", sys);
	other(o, PTBPF_EV_SYS_EXIT(nr), name, pid, &x, sizeof(x));
}

static void rd(struct out *o, pid_t pid, int fd)
{
	uint64_t a[6] = { (uint64_t)fd, 0x1000, 1 };

	call(o, "read", NR_READ, pid, a, 1);
}

static struct ptbpf_ev_fd_info fi_of(int fd, int kind, const char *path)
{
	struct ptbpf_ev_fd_info fi;

	memset(&fi, 0, sizeof(fi));
	fi.fd = fi.fd_last = fd;
	fi.kind = (uint16_t)kind;
	fi.mode = S_IFREG | 0644;
	fi.ino = 1234;
	snprintf(fi.path, sizeof(fi.path), "%s", path);
	fi.path_len = (uint32_t)strlen(fi.path) + 1;
	return fi;
}

static void info(struct out *o, pid_t pid, const struct ptbpf_ev_fd_info *fi)
{
	other(o, PTBPF_EV_FD_INFO, "fd_info", pid, fi,
	      offsetof(struct ptbpf_ev_fd_info, path) + fi->path_len);
}

static void test_kinds(void **state)
{
	struct ptbpf_ev_fd_info fi;
	struct out o;

	(void)state;
	out_open(&o, 1);
	fi = fi_of(3, PTBPF_FD_FILE, "/tmp/a>b\n\001x\"<");
	info(&o, 100, &fi);
	rd(&o, 100, 3);
	fi = fi_of(4, PTBPF_FD_PIPE, "");
	info(&o, 100, &fi);
	rd(&o, 100, 4);
	fi = fi_of(5, PTBPF_FD_SOCKET, "");
	fi.family = AF_INET;
	fi.protocol = IPPROTO_TCP;
	info(&o, 100, &fi);
	rd(&o, 100, 5);
	fi = fi_of(6, PTBPF_FD_ANON, "[eventfd]");
	info(&o, 100, &fi);
	rd(&o, 100, 6);
	fi = fi_of(7, PTBPF_FD_FILE, "/memfd:x");
	fi.flags = PTBPF_FD_DELETED;
	info(&o, 100, &fi);
	rd(&o, 100, 7);
	fi = fi_of(8, PTBPF_FD_FILE, "/dev/null");
	fi.mode = S_IFCHR | 0666;
	fi.rdev = 1 << 20 | 3;
	info(&o, 100, &fi);
	rd(&o, 100, 8);
	rd(&o, 100, 9); /* not known: the number alone */
	assert_string_equal(out_text(&o),
			    "0.000000 100/100 read(3</tmp/a\\76b\\n\\1x\\\"\\74>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(4<pipe:[1234]>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(5<socket:[1234]>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(6<anon_inode:[eventfd]>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(7</memfd:x>(deleted), 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(8</dev/null>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(9, 0x1000, 1) = 1\n");
	out_close(&o);
}

static void test_sockets_yy(void **state)
{
	struct ptbpf_ev_fd_info fi;
	uint32_t lo = htonl(INADDR_LOOPBACK);
	struct out o;

	(void)state;
	out_open(&o, 2);
	fi = fi_of(3, PTBPF_FD_SOCKET, "");
	fi.family = AF_INET;
	fi.protocol = IPPROTO_TCP;
	info(&o, 100, &fi); /* not bound */
	rd(&o, 100, 3);
	fi.lport = 8080;
	memcpy(fi.laddr, &lo, 4);
	info(&o, 100, &fi); /* bound */
	rd(&o, 100, 3);
	fi.rport = 41234;
	memcpy(fi.raddr, &lo, 4);
	info(&o, 100, &fi); /* connected */
	rd(&o, 100, 3);
	fi = fi_of(4, PTBPF_FD_SOCKET, "");
	fi.family = AF_INET6;
	fi.protocol = IPPROTO_UDP;
	fi.laddr[15] = fi.raddr[15] = 1;
	fi.lport = 5;
	fi.rport = 9;
	info(&o, 100, &fi);
	rd(&o, 100, 4);
	/* a UNIX pair: 5 before its peer is known, learnt from 6's event */
	fi = fi_of(5, PTBPF_FD_SOCKET, "");
	fi.family = AF_UNIX;
	fi.type = SOCK_STREAM;
	fi.ino = 10;
	info(&o, 100, &fi);
	fi = fi_of(6, PTBPF_FD_SOCKET, "/tmp/s\"");
	fi.family = AF_UNIX;
	fi.type = SOCK_STREAM;
	fi.ino = 11;
	fi.peer_ino = 10;
	info(&o, 100, &fi);
	rd(&o, 100, 5);
	rd(&o, 100, 6);
	fi = fi_of(7, PTBPF_FD_FILE, "/dev/sda");
	fi.mode = S_IFBLK | 0660;
	fi.rdev = 8 << 20;
	info(&o, 100, &fi);
	rd(&o, 100, 7);
	fi = fi_of(8, PTBPF_FD_SOCKET, ""); /* a family -yy does not name */
	fi.family = AF_NETLINK;
	info(&o, 100, &fi);
	rd(&o, 100, 8);
	assert_string_equal(
		out_text(&o),
		"0.000000 100/100 read(3<TCP:[1234]>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(3<TCP:[127.0.0.1:8080]>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(3<TCP:[127.0.0.1:8080->127.0.0.1:41234]>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(4<UDPv6:[[::1]:5->[::1]:9]>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(5<UNIX-STREAM:[10->11]>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(6<UNIX-STREAM:[11->10,\"/tmp/s\\\"\"]>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(7</dev/sda<block 8:0>>, 0x1000, 1) = 1\n"
		"0.000000 100/100 read(8<socket:[1234]>, 0x1000, 1) = 1\n");
	out_close(&o);
}

/* fork copies, exec drops the close-on-exec fds, close_range drops or flags */
static void test_life(void **state)
{
	struct ptbpf_ev_fork fk = {
		.parent_pid = 100, .parent_tid = 100, .child_pid = 200, .child_tid = 200
	};
	struct ptbpf_ev_exec ex = { .pid = 200, .old_tid = 200 };
	struct ptbpf_ev_fd_info fi;
	uint64_t a[6] = { AT_FDCWD, 0x1000, O_RDONLY };
	struct out o;

	(void)state;
	out_open(&o, 1);
	fi = fi_of(AT_FDCWD, PTBPF_FD_FILE, "/etc");
	info(&o, 100, &fi);
	fi = fi_of(3, PTBPF_FD_FILE, "/a");
	fi.flags = PTBPF_FD_CLOEXEC;
	info(&o, 100, &fi);
	fi = fi_of(4, PTBPF_FD_FILE, "/b");
	info(&o, 100, &fi);
	fi = fi_of(5, PTBPF_FD_FILE, "/c");
	info(&o, 100, &fi);
	other(&o, PTBPF_EV_PROC_FORK, "proc_fork", 100, &fk, sizeof(fk));
	other(&o, PTBPF_EV_PROC_EXEC, "proc_exec", 200, &ex, sizeof(ex));
	rd(&o, 200, 3); /* gone at the exec */
	rd(&o, 200, 4);
	rd(&o, 100, 3); /* the parent's is not */
	fi = fi_of(4, PTBPF_FD_CLOSED, "");
	fi.fd_last = 0x7fffffff;
	fi.flags = PTBPF_FD_CLOEXEC; /* close_range(4, ~0, CLOSE_RANGE_CLOEXEC) */
	info(&o, 100, &fi);
	fi = fi_of(3, PTBPF_FD_CLOSED, "");
	info(&o, 100, &fi);
	rd(&o, 100, 3);
	rd(&o, 100, 5);
	call(&o, "openat", NR_OPENAT, 100, a, 5);
	other(&o, PTBPF_EV_PROC_EXEC, "proc_exec", 100, &ex, sizeof(ex));
	rd(&o, 100, 5);
	rd(&o, 200, 4);
	assert_string_equal(out_text(&o),
			    "0.000000 100/100 proc_fork process 200/200 comm=\"\"\n"
			    "0.000000 200/200 proc_exec \"\"\n"
			    "0.000000 200/200 read(3, 0x1000, 1) = 1\n"
			    "0.000000 200/200 read(4</b>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(3</a>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(3, 0x1000, 1) = 1\n"
			    "0.000000 100/100 read(5</c>, 0x1000, 1) = 1\n"
			    "0.000000 100/100 openat(AT_FDCWD</etc>, 0x1000, O_RDONLY) = 5</c>\n"
			    "0.000000 100/100 proc_exec \"\"\n"
			    "0.000000 100/100 read(5, 0x1000, 1) = 1\n"
			    "0.000000 200/200 read(4</b>, 0x1000, 1) = 1\n");
	out_close(&o);
}

/* fcntl's result is an fd only for F_DUPFD*; -y off: nothing, no fd_info line */
static void test_results(void **state)
{
	struct ptbpf_ev_fd_info fi = fi_of(20, PTBPF_FD_FILE, "/x");
	uint64_t dupfd[6] = { 3, F_DUPFD_CLOEXEC, 20 }, getfl[6] = { 3, F_GETFL, 0x14 };
	struct out o;

	(void)state;
	out_open(&o, 1);
	info(&o, 100, &fi);
	call(&o, "fcntl", NR_FCNTL, 100, dupfd, 20);
	call(&o, "fcntl", NR_FCNTL, 100, getfl, 20);
	assert_string_equal(out_text(&o),
			    "0.000000 100/100 fcntl(3, F_DUPFD_CLOEXEC, 20) = 20</x>\n"
			    "0.000000 100/100 fcntl(3, F_GETFL) = 0x14 (flags O_RDONLY|0x14)\n");
	out_close(&o);
	out_open(&o, 0);
	info(&o, 100, &fi);
	call(&o, "fcntl", NR_FCNTL, 100, dupfd, 20);
	assert_string_equal(out_text(&o), "0.000000 100/100 fcntl(3, F_DUPFD_CLOEXEC, 20) = 20\n");
	out_close(&o);
}

/* hostile payloads: nothing read past them, nothing wrong printed */
static void test_hostile(void **state)
{
	const size_t fixed = offsetof(struct ptbpf_ev_fd_info, path);
	unsigned char big[sizeof(struct ptbpf_ev_fd_info) + 64];
	struct ptbpf_ev_fd_info fi;
	unsigned char *p;
	struct out o;

	(void)state;
	out_open(&o, 2);
	fi = fi_of(3, PTBPF_FD_FILE, "/ok");
	info(&o, 100, &fi);
	/* short: ignored */
	fi = fi_of(3, PTBPF_FD_FILE, "/short");
	other(&o, PTBPF_EV_FD_INFO, "fd_info", 100, &fi, fixed - 1);
	/* longer than the struct: ignored */
	memset(big, 'A', sizeof(big));
	memcpy(big, &fi, fixed);
	other(&o, PTBPF_EV_FD_INFO, "fd_info", 100, big, sizeof(big));
	rd(&o, 100, 3);
	/* unterminated, in a buffer of exactly its length: cut there */
	fi = fi_of(4, PTBPF_FD_FILE, "");
	p = malloc(fixed + 5);
	assert_non_null(p);
	memcpy(p, &fi, fixed);
	memcpy(p + fixed, "/abcd", 5);
	other(&o, PTBPF_EV_FD_INFO, "fd_info", 100, p, fixed + 5);
	free(p);
	rd(&o, 100, 4);
	/* unknown kind, huge fds, an inverted range, a UNIX type out of range */
	fi = fi_of(5, 999, "/z");
	info(&o, 100, &fi);
	rd(&o, 100, 5);
	fi = fi_of(0x7fffffff, PTBPF_FD_FILE, "/big");
	info(&o, 100, &fi);
	fi = fi_of(-5, PTBPF_FD_CLOSED, "");
	fi.fd_last = -100;
	info(&o, 100, &fi);
	fi = fi_of(6, PTBPF_FD_SOCKET, "");
	fi.family = AF_UNIX;
	fi.type = 0xffff;
	info(&o, 100, &fi);
	rd(&o, 100, 6);
	rd(&o, 100, 3);
	assert_string_equal(out_text(&o), "0.000000 100/100 read(3</ok>, 0x1000, 1) = 1\n"
					  "0.000000 100/100 read(4</abcd>, 0x1000, 1) = 1\n"
					  "0.000000 100/100 read(5, 0x1000, 1) = 1\n"
					  "0.000000 100/100 read(6<socket:[1234]>, 0x1000, 1) = 1\n"
					  "0.000000 100/100 read(3</ok>, 0x1000, 1) = 1\n");
	out_close(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),	cmocka_unit_test(test_sockets_yy),
		cmocka_unit_test(test_life),	cmocka_unit_test(test_results),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
