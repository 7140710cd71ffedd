/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptbpf info: what the kernel offers, what the caller may do, how to fix it. */
#include <argp.h>
#include <stdio.h>
#include <ptbpf/ptbpf.h>

#include "cli.h"
#include "util/util.h"

static const struct argp info_argp = {
	.options = NULL,
	.parser = NULL,
	.args_doc = "",
	.doc = "Show the kernel release, BTF and BPF features the library needs, "
	       "and the caller's capabilities, with a one-line fix for each missing piece.",
};

static int line(const char *what, int ok, const char *fix)
{
	printf("%-28s %s", what, ok ? "yes" : "NO");
	if (!ok && fix)
		printf("   fix: %s", fix);
	printf("\n");
	return ok ? 0 : 1;
}

/*
 * What keeps ptbpf from tracing here whatever the kernel offers (cli_env): a
 * line of its own, before the others; a user namespace counts once BPF
 * fails there. NULL when nothing does, else the fix of the BPF lines.
 */
static const char *env_line(const struct ptbpf_features *f, int *missing)
{
	static const char *const what[] = {
		[CLI_ENV_NOPROC] = "/proc",
		[CLI_ENV_PROC_PIDNS] = "/proc",
		[CLI_ENV_USERNS] = "user namespace",
		[CLI_ENV_SECCOMP] = "seccomp filter",
	};
	enum cli_env e = cli_env_probe();

	if (e == CLI_ENV_OK || (e == CLI_ENV_USERNS && f->bpf_load_ok))
		return NULL;
	*missing |= line(what[e], 0, cli_env_msg(e));
	return e == CLI_ENV_USERNS || e == CLI_ENV_SECCOMP ? "bpf() is refused here: see above"
							   : NULL;
}

int cmd_info(int argc, char **argv)
{
	struct ptbpf_features f = { .sz = sizeof(f) };
	const char *refused;
	int missing = 0, err;

	argp_parse(&info_argp, argc, argv, 0, NULL, NULL);
	err = ptbpf_probe_features(&f);
	if (err) {
		fprintf(stderr, "ptbpf: cannot probe features (error %d)\n", err);
		return CLI_EXIT_FAIL;
	}
	printf("ptbpf %s\n", ptbpf_version());
	printf("%-28s %s\n", "kernel release", f.kernel_release);
	refused = env_line(&f, &missing);
	missing |= line("BTF (/sys/kernel/btf/vmlinux)", f.btf,
			"use a kernel built with CONFIG_DEBUG_INFO_BTF=y (Linux 5.8+)");
	missing |= line("BPF ring buffer", f.ringbuf,
			refused ? refused : "upgrade to Linux 5.8 or later");
	missing |= line("BPF tp_btf programs", f.tp_btf,
			refused ? refused : "upgrade to Linux 5.8+ with CONFIG_DEBUG_INFO_BTF=y");
	line("uprobes", f.uprobes, "enable CONFIG_UPROBE_EVENTS (optional)");
	line("bpf_task_pt_regs helper", f.task_pt_regs,
	     "Linux 5.15+ (optional: without it non-syscall events have no address)");
	missing |= line(
		"can load BPF programs", f.bpf_load_ok,
		refused ? refused
			: "run as root or: sudo setcap cap_bpf,cap_perfmon+ep $(command -v ptbpf)");
	line("CAP_BPF", f.cap_bpf, "sudo setcap cap_bpf,cap_perfmon+ep $(command -v ptbpf)");
	line("CAP_PERFMON", f.cap_perfmon,
	     "sudo setcap cap_bpf,cap_perfmon+ep $(command -v ptbpf)");
	line("CAP_SYS_ADMIN", f.cap_sys_admin,
	     "not needed on Linux 5.8+ when CAP_BPF and CAP_PERFMON are held");
	line("CAP_SYS_PTRACE", f.cap_sys_ptrace, "only needed to trace other users' processes");
	line("CAP_SYS_RESOURCE", f.cap_sys_resource,
	     "only needed on Linux < 5.11 (memlock accounting of BPF maps)");
	printf("%-28s %s\n", "ready to trace", missing ? "NO" : "yes");
	return missing ? CLI_EXIT_NOBPF : CLI_EXIT_OK;
}
