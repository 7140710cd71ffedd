// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which of bpf/kern.bpf.c's programs a stream loads, and the tables they
 * read: the verifier checks every program loaded, most of a stream's
 * creation, so a stream whose events are bounded (kern_opts.ev_bounded)
 * loads only the programs, and the syscall captures, its events need.
 */
#include <bpf/libbpf.h>
#include <ptbpf/events.h>
#include <ptbpf/ptbpf.h>
#include <stdbool.h>
#include <string.h>

#include "backend/kern_int.h"
#include "backend/probe.h"
#include "backend/syscall_caps.h"
#include "backend/syscalls.h"
/* bpf/kern.h (a plain "kern.h" would be backend/kern.h) */
#include "../../bpf/kern.h"
#include "../../bpf/count.h"
#include "kern.skel.h"

#define KERN_BIT(id) (1ull << (id))

/* May the stream record syscall nr (its entry or its exit)? */
static bool kern_progs__sys(const struct kern_opts *o, int nr)
{
	return !o || !o->ev_bounded || (o->ev_sys[nr / 64] >> (nr % 64) & 1);
}

/* May it record any of the kernel events of mask (bits of ids below 64)? */
static bool kern_progs__any(const struct kern_opts *o, uint64_t mask)
{
	return !o || !o->ev_bounded || (o->ev_kern & mask);
}

static void kern_progs__set_path_table(struct kern_bpf *skel, const struct kern_opts *o)
{
	int args[2];

	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		if (!kern_progs__sys(o, nr) || !syscalls__path_args(nr, args))
			continue;
		skel->rodata->path_args[nr] = KERN_PATH_ARG(args[0], args[1]);
	}
}

/* What the compact sys_enter records leave out: the arguments a syscall
 * does not take (expanded back as zeros). */
static void kern_progs__set_nargs_table(struct kern_bpf *skel)
{
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++)
		skel->rodata->args_unused[nr] = (__u8)(6 - syscalls__nargs(nr));
}

/*
 * The captures of the syscalls the stream may record, strsize bytes of
 * each string. None at all leaves cap_strsize 0: the verifier then drops
 * the capture walks from the syscall programs (half their checking).
 */
static int kern_progs__set_caps(struct kern_bpf *skel, const struct kern_opts *o)
{
	__u8 *when = (__u8 *)skel->rodata->cap_when;
	bool any = false;
	int err;

	if (!o || !o->strsize)
		return 0;
	err = syscall_caps__table((void *)skel->rodata->cap_specs, when);
	if (err < 0)
		return err;
	for (int nr = 0; nr < PTBPF_SYSCALL_NR_MAX; nr++) {
		if (!kern_progs__sys(o, nr))
			when[nr] = 0;
		any |= when[nr] != 0;
	}
	if (any)
		skel->rodata->cap_strsize = o->strsize;
	return 0;
}

/*
 * The syscall programs whose captures' walks are bpf_loop()'s where the
 * kernel has it (5.17 on): the verifier checks a step, not each turn of a
 * bounded loop, which saves tens of milliseconds of start-up. Neither
 * when the stream records no syscall.
 */
static void kern_progs__pick_syscall_progs(struct kern_bpf *skel, const struct kern_opts *o)
{
	bool loop = libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_loop, NULL) == 1;
	bool any = false;

	for (int w = 0; o && o->ev_bounded && w < KERN_SYS_WORDS; w++)
		any |= o->ev_sys[w] != 0;
	if (!o || !o->ev_bounded)
		any = true;
	bpf_program__set_autoload(skel->progs.ptbpf_sys_enter, any && loop);
	bpf_program__set_autoload(skel->progs.ptbpf_sys_exit, any && loop);
	bpf_program__set_autoload(skel->progs.ptbpf_sys_enter_bounded, any && !loop);
	bpf_program__set_autoload(skel->progs.ptbpf_sys_exit_bounded, any && !loop);
}

int kern_progs__choose(struct kern_bpf *skel, const struct kern_opts *o)
{
	bool stacks = o && o->stack_bytes;
	int err = kern_progs__set_caps(skel, o);

	if (err)
		return err;
	kern_progs__set_path_table(skel, o);
	kern_progs__set_nargs_table(skel);
	kern_progs__pick_syscall_progs(skel, o);
	/* syscalls counted in the kernel only for a stream that asks */
	bpf_program__set_autoload(skel->progs.ptbpf_cnt_enter, o && o->aggregate);
	bpf_program__set_autoload(skel->progs.ptbpf_cnt_exit, o && o->aggregate);
	if (o && (o->aggregate & PTBPF_AGG_BY_THREAD))
		skel->rodata->count_by = KERN_COUNT_THREAD;
	else if (o && (o->aggregate & PTBPF_AGG_BY_PROCESS))
		skel->rodata->count_by = KERN_COUNT_PROCESS;
	/* the entries' table is preallocated (an LRU hash): its memory only
	 * for a stream that counts */
	if (!o || !o->aggregate)
		bpf_map__set_max_entries(skel->maps.cnt_start, 1);
	/* the mappings are for stacks only */
	bpf_program__set_autoload(skel->progs.ptbpf_map_enter, stacks);
	bpf_program__set_autoload(skel->progs.ptbpf_map_exit, stacks);
	bpf_program__set_autoload(skel->progs.ptbpf_map_exec, stacks);
	/* fd_info events only for a stream that asks for them */
	bpf_program__set_autoload(skel->progs.ptbpf_fd_exit, o && o->fdinfo);
	/* a fatal signal's generation also says why a process exited */
	bpf_program__set_autoload(skel->progs.ptbpf_sig_gen,
				  kern_progs__any(o, KERN_BIT(PTBPF_EV_SIGNAL_GENERATE) |
							     KERN_BIT(PTBPF_EV_PROC_EXIT) |
							     KERN_BIT(PTBPF_EV_THREAD_EXIT)));
	bpf_program__set_autoload(skel->progs.ptbpf_sig_deliver,
				  kern_progs__any(o, KERN_BIT(PTBPF_EV_SIGNAL_DELIVER)));
	bpf_program__set_autoload(skel->progs.ptbpf_switch,
				  kern_progs__any(o, KERN_BIT(PTBPF_EV_SCHED_SWITCH_OUT) |
							     KERN_BIT(PTBPF_EV_SCHED_SWITCH_IN)));
	bpf_program__set_autoload(skel->progs.ptbpf_wakeup,
				  kern_progs__any(o, KERN_BIT(PTBPF_EV_SCHED_WAKEUP)));
	bpf_program__set_autoload(skel->progs.ptbpf_wakeup_new,
				  kern_progs__any(o, KERN_BIT(PTBPF_EV_SCHED_WAKEUP)));
	if (o && o->ev_bounded && !o->ev_probes) {
		bpf_program__set_autoload(skel->progs.ptbpf_uprobe, false);
		bpf_program__set_autoload(skel->progs.ptbpf_uretprobe, false);
		bpf_program__set_autoload(skel->progs.ptbpf_usdt, false);
	} else {
		probe__set_autoload(skel); /* where the kernel has BPF cookies */
	}
	return 0;
}
