// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for a syscall's line from its captures (cli/decode_caps.c
 * through decode_sys_call and the split forms): the input's first byte picks
 * the syscall and the options, the next two where the entry's payload ends
 * and the exit's begins; each payload is copied into a buffer of its exact
 * size, as a hostile traced process and a corrupt log can make them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"

static const char *const names[] = {
	"read",	    "write",	  "execve",	     "poll",	   "getdents64", "connect",
	"accept4",  "newfstatat", "rt_sigaction",    "epoll_wait", "pipe2",	 "getxattr",
	"statx",    "wait4",	  "recvfrom",	     "uname",	   "ppoll",	 "syscall_400",
	"readv",    "writev",	  "ioctl",	     "sendmsg",	   "recvmsg",	 "setsockopt",
	"pselect6", "select",	  "timerfd_settime",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *name;
	struct sbuf b = { 0 };
	size_t elen, xlen;
	unsigned char *e, *x;

	if (size < 3)
		return 0;
	name = names[data[0] % (sizeof(names) / sizeof(names[0]))];
	decode_set_opts(&(struct decode_opts){ .strsize = (data[0] >> 5) * 8u,
					       .verbose = data[0] >> 4 & 1,
					       .xflag = data[0] >> 3 & 1 });
	elen = ((size_t)data[1] | (size_t)data[2] << 8) % (size - 2);
	xlen = size - 3 - elen;
	e = malloc(elen ? elen : 1);
	x = malloc(xlen ? xlen : 1);
	if (!e || !x)
		goto out;
	memcpy(e, data + 3, elen);
	memcpy(x, data + 3 + elen, xlen);
	decode_sys_call(&b, name, sys_desc(name), e, elen, x, xlen);
	decode_sys_unfinished(&b, name, sys_desc(name), e, elen);
	decode_sys_resumed(&b, sys_desc(name), e, elen, x, xlen);
	decode_sys_after_ret(&b, x, xlen);
	sb_free(&b);
out:
	free(e);
	free(x);
	return 0;
}
