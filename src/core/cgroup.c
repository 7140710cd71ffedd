/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/procfs.h"
#include "core/target.h"

#define CGROUP2_MAGIC	  0x63677270 /* CGROUP2_SUPER_MAGIC */
#define INIT_USER_NS_INO  0xeffffffdu
#define CGROUP_WALK_DEPTH 64 /* bpf/cgroup.bpf.h walks as many levels up */

int cgroup__id(const char *path, uint64_t *id)
{
	/* kernfs's file handle: the node's 64-bit id, which is what
	 * bpf_get_current_cgroup_id() gives (the inode number on 64-bit) */
	char buf[sizeof(struct file_handle) + sizeof(uint64_t)] __attribute__((aligned(8)));
	struct file_handle *fh = (struct file_handle *)buf;
	struct statfs sf;
	struct stat st;
	int mnt;

	if (stat(path, &st) || statfs(path, &sf))
		return errno == ENOTDIR ? -ENOENT : -errno;
	if ((uint32_t)sf.f_type != CGROUP2_MAGIC || !S_ISDIR(st.st_mode))
		return -EINVAL;
	fh->handle_bytes = sizeof(uint64_t);
	if (!name_to_handle_at(AT_FDCWD, path, fh, &mnt, 0) && fh->handle_bytes == sizeof(*id))
		memcpy(id, fh->f_handle, sizeof(*id));
	else
		*id = st.st_ino;
	return 0;
}

/* The pids of cgroup.procs (open at fd, closed here) to fn: what it returned. */
static int cgroup__procs(int fd, int (*fn)(void *ctx, pid_t pid), void *ctx)
{
	FILE *f = fdopen(fd, "re");
	int ret = 0;
	long pid;

	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (!ret && fscanf(f, "%ld", &pid) == 1)
		if (pid > 0)
			ret = fn(ctx, (pid_t)pid);
	fclose(f);
	return ret;
}

/* The processes of the cgroup open at dfd (closed here) and below it. */
static int cgroup__walk(int dfd, int depth, int (*fn)(void *ctx, pid_t pid), void *ctx)
{
	int fd = openat(dfd, "cgroup.procs", O_RDONLY | O_CLOEXEC), ret = 0, dup_fd;
	struct dirent *e;
	DIR *d;

	/* one removed meanwhile holds nothing; the root's must be there */
	if (fd < 0 && !depth)
		ret = -errno;
	if (fd >= 0)
		ret = cgroup__procs(fd, fn, ctx);
	if (ret || depth >= CGROUP_WALK_DEPTH)
		goto out;
	dup_fd = dup(dfd);
	d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		goto out;
	}
	while (!ret && (e = readdir(d))) {
		int sub;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub >= 0)
			ret = cgroup__walk(sub, depth + 1, fn, ctx);
	}
	closedir(d);
out:
	close(dfd);
	return ret;
}

int cgroup__for_each_proc(const char *path, int (*fn)(void *ctx, pid_t pid), void *ctx)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return -errno;
	return cgroup__walk(dfd, 0, fn, ctx);
}

uint64_t cgroup__proc_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (procfs__read(path, buf, sizeof(buf)) < 0)
		return 0;
	/* "pid (comm) state ...": starttime is field 22, the 20th after comm */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1,
			 " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %llu",
			 &start) != 1)
		return 0;
	return start;
}

/* The kernel's id of the caller's id id of /proc/self/uid_map or gid_map. */
static uint32_t cgroup__kid(const char *map, uint32_t id)
{
	unsigned long in, out, count;
	FILE *f = fopen(map, "re");
	uint32_t k = id;

	if (!f)
		return id;
	while (fscanf(f, "%lu %lu %lu", &in, &out, &count) == 3) {
		if (id >= in && id - in < count) {
			k = (uint32_t)(out + (id - in));
			break;
		}
	}
	fclose(f);
	return k;
}

void cgroup__tracer(struct kern_tracer *t)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	struct stat st;
	FILE *f;

	memset(t, 0, sizeof(*t));
	/* ptrace's attach mode checks the fs ids: the effective ones */
	t->uid = cgroup__kid("/proc/self/uid_map", (uint32_t)geteuid());
	t->gid = cgroup__kid("/proc/self/gid_map", (uint32_t)getegid());
	t->userns = stat("/proc/self/ns/user", &st) ? INIT_USER_NS_INO : (uint32_t)st.st_ino;
	memset(d, 0, sizeof(d));
	if (!syscall(SYS_capget, &hdr, d))
		t->caps = d[0].effective | (uint64_t)d[1].effective << 32;
	t->ptrace_cap = target__may_trace_secure_exec();
	f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (f) {
		if (fscanf(f, "%d", &t->yama) != 1)
			t->yama = 0;
		fclose(f);
	}
}
