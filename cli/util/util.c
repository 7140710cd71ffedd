/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf: what its commands share to report errors, open logs and buffer output. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ptbpf/ptbpf.h>

#include "util/util.h"

#define SETCAP_LINE "sudo setcap cap_bpf,cap_perfmon+ep $(command -v ptbpf)"

int cli_trace_error(int err, const char *what, long pid)
{
	struct ptbpf_features f = { .sz = sizeof(f) };
	enum cli_env env;
	int probed;

	/* capabilities held but bpf() refused (a user namespace, a seccomp
	 * filter), or a /proc that does not show the target: not its fault */
	if (err == ESRCH || err == EPERM || err == EACCES || err == ENOSYS || err == ENOTSUP) {
		env = cli_env_probe();
		if (env != CLI_ENV_OK) {
			cli_err("%s: %s", what, cli_env_msg(env));
			return cli_env_exit(env);
		}
	}
	if (err == ESRCH) {
		cli_err("%s: no such process: %ld", what, pid);
		return CLI_EXIT_NOPID;
	}
	memset(&f, 0, sizeof(f));
	f.sz = sizeof(f);
	probed = !ptbpf_probe_features(&f);
	if (probed && !f.btf && (err == ENOSYS || err == ENOTSUP || err == EOPNOTSUPP)) {
		cli_err("%s: the kernel has no BTF (/sys/kernel/btf/vmlinux): use a kernel "
			"built with CONFIG_DEBUG_INFO_BTF=y; see 'ptbpf info'",
			what);
		return CLI_EXIT_NOBPF;
	}
	/* missing capabilities show up as EPERM, EACCES or a failed feature probe */
	if (probed && !f.bpf_load_ok && (!f.cap_bpf || !f.cap_perfmon) && !f.cap_sys_admin &&
	    (err == EPERM || err == EACCES || err == ENOSYS || err == ENOTSUP)) {
		cli_err("%s: permission denied: missing %s%s%s; run as root or: %s", what,
			!f.cap_bpf ? "CAP_BPF" : "", !f.cap_bpf && !f.cap_perfmon ? " and " : "",
			!f.cap_perfmon ? "CAP_PERFMON" : "", SETCAP_LINE);
		return CLI_EXIT_PERM;
	}
	switch (err) {
	case EPERM:
	case EACCES:
		cli_err("%s: permission denied for process %ld (ptrace access check: a process "
			"of another user, or with more capabilities, needs CAP_SYS_PTRACE)",
			what, pid);
		return CLI_EXIT_PERM;
	case ENOSYS:
	case ENOTSUP:
		cli_err("%s: the kernel lacks a BPF feature ptbpf needs (%s); see 'ptbpf info'",
			what, strerror(err));
		return CLI_EXIT_NOBPF;
	default:
		cli_err("%s: %s", what, strerror(err));
		return CLI_EXIT_FAIL;
	}
}

#define CLI_OUT_BUFFER (1u << 20)

void cli_big_buffer(FILE *out)
{
	/*
	 * glibc ignores the size given to setvbuf() without a buffer and
	 * takes st_blksize (4 KiB for /dev/null, a pipe): a write() per 4 KiB
	 * of lines. Kept to the end: the stream is flushed at exit.
	 */
	static char *buf;

	if (!buf) {
		buf = malloc(CLI_OUT_BUFFER);
		/* its pages now, not a first access (microseconds on a
		 * virtual machine) per 4 KiB of lines; volatile: a memset()
		 * after malloc() is compiled into calloc() */
		for (size_t off = 0; buf && off < CLI_OUT_BUFFER; off += 4096)
			((volatile char *)buf)[off] = 0;
	}
	if (buf)
		setvbuf(out, buf, _IOFBF, CLI_OUT_BUFFER);
}

/*
 * A log's header is its first 4 KiB (docs/log-format.md): once a copy holds
 * this much, posix_trace_open tells whether it is a log, and a stream that
 * is not one stops there rather than filling memory (yes | ptbpf show -).
 */
#define CLI_LOG_PROBE  (64u << 10)
#define CLI_COPY_CHUNK (1u << 20)

/* Exit code of a posix_trace_open error on the log called name; prints it. */
static int open_error(int err, const char *name)
{
	if (err == EINVAL)
		cli_err("%s: not a valid POSIX trace log", name);
	else
		cli_err("%s: cannot read the trace log: %s", name, strerror(err));
	return CLI_EXIT_BADLOG;
}

/* Writes n bytes of buf to fd; 0 or an error number. */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * posix_trace_open reads with pread, which a pipe, a FIFO or a device does
 * not serve: their bytes go to a memfd, opened as the log instead. Prints
 * the error and returns an exit code, or 0 and the memfd in *out.
 */
static int copy_to_memfd(int in, const char *name, int *out)
{
	char *buf = malloc(CLI_COPY_CHUNK);
	int fd = memfd_create("ptbpf-log", MFD_CLOEXEC), err = 0, probed = 0, ret = 0;
	uint64_t total = 0;
	trace_id_t trid;

	if (!buf || fd < 0) {
		cli_err("%s: cannot hold the log in memory: %s", name, strerror(errno));
		ret = CLI_EXIT_FAIL;
		goto out;
	}
	for (;;) {
		ssize_t n = read(in, buf, CLI_COPY_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cli_err("cannot read log %s: %s", name, strerror(errno));
			ret = CLI_EXIT_BADLOG;
			goto out;
		}
		if (n == 0)
			break;
		err = write_all(fd, buf, (size_t)n);
		if (err) {
			cli_err("%s: cannot hold the log in memory: %s", name, strerror(err));
			ret = CLI_EXIT_FAIL;
			goto out;
		}
		total += (uint64_t)n;
		if (!probed && total >= CLI_LOG_PROBE) {
			probed = 1;
			err = posix_trace_open(fd, &trid);
			if (err) {
				ret = open_error(err, name);
				goto out;
			}
			posix_trace_close(trid);
		}
	}
out:
	free(buf);
	if (!ret)
		*out = fd;
	else if (fd >= 0)
		close(fd);
	return ret;
}

int cli_open_log(const char *path, trace_id_t *trid)
{
	const char *name = strcmp(path, "-") ? path : "standard input";
	struct stat st;
	int fd, err, copy;

	if (strcmp(path, "-"))
		fd = open(path, O_RDONLY | O_CLOEXEC);
	else
		fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		cli_err("cannot open log %s: %s", name, strerror(errno));
		return CLI_EXIT_BADLOG;
	}
	if (fstat(fd, &st)) {
		cli_err("cannot open log %s: %s", name, strerror(errno));
		close(fd);
		return CLI_EXIT_BADLOG;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_err("cannot open log %s: %s", name, strerror(EISDIR));
		close(fd);
		return CLI_EXIT_BADLOG;
	}
	if (!S_ISREG(st.st_mode)) {
		err = copy_to_memfd(fd, name, &copy);
		close(fd);
		if (err)
			return err;
		fd = copy;
	}
	err = posix_trace_open(fd, trid);
	if (err) {
		close(fd);
		return open_error(err, name);
	}
	/* the library keeps using fd until posix_trace_close */
	return 0;
}
