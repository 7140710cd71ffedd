/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: what processes and signals pass through memory, as strace 6.1
 * prints it: wait statuses, the kernel's struct sigaction, signal sets,
 * rlimits, struct utsname and struct sysinfo, rusage, siginfo and CPU
 * masks (x86_64 layouts, arm64's the same: tests/unit/abi_layouts.c).
 */
#include <linux/sched.h>
#include <signal.h>
#include <sys/wait.h>

#include "decode/struct.h"

/* strace's printstatus() */
int fmt_wait_status(struct sbuf *b, const void *p, size_t len)
{
	int status;

	if (len < 4)
		return -1;
	status = (int32_t)ld32(p, 0);
	sb_putc(b, '[');
	if (WIFSTOPPED(status)) {
		int sig = WSTOPSIG(status);

		sb_puts(b, "{WIFSTOPPED(s) && WSTOPSIG(s) == ");
		decode_signal(b, sig & 0x7f);
		sb_puts(b, sig & 0x80 ? " | 0x80}" : "}");
		status &= ~W_STOPCODE(sig);
	} else if (WIFSIGNALED(status)) {
		sb_puts(b, "{WIFSIGNALED(s) && WTERMSIG(s) == ");
		decode_signal(b, WTERMSIG(status));
		sb_puts(b, WCOREDUMP(status) ? " && WCOREDUMP(s)}" : "}");
		status &= ~(W_EXITCODE(0, WTERMSIG(status)) | WCOREFLAG);
	} else if (WIFEXITED(status)) {
		sb_printf(b, "{WIFEXITED(s) && WEXITSTATUS(s) == %d}", WEXITSTATUS(status));
		status &= ~W_EXITCODE(WEXITSTATUS(status), 0);
	} else if (WIFCONTINUED(status)) {
		sb_puts(b, "{WIFCONTINUED(s)}");
		status &= ~0xffff;
	} else {
		sb_printf(b, "%#x]", (unsigned)status);
		return 0;
	}
	if (status) {
		unsigned event = (unsigned)status >> 16;

		if (event) {
			sb_putc(b, '|');
			xlat_val(b, &xlat_ptrace_events, event);
			sb_puts(b, "<<16");
			status &= 0xffff;
		}
		if (status)
			sb_printf(b, "|%#x", (unsigned)status);
	}
	sb_putc(b, ']');
	return 0;
}

/* the kernel's struct sigaction (x86_64): handler, flags, restorer, mask */
int fmt_sigaction(struct sbuf *b, const void *p, size_t len)
{
	uint64_t handler, flags, restorer;
	size_t at;

	if (len < 32)
		return -1;
	handler = ld64(p, 0);
	flags = ld64(p, 8);
	restorer = ld64(p, 16);
	sb_puts(b, "{sa_handler=");
	at = b->len;
	if (handler == UINT64_MAX)
		sb_puts(b, "SIG_ERR");
	else if (handler <= 1)
		sb_puts(b, handler ? "SIG_IGN" : "SIG_DFL");
	else
		sb_xhex(b, handler);
	xlat_restyle(b, at, handler, XLAT_HEX); /* -X: 0 <c> SIG_DFL <e> */
	sb_puts(b, ", sa_mask=");
	decode_sigset(b, ld64(p, 24));
	sb_puts(b, ", sa_flags=");
	xlat_flags(b, &xlat_sigact_flags, flags);
	if (flags & 0x04000000) {
		sb_puts(b, ", sa_restorer=");
		if (restorer)
			sb_xhex(b, restorer);
		else
			sb_puts(b, "NULL");
	}
	sb_putc(b, '}');
	return 0;
}

int fmt_sigset(struct sbuf *b, const void *p, size_t len)
{
	if (len < 8)
		return -1;
	decode_sigset(b, ld64(p, 0));
	return 0;
}

static void fmt_rlim(struct sbuf *b, uint64_t lim)
{
	size_t at = b->len;

	if (lim == UINT64_MAX)
		sb_puts(b, "RLIM64_INFINITY");
	else if (lim > 1024 && lim % 1024 == 0)
		sb_printf(b, "%llu*1024", (unsigned long long)(lim / 1024));
	else
		sb_udec(b, lim, 0);
	xlat_restyle(b, at, lim, XLAT_UDEC); /* -X: 8388608 */
}

int fmt_rlimit(struct sbuf *b, const void *p, size_t len)
{
	if (len < 16)
		return -1;
	sb_puts(b, "{rlim_cur=");
	fmt_rlim(b, ld64(p, 0));
	sb_puts(b, ", rlim_max=");
	fmt_rlim(b, ld64(p, 8));
	sb_putc(b, '}');
	return 0;
}

#define UTS_FIELD 65

int fmt_utsname(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	static const char *const names[] = { "sysname", "nodename", "release",
					     "version", "machine",  "domainname" };
	size_t n = o->verbose ? DS_NELEM(names) : 2;

	if (len < n * UTS_FIELD)
		return -1;
	sb_putc(b, '{');
	for (size_t i = 0; i < n; i++) {
		const unsigned char *f = (const unsigned char *)p + i * UTS_FIELD;

		/* print_quoted_cstring: 64 bytes at most, `...` when no NUL is in the 65 */
		sb_printf(b, "%s%s=", i ? ", " : "", names[i]);
		fmt_quote(b, f, UTS_FIELD - 1, 1, o->xflag);
		if (!memchr(f, '\0', UTS_FIELD))
			sb_puts(b, "...");
	}
	sb_puts(b, o->verbose ? "}" : ", ...}");
	return 0;
}

/* struct sysinfo (x86_64) */
int fmt_sysinfo(struct sbuf *b, const void *p, size_t len)
{
	static const char *const mem[] = { "totalram",	"freeram",   "sharedram",
					   "bufferram", "totalswap", "freeswap" };

	if (len < 108)
		return -1;
	sb_printf(b, "{uptime=%llu, loads=[%llu, %llu, %llu]", (unsigned long long)ld64(p, 0),
		  (unsigned long long)ld64(p, 8), (unsigned long long)ld64(p, 16),
		  (unsigned long long)ld64(p, 24));
	for (size_t i = 0; i < DS_NELEM(mem); i++)
		sb_printf(b, ", %s=%llu", mem[i], (unsigned long long)ld64(p, 32 + 8 * i));
	sb_printf(b, ", procs=%u, totalhigh=%llu, freehigh=%llu, mem_unit=%u}", ld16(p, 80),
		  (unsigned long long)ld64(p, 88), (unsigned long long)ld64(p, 96), ld32(p, 104));
	return 0;
}

/* struct rusage (x86_64): two struct timeval, then 14 longs */
int fmt_rusage(struct sbuf *b, const void *p, size_t len, const struct decode_opts *o)
{
	static const char *const names[] = { "maxrss", "ixrss",	   "idrss",   "isrss",	 "minflt",
					     "majflt", "nswap",	   "inblock", "oublock", "msgsnd",
					     "msgrcv", "nsignals", "nvcsw",   "nivcsw" };

	if (len < 144)
		return -1;
	sb_puts(b, "{ru_utime=");
	fmt_timeval(b, p, 16);
	sb_puts(b, ", ru_stime=");
	fmt_timeval(b, (const char *)p + 16, 16);
	if (!o->verbose) {
		sb_puts(b, ", ...}");
		return 0;
	}
	for (size_t i = 0; i < DS_NELEM(names); i++)
		sb_printf(b, ", ru_%s=%lld", names[i], (long long)ld64(p, 32 + 8 * i));
	sb_putc(b, '}');
	return 0;
}

/* siginfo_t (x86_64), as waitid fills it: {} when no child was waited for */
int fmt_siginfo(struct sbuf *b, const void *p, size_t len)
{
	int signo, code;
	const char *name;
	size_t at;

	if (len < 48)
		return -1;
	signo = (int)ld32(p, 0);
	code = (int)ld32(p, 8);
	if (!signo) {
		sb_puts(b, "{}");
		return 0;
	}
	sb_puts(b, "{si_signo=");
	at = b->len;
	decode_signal(b, signo);
	xlat_restyle(b, at, (uint64_t)(int64_t)signo, XLAT_DEC);
	sb_puts(b, ", si_code=");
	name = xlat_name(&xlat_siginfo_codes, (unsigned long)(long)code);
	if (!name && signo == SIGCHLD)
		name = xlat_name(&xlat_sigchld_codes, (unsigned long)(long)code);
	at = b->len;
	if (name)
		sb_puts(b, name);
	else
		sb_dec(b, code);
	xlat_restyle(b, at, (uint64_t)(int64_t)code, XLAT_HEX);
	sb_printf(b, ", si_pid=%d, si_uid=%u", (int)ld32(p, 16), ld32(p, 20));
	if (signo == SIGCHLD) {
		sb_puts(b, ", si_status=");
		if (code == CLD_EXITED)
			sb_dec(b, (int)ld32(p, 24));
		else
			decode_signal(b, (int)ld32(p, 24));
		sb_puts(b, ", si_utime=");
		fmt_clock_t(b, ld64(p, 32));
		sb_puts(b, ", si_stime=");
		fmt_clock_t(b, ld64(p, 40));
	}
	sb_putc(b, '}');
	return 0;
}

/* a CPU mask: the numbers of its CPUs, [0 1] */
int fmt_cpuset(struct sbuf *b, const void *p, size_t len)
{
	const unsigned char *m = p;
	int n = 0;

	sb_putc(b, '[');
	for (size_t i = 0; i < len * 8; i++)
		if (m[i / 8] & (1u << (i % 8)))
			sb_printf(b, n++ ? " %zu" : "%zu", i);
	sb_putc(b, ']');
	return 0;
}

/* ", name=0x7f..." or NULL */
static void clone_addr(struct sbuf *b, const char *name, uint64_t v)
{
	sb_puts(b, name);
	if (v)
		sb_xhex(b, v);
	else
		sb_puts(b, "NULL");
}

/* struct clone_args (linux/sched.h), as strace prints clone3's */
int fmt_clone_args(struct sbuf *b, const void *p, size_t len, int64_t ret)
{
	uint64_t fl;
	size_t at;

	if (len < 64)
		return -1;
	fl = ld64(p, 0);
	sb_puts(b, "{flags=");
	xlat_flags(b, &xlat_clone_flags, fl);
	if (fl & CLONE_PIDFD)
		clone_addr(b, ", pidfd=", ld64(p, 8));
	if (fl & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		clone_addr(b, ", child_tid=", ld64(p, 16));
	if (fl & CLONE_PARENT_SETTID)
		clone_addr(b, ", parent_tid=", ld64(p, 24));
	sb_puts(b, ", exit_signal=");
	at = b->len;
	decode_signal(b, (int)ld64(p, 32));
	xlat_restyle(b, at, ld64(p, 32), XLAT_DEC);
	clone_addr(b, ", stack=", ld64(p, 40));
	sb_printf(b, ", stack_size=%#llx", (unsigned long long)ld64(p, 48));
	if (fl & CLONE_SETTLS)
		clone_addr(b, ", tls=", ld64(p, 56));
	if (len >= 80 && (ld64(p, 64) || ld64(p, 72))) {
		clone_addr(b, ", set_tid=", ld64(p, 64));
		sb_printf(b, ", set_tid_size=%llu", (unsigned long long)ld64(p, 72));
	}
	if (len >= 88 && (ld64(p, 80) || (fl & CLONE_INTO_CGROUP)))
		sb_printf(b, ", cgroup=%llu", (unsigned long long)ld64(p, 80));
	sb_putc(b, '}');
	if (ret > 0 && (fl & CLONE_PARENT_SETTID))
		sb_printf(b, " => {parent_tid=[%lld]}", (long long)ret);
	return 0;
}

/* struct sigevent (x86_64) of a signal's notification, else -1 (the pointer) */
int fmt_sigevent(struct sbuf *b, const void *p, size_t len)
{
	size_t at;

	if (len < 16 || ld64(p, 0) || (int)ld32(p, 12) != SIGEV_SIGNAL)
		return -1;
	sb_puts(b, "{sigev_signo=");
	at = b->len;
	decode_signal(b, (int)ld32(p, 8));
	xlat_restyle(b, at, (uint64_t)(int64_t)(int)ld32(p, 8), XLAT_DEC);
	sb_puts(b, ", sigev_notify=");
	at = b->len;
	sb_puts(b, "SIGEV_SIGNAL");
	xlat_restyle(b, at, SIGEV_SIGNAL, XLAT_HEX);
	sb_putc(b, '}');
	return 0;
}
