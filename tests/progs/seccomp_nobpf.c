/*
 * For tests/cli/env_errors.test.sh: runs a command under a seccomp filter
 * that refuses bpf() and perf_event_open() as podman's default profile does
 * (EPERM), or with --enosys as an unknown system call (ENOSYS).
 *   seccomp_nobpf [--enosys] CMD [ARG...]
 * Exits 127 when the filter cannot be installed or CMD cannot be executed.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp_nobpf: no audit arch for this machine"
#endif

/* bpf() and perf_event_open() fail with err: 0, or -1 (errno) */
static int refuse_bpf(int err)
{
	struct sock_filter f[] = {
		/* another ABI's calls (x32, i386) pass: only the native ones matter */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned int)err),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	/* without CAP_SYS_ADMIN the kernel wants this first */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

int main(int argc, char **argv)
{
	int err = EPERM, i = 1;

	if (argc > 1 && !strcmp(argv[1], "--enosys")) {
		err = ENOSYS;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: seccomp_nobpf [--enosys] CMD [ARG...]\n");
		return 127;
	}
	if (refuse_bpf(err)) {
		perror("seccomp_nobpf: cannot install the filter");
		return 127;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "seccomp_nobpf: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
