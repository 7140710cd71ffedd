/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record and info: what keeps ptbpf from tracing here whatever the
 * kernel and the capabilities offer (cli.h's enum cli_env).
 */
#include <errno.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/util.h"

/* The inode of the initial user namespace's nsfs file: fixed by the kernel
 * since Linux 3.8 (USER_NS_INIT_INO in newer <linux/nsfs.h>). */
#define ENV_USER_NS_INIT_INO 0xEFFFFFFDu

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* Is /proc this pid namespace's (its /proc/self is getpid())? */
static enum cli_env env_proc(void)
{
	struct statfs s;
	char buf[32];
	ssize_t n;

	if (statfs("/proc", &s) || s.f_type != PROC_SUPER_MAGIC)
		return CLI_ENV_NOPROC;
	/* missing: this process is not in the namespace that /proc shows */
	n = readlink("/proc/self", buf, sizeof(buf) - 1);
	if (n <= 0)
		return CLI_ENV_PROC_PIDNS;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) == getpid() ? CLI_ENV_OK : CLI_ENV_PROC_PIDNS;
}

/* The mode of /proc/self/status's "Seccomp:" line (2: a filter), 0: none. */
static int env_seccomp_mode(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	int mode = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8)) {
			mode = atoi(line + 8);
			break;
		}
	fclose(f);
	return mode;
}

static int env_cap_bpf(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &hdr, d))
		return 0;
	return (d[CAP_BPF / 32].effective & (1u << (CAP_BPF % 32))) ||
	       (d[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32)));
}

/*
 * A seccomp filter refuses bpf(): a command that does not exist fails with
 * EINVAL in the kernel for a caller with CAP_BPF, so EPERM (or ENOSYS where
 * the kernel has bpf(), which /proc/sys/kernel/unprivileged_bpf_disabled
 * shows) came from the filter.
 */
static int env_seccomp_blocks_bpf(void)
{
	long r;

	if (env_seccomp_mode() != 2 || !env_cap_bpf())
		return 0;
	r = syscall(SYS_bpf, -1, NULL, 0);
	if (r >= 0)
		return 0;
	return errno == EPERM ||
	       (errno == ENOSYS && !access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK));
}

enum cli_env cli_env_probe(void)
{
	enum cli_env e = env_proc();
	struct stat st;

	/* the rest reads /proc/self */
	if (e != CLI_ENV_OK)
		return e;
	if (!stat("/proc/self/ns/user", &st) && st.st_ino != ENV_USER_NS_INIT_INO)
		return CLI_ENV_USERNS;
	return env_seccomp_blocks_bpf() ? CLI_ENV_SECCOMP : CLI_ENV_OK;
}

const char *cli_env_msg(enum cli_env e)
{
	switch (e) {
	case CLI_ENV_NOPROC:
		return "/proc is not mounted: ptbpf needs it (it finds the traced processes "
		       "there); "
		       "mount it (mount -t proc proc /proc) or run ptbpf where it is";
	case CLI_ENV_PROC_PIDNS:
		return "/proc belongs to another pid namespace: mount one for this namespace, "
		       "e.g. unshare --mount-proc (pids read from this one name other processes)";
	case CLI_ENV_USERNS:
		return "BPF is not available in a non-initial user namespace (the kernel refuses "
		       "bpf() there whatever the capabilities): run ptbpf in the initial user "
		       "namespace, e.g. on the host or in a container without a user namespace";
	case CLI_ENV_SECCOMP:
		return "a seccomp filter blocks the bpf() system call: run ptbpf with a seccomp "
		       "profile that allows bpf and perf_event_open, or without one (podman or "
		       "docker run --security-opt seccomp=unconfined)";
	default:
		return "";
	}
}

int cli_env_exit(enum cli_env e)
{
	if (e == CLI_ENV_OK)
		return CLI_EXIT_OK;
	return e == CLI_ENV_USERNS || e == CLI_ENV_SECCOMP ? CLI_EXIT_PERM : CLI_EXIT_FAIL;
}

int cli_env_check_proc(void)
{
	enum cli_env e = env_proc();

	if (e == CLI_ENV_OK)
		return CLI_EXIT_OK;
	cli_err("%s", cli_env_msg(e));
	return cli_env_exit(e);
}
