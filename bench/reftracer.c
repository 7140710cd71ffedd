// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * reftracer: the benchmark's reference syscall tracer, the cost floor an
 * eBPF tracer can reach (see bpf/bench_ref.bpf.c).
 *
 *   reftracer [-i DRAIN_MS] [-w BYTES] [-p] [-o FILE [-s]] -- CMD [ARG...]
 *
 * Runs CMD with its process id in the filter, records every syscall entry
 * and exit of its threads in a ring buffer per CPU, drains the rings every
 * DRAIN_MS milliseconds (default 10) without being woken up, and prints
 *   reftracer: events N dropped D emitted E paths P cpu_ns C
 * on stderr when CMD exits (C: the CPU time reftracer used from the start
 * of CMD to the last drain). The exit status is CMD's. With -w, the BPF
 * program wakes the reader at every record while more than BYTES bytes
 * wait and the reader sleeps in epoll instead of on a timer: the
 * difference is what wakeups cost (ptbpf sends one per drain, past a
 * quarter of its ring). With -p, the entry of a syscall with a path
 * argument (open, openat, stat, newfstatat, execve, ...) also copies the
 * path, as ptbpf does: the cost floor of a tracer that shows paths. With
 * -o, the drain also writes every record (its u32 size, then its bytes)
 * to FILE in 1 MiB write()s, and with -s starts the file's writeback every
 * 8 MiB as ptbpf's log writer does: the floor of `ptbpf record -o`.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <linux/types.h>

#include "bench_common.h"
#include "bench_ref.h"
#include "bench_ref.skel.h"

static unsigned long long consumed, with_path;

/* -o: the records, each after its u32 size, written in chunks of OUT_CHUNK */
#define OUT_CHUNK (1u << 20)
static unsigned char *out_buf;
static size_t out_len;
static int out_fd = -1, out_sync;
static unsigned long long out_unsynced;

static int out_write(void)
{
	size_t done = 0;

	while (done < out_len) {
		ssize_t n = write(out_fd, out_buf + done, out_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	out_unsynced += out_len;
	out_len = 0;
	/* as ptbpf's log writer: writeback started every 8 MiB */
	if (out_sync && out_unsynced >= (8u << 20)) {
		out_unsynced = 0;
		sync_file_range(out_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
	}
	return 0;
}

/* Syscalls with a path argument, and its index. */
static const struct {
	long nr;
	int arg;
} path_syscalls[] = {
#ifdef SYS_open
	{ SYS_open, 0 },       { SYS_stat, 0 },	   { SYS_lstat, 0 },	 { SYS_access, 0 },
	{ SYS_readlink, 0 },   { SYS_unlink, 0 },  { SYS_mkdir, 0 },	 { SYS_rmdir, 0 },
#endif
#ifdef SYS_newfstatat
	{ SYS_newfstatat, 1 },
#endif
	{ SYS_openat, 1 },     { SYS_statx, 1 },   { SYS_faccessat, 1 }, { SYS_readlinkat, 1 },
	{ SYS_unlinkat, 1 },   { SYS_mkdirat, 1 }, { SYS_execve, 0 },	 { SYS_chdir, 0 },
	{ SYS_truncate, 0 },
};

static int on_rec(void *ctx, void *data, size_t size)
{
	const struct bench_ref_rec *r = data;

	/* Touch the record as a real consumer would. */
	if (size >= sizeof(*r) && r->ts)
		consumed++;
	if ((r->nr & BENCH_REF_PATH) && size >= sizeof(struct bench_ref_path_rec) &&
	    ((const struct bench_ref_path_rec *)r)->path_len > 1)
		with_path++;
	if (out_buf) {
		__u32 sz = (__u32)size;

		if (out_len + sizeof(sz) + size > OUT_CHUNK && out_write())
			return -1;
		memcpy(out_buf + out_len, &sz, sizeof(sz));
		memcpy(out_buf + out_len + sizeof(sz), data, size);
		out_len += sizeof(sz) + size;
	}
	return 0;
}

/* Bytes of each CPU's ring. */
#define RING_BYTES (8u << 20)

/* Load the object with a ring per CPU (counts[] and rings are per CPU). */
static struct bench_ref_bpf *load(long wakeup, int paths, int *nr)
{
	struct bench_ref_bpf *skel = bench_ref_bpf__open();
	int tmpl, n = libbpf_num_possible_cpus();

	if (!skel)
		return NULL;
	if (n < 1 || n > BENCH_REF_MAX_CPUS)
		n = 1; /* all CPUs on ring 0 */
	*nr = n;
	skel->rodata->nr_rings = (__u32)n;
	skel->rodata->wakeup_bytes = (__u64)wakeup;
	for (size_t i = 0; paths && i < sizeof(path_syscalls) / sizeof(path_syscalls[0]); i++)
		if (path_syscalls[i].nr < BENCH_REF_NR_MAX)
			skel->rodata->path_arg[path_syscalls[i].nr] = 1 + path_syscalls[i].arg;
	tmpl = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ref_ring", 0, 0, RING_BYTES, NULL);
	if (tmpl < 0 || bpf_map__set_max_entries(skel->maps.rings, (__u32)n) ||
	    bpf_map__set_inner_map_fd(skel->maps.rings, tmpl) || bench_ref_bpf__load(skel)) {
		if (tmpl >= 0)
			close(tmpl);
		bench_ref_bpf__destroy(skel);
		return NULL;
	}
	close(tmpl);
	return skel;
}

/* Create the rings, put them in the outer map, and a reader of them all. */
static struct ring_buffer *rings_open(struct bench_ref_bpf *skel, int nr)
{
	struct ring_buffer *rb = NULL;

	for (int i = 0; i < nr; i++) {
		__u32 key = (__u32)i;
		int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ref_ring", 0, 0, RING_BYTES, NULL);

		if (fd < 0 ||
		    bpf_map_update_elem(bpf_map__fd(skel->maps.rings), &key, &fd, BPF_ANY))
			goto fail;
		if (!rb)
			rb = ring_buffer__new(fd, on_rec, NULL, NULL);
		else if (ring_buffer__add(rb, fd, on_rec, NULL))
			goto fail;
		if (!rb)
			return NULL;
		continue; /* fd stays open until exit: the reader's epoll uses it */
	fail:
		if (fd >= 0)
			close(fd);
		ring_buffer__free(rb);
		return NULL;
	}
	return rb;
}

/*
 * Read a byte of every page of the rings' read-only mappings (libbpf 1.1
 * does not say where it mapped them: /proc/self/maps does), as ptbpf
 * does with its own (src/common/pages.h): on a virtual machine the first
 * access to each page costs microseconds, which a floor must not pay
 * while the workload runs.
 */
static void rings_touch(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long lo, hi, off;
	char line[512], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "anon_inode:bpf-map") ||
		    sscanf(line, "%lx-%lx %7s %lx", &lo, &hi, perms, &off) != 4 ||
		    strcmp(perms, "r--s") || off != page)
			continue;
		for (unsigned long a = lo; a < hi; a += page)
			(void)*(const volatile char *)a;
	}
	if (f)
		fclose(f);
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_ref_bpf *skel;
	struct ring_buffer *rb;
	struct timespec tick;
	long drain_ms = 10, wakeup = 0;
	unsigned long long emitted = 0, dropped = 0;
	const char *out_path = NULL;
	int paths = 0, nr = 1;
	int go[2], opt, st = 0, err;
	uint64_t cpu0;
	pid_t child;
	__u8 one = 1;
	__u32 key;

	while ((opt = getopt(argc, argv, "+i:w:po:s")) != -1) {
		if (opt == 'o')
			out_path = optarg;
		else if (opt == 's')
			out_sync = 1;
		else if (opt == 'i')
			drain_ms = atol(optarg);
		else if (opt == 'w')
			wakeup = atol(optarg);
		else if (opt == 'p')
			paths = 1;
		else
			goto usage;
	}
	if (optind >= argc || drain_ms <= 0 || wakeup < 0) {
	usage:
		fprintf(stderr, "usage: reftracer [-i DRAIN_MS] [-w BYTES] [-p] [-o FILE [-s]] -- "
				"CMD [ARG...]\n");
		return 2;
	}
	if (out_path) {
		out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		out_buf = malloc(OUT_CHUNK);
		if (out_fd < 0 || !out_buf) {
			fprintf(stderr, "reftracer: %s: %s\n", out_path, strerror(errno));
			return 1;
		}
		memset(out_buf, 0, OUT_CHUNK); /* touched before the workload runs */
	}
	libbpf_set_print(libbpf_quiet);
	skel = load(wakeup, paths, &nr);
	if (!skel) {
		fprintf(stderr, "reftracer: cannot load the BPF object: %s\n", strerror(errno));
		return 1;
	}
	err = bench_ref_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "reftracer: attach: %s\n", strerror(-err));
		return 1;
	}
	rb = rings_open(skel, nr);
	if (!rb || pipe(go)) {
		fprintf(stderr, "reftracer: ring buffer: %s\n", strerror(errno));
		return 1;
	}
	rings_touch();
	child = fork();
	if (child < 0) {
		perror("reftracer: fork");
		return 1;
	}
	if (!child) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "reftracer: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	key = (__u32)child;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.pids), &key, &one, BPF_ANY)) {
		perror("reftracer: pid filter");
		kill(child, SIGKILL);
		return 1;
	}
	if (write(go[1], "g", 1) != 1) {
		perror("reftracer: start");
		return 1;
	}
	close(go[1]);
	cpu0 = bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	tick.tv_sec = drain_ms / 1000;
	tick.tv_nsec = (drain_ms % 1000) * 1000000L;
	for (;;) {
		pid_t w = waitpid(child, &st, WNOHANG);

		if (w == child || (w < 0 && errno != EINTR))
			break;
		if (wakeup) {
			ring_buffer__poll(rb, (int)drain_ms);
		} else {
			ring_buffer__consume(rb);
			nanosleep(&tick, NULL);
		}
	}
	ring_buffer__consume(rb);
	if (out_buf && (out_write() || close(out_fd))) {
		fprintf(stderr, "reftracer: %s: %s\n", out_path, strerror(errno));
		return 1;
	}
	for (int i = 0; i < nr; i++) {
		emitted += skel->bss->counts[i].emitted;
		dropped += skel->bss->counts[i].dropped;
	}
	fprintf(stderr, "reftracer: events %llu dropped %llu emitted %llu paths %llu cpu_ns %llu\n",
		consumed, dropped, emitted, with_path,
		(unsigned long long)(bench_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0));
	ring_buffer__free(rb);
	bench_ref_bpf__destroy(skel);
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}
