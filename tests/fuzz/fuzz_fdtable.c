// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for -y / -yy (cli/fdtable.c): the fd tables kept from a
 * log's or a traced process's fd_info, fork, exec, exit and fcntl events,
 * then printed. The input is a run of events, each a header of 4 bytes
 * (its kind, the process of a small set, a length of 2 bytes little-endian)
 * and that many payload bytes, copied to an allocation of exactly their
 * size so that ASan sees a read past it; after each event the fds its
 * payload names (and 0-31) are printed as arguments and as results.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ptbpf/events.h>

#include "decode/decode.h"

#define NR_FCNTL 72
#define NR_DUP2	 33

static const struct {
	trace_event_id_t id;
	const char *sys; /* the result printed after it, if a syscall */
} kinds[] = {
	{ PTBPF_EV_FD_INFO, NULL },
	{ PTBPF_EV_PROC_FORK, NULL },
	{ PTBPF_EV_PROC_EXEC, NULL },
	{ PTBPF_EV_PROC_EXIT, NULL },
	{ PTBPF_EV_SYS_ENTER(NR_FCNTL), NULL },
	{ PTBPF_EV_SYS_EXIT(NR_FCNTL), "fcntl" },
	{ PTBPF_EV_SYS_EXIT(NR_DUP2), "dup2" },
};

static void print_fds(const unsigned char *p, size_t len, const char *sys)
{
	struct sbuf b = { 0 };
	int32_t fd;

	for (int i = 0; i < 32; i++) {
		fdtable_arg(&b, i, i & 1);
		fdtable_ret(&b, sys, i, sys_result_is_fd(sys));
	}
	for (size_t off = 0; off + sizeof(fd) <= len && off < 64; off += sizeof(fd)) {
		memcpy(&fd, p + off, sizeof(fd));
		fdtable_arg(&b, fd, 0);
		fdtable_arg(&b, fd, 1);
		fdtable_ret(&b, sys, fd, sys_result_is_fd(sys));
	}
	/* whatever the tables hold, a bounded text */
	if (b.len > (4u << 20))
		abort();
	sb_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fdtable_enable(2);
	while (size >= 4) {
		struct cli_ev ev;
		size_t len = (size_t)data[2] | (size_t)data[3] << 8;
		unsigned int k = data[0] % (sizeof(kinds) / sizeof(kinds[0]));
		unsigned char *p;

		if (len > size - 4)
			len = size - 4;
		p = malloc(len ? len : 1);
		if (!p)
			break;
		memcpy(p, data + 4, len);
		memset(&ev, 0, sizeof(ev));
		ev.info.posix_event_id = kinds[k].id;
		ev.info.posix_pid = 100 + data[1] % 4;
		ev.tid = ev.info.posix_pid + (data[1] >> 6);
		ev.data = p;
		ev.len = len;
		fdtable_event(&ev);
		print_fds(p, len, kinds[k].sys);
		free(p);
		data += 4 + len;
		size -= 4 + len;
	}
	fdtable_free();
	return 0;
}
