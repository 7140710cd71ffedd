// SPDX-License-Identifier: LGPL-2.1-or-later
/* What the running kernel and the caller offer (ptbpf_probe_features()). */
#include "backend/features.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int features__has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return !!(d[cap / 32].effective & (1u << (cap % 32)));
}

static void features__caps(struct ptbpf_features *f)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &hdr, d))
		return;
	f->cap_bpf = features__has_cap(d, CAP_BPF);
	f->cap_perfmon = features__has_cap(d, CAP_PERFMON);
	f->cap_sys_admin = features__has_cap(d, CAP_SYS_ADMIN);
	f->cap_sys_ptrace = features__has_cap(d, CAP_SYS_PTRACE);
	f->cap_sys_resource = features__has_cap(d, CAP_SYS_RESOURCE);
}

/* Load (not attach) "return 0" as a tp_btf program on sched_switch. */
static int features__tp_btf(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP);
	struct btf *btf = btf__load_vmlinux_btf();
	int id, fd;

	if (!btf)
		return 0;
	id = btf__find_by_name_kind(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	btf__free(btf);
	if (id <= 0)
		return 0;
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "ptbpf_probe", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Does the kernel's enum bpf_func_id (in its BTF) know this helper? */
static int features__btf_helper(const char *name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, found = 0;

	if (!btf)
		return 0;
	id = btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (int i = 0; t && i < btf_vlen(t) && !found; i++) {
		e = btf_enum(t) + i;
		found = !strcmp(btf__name_by_offset(btf, e->name_off), name);
	}
	btf__free(btf);
	return found;
}

static int features__task_pt_regs(const struct ptbpf_features *f)
{
	if (f->btf)
		return features__btf_helper("BPF_FUNC_task_pt_regs");
	/* without privileges this probe cannot tell: it says yes */
	return f->bpf_load_ok &&
	       libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_task_pt_regs, NULL) == 1;
}

void features__probe(struct ptbpf_features *f)
{
	struct utsname u;

	memset(f, 0, sizeof(*f));
	f->sz = sizeof(*f);
	if (!uname(&u)) {
		snprintf(f->kernel_release, sizeof(f->kernel_release), "%s", u.release);
	}
	f->btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	f->uprobes = access("/sys/bus/event_source/devices/uprobe", F_OK) == 0;
	features__caps(f);
	f->ringbuf = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL) == 1;
	f->bpf_load_ok = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_TRACEPOINT, NULL) == 1;
	if (f->btf)
		f->tp_btf = features__tp_btf();
	f->task_pt_regs = features__task_pt_regs(f);
}
