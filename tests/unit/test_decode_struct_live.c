// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The printers of cli/decode_struct.h beside the real strace: this test
 * runs itself as a child under `strace -f -s 32` (and `-v`), the child
 * makes everyday calls and saves the bytes each call wrote, and every
 * printer's text of those bytes must be in strace's line of that call.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <termios.h>
#include <unistd.h>

#include "decode/struct.h"

/* one saved call: the printer to use, its parameter, the bytes */
struct rec {
	char what[16];
	uint64_t arg;
	uint32_t len;
};

static int rec_fd = -1;

static void save(const char *what, uint64_t arg, const void *p, size_t len)
{
	struct rec r = { .arg = arg, .len = (uint32_t)len };

	strncpy(r.what, what, sizeof(r.what) - 1);
	if (write(rec_fd, &r, sizeof(r)) != sizeof(r) || write(rec_fd, p, len) != (ssize_t)len)
		_exit(90);
}

/* the kernel's struct sigaction (x86_64) */
struct ksigaction {
	uint64_t handler, flags, restorer, mask;
};

static void on_int(int sig)
{
	(void)sig;
}

/* The traced child: the calls, their bytes into recs (dir: a scratch directory). */
static int child(const char *recs, const char *dir)
{
	static const char content[] = "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0\20\21\0"
				      "abc\n\t\"\\x\0012";
	char path[4096], buf[4096];
	struct stat st;
	struct statx stx;
	struct statfs sf;
	struct utsname u;
	struct sysinfo si;
	struct rlimit rl;
	struct ksigaction ka = { 0 }, old;
	struct termios tio;
	struct winsize ws = { 24, 80, 0, 0 };
	struct timespec ts[2] = { { 1700000000, 123456789 }, { 1600000000, 0 } };
	int fd, p[2], m, s, status, ep;
	pid_t pid;

	rec_fd = open(recs, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (rec_fd < 0)
		return 91;
	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0640);
	if (fd < 0 || write(fd, content, sizeof(content) - 1) != sizeof(content) - 1)
		return 92;
	futimens(fd, ts);
	close(fd);
	fd = open(path, O_RDONLY);
	save("str", sizeof(content) - 1, buf, (size_t)read(fd, buf, sizeof(buf)));
	close(fd);
	/* bytes of every kind, octal digits after escapes among them */
	fd = open("/dev/null", O_WRONLY);
	srand(35);
	for (int i = 0; i < 8; i++) {
		size_t n = (size_t)(i * 9 + 1);

		for (size_t j = 0; j < n; j++)
			buf[j] = i & 1 ? (char)rand() : (char)"\0\0011\n\377a8\"\\"[rand() % 10];
		save("str", n, buf, (size_t)write(fd, buf, n));
	}
	close(fd);
	if (stat(path, &st) == 0)
		save("stat", 0, &st, sizeof(st));
	if (stat("/dev/null", &st) == 0)
		save("stat", 0, &st, sizeof(st));
	if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS | STATX_BTIME, &stx) == 0)
		save("statx", 0, &stx, sizeof(stx));
	if (statx(AT_FDCWD, path, 0, STATX_TYPE | STATX_SIZE, &stx) == 0)
		save("statx", 0, &stx, sizeof(stx));
	if (statfs("/", &sf) == 0)
		save("statfs", 0, &sf, sizeof(sf));
	if (uname(&u) == 0)
		save("utsname", 0, &u, sizeof(u));
	if (sysinfo(&si) == 0)
		save("sysinfo", 0, &si, sizeof(si));
	if (getrlimit(RLIMIT_STACK, &rl) == 0)
		save("rlimit", 0, &rl, sizeof(rl));
	ka.handler = (uint64_t)(uintptr_t)on_int;
	ka.flags = SA_RESTART;
	ka.mask = (1ULL << (SIGTERM - 1)) | (1ULL << (SIGINT - 1));
	syscall(SYS_rt_sigaction, SIGUSR2, &ka, NULL, 8);
	if (syscall(SYS_rt_sigaction, SIGUSR2, NULL, &old, 8) == 0)
		save("sigaction", 0, &old, sizeof(old));
	if (pipe2(p, O_CLOEXEC) == 0)
		save("int_array", 2, p, sizeof(p));
	if (write(p[1], "x", 1) == 1) {
		struct pollfd pf[3] = { { p[0], POLLIN, 0 },
					{ p[1], POLLOUT | POLLPRI, 0 },
					{ 999, POLLIN, 0 } };

		save("pollfds", 3, pf, sizeof(pf));
		if (poll(pf, 3, 0) > 0)
			save("revents", 3, pf, sizeof(pf));
	}
	ep = epoll_create1(0);
	if (ep >= 0) {
		struct epoll_event ev = { EPOLLIN | EPOLLET, { .u64 = 0x1234567890 } }, evs[4];
		int n;

		epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
		ev.events = EPOLLOUT;
		ev.data.fd = p[1];
		epoll_ctl(ep, EPOLL_CTL_ADD, p[1], &ev);
		n = epoll_wait(ep, evs, 4, 0);
		if (n > 0)
			save("epoll_events", (uint64_t)n, evs, (size_t)n * sizeof(evs[0]));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));

		if (n > 0)
			save("dirents", (uint64_t)n, buf, (size_t)n);
		close(fd);
	}
	if (openpty(&m, &s, NULL, NULL, NULL) == 0) {
		ioctl(s, TIOCSWINSZ, &ws);
		if (ioctl(s, TIOCGWINSZ, &ws) == 0)
			save("winsize", 0, &ws, sizeof(ws));
		/* the kernel's struct termios is glibc's first 36 bytes */
		if (ioctl(s, TCGETS, &tio) == 0)
			save("termios", 0, &tio, sizeof(tio));
		cfmakeraw(&tio);
		tio.c_oflag = 0;
		tio.c_lflag = 0;
		ioctl(s, TCSETS, &tio);
		if (ioctl(s, TCGETS, &tio) == 0)
			save("termios", 0, &tio, sizeof(tio));
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd >= 0) {
		struct sockaddr_in sin = { .sin_family = AF_INET };
		struct linger lg = { 1, 5 };
		socklen_t sl = sizeof(sin);

		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		bind(fd, (struct sockaddr *)&sin, sizeof(sin));
		if (getsockname(fd, (struct sockaddr *)&sin, &sl) == 0)
			save("sockaddr", sl, &sin, sizeof(sin));
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		sl = sizeof(lg);
		if (getsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, &sl) == 0)
			save("linger", 0, &lg, sl);
	}
	for (int code = 0; code < 3; code++) {
		pid = fork();
		if (pid == 0) {
			if (code == 2)
				raise(SIGKILL);
			_exit(code * 3);
		}
		if (wait4(pid, &status, 0, NULL) == pid)
			save("wait_status", 0, &status, sizeof(status));
	}
	close(rec_fd);
	return 0;
}

/* our text of one saved call */
static void format(struct sbuf *b, const struct rec *r, const void *p, const struct decode_opts *o)
{
	const char *w = r->what;
	int rc = -1;

	if (!strcmp(w, "str"))
		rc = fmt_str(b, p, r->len, r->arg, 0, o);
	else if (!strcmp(w, "stat"))
		rc = fmt_stat(b, p, r->len, o);
	else if (!strcmp(w, "statx"))
		rc = fmt_statx(b, p, r->len, o);
	else if (!strcmp(w, "statfs"))
		rc = fmt_statfs(b, p, r->len, o);
	else if (!strcmp(w, "utsname"))
		rc = fmt_utsname(b, p, r->len, o);
	else if (!strcmp(w, "sysinfo"))
		rc = fmt_sysinfo(b, p, r->len);
	else if (!strcmp(w, "rlimit"))
		rc = fmt_rlimit(b, p, r->len);
	else if (!strcmp(w, "sigaction"))
		rc = fmt_sigaction(b, p, r->len);
	else if (!strcmp(w, "int_array"))
		rc = fmt_int_array(b, p, r->len, r->arg);
	else if (!strcmp(w, "pollfds"))
		rc = fmt_pollfds(b, p, r->len, r->arg, 0);
	else if (!strcmp(w, "revents"))
		rc = fmt_pollfds(b, p, r->len, r->arg, 1);
	else if (!strcmp(w, "epoll_events"))
		rc = fmt_epoll_events(b, p, r->len, r->arg);
	else if (!strcmp(w, "dirents"))
		rc = fmt_dirents_count(b, p, r->len, r->arg, o);
	else if (!strcmp(w, "winsize"))
		rc = fmt_winsize(b, p, r->len);
	else if (!strcmp(w, "termios"))
		rc = fmt_termios(b, p, r->len, o);
	else if (!strcmp(w, "sockaddr"))
		rc = fmt_sockaddr(b, p, r->len, r->arg);
	else if (!strcmp(w, "linger"))
		rc = fmt_linger(b, p, r->len);
	else if (!strcmp(w, "wait_status"))
		rc = fmt_wait_status(b, p, r->len);
	assert_int_equal(rc, 0);
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *s;
	long size;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	s = malloc((size_t)size + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)size, f), (size_t)size);
	s[size] = '\0';
	*n = (size_t)size;
	fclose(f);
	return s;
}

/* Runs the child under strace (verbose: -v, xflag: -x or -xx), checks each saved call. */
static void run_strace(int verbose, int xflag)
{
	char dir[] = "/tmp/ptbpf-decode-XXXXXX", cmd[8192], recs[512], out[512];
	struct decode_opts o = { .strsize = 32, .verbose = verbose, .xflag = xflag };
	size_t n_out, n_recs, off = 0;
	char *text, *data;
	int checked = 0;

	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 20; i++) {
		snprintf(cmd, sizeof(cmd), "%s/f%d", dir, i);
		close(open(cmd, O_CREAT | O_WRONLY, 0600));
	}
	snprintf(recs, sizeof(recs), "%s/recs", dir);
	snprintf(out, sizeof(out), "%s/strace.out", dir);
	/* LeakSanitizer (an ASan build) cannot run in a traced process: not in the child */
	snprintf(cmd, sizeof(cmd),
		 "strace -f -qq -s 32 %s %s -E ASAN_OPTIONS=detect_leaks=0 -o %s /proc/%d/exe "
		 "child %s %s",
		 verbose ? "-v" : "",
		 xflag > 1 ? "-xx"
		 : xflag   ? "-x"
			   : "",
		 out, (int)getpid(), recs, dir);
	assert_int_equal(system(cmd), 0);
	text = slurp(out, &n_out);
	data = slurp(recs, &n_recs);
	while (off + sizeof(struct rec) <= n_recs) {
		struct rec r;
		struct sbuf b = { 0 };

		memcpy(&r, data + off, sizeof(r));
		off += sizeof(r);
		assert_true(off + r.len <= n_recs);
		/* the address printer takes no options: it quotes as strace without -x */
		if (xflag && !strcmp(r.what, "sockaddr")) {
			off += r.len;
			continue;
		}
		format(&b, &r, data + off, &o);
		off += r.len;
		if (!strstr(text, b.s))
			fail_msg("%s (-v %d): %s not in strace's output:\n%s", r.what, verbose, b.s,
				 text);
		checked++;
		sb_free(&b);
	}
	/* every call of the child was saved and checked */
	assert_int_equal(checked, xflag ? 30 : 31);
	free(text);
	free(data);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_abbrev(void **state)
{
	(void)state;
	run_strace(0, 0);
}

static void test_verbose(void **state)
{
	(void)state;
	run_strace(1, 0);
}

static void test_hex(void **state)
{
	(void)state;
	run_strace(1, 1);
}

static void test_hex_all(void **state)
{
	(void)state;
	run_strace(1, 2);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abbrev),
		cmocka_unit_test(test_verbose),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_hex_all),
	};

	if (argc == 4 && !strcmp(argv[1], "child"))
		return child(argv[2], argv[3]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
