/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf: the calls printed <unfinished ...> whose exits are to come, by
 * thread: what their "<... NAME resumed>" lines need.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt/fmt.h"

/* data: the entry's payload for its resumed line, or NULL; args: its arguments, or NULL */
void fmt_pending_add(struct fmt *f, pid_t pid, pid_t tid, const char *name, int64_t ts,
		     const struct sbuf *data, const uint64_t *args)
{
	size_t i, n;

	for (i = 0; i < f->nunfinished; i++)
		if (f->unfinished[i].tid == tid)
			break;
	if (i == f->nunfinished) {
		if (f->nunfinished == f->capunfinished) {
			size_t cap = f->capunfinished ? 2 * f->capunfinished : 16;
			void *p = realloc(f->unfinished, cap * sizeof(*f->unfinished));

			if (!p)
				return;
			f->unfinished = p;
			f->capunfinished = cap;
		}
		memset(&f->unfinished[i].data, 0, sizeof(f->unfinished[i].data));
		f->nunfinished++;
	}
	sb_reset(&f->unfinished[i].data);
	if (data)
		sb_cat(&f->unfinished[i].data, data);
	f->unfinished[i].pid = pid;
	f->unfinished[i].tid = tid;
	f->unfinished[i].ts = ts;
	f->unfinished[i].args_ok = args != NULL;
	if (args)
		memcpy(f->unfinished[i].args, args, sizeof(f->unfinished[i].args));
	/* not snprintf: two threads' syscalls interleave, so this runs for
	 * about every other syscall of a multithreaded process */
	n = strnlen(name, sizeof(f->unfinished[i].name) - 1);
	memcpy(f->unfinished[i].name, name, n);
	f->unfinished[i].name[n] = '\0';
}

/* Forgets tid's entry printed unfinished; its time, or -1 if none. Its
 * payload kept for the resumed line goes to f->resume_data (else emptied). */
int64_t fmt_pending_del(struct fmt *f, pid_t tid)
{
	size_t i;
	int64_t ts;

	sb_reset(&f->resume_data);
	f->resume_args_ok = 0;
	for (i = 0; i < f->nunfinished; i++) {
		if (f->unfinished[i].tid == tid) {
			struct sbuf d = f->unfinished[i].data;

			ts = f->unfinished[i].ts;
			f->resume_args_ok = f->unfinished[i].args_ok;
			memcpy(f->resume_args, f->unfinished[i].args, sizeof(f->resume_args));
			f->unfinished[i].data = f->resume_data;
			f->resume_data = d;
			sb_free(&f->unfinished[i].data);
			f->unfinished[i] = f->unfinished[--f->nunfinished];
			return ts;
		}
	}
	return -1;
}

int fmt_pending_has(const struct fmt *f, pid_t tid)
{
	for (size_t i = 0; i < f->nunfinished; i++)
		if (f->unfinished[i].tid == tid)
			return 1;
	return 0;
}

void fmt_pending_rekey(struct fmt *f, pid_t from, pid_t to)
{
	for (size_t i = 0; i < f->nunfinished; i++) {
		if (f->unfinished[i].tid == from) {
			f->unfinished[i].tid = to;
			f->unfinished[i].pid = to;
		}
	}
}

void fmt_pending_free(struct fmt *f)
{
	for (size_t i = 0; i < f->nunfinished; i++)
		sb_free(&f->unfinished[i].data);
	free(f->unfinished);
	f->unfinished = NULL;
	f->nunfinished = f->capunfinished = 0;
}
