/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf_trace_attr_setfdinfo(): fd_info events that say what each fd is:
 * at the start, the open fds and working directory of the traced process
 * (flagged PTBPF_FD_SNAPSHOT); then, written by BPF at the exit of the
 * calls that make them, a file's path and inode, a pipe's inode (both
 * ends), a socket's (with its bound address), a dup2'ed fd, an anon
 * inode's name, the working directory after chdir, and closes; in the
 * stream and in its log; none without the attribute.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <trace.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>

#include "itest.h"
#include "itest_read.h"

static void test_attr(void **state)
{
	trace_attr_t a;
	int on = 7;

	(void)state;
	assert_int_equal(posix_trace_attr_init(&a), 0);
	assert_int_equal(ptbpf_trace_attr_getfdinfo(&a, &on), 0);
	assert_int_equal(on, 0);
	assert_int_equal(ptbpf_trace_attr_setfdinfo(&a, 5), 0);
	assert_int_equal(ptbpf_trace_attr_getfdinfo(&a, &on), 0);
	assert_int_equal(on, 1);
	assert_int_equal(ptbpf_trace_attr_setfdinfo(NULL, 1), EINVAL);
	assert_int_equal(ptbpf_trace_attr_getfdinfo(&a, NULL), EINVAL);
}

/* What the calls below made, to be found in the events. */
struct made {
	char path[PATH_MAX], cwd[PATH_MAX];
	int file, pipe[2], sock, dup, efd;
	ino_t file_ino, pipe_ino, sock_ino;
	uint16_t port;
};

static void make_fds(struct made *m, const char *path)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	struct stat st;

	assert_non_null(realpath(path, m->path));
	m->file = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(m->file >= 0);
	assert_int_equal(fstat(m->file, &st), 0);
	m->file_ino = st.st_ino;
	assert_int_equal(pipe(m->pipe), 0);
	assert_int_equal(fstat(m->pipe[0], &st), 0);
	m->pipe_ino = st.st_ino;
	m->sock = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(m->sock >= 0);
	assert_int_equal(bind(m->sock, (void *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(m->sock, (void *)&a, &al), 0);
	m->port = ntohs(a.sin_port);
	assert_int_equal(fstat(m->sock, &st), 0);
	m->sock_ino = st.st_ino;
	m->dup = dup2(m->file, 100);
	assert_int_equal(m->dup, 100);
	m->efd = eventfd(0, 0);
	assert_true(m->efd >= 0);
	assert_non_null(getcwd(m->cwd, sizeof(m->cwd)));
	assert_int_equal(chdir("/"), 0);
	assert_int_equal(chdir(m->cwd), 0);
	close(m->efd);
	close(m->sock);
	close(m->pipe[0]);
	close(m->pipe[1]);
	close(m->dup);
	close(m->file);
}

struct seen {
	int snap_cwd, snap_fds, file, pipe, sock, sock_bound, dup, anon, cwd, closed, total;
};

static void check(trace_id_t t, bool log, const struct made *m, struct seen *n)
{
	static struct ptbpf_ev_fd_info fi;
	struct posix_trace_event_info ev;
	char name[TRACE_EVENT_NAME_MAX];
	size_t len;

	memset(n, 0, sizeof(*n));
	while (itest_next_event(t, log,
				(struct itest_ev_ref){ &ev, name, &fi, sizeof(fi), &len })) {
		if (ev.posix_event_id != PTBPF_EV_FD_INFO)
			continue;
		assert_string_equal(name, "fd_info");
		assert_int_equal(len, offsetof(struct ptbpf_ev_fd_info, path) + fi.path_len);
		assert_int_equal(strlen(fi.path) + 1, fi.path_len);
		if (ev.posix_pid != getpid())
			continue;
		n->total++;
		if (fi.flags & PTBPF_FD_SNAPSHOT) {
			if (fi.fd == AT_FDCWD && !strcmp(fi.path, m->cwd))
				n->snap_cwd++;
			else if (fi.fd >= 0)
				n->snap_fds++;
			continue;
		}
		if (fi.kind == PTBPF_FD_CLOSED) {
			if (fi.fd == m->file || fi.fd == m->dup || fi.fd == m->sock)
				n->closed++;
			continue;
		}
		if (fi.fd == AT_FDCWD) {
			assert_int_equal(fi.kind, PTBPF_FD_FILE);
			if (!strcmp(fi.path, m->cwd))
				n->cwd++;
			else
				assert_string_equal(fi.path, "/");
			continue;
		}
		if (fi.kind == PTBPF_FD_FILE && fi.ino == m->file_ino) {
			assert_string_equal(fi.path, m->path);
			if (fi.fd == m->file) {
				assert_true(fi.flags & PTBPF_FD_CLOEXEC);
				n->file++;
			} else if (fi.fd == m->dup) {
				assert_false(fi.flags & PTBPF_FD_CLOEXEC); /* dup2 clears it */
				n->dup++;
			}
		} else if (fi.kind == PTBPF_FD_PIPE) {
			assert_int_equal(fi.ino, m->pipe_ino);
			assert_true(fi.fd == m->pipe[0] || fi.fd == m->pipe[1]);
			n->pipe++;
		} else if (fi.kind == PTBPF_FD_SOCKET && fi.ino == m->sock_ino) {
			assert_int_equal(fi.family, AF_INET);
			assert_int_equal(fi.type, SOCK_STREAM);
			assert_int_equal(fi.protocol, IPPROTO_TCP);
			if (fi.lport) { /* after bind */
				uint32_t lo = htonl(INADDR_LOOPBACK);

				assert_int_equal(fi.lport, m->port);
				assert_memory_equal(fi.laddr, &lo, 4);
				n->sock_bound++;
			}
			n->sock++;
		} else if (fi.kind == PTBPF_FD_ANON && fi.fd == m->efd) {
			assert_string_equal(fi.path, "[eventfd]");
			n->anon++;
		}
	}
}

static void trace_fds(bool on, const char *logpath)
{
	struct made m;
	struct seen n;
	trace_attr_t a;
	trace_id_t t;
	int fd = -1;

	itest_require_bpf();
	assert_int_equal(posix_trace_attr_init(&a), 0);
	if (on)
		assert_int_equal(ptbpf_trace_attr_setfdinfo(&a, 1), 0);
	if (logpath) {
		fd = itest_newlog(logpath);
		assert_int_equal(posix_trace_create_withlog(0, &a, fd, &t), 0);
	} else {
		assert_int_equal(posix_trace_create(0, &a, &t), 0);
	}
	assert_int_equal(posix_trace_start(t), 0);
	make_fds(&m, "/etc/hostname");
	assert_int_equal(posix_trace_stop(t), 0);
	if (logpath) {
		assert_int_equal(posix_trace_shutdown(t), 0);
		close(fd);
		t = itest_open_log(logpath, &fd);
		check(t, true, &m, &n);
		itest_close_log(t, fd);
		unlink(logpath);
	} else {
		check(t, false, &m, &n);
		assert_int_equal(posix_trace_shutdown(t), 0);
	}
	if (!on) {
		assert_int_equal(n.total, 0);
		return;
	}
	assert_int_equal(n.snap_cwd, 1);
	assert_true(n.snap_fds >= 3); /* 0, 1, 2 at least */
	assert_int_equal(n.file, 1);
	assert_int_equal(n.pipe, 2);
	assert_int_equal(n.sock, 2); /* socket(), bind() */
	assert_int_equal(n.sock_bound, 1);
	assert_int_equal(n.dup, 1);
	assert_int_equal(n.anon, 1);
	assert_int_equal(n.cwd, 1);
	assert_int_equal(n.closed, 3);
}

static void test_stream(void **state)
{
	(void)state;
	trace_fds(true, NULL);
}

static void test_log(void **state)
{
	char path[] = "/tmp/ptbpf-itest-fdinfo.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	trace_fds(true, path);
}

static void test_off(void **state)
{
	(void)state;
	trace_fds(false, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
