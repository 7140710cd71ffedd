// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the printers of captured syscall memory
 * (cli/decode_struct.h): the input's first 9 bytes are the parameters (a
 * count or real length of 8 bytes, options of one), the rest the bytes a
 * hostile traced process put there, given to every printer in a buffer of
 * their own size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/struct.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct decode_opts o;
	struct sbuf b = { 0 };
	unsigned char *p;
	uint64_t n;
	size_t len;

	if (size < 9)
		return 0;
	memcpy(&n, data, sizeof(n));
	o.verbose = data[8] & 1;
	o.xflag = (data[8] >> 1) % 3;
	o.strsize = (data[8] >> 3) * 8u;
	len = size - 9;
	/* small counts most of the time, so that the printers go past their checks */
	if (!(data[8] & 0x80))
		n %= len + 2;
	p = malloc(len ? len : 1);
	if (!p)
		return 0;
	memcpy(p, data + 9, len);
	fmt_str(&b, p, len, n, 0, &o);
	fmt_str(&b, p, len, n, 1, &o);
	fmt_stat(&b, p, len, &o);
	fmt_statx(&b, p, len, &o);
	fmt_statfs(&b, p, len, &o);
	fmt_sockaddr(&b, p, len, n);
	fmt_timespec(&b, p, len);
	fmt_timeval(&b, p, len);
	fmt_itimerspec(&b, p, len);
	fmt_wait_status(&b, p, len);
	fmt_int_array(&b, p, len, n);
	fmt_sigaction(&b, p, len);
	fmt_sigset(&b, p, len);
	fmt_rlimit(&b, p, len);
	fmt_utsname(&b, p, len, &o);
	fmt_sysinfo(&b, p, len);
	fmt_pollfds(&b, p, len, n, 0);
	fmt_pollfds(&b, p, len, n, 1);
	fmt_epoll_event(&b, p, len);
	fmt_epoll_events(&b, p, len, n);
	fmt_fd_set(&b, p, len, (int)n);
	fmt_dirents_count(&b, p, len, n, &o);
	fmt_winsize(&b, p, len);
	fmt_termios(&b, p, len, &o);
	fmt_linger(&b, p, len);
	fmt_sockopt_int(&b, p, len);
	fmt_msg_flags(&b, n);
	fmt_sockopt_level_name(&b, (int)n, (int)(n >> 32));
	fmt_clockid(&b, (int)n);
	fmt_epoll_ctl_op(&b, (int)n);
	fmt_poll_events(&b, (unsigned)n);
	fmt_statx_mask(&b, (unsigned)n);
	fmt_flock(&b, p, len, (int)(n & 1));
	fmt_rusage(&b, p, len, &o);
	fmt_siginfo(&b, p, len);
	fmt_cpuset(&b, p, len);
	fmt_stack(&b, p, len);
	fmt_sigevent(&b, p, len);
	fmt_clone_args(&b, p, len, (int64_t)n);
	if (name_ioctl(n))
		sb_puts(&b, name_ioctl(n));
	/* whatever the bytes, a bounded text */
	if (b.len > (1u << 20))
		abort();
	sb_free(&b);
	free(p);
	return 0;
}
