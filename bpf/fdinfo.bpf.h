/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * fd_info events (include/ptbpf/events.h) of a stream that asks for them:
 * at the exit of each syscall that makes an fd, what the new fd refers to,
 * read from the task's fd table (the path walked up its dentries as for
 * proc_map, a pipe's or socket's inode, an anon inode's name, a socket's
 * addresses); again when a socket is bound or connected (its addresses
 * become known then) or an fd's close-on-exec flag changes; the range of
 * a close; the working directory after chdir. Included by kern.bpf.c;
 * user space loads ptbpf_fd_exit only for such a stream.
 */
#ifndef PTBPF_BPF_FDINFO_H
#define PTBPF_BPF_FDINFO_H

#include <bpf/bpf_endian.h>

#define FD_AT_FDCWD	       (-100)
#define FD_PIPEFS_MAGIC	       0x50495045
#define FD_SOCKFS_MAGIC	       0x534F434B
#define FD_ANON_INODE_MAGIC    0x09041934
#define FD_NSFS_MAGIC	       0x6e736673
#define FD_S_IFMT	       00170000
#define FD_S_IFCHR	       0020000
#define FD_S_IFBLK	       0060000
#define FD_AF_UNIX	       1
#define FD_AF_INET	       2
#define FD_AF_INET6	       10
#define FD_EINPROGRESS	       115
#define FD_F_DUPFD	       0
#define FD_F_SETFD	       2
#define FD_F_DUPFD_CLOEXEC     1030
#define FD_FIONCLEX	       0x5450
#define FD_FIOCLEX	       0x5451
#define FD_CLOSE_RANGE_CLOEXEC 0x4
#define FD_UNIX_PATH	       108
#define FD_INFO_FIXED	       __builtin_offsetof(struct ptbpf_ev_fd_info, path)
#define FD_REC_MASK	       1023 /* above any fd_info record's size */

struct fd_scratch {
	union {
		struct {
			struct kern_rec rec;
			struct ptbpf_ev_fd_info fi;
		};
		__u8 raw[FD_REC_MASK + 1]; /* what the bound on a record's size lets it read */
	};
	__u64 names[MAP_DEPTH + 2]; /* path_rev()'s */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fd_scratch);
} fd_scratch_map SEC(".maps");

static __always_inline void fd_output(struct fd_scratch *s, __u32 tgid, __u32 tid, __u32 n,
				      bool trunc)
{
	__u32 size;

	if (n > PTBPF_FD_PATH_MAX)
		return;
	s->fi.path_len = n;
	size = FD_INFO_FIXED + n;
	rec_fill_ids(&s->rec, PTBPF_EV_FD_INFO, size, tgid, tid, 0, 0);
	if (trunc)
		s->rec.flags |= KERN_REC_TRUNCATED;
	size += sizeof(s->rec);
	/* a no-op (n was checked) that the verifier sees as a bound */
	asm volatile("" : "+r"(size));
	size &= FD_REC_MASK;
	rec_output(s, size);
}

/* A socket's family, type, protocol and addresses, as far as known now. */
static __always_inline void fd_socket(struct ptbpf_ev_fd_info *fi, struct file *f)
{
	struct socket *sock = BPF_CORE_READ(f, private_data);
	struct sock *sk = BPF_CORE_READ(sock, sk);
	struct unix_address *ua;
	struct unix_sock *u;
	int len;

	if (!sk)
		return;
	fi->type = BPF_CORE_READ(sock, type);
	fi->family = BPF_CORE_READ(sk, __sk_common.skc_family);
	fi->protocol = BPF_CORE_READ(sk, sk_protocol);
	if (fi->family == FD_AF_INET) {
		bpf_core_read(fi->laddr, 4, &sk->__sk_common.skc_rcv_saddr);
		bpf_core_read(fi->raddr, 4, &sk->__sk_common.skc_daddr);
	} else if (fi->family == FD_AF_INET6) {
		bpf_core_read(fi->laddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
		bpf_core_read(fi->raddr, 16, &sk->__sk_common.skc_v6_daddr);
	}
	if (fi->family == FD_AF_INET || fi->family == FD_AF_INET6) {
		fi->lport = BPF_CORE_READ(sk, __sk_common.skc_num);
		fi->rport = bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport));
		return;
	}
	if (fi->family != FD_AF_UNIX)
		return;
	u = (struct unix_sock *)sk;
	fi->peer_ino = BPF_CORE_READ(u, peer, sk_socket, file, f_inode, i_ino);
	ua = BPF_CORE_READ(u, addr);
	if (!ua)
		return;
	len = BPF_CORE_READ(ua, len) - (int)sizeof(__u16);
	if (len <= 0)
		return;
	if (len > FD_UNIX_PATH)
		len = FD_UNIX_PATH;
	if (bpf_probe_read_kernel(fi->path, len & 127,
				  (char *)ua + bpf_core_field_offset(struct unix_address, name) +
					  sizeof(__u16)))
		return;
	if (!fi->path[0])
		fi->path[0] = '@'; /* an abstract name, as /proc/net/unix shows it */
	fi->path[len & 127] = 0;
	fi->path_len = len + 1;
}

/*
 * A file of a pseudo file system (its dentry d has no path): the kind and
 * the name kept, the bytes of path written. A file that /proc names "/NAME
 * (deleted)" (simple_dname: memfd, secretmem) is a deleted PTBPF_FD_FILE.
 */
static __always_inline __u32 fd_pseudo(struct fd_scratch *s, struct dentry *d, __u64 magic)
{
	long n;

	if (magic == FD_PIPEFS_MAGIC) {
		s->fi.kind = PTBPF_FD_PIPE;
		return 1;
	}
	if (magic == FD_ANON_INODE_MAGIC || magic == FD_NSFS_MAGIC) {
		s->fi.kind = magic == FD_ANON_INODE_MAGIC ? PTBPF_FD_ANON : PTBPF_FD_OTHER;
	} else {
		s->fi.kind = PTBPF_FD_FILE;
		s->fi.flags |= PTBPF_FD_DELETED;
	}
	n = bpf_probe_read_kernel_str(s->fi.path, MAP_NAME_MAX, BPF_CORE_READ(d, d_name.name));
	return n > 0 ? n : 1;
}

/*
 * One fd_info event for fd of the current task (FD_AT_FDCWD: its working
 * directory); none for an fd that is not open.
 */
static __always_inline void fd_emit(struct task_struct *task, int fd, __u32 tgid, __u32 tid)
{
	struct vfsmount *vm;
	struct fd_scratch *s;
	struct dentry *d;
	struct inode *ino;
	struct file *f = NULL;
	__u32 zero = 0, n;
	bool trunc = false;
	__u64 magic;

	s = bpf_map_lookup_elem(&fd_scratch_map, &zero);
	if (!s)
		return;
	__builtin_memset(&s->fi, 0, FD_INFO_FIXED);
	s->fi.fd = fd;
	s->fi.fd_last = fd;
	s->fi.path[0] = 0;
	if (fd == FD_AT_FDCWD) {
		vm = BPF_CORE_READ(task, fs, pwd.mnt);
		d = BPF_CORE_READ(task, fs, pwd.dentry);
	} else {
		struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
		struct file **fds = BPF_CORE_READ(fdt, fd);
		unsigned long *ce = BPF_CORE_READ(fdt, close_on_exec), word = 0;

		if (fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
			return;
		bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
		if (!f)
			return;
		bpf_probe_read_kernel(&word, sizeof(word), &ce[fd / 64]);
		if (word & (1UL << (fd % 64)))
			s->fi.flags |= PTBPF_FD_CLOEXEC;
		vm = BPF_CORE_READ(f, f_path.mnt);
		d = BPF_CORE_READ(f, f_path.dentry);
	}
	ino = BPF_CORE_READ(d, d_inode);
	s->fi.ino = BPF_CORE_READ(ino, i_ino);
	s->fi.mode = BPF_CORE_READ(ino, i_mode);
	s->fi.dev = BPF_CORE_READ(ino, i_sb, s_dev);
	if ((s->fi.mode & FD_S_IFMT) == FD_S_IFCHR || (s->fi.mode & FD_S_IFMT) == FD_S_IFBLK)
		s->fi.rdev = BPF_CORE_READ(ino, i_rdev);
	magic = BPF_CORE_READ(ino, i_sb, s_magic);
	if (f && magic == FD_SOCKFS_MAGIC) {
		s->fi.kind = PTBPF_FD_SOCKET;
		n = 1;
		fd_socket(&s->fi, f);
		if (s->fi.path_len)
			n = s->fi.path_len;
	} else if (magic == FD_PIPEFS_MAGIC || magic == FD_ANON_INODE_MAGIC ||
		   BPF_CORE_READ(d, d_op, d_dname)) {
		n = fd_pseudo(s, d, magic);
	} else {
		s->fi.kind = PTBPF_FD_FILE;
		n = path_rev(task, vm, d, s->fi.path, s->names, &trunc);
		/* d_unlinked(): unhashed, and not a root */
		if (!BPF_CORE_READ(d, d_hash.pprev) && d != BPF_CORE_READ(d, d_parent))
			s->fi.flags |= PTBPF_FD_DELETED;
		if (n > PTBPF_FD_PATH_MAX)
			return;
		if (n)
			s->fi.path[(n - 1) & (PTBPF_FD_PATH_MAX - 1)] = 0;
		else
			n = 1; /* the root: user space writes "/" */
	}
	fd_output(s, tgid, tid, n, trunc);
}

/* fds first .. last were closed (cloexec: only flagged close-on-exec). */
static __always_inline void fd_closed(int first, int last, bool cloexec, __u32 tgid, __u32 tid)
{
	struct fd_scratch *s;
	__u32 zero = 0;

	s = bpf_map_lookup_elem(&fd_scratch_map, &zero);
	if (!s)
		return;
	__builtin_memset(&s->fi, 0, FD_INFO_FIXED);
	s->fi.fd = first;
	s->fi.fd_last = last;
	s->fi.kind = PTBPF_FD_CLOSED;
	s->fi.flags = cloexec ? PTBPF_FD_CLOEXEC : 0;
	s->fi.path[0] = 0;
	fd_output(s, tgid, tid, 1, false);
}

/* Two fds the call wrote to user memory (pipe, socketpair). */
static __always_inline void fd_emit_pair(struct task_struct *task, __u64 uptr, __u32 tgid,
					 __u32 tid)
{
	int fds[2];

	if (bpf_probe_read_user(fds, sizeof(fds), (const void *)uptr))
		return;
	fd_emit(task, fds[0], tgid, tid);
	fd_emit(task, fds[1], tgid, tid);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(ptbpf_fd_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task;
	__u64 pt, thread = 0;
	__u32 tgid, tid;
	long nr;

	if (!enabled)
		return 0;
	pt = bpf_get_current_pid_tgid();
	tgid = pt >> 32;
	tid = (__u32)pt;
	if (!pid_traced(tgid) || current_compat_thread(&thread) || !want(tid, PTBPF_EV_FD_INFO))
		return 0;
	nr = SC_NR(regs);
	if (ret < 0 && !(nr == NR_connect && ret == -FD_EINPROGRESS))
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	switch (nr) {
	case NR_open:
	case NR_openat:
	case NR_openat2:
	case NR_creat:
	case NR_open_by_handle_at:
	case NR_socket:
	case NR_accept:
	case NR_accept4:
	case NR_dup:
	case NR_dup2:
	case NR_dup3:
	case NR_eventfd:
	case NR_eventfd2:
	case NR_epoll_create:
	case NR_epoll_create1:
	case NR_memfd_create:
	case NR_memfd_secret:
	case NR_timerfd_create:
	case NR_signalfd:
	case NR_signalfd4:
	case NR_inotify_init:
	case NR_inotify_init1:
	case NR_fanotify_init:
	case NR_pidfd_open:
	case NR_pidfd_getfd:
	case NR_perf_event_open:
	case NR_userfaultfd:
	case NR_io_uring_setup:
	case NR_open_tree:
	case NR_fsopen:
	case NR_fsmount:
	case NR_fspick:
	case NR_mq_open:
	case NR_landlock_create_ruleset:
		fd_emit(task, ret, tgid, tid);
		break;
	case NR_pipe:
	case NR_pipe2:
		fd_emit_pair(task, SC_ARG0(regs), tgid, tid);
		break;
	case NR_socketpair:
		fd_emit_pair(task, SC_ARG3(regs), tgid, tid);
		break;
	case NR_connect:
	case NR_bind:
	case NR_listen:
		fd_emit(task, SC_ARG0(regs), tgid, tid);
		break;
	case NR_fcntl:
		if (SC_ARG1(regs) == FD_F_DUPFD || SC_ARG1(regs) == FD_F_DUPFD_CLOEXEC)
			fd_emit(task, ret, tgid, tid);
		else if (SC_ARG1(regs) == FD_F_SETFD)
			fd_emit(task, SC_ARG0(regs), tgid, tid);
		break;
	case NR_ioctl:
		if (SC_ARG1(regs) == FD_FIOCLEX || SC_ARG1(regs) == FD_FIONCLEX)
			fd_emit(task, SC_ARG0(regs), tgid, tid);
		break;
	case NR_close:
		fd_closed(SC_ARG0(regs), SC_ARG0(regs), false, tgid, tid);
		break;
	case NR_close_range:
		fd_closed(SC_ARG0(regs), SC_ARG1(regs) > 0x7fffffff ? 0x7fffffff : SC_ARG1(regs),
			  SC_ARG2(regs) & FD_CLOSE_RANGE_CLOEXEC, tgid, tid);
		break;
	case NR_chdir:
	case NR_fchdir:
		fd_emit(task, FD_AT_FDCWD, tgid, tid);
		break;
	}
	return 0;
}

#endif
