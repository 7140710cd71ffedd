/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf record: keep the user events a command writes in its first
 * milliseconds, before tracing attaches to it, without a change it can see.
 *
 * libposixtrace's constructor has a USDT probe, ptbpf:early, whose
 * semaphore asks it for a provisional slot (as PTBPF_UEV_PENDING=1 does).
 * Before the held command execs, a uprobe with that semaphore as its
 * reference counter is opened for the command's pid on every file the
 * command may load as libposixtrace: the kernel raises the counter in the
 * command alone, when it maps the file. The candidates are the files the
 * dynamic loader would find (the command's DT_RPATH and DT_RUNPATH,
 * LD_LIBRARY_PATH, the ld.so cache, the default directories) and the one
 * ptbpf itself runs with; a file without the probe (an older library) is
 * passed over. The uprobe is hit once, in the constructor.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"

/* The library's names: its soname, and the development link dlopen may use. */
static const char *const lib_names[] = { "libposixtrace.so.0", "libposixtrace.so" };

/* Where the loader looks last (Debian's multiarch directories first). */
static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
	"/lib/aarch64-linux-gnu",
	"/usr/lib/aarch64-linux-gnu",
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
	"/usr/local/lib",
};

/* A file mapped read-only, bounds-checked by every reader below. */
struct elf_file {
	const unsigned char *p;
	size_t len;
};

static int elf_map(struct elf_file *f, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	f->p = MAP_FAILED;
	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
		f->p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->p == MAP_FAILED)
		return -1;
	f->len = st.st_size;
	return 0;
}

static void elf_unmap(struct elf_file *f)
{
	if (f->p != MAP_FAILED)
		munmap((void *)f->p, f->len);
}

/* The n bytes at off, or NULL if the file is shorter. */
static const void *elf_at(const struct elf_file *f, uint64_t off, uint64_t n)
{
	if (off > f->len || n > f->len - off)
		return NULL;
	return f->p + off;
}

/* Copies the n bytes at off (a header may be anywhere: not aligned); 0 or -1. */
static int elf_get(const struct elf_file *f, uint64_t off, void *to, size_t n)
{
	const void *at = elf_at(f, off, n);

	if (!at)
		return -1;
	memcpy(to, at, n);
	return 0;
}

/* The ELF header of a 64-bit little-endian file; 0 or -1. */
static int elf_hdr(const struct elf_file *f, Elf64_Ehdr *h)
{
	if (elf_get(f, 0, h, sizeof(*h)) || memcmp(h->e_ident, ELFMAG, SELFMAG) ||
	    h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB ||
	    (h->e_phnum && h->e_phentsize != sizeof(Elf64_Phdr)) ||
	    (h->e_shnum && h->e_shentsize != sizeof(Elf64_Shdr)))
		return -1;
	return 0;
}

static int elf_phdr(const struct elf_file *f, const Elf64_Ehdr *h, unsigned int i, Elf64_Phdr *ph)
{
	return elf_get(f, h->e_phoff + (uint64_t)i * sizeof(*ph), ph, sizeof(*ph));
}

static int elf_shdr(const struct elf_file *f, const Elf64_Ehdr *h, unsigned int i, Elf64_Shdr *sh)
{
	return elf_get(f, h->e_shoff + (uint64_t)i * sizeof(*sh), sh, sizeof(*sh));
}

/* The file offset of the virtual address va (in a PT_LOAD, of n bytes in
 * the file), or -1. */
static int64_t elf_offset_of(const struct elf_file *f, const Elf64_Ehdr *h, uint64_t va, uint64_t n)
{
	Elf64_Phdr ph;
	unsigned int i;

	for (i = 0; i < h->e_phnum; i++) {
		if (elf_phdr(f, h, i, &ph) || ph.p_type != PT_LOAD || va < ph.p_vaddr ||
		    va - ph.p_vaddr >= ph.p_filesz || n > ph.p_filesz - (va - ph.p_vaddr) ||
		    !elf_at(f, ph.p_offset + (va - ph.p_vaddr), n))
			continue;
		return (int64_t)(va - ph.p_vaddr + ph.p_offset);
	}
	return -1;
}

/* The section named name; 0 or -1. */
static int elf_section(const struct elf_file *f, const Elf64_Ehdr *h, const char *name,
		       Elf64_Shdr *out)
{
	size_t len = strlen(name) + 1;
	Elf64_Shdr strs;
	unsigned int i;

	if (h->e_shstrndx >= h->e_shnum || elf_shdr(f, h, h->e_shstrndx, &strs))
		return -1;
	for (i = 0; i < h->e_shnum; i++) {
		const char *n;

		if (elf_shdr(f, h, i, out) || out->sh_name >= strs.sh_size)
			continue;
		n = elf_at(f, strs.sh_offset + (uint64_t)out->sh_name, len);
		if (n && !memcmp(n, name, len))
			return 0;
	}
	return -1;
}

/*
 * The file offsets of the probe ptbpf:early and of its semaphore, from the
 * file's .note.stapsdt (addresses adjusted as the note's base says); 0 or -1.
 */
static int early_probe_of(const struct elf_file *f, uint64_t *pc_off, uint64_t *sem_off)
{
	static const char pn[] = "ptbpf\0early"; /* provider and name, NUL-terminated */
	Elf64_Shdr notes, base;
	Elf64_Ehdr h;
	uint64_t off, end;
	int have_base;

	if (elf_hdr(f, &h) || elf_section(f, &h, ".note.stapsdt", &notes) ||
	    !elf_at(f, notes.sh_offset, notes.sh_size))
		return -1;
	have_base = !elf_section(f, &h, ".stapsdt.base", &base);
	end = notes.sh_offset + notes.sh_size;
	for (off = notes.sh_offset; off + sizeof(Elf64_Nhdr) <= end;) {
		uint64_t name_at = off + sizeof(Elf64_Nhdr), desc_at, a[3];
		const char *desc, *owner;
		int64_t pc, sem;
		Elf64_Nhdr n;

		if (elf_get(f, off, &n, sizeof(n)))
			return -1;
		desc_at = name_at + (((uint64_t)n.n_namesz + 3) & ~3ull);
		desc = elf_at(f, desc_at, n.n_descsz);
		owner = elf_at(f, name_at, n.n_namesz);
		off = desc_at + (((uint64_t)n.n_descsz + 3) & ~3ull);
		if (!desc || !owner || desc_at + n.n_descsz > end || n.n_type != 3 ||
		    n.n_namesz != sizeof("stapsdt") ||
		    memcmp(owner, "stapsdt", sizeof("stapsdt")) ||
		    n.n_descsz < sizeof(a) + sizeof(pn))
			continue;
		/* pc, base, semaphore, then "provider\0name\0args\0" */
		memcpy(a, desc, sizeof(a));
		if (memcmp(desc + sizeof(a), pn, sizeof(pn)) || !a[2])
			continue;
		if (have_base && base.sh_addr != a[1]) {
			a[0] += base.sh_addr - a[1];
			a[2] += base.sh_addr - a[1];
		}
		pc = elf_offset_of(f, &h, a[0], 1);
		sem = elf_offset_of(f, &h, a[2], sizeof(unsigned short));
		if (pc < 0 || sem < 0)
			return -1;
		*pc_off = (uint64_t)pc;
		*sem_off = (uint64_t)sem;
		return 0;
	}
	return -1;
}

/* The files already tried, by inode: a file is attached once. */
struct seen {
	dev_t dev[EARLY_MAX_FILES];
	ino_t ino[EARLY_MAX_FILES];
	int n;
};

static int uprobe_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "re");
	int t = -1;

	if (f) {
		if (fscanf(f, "%d", &t) != 1)
			t = -1;
		fclose(f);
	}
	return t;
}

/* One candidate file: the uprobe for pid, if the file has the probe. */
static void early_try(struct early *e, struct seen *s, pid_t pid, const char *path)
{
	struct perf_event_attr attr;
	struct elf_file f;
	struct stat st;
	uint64_t pc, sem;
	int i, fd;

	if (e->type < 0 || e->n == EARLY_MAX_FILES || s->n == EARLY_MAX_FILES || stat(path, &st))
		return;
	for (i = 0; i < s->n; i++)
		if (s->dev[i] == st.st_dev && s->ino[i] == st.st_ino)
			return;
	s->dev[s->n] = st.st_dev;
	s->ino[s->n++] = st.st_ino;
	if (elf_map(&f, path))
		return;
	i = early_probe_of(&f, &pc, &sem);
	elf_unmap(&f);
	if (i)
		return;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = e->type;
	attr.config = sem << 32; /* the reference counter's offset (config:32-63) */
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = pc;
	fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		e->fds[e->n++] = fd;
}

/* The library's names in dir (a colon-separated list, $ORIGIN as origin). */
static void early_try_dirs(struct early *e, struct seen *s, pid_t pid, const char *dirs,
			   const char *origin)
{
	const char *origin_dir;
	char path[4096];
	size_t i;

	while (dirs && *dirs) {
		const char *end = strchrnul(dirs, ':');
		int n = (int)(end - dirs), o = 0;

		if (origin && n >= 7 && !strncmp(dirs, "$ORIGIN", 7)) {
			origin_dir = origin;
			o = 7;
		} else {
			origin_dir = "";
		}
		for (i = 0; n && i < sizeof(lib_names) / sizeof(lib_names[0]); i++)
			if (snprintf(path, sizeof(path), "%s%.*s/%s", origin_dir, n - o, dirs + o,
				     lib_names[i]) < (int)sizeof(path))
				early_try(e, s, pid, path);
		dirs = *end ? end + 1 : end;
	}
}

/* The command's DT_RPATH and DT_RUNPATH, $ORIGIN its directory. */
static void early_try_runpath(struct early *e, struct seen *s, pid_t pid, const char *cmd)
{
	char *real = realpath(cmd, NULL), *slash;
	uint64_t strtab = 0, strsz = 0, paths[2] = { 0 }, k;
	struct elf_file f;
	Elf64_Ehdr h;
	Elf64_Phdr ph;
	Elf64_Dyn d;
	int npaths = 0;
	unsigned int i;

	if (!real || elf_map(&f, real)) {
		free(real);
		return;
	}
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; !elf_hdr(&f, &h) && i < h.e_phnum; i++) {
		if (elf_phdr(&f, &h, i, &ph) || ph.p_type != PT_DYNAMIC)
			continue;
		for (k = 0; k < ph.p_filesz / sizeof(d); k++) {
			if (elf_get(&f, ph.p_offset + k * sizeof(d), &d, sizeof(d)) ||
			    d.d_tag == DT_NULL)
				break;
			if (d.d_tag == DT_STRTAB)
				strtab = d.d_un.d_ptr;
			else if (d.d_tag == DT_STRSZ)
				strsz = d.d_un.d_val;
			else if ((d.d_tag == DT_RPATH || d.d_tag == DT_RUNPATH) && npaths < 2)
				paths[npaths++] = d.d_un.d_val;
		}
	}
	if (npaths && strtab) {
		int64_t at = elf_offset_of(&f, &h, strtab, 1);

		for (k = 0; at >= 0 && k < (uint64_t)npaths; k++) {
			const char *str = paths[k] < strsz ? elf_at(&f, at + paths[k], 1) : NULL;

			if (str && memchr(str, '\0', f.len - (at + paths[k])))
				early_try_dirs(e, s, pid, str, real);
		}
	}
	elf_unmap(&f);
	free(real);
}

/* ld.so.cache (glibc's format since 2.32): the paths it has for the library. */
static void early_try_cache(struct early *e, struct seen *s, pid_t pid)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	struct elf_file f;
	uint32_t nlibs, i;
	const unsigned char *hdr;

	if (elf_map(&f, "/etc/ld.so.cache"))
		return;
	hdr = elf_at(&f, 0, 48);
	if (hdr && !memcmp(hdr, magic, sizeof(magic) - 1)) {
		memcpy(&nlibs, hdr + 20, sizeof(nlibs));
		for (i = 0; i < nlibs; i++) {
			const unsigned char *ent = elf_at(&f, 48 + (uint64_t)i * 24, 24);
			uint32_t key, value;
			const char *k, *v;

			if (!ent)
				break;
			memcpy(&key, ent + 4, sizeof(key));
			memcpy(&value, ent + 8, sizeof(value));
			k = elf_at(&f, key, sizeof("libposixtrace.so"));
			v = elf_at(&f, value, 1);
			if (k && v && memchr(v, '\0', f.len - value) &&
			    !strncmp(k, "libposixtrace.so", strlen("libposixtrace.so")))
				early_try(e, s, pid, v);
		}
	}
	elf_unmap(&f);
}

static int own_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	const char **found = arg;

	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "/libposixtrace.so"))
		*found = info->dlpi_name;
	return *found != NULL;
}

static void *early_attacher(void *arg)
{
	struct early *e = arg;
	const char *own = NULL;
	struct seen s = { .n = 0 };

	e->type = uprobe_type();
	if (e->type < 0)
		return NULL;
	/* the loader's order; each file once */
	early_try_runpath(e, &s, e->pid, e->cmd);
	early_try_dirs(e, &s, e->pid, getenv("LD_LIBRARY_PATH"), NULL);
	early_try_cache(e, &s, e->pid);
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++)
		early_try_dirs(e, &s, e->pid, default_dirs[i], NULL);
	dl_iterate_phdr(own_lib, &own);
	if (own)
		early_try(e, &s, e->pid, own);
	return NULL;
}

/*
 * The closer: forked before the stream exists (it holds no ring, map or
 * link), every fd but its socket closed (stdio too: a pipe or $(...)
 * reading ptbpf ends when ptbpf does). It receives the uprobes, holds them
 * until ptbpf hangs up, and closes them as it exits, where the kernel's
 * RCU wait keeps no one waiting. Async-signal-safe calls only.
 */
static void closer_main(int sock)
{
	char buf[CMSG_SPACE(sizeof(int) * EARLY_MAX_FILES)], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	ssize_t got;

	/* a Ctrl-C for ptbpf: it ends when ptbpf does (its socket hangs up),
	 * and the uprobes still are its to close */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &ign, NULL);
	if (sock > 0)
		syscall(SYS_close_range, 0, sock - 1, 0);
	syscall(SYS_close_range, sock + 1, ~0U, 0);
	do {
		m.msg_control = buf;
		m.msg_controllen = sizeof(buf);
		got = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	} while (got > 0 || (got < 0 && errno == EINTR));
	_exit(0);
}

static void early_closer_start(struct early *e)
{
	int sv[2];
	pid_t pid;

	e->sock = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return;
	pid = fork();
	if (pid == 0)
		closer_main(sv[1]);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return;
	}
	e->closer = pid;
	e->sock = sv[0];
}

/*
 * Closing a uprobe waits for the kernel's RCU grace periods (60-100 ms),
 * and so would ptbpf's exit if it closed the last reference (a thread
 * would not help: a process's exit waits for its threads): the uprobes go
 * to the closer, whose copies are the last. Without one, closed here.
 */
static void early_close(struct early *e)
{
	char buf[CMSG_SPACE(sizeof(int) * EARLY_MAX_FILES)] = { 0 }, c = 0;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *h;

	if (e->sock >= 0 && e->n) {
		m.msg_control = buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * e->n);
		h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int) * e->n);
		memcpy(CMSG_DATA(h), e->fds, sizeof(int) * e->n);
		sendmsg(e->sock, &m, MSG_NOSIGNAL);
	}
	for (int i = 0; i < e->n; i++)
		close(e->fds[i]);
	if (e->sock >= 0)
		close(e->sock); /* the closer exits */
	e->sock = -1;
}

/*
 * Opening a uprobe waits for the kernel's RCU grace periods: it runs on a
 * thread of its own, beside the stream's creation.
 */
void early_uev_attach(struct early *e, pid_t pid, const char *cmd)
{
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->cmd = cmd;
	early_closer_start(e);
	if (pthread_create(&e->thread, NULL, early_attacher, e))
		early_attacher(e);
	else
		e->running = 1;
}

void early_uev_wait(struct early *e)
{
	if (e->running)
		pthread_join(e->thread, NULL);
	e->running = 0;
}

void early_uev_release(struct early *e)
{
	early_uev_wait(e);
	if (e->released || !e->pid) /* released, or never attached */
		return;
	e->released = 1;
	early_close(e);
}

void early_uev_detach(struct early *e)
{
	early_uev_release(e);
	/* reaped if done, else left to init when ptbpf exits: not waited for */
	if (e->closer > 0)
		waitpid(e->closer, NULL, WNOHANG);
	e->closer = 0;
	e->n = 0;
}
