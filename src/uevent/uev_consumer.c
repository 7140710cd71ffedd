// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Controller side of the user-event transport (see uev_shm.h for the
 * layout). The traced process can write anything into the region at any
 * time: this file copies every value it reads from it into local memory
 * before checking and using it, bounds every loop by the ring size and
 * never trusts the shared tail, sizes or slot configuration (it keeps its
 * own copies). The memfd must be sealed against shrinking, so that the
 * traced process cannot make our accesses fault (SIGBUS).
 */
#include "uevent/uev_consumer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/pages.h"
#include "common/thread.h"
#include "uevent/uev_producer.h"
#include "uevent/uev_shm.h"

#define LOAD(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define LOAD_ACQ(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define STORE(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* A reservation with no writer pid known is abandoned after this long. */
#define UEV_STUCK_NS 1000000000ull

/* What the records of a writer's pid get (see uev_attribute). */
enum uev_verdict {
	UEV_UNCHECKED = 0,
	UEV_DELIVER,
	UEV_SKIP,      /* not this stream's: a child's, before we adopted the slot */
	UEV_SKIP_LOST, /* this stream's, perhaps, but of a pid we cannot vouch for */
	UEV_FORGED,
};

/* Our private state of one sub-ring. */
struct uev_csub {
	struct uev_sub *sb; /* its control block in the region */
	uint8_t *ring;	    /* our mapping of it */
	uint64_t tail;	    /* consumed up to here */
	uint64_t published; /* zeroed and stored in sub.tail up to here */
	bool stuck;
	uint64_t stuck_tail;
	uint64_t stuck_since;
	/* the writer's context of the last record read (see uev_shm.h) */
	bool ctx_known;
	int32_t ctx_tid;
	int32_t ctx_pid;
	uint64_t ctx_thread;
	uint64_t ctx_prog;
	uint32_t ctx_ts_hi;
	enum uev_verdict ctx_verdict; /* what records of ctx_pid get */
	uint64_t adopted_end; /* records before this were written before we adopted the slot */
	uint64_t lost_since;  /* since then the producers may have dropped events */
	uint64_t lost_total;  /* and they said they dropped this many */
};

struct uev_consumer {
	struct uev_ctl *ctl; /* our mapping of the control area */
	uint8_t *ring;	     /* our mapping of our slot's ring */
	struct uev_slot *sl;
	int fd;
	unsigned int slot;
	uint32_t gen;
	pid_t target;
	pid_t me;
	uint64_t own;	   /* what slot.own must read */
	uint64_t size;	   /* private copies: never re-read from the region */
	uint64_t sub_size; /* UEV_SUB_SIZE(size) */
	uint64_t map_size; /* UEV_NSUB * sub_size: what we map */
	uint32_t max_data; /* payload bytes delivered per event */
	uint32_t rec_max;  /* payload bytes a valid record may hold (>= max_data) */
	uint32_t flags;
	bool adopted; /* a provisional slot, events kept from before attach */
	struct uev_csub sub[UEV_NSUB];
	unsigned int first; /* the sub-ring the next consume starts with */
	uint64_t now;	    /* a recent CLOCK_MONOTONIC reading */
	uint64_t ncpus;	    /* producers that may drop events at once, at most */
	unsigned int corrupt;
	bool broken;
	bool prefaulting; /* prefault_thr runs uev_prefault(ring) */
	pthread_t prefault_thr;
};

static bool uev_pid_dead(pid_t pid)
{
	return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
}

/* Is thread tid of process pid gone (or a zombie)? Unknown ids: not dead. */
static bool uev_task_dead(pid_t pid, pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return false;
	if (tid <= 0)
		tid = pid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return false;
	return p[2] == 'Z' || p[2] == 'X' || p[2] == 'x';
}

static int uev_check_fd(int fd)
{
	struct stat st;
	int seals;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != UEV_TOTAL_SIZE)
		return -EPROTO;
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK))
		return -EPROTO;
	return 0;
}

/*
 * The creator maps the sealed memfd before it writes the header (magic
 * last): a region found in that window is not ready yet, which is not the
 * same as a region of another layout. Wait for it a little (its creator is
 * between two instructions of its constructor), then give up with -EAGAIN.
 */
static int uev_wait_header(const struct uev_ctl *ctl)
{
	int i;

	for (i = 0; i < 200 && !LOAD_ACQ(&ctl->magic); i++)
		usleep(50);
	return LOAD_ACQ(&ctl->magic) ? 0 : -EAGAIN;
}

static int uev_check_header(const struct uev_ctl *ctl)
{
	int err = uev_wait_header(ctl);

	if (err)
		return err;
	if (LOAD_ACQ(&ctl->magic) != UEV_MAGIC || LOAD(&ctl->version) != UEV_VERSION ||
	    LOAD(&ctl->nslots) != UEV_NSLOTS || LOAD(&ctl->names_max) != UEV_NAMES_MAX ||
	    LOAD(&ctl->name_len) != UEV_NAME_LEN || LOAD(&ctl->ctl_size) != UEV_CTL_SIZE ||
	    LOAD(&ctl->slot_max) != UEV_SLOT_MAX || LOAD(&ctl->total_size) != UEV_TOTAL_SIZE)
		return -EPROTO;
	return 0;
}

/* Find and open the region memfd of another process. */
static int uev_open_pid(pid_t pid, int *fdp)
{
	char path[64], link[sizeof(UEV_MEMFD_LINK) + 8];
	int err = -ENOENT, fd;
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir) {
		err = -errno;
		if (err == -ENOENT)
			err = -ESRCH;
		return err;
	}
	while ((de = readdir(dir))) {
		ssize_t n;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		n = readlinkat(dirfd(dir), de->d_name, link, sizeof(link) - 1);
		if (n != (ssize_t)sizeof(UEV_MEMFD_LINK) - 1)
			continue;
		link[n] = 0;
		if (strcmp(link, UEV_MEMFD_LINK))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%.16s", (int)pid, de->d_name);
		/* O_NONBLOCK: the descriptor may have been swapped for a fifo. */
		fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0) {
			if (errno == EACCES || errno == EPERM)
				err = -errno;
			continue;
		}
		if (uev_check_fd(fd)) {
			close(fd);
			continue;
		}
		closedir(dir);
		*fdp = fd;
		return 0;
	}
	closedir(dir);
	return err;
}

/*
 * shmem zeroes a fallocate()d page at its first fault, not in fallocate():
 * left alone, that happens in the traced process's first lap, and on a VM
 * a page's first fault costs as much as many events. A read fault
 * does it as well as a write and changes no byte, so a slot adopted with
 * its events in it is safe: take those faults here, once, in the
 * controller, a chunk at a time, and unmap each chunk again (the pages
 * stay in the file, zeroed): our RSS does not grow by the whole ring.
 */
#define UEV_PREFAULT_CHUNK (1u << 20)

static void uev_prefault(uint8_t *p, size_t len)
{
	for (size_t done = 0; done < len; done += UEV_PREFAULT_CHUNK) {
		size_t n = len - done < UEV_PREFAULT_CHUNK ? len - done : UEV_PREFAULT_CHUNK;

#ifdef MADV_POPULATE_READ
		if (madvise(p + done, n, MADV_POPULATE_READ))
#endif
			pages__touch_read(p + done, n); /* before Linux 5.14 */
		(void)madvise(p + done, n, MADV_DONTNEED);
	}
}

static void *uev_prefault_main(void *arg)
{
	struct uev_consumer *c = arg;

	uev_prefault(c->ring, c->map_size);
	return NULL;
}

/*
 * On a thread (uev_consumer__prefault_wait): a stream loads its BPF
 * programs meanwhile, so the ring's tens of MiB cost its creation nothing.
 */
static void uev_prefault_start(struct uev_consumer *c)
{
	c->prefaulting = !thread__start_blocked(&c->prefault_thr, uev_prefault_main, c);
	if (!c->prefaulting)
		uev_prefault(c->ring, c->map_size);
}

static void uev_zero_ring(struct uev_consumer *c)
{
	if (fallocate(c->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)UEV_RING_OFF(c->slot), (off_t)UEV_SLOT_MAX))
		memset(c->ring, 0, c->map_size);
}

/* Claim a free slot, or one whose owner died. */
static int uev_claim(struct uev_consumer *c)
{
	uint64_t mine = UEV_OWN(c->me, UEV_SLOT_CLAIMING);
	unsigned int s;

	for (s = 0; s < UEV_NSLOTS; s++) {
		struct uev_slot *sl = &c->ctl->slots[s];
		uint64_t own = LOAD_ACQ(&sl->own);
		pid_t opid = UEV_OWN_PID(own);

		if (UEV_OWN_STATE(own) != UEV_SLOT_FREE && !(opid <= 0 || uev_pid_dead(opid)))
			continue;
		if (__atomic_compare_exchange_n(&sl->own, &own, mine, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			c->slot = s;
			c->sl = sl;
			c->own = UEV_OWN(c->me, UEV_SLOT_READY);
			return 0;
		}
	}
	return -EBUSY;
}

/*
 * Adopt the provisional slot the traced process pid enabled for itself
 * (see uev_shm.h): one CAS, so that one controller only gets it, and
 * the producers, which write into PROV and READY slots alike, lose
 * nothing. Its ring keeps its size and its content.
 */
static int uev_adopt(struct uev_consumer *c, pid_t pid)
{
	uint64_t prov = UEV_OWN(pid, UEV_SLOT_PROV), mine = UEV_OWN(c->me, UEV_SLOT_READY);
	unsigned int s;

	if (pid <= 0)
		return -ENOENT;
	for (s = 0; s < UEV_NSLOTS; s++) {
		struct uev_slot *sl = &c->ctl->slots[s];
		uint64_t own = prov;

		if (LOAD(&sl->own) != prov)
			continue;
		if (__atomic_compare_exchange_n(&sl->own, &own, mine, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			c->slot = s;
			c->sl = sl;
			c->own = mine;
			c->adopted = true;
			return 0;
		}
	}
	return -ENOENT;
}

static void uev_release(struct uev_consumer *c)
{
	struct uev_slot *sl = c->sl;

	__atomic_fetch_and(&c->ctl->active, ~(1ull << c->slot), __ATOMIC_SEQ_CST);
	STORE(&sl->flags, 0);
	if (LOAD(&sl->own) == c->own)
		STORE_REL(&sl->own, UEV_OWN(c->me, UEV_SLOT_CLAIMING));
	if (c->ring)
		uev_zero_ring(c);
	STORE_REL(&sl->own, (uint64_t)UEV_SLOT_FREE);
}

static size_t uev_pow2(size_t v)
{
	size_t r = UEV_RING_MIN;

	while (r < v && r < UEV_SLOT_MAX)
		r <<= 1;
	return r;
}

int uev_consumer__attach_fd(struct uev_consumer **out, int fd, pid_t pid, const struct uev_opts *o)
{
	struct uev_consumer *c;
	struct uev_slot *sl;
	size_t max_data, size;
	void *p;
	int err;

	*out = NULL;
	err = uev_check_fd(fd);
	if (err)
		return err;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (c->fd < 0) {
		err = -errno;
		free(c);
		return err;
	}
	c->target = pid;
	c->me = getpid();
	p = mmap(NULL, UEV_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		goto err_fd;
	}
	c->ctl = p;
	err = uev_check_header(c->ctl);
	if (err)
		goto err_ctl;

	max_data = o ? o->max_data_size : 0;
	if (max_data > UEV_CONSUMER_MAX_DATA)
		max_data = UEV_CONSUMER_MAX_DATA;
	size = uev_pow2(o ? o->ring_bytes : 0);
	while (size < UEV_SLOT_MAX && size < 4 * UEV_REC_MAX(max_data))
		size <<= 1;
	c->flags = (o && o->inherit) ? UEV_SLOT_INHERIT : 0;

	if (!uev_adopt(c, pid)) {
		/* keep the provisional ring (producers are writing into it) and
		 * its content, at the size its process gave it (UEV_PROV_RING
		 * of its library's version), checked; max_data can change at
		 * any time (every record carries its length), records written
		 * before hold up to the slot's max_data bytes (delivered
		 * truncated to ours) */
		uint64_t rs = LOAD(&c->sl->ring_size);
		uint32_t rm = LOAD(&c->sl->max_data);

		if (rs < UEV_RING_MIN || rs > UEV_SLOT_MAX || (rs & (rs - 1)) ||
		    rm > UEV_CONSUMER_MAX_DATA || 4 * UEV_REC_MAX(rm) > UEV_SUB_SIZE(rs)) {
			err = -EPROTO;
			goto err_release;
		}
		size = (size_t)rs;
		if (max_data > rm)
			max_data = rm;
		c->rec_max = rm;
	} else {
		err = uev_claim(c);
		if (err)
			goto err_ctl;
		c->rec_max = (uint32_t)max_data;
	}
	c->max_data = (uint32_t)max_data;
	c->size = size;
	sl = c->sl;
	if (!c->adopted)
		__atomic_fetch_and(&c->ctl->active, ~(1ull << c->slot), __ATOMIC_SEQ_CST);
	c->sub_size = UEV_SUB_SIZE(size);
	c->map_size = UEV_NSUB * c->sub_size;
	p = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		 (off_t)UEV_RING_OFF(c->slot));
	if (p == MAP_FAILED) {
		err = -errno;
		goto err_release;
	}
	c->ring = p;
	for (unsigned int k = 0; k < UEV_NSUB; k++) {
		c->sub[k].sb = &sl->sub[k];
		c->sub[k].ring = c->ring + (uint64_t)k * c->sub_size;
	}
	/* an adopted slot keeps its generation: the children that inherited
	 * it at fork (see uev_producer.h) go on writing into it */
	c->gen = LOAD(&sl->gen) + !c->adopted;
	c->ncpus = (uint64_t)sysconf(_SC_NPROCESSORS_CONF);
	if (c->ncpus < 1 || c->ncpus > 4096)
		c->ncpus = 4096;
	for (unsigned int k = 0; k < UEV_NSUB; k++)
		c->sub[k].lost_since = clock__mono_ns() - (c->adopted ? UEV_PROV_TTL_NS : 0);
	/* Allocate the (zeroed) pages now: the traced process then only maps
	 * them on its first lap (uev_populate), it does not allocate them.
	 * Pages already written (an adopted slot) are left as they are. */
	if (!c->adopted)
		uev_zero_ring(c);
	(void)fallocate(c->fd, FALLOC_FL_KEEP_SIZE, (off_t)UEV_RING_OFF(c->slot),
			(off_t)c->map_size);
	if (o->prefault_async)
		uev_prefault_start(c);
	else
		uev_prefault(c->ring, c->map_size);
	if (c->adopted) {
		/* stays enabled: what it holds and what comes until the owner
		 * says otherwise is the owner's */
		c->flags |= UEV_SLOT_ENABLED;
		STORE(&sl->max_data, c->max_data);
		STORE(&sl->ring_size, c->size);
		STORE(&sl->target_pid, (int32_t)pid);
		memset(sl->filter, 0, sizeof(sl->filter));
		STORE(&sl->flags, c->flags);
		__atomic_fetch_or(&c->ctl->active, 1ull << c->slot, __ATOMIC_SEQ_CST);
		/* what was written until now, children's records included,
		 * was written before the slot was ours (see uev_attribute) */
		for (unsigned int k = 0; k < UEV_NSUB; k++)
			c->sub[k].adopted_end = LOAD_ACQ(&sl->sub[k].head);
		*out = c;
		return 0;
	}
	STORE(&sl->gen, c->gen);
	STORE(&sl->flags, c->flags);
	STORE(&sl->target_pid, (int32_t)pid);
	STORE(&sl->max_data, c->max_data);
	STORE(&sl->ring_size, c->size);
	memset(sl->filter, 0, sizeof(sl->filter));
	uev_slot_reset_subs(sl);
	STORE_REL(&sl->own, c->own);
	*out = c;
	return 0;

err_release:
	uev_release(c);
err_ctl:
	munmap(c->ctl, UEV_CTL_SIZE);
err_fd:
	close(c->fd);
	free(c);
	return err;
}

int uev_consumer__attach(struct uev_consumer **out, pid_t pid, const struct uev_opts *o)
{
	struct uev_ctl *ctl;
	int fd, err;

	*out = NULL;
	if (pid < 0)
		return -EINVAL;
	if (pid == 0 || pid == getpid()) {
		err = uev_producer__self(&fd, &ctl);
		if (err)
			return err;
		return uev_consumer__attach_fd(out, fd, getpid(), o);
	}
	err = uev_open_pid(pid, &fd);
	if (err)
		return err;
	err = uev_consumer__attach_fd(out, fd, pid, o);
	close(fd);
	return err;
}

int uev_consumer__set_enabled(struct uev_consumer *c, bool on)
{
	uint64_t bit = 1ull << c->slot;

	if (c->broken)
		on = false;
	if (on)
		c->flags |= UEV_SLOT_ENABLED;
	else
		c->flags &= ~UEV_SLOT_ENABLED;
	STORE(&c->sl->flags, c->flags);
	if (on)
		__atomic_fetch_or(&c->ctl->active, bit, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&c->ctl->active, ~bit, __ATOMIC_SEQ_CST);
	return 0;
}

int uev_consumer__set_id_enabled(struct uev_consumer *c, uint32_t local_id, bool on)
{
	uint32_t idx = local_id - UEV_ID_BASE;
	uint64_t bit;

	if (idx >= UEV_NAMES_MAX)
		return -EINVAL;
	bit = 1ull << (idx % 64);
	if (on)
		__atomic_fetch_and(&c->sl->filter[idx / 64], ~bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_or(&c->sl->filter[idx / 64], bit, __ATOMIC_RELAXED);
	return 0;
}

int uev_consumer__type_count(struct uev_consumer *c)
{
	uint32_t n = LOAD(&c->ctl->name_count);

	if (n < 1)
		n = 1;
	if (n > UEV_NAMES_MAX)
		n = UEV_NAMES_MAX;
	return (int)n;
}

int uev_consumer__type_name(struct uev_consumer *c, uint32_t local_id, char *buf, size_t len)
{
	uint32_t idx = local_id - UEV_ID_BASE;
	struct uev_name *e;
	char name[UEV_NAME_LEN];
	size_t n;

	if (idx >= UEV_NAMES_MAX)
		return -ENOENT;
	if (idx == 0) {
		if (len < sizeof(UEV_UNNAMED_NAME))
			return -ENAMETOOLONG;
		memcpy(buf, UEV_UNNAMED_NAME, sizeof(UEV_UNNAMED_NAME));
		return 0;
	}
	e = &c->ctl->names[idx];
	if (LOAD_ACQ(&e->state) != UEV_NAME_READY)
		return -ENOENT;
	memcpy(name, e->name, sizeof(name));
	n = strnlen(name, sizeof(name));
	if (n >= sizeof(name))
		return -EBADMSG;
	if (n + 1 > len)
		return -ENAMETOOLONG;
	memcpy(buf, name, n + 1);
	return 0;
}

/* Bytes written into sub-ring k and not consumed yet (at most its size). */
static uint64_t uev_sub_backlog(const struct uev_consumer *c, unsigned int k)
{
	uint64_t avail = LOAD_ACQ(&c->sub[k].sb->head) - c->sub[k].tail;

	return avail > c->sub_size ? c->sub_size : avail;
}

size_t uev_consumer__pending(struct uev_consumer *c)
{
	size_t total = 0;
	unsigned int k;

	if (c->broken)
		return 0;
	for (k = 0; k < UEV_NSUB; k++)
		total += (size_t)uev_sub_backlog(c, k);
	return total;
}

unsigned int uev_consumer__fill(struct uev_consumer *c)
{
	uint64_t most = 0;
	unsigned int k;

	if (c->broken || !c->sub_size)
		return 0;
	for (k = 0; k < UEV_NSUB; k++) {
		uint64_t b = uev_sub_backlog(c, k);

		if (b > most)
			most = b;
	}
	return (unsigned int)(most * 1000 / c->sub_size);
}

unsigned int uev_consumer__busy(struct uev_consumer *c)
{
	unsigned int k, n = 0;

	if (c->broken)
		return 0;
	for (k = 0; k < UEV_NSUB; k++)
		n += uev_sub_backlog(c, k) != 0;
	return n;
}

size_t uev_consumer__max_data(const struct uev_consumer *c)
{
	return c->max_data;
}

size_t uev_consumer__ring_size(const struct uev_consumer *c)
{
	return c->size;
}

/* Zero [tail, tail + len) of sub-ring u (len <= its size), wrapping. */
static void uev_clear(struct uev_consumer *c, struct uev_csub *u, uint64_t tail, uint64_t len)
{
	uint64_t size = c->sub_size, off = tail & (size - 1), first;

	if (len > size)
		len = size;
	first = len < size - off ? len : size - off;

	memset(u->ring + off, 0, first);
	if (len > first)
		memset(u->ring, 0, len - first);
}

/* Hand [published, tail) back to the producers, zeroed. */
static void uev_publish(struct uev_consumer *c, struct uev_csub *u)
{
	if (u->published == u->tail)
		return;
	uev_clear(c, u, u->published, u->tail - u->published);
	u->published = u->tail;
	STORE_REL(&u->sb->tail, u->tail);
}

static void uev_advance(struct uev_consumer *c, struct uev_csub *u, uint64_t len)
{
	u->tail += len;
	if (u->tail - u->published >= c->sub_size / 4)
		uev_publish(c, u);
}

/*
 * Skip everything written so far into sub-ring u. The head moves 8 bytes
 * on (a hole nobody reads): no writer's last record ends there, so the
 * next record of each carries its context again (see uev_shm.h).
 */
static void uev_resync(struct uev_consumer *c, struct uev_csub *u)
{
	uint64_t head, next;
	int i;

	memset(u->ring, 0, c->sub_size);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	head = LOAD(&u->sb->head);
	for (i = 0; i < 1000; i++) {
		/* producers drop while head is misaligned: realign it too */
		next = ((head + 7) & ~7ull) + 8;
		if (__atomic_compare_exchange_n(&u->sb->head, &head, next, false, __ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED)) {
			head = next;
			break;
		}
	}
	u->tail = head & ~7ull;
	u->published = u->tail;
	STORE_REL(&u->sb->tail, u->tail);
	STORE_REL(&u->sb->tail_cache, u->tail);
	u->stuck = false;
	u->ctx_known = false;
}

/* Corrupt sub-ring u (NULL: the whole slot): skip, count, maybe give up. */
static int uev_corrupt(struct uev_consumer *c, struct uev_csub *u)
{
	unsigned int k;

	if (u)
		uev_resync(c, u);
	else
		for (k = 0; k < UEV_NSUB; k++)
			uev_resync(c, &c->sub[k]);
	if (++c->corrupt >= UEV_CONSUMER_CORRUPT_MAX) {
		c->broken = true;
		uev_consumer__set_enabled(c, false);
	}
	return -EBADMSG;
}

/*
 * A drop count the region reports, checked: a producer drops at most one
 * event per nanosecond, and at most ncpus producers drop at once, so all
 * the drops reported since we attached (a provisional slot's records may
 * be UEV_PROV_TTL_NS older) add up to no more than that. More is a lie:
 * the region is corrupt.
 */
static bool uev_lost_plausible(struct uev_consumer *c, struct uev_csub *u, uint64_t count)
{
	uint64_t most = (clock__mono_ns() - u->lost_since + 1) * c->ncpus;

	if (count > most || u->lost_total > most - count)
		return false;
	u->lost_total += count;
	return true;
}

/* A time the region gives, not after now. */
static uint64_t uev_past(struct uev_consumer *c, uint64_t ts)
{
	if (ts > c->now) {
		c->now = clock__mono_ns();
		if (ts > c->now)
			ts = c->now;
	}
	return ts;
}

static void uev_report_lost(const struct uev_cbs *cbs, uint64_t count, uint64_t ts)
{
	if (count && cbs->lost)
		cbs->lost(cbs->ctx, count, ts);
}

/*
 * The record at tail of sub-ring u is reserved but not committed. Skip it
 * if its writer is gone; returns true when it was skipped.
 */
static bool uev_skip_dead(struct uev_consumer *c, struct uev_csub *u, const struct uev_cbs *cbs,
			  uint64_t head, uint64_t off)
{
	struct uev_rec *rec = (struct uev_rec *)(u->ring + off);
	uint64_t now = clock__mono_ns(), rlen = 0, avail = head - u->tail;
	uint32_t word = 0, kind;
	pid_t pid = 0, tid = 0;
	bool dead;

	if (!u->stuck || u->stuck_tail != u->tail) {
		u->stuck = true;
		u->stuck_tail = u->tail;
		u->stuck_since = now;
	}
	if (off + sizeof(*rec) <= c->sub_size)
		word = LOAD(&rec->commit);
	/* RESV: the tid is the first word after the header (uev_thr) */
	if (UEV_COMMIT_KIND(word) == UEV_KIND_RESV &&
	    off + sizeof(*rec) + sizeof(tid) <= c->sub_size)
		tid = LOAD((int32_t *)(rec + 1));
	if (UEV_COMMIT_KIND(word) == UEV_KIND_RESV_OWN && u->ctx_known)
		tid = u->ctx_tid;
	if (UEV_COMMIT_RESERVED(word))
		rlen = UEV_COMMIT_LEN(word);
	/* the thread's pid if we know it; /proc/TID/task/TID works too */
	pid = u->ctx_known && u->ctx_tid == tid ? u->ctx_pid : tid;
	if (tid > 0)
		dead = uev_task_dead(pid, tid);
	else
		dead = now - u->stuck_since > UEV_STUCK_NS;
	if (!dead)
		return false;
	/* Re-check: it may have been committed meanwhile. */
	kind = UEV_COMMIT_KIND(LOAD_ACQ(&rec->commit));
	if (kind == UEV_KIND_DATA || kind == UEV_KIND_PAD)
		return true;
	if (rlen >= sizeof(*rec) && !(rlen & 7) && off + rlen <= c->sub_size && rlen <= avail)
		uev_advance(c, u, rlen);
	else
		uev_advance(c, u, avail);
	u->stuck = false;
	u->ctx_known = false; /* the next record may have counted on it */
	uev_report_lost(cbs, 1, now);
	return true;
}

/*
 * The writer's context of rec (tid, pid, pthread_t, caller, the timestamp's
 * high half): from the record's own parts, else those of the record before
 * it in the sub-ring (the same thread's). Unknown after a skip or a
 * resync: tid 0, the traced pid, 0, 0, and the high half of now. Reports
 * the drops the record carries. Advances *p past the parts read.
 */
static int uev_take_context(struct uev_consumer *c, struct uev_csub *u, const struct uev_rec *rec,
			    const uint8_t **p, struct pt_event_hdr *h, const struct uev_cbs *cbs)
{
	if (rec->flags & UEV_REC_THREAD) {
		struct uev_thr th;

		memcpy(&th, *p, sizeof(th));
		*p += sizeof(th);
		u->ctx_known = true;
		u->ctx_tid = th.tid;
		u->ctx_pid = th.pid;
		u->ctx_thread = th.thread;
		u->ctx_verdict = UEV_UNCHECKED;
	}
	if (rec->flags & UEV_REC_LOST) {
		struct uev_lost l;

		memcpy(&l, *p, sizeof(l));
		*p += sizeof(l);
		if (!uev_lost_plausible(c, u, l.count))
			return -EBADMSG;
		uev_report_lost(cbs, l.count, uev_past(c, l.first_ts));
	}
	if (rec->flags & UEV_REC_TSHI) {
		memcpy(&u->ctx_ts_hi, *p, sizeof(u->ctx_ts_hi));
		*p += sizeof(u->ctx_ts_hi);
	} else if (!u->ctx_known) {
		u->ctx_ts_hi = (uint32_t)(clock__mono_ns() >> 32);
	}
	if (rec->flags & UEV_REC_PROG) {
		memcpy(&u->ctx_prog, *p, sizeof(u->ctx_prog));
		*p += sizeof(u->ctx_prog);
	} else if (!u->ctx_known) {
		u->ctx_prog = 0;
	}
	h->tid = u->ctx_known ? u->ctx_tid : 0;
	h->pid = u->ctx_known ? u->ctx_pid : c->target;
	h->thread = u->ctx_known ? u->ctx_thread : 0;
	h->prog_addr = u->ctx_prog;
	h->ts = (uint64_t)u->ctx_ts_hi << 32 | rec->ts_lo;
	return 0;
}

/*
 * May a record at pos say it was written by pid? The slot's process may
 * write it, and so may the processes that share its region, its children
 * (cbs->shares knows them: the kernel's word, not the region's), when the
 * stream inherits; when it does not, a child's record is not ours (a child
 * may have written it into a provisional slot before we adopted it and
 * said so): skipped. A provisional slot's records written before we
 * adopted it may also come from a child forked before anyone traced the
 * process: counted lost (ours, perhaps) or skipped. Anything else is a lie.
 */
static enum uev_verdict uev_attribute(struct uev_consumer *c, struct uev_csub *u, pid_t pid,
				      uint64_t pos, const struct uev_cbs *cbs)
{
	bool inherit = c->flags & UEV_SLOT_INHERIT;

	if (pid == c->target)
		return UEV_DELIVER;
	if (pid > 0 && cbs->shares && cbs->shares(cbs->ctx, pid))
		return inherit ? UEV_DELIVER : UEV_SKIP;
	if (pos < u->adopted_end)
		return inherit ? UEV_SKIP_LOST : UEV_SKIP;
	return UEV_FORGED;
}

/* Drain sub-ring u up to its head; returns 0, >0 (stopped) or -errno. */
static int uev_drain(struct uev_consumer *c, struct uev_csub *u, const struct uev_cbs *cbs, int *np)
{
	uint64_t size = c->sub_size, mask = size - 1, iter, max_iter = size / 8 + 2;
	uint64_t head = LOAD_ACQ(&u->sb->head);
	int ret;

	for (iter = 0; iter < max_iter; iter++) {
		uint64_t avail = head - u->tail, off = u->tail & mask, rlen;
		uint32_t commit, extra;
		const uint8_t *p;
		struct uev_rec rec;
		struct pt_event_hdr h;
		uint32_t dlen;

		if (avail > size || (head & 7))
			return uev_corrupt(c, u);
		if (!avail) {
			/* caught up: look again once (read head seldom: it is
			 * the producers' hot line) */
			uint64_t h2 = LOAD_ACQ(&u->sb->head);

			if (h2 == head)
				break;
			head = h2;
			continue;
		}
		commit = LOAD_ACQ((uint32_t *)(u->ring + off));
		if (!commit || UEV_COMMIT_RESERVED(commit)) {
			if (uev_skip_dead(c, u, cbs, head, off))
				continue;
			break;
		}
		u->stuck = false;
		if (UEV_COMMIT_TAG(commit) != UEV_POS_TAG(u->tail))
			return uev_corrupt(c, u);
		if (UEV_COMMIT_KIND(commit) == UEV_KIND_PAD) {
			rlen = UEV_COMMIT_LEN(commit);
			if (rlen != size - off || rlen > avail)
				return uev_corrupt(c, u);
			uev_advance(c, u, rlen);
			continue;
		}
		if (UEV_COMMIT_KIND(commit) != UEV_KIND_DATA || off + sizeof(rec) > size)
			return uev_corrupt(c, u);
		memcpy(&rec, u->ring + off, sizeof(rec));
		dlen = UEV_COMMIT_LEN(commit);
		extra = uev_rec_extra(rec.flags);
		rlen = UEV_ALIGN8(sizeof(rec) + extra + (uint64_t)dlen);
		if (dlen > c->rec_max || off + rlen > size || rlen > avail ||
		    rec.idx >= UEV_NAMES_MAX || (rec.flags & ~UEV_REC_FLAGS))
			return uev_corrupt(c, u);
		p = u->ring + off + sizeof(rec);
		if (uev_take_context(c, u, &rec, &p, &h, cbs))
			return uev_corrupt(c, u);
		if (h.pid != c->target && u->ctx_verdict != UEV_DELIVER) {
			enum uev_verdict v = uev_attribute(c, u, h.pid, u->tail, cbs);

			if (v == UEV_FORGED)
				return uev_corrupt(c, u);
			if (v != UEV_DELIVER) {
				if (v == UEV_SKIP_LOST)
					uev_report_lost(cbs, 1, uev_past(c, h.ts));
				uev_advance(c, u, rlen);
				continue;
			}
			u->ctx_verdict = v;
		}
		h.id = UEV_ID_BASE + rec.idx;
		h.trunc = (rec.flags & UEV_REC_TRUNC) ? PT_TRUNCATED_RECORD : PT_NOT_TRUNCATED;
		h.reserved = 0;
		h.reserved2 = 0;
		if (dlen > c->max_data) {
			/* written into a provisional slot before we adopted it */
			dlen = c->max_data;
			h.trunc = PT_TRUNCATED_RECORD;
		}
		/* a time in the future is a lie: the core's merge must not
		 * wait for it */
		h.ts = uev_past(c, h.ts);
		h.data_len = dlen;
		(*np)++;
		/* the payload in place (a record never wraps): given back to
		 * the producers only after the callback copied it */
		ret = cbs->event ? cbs->event(cbs->ctx, &h, p) : 0;
		uev_advance(c, u, rlen);
		if (ret)
			return ret < 0 ? ret : 1;
	}
	return 0;
}

int uev_consumer__consume(struct uev_consumer *c, const struct uev_cbs *cbs)
{
	int n = 0, ret = 0, err = 0;
	unsigned int i, k;

	if (c->broken)
		return 0;
	if (LOAD(&c->sl->own) != c->own || LOAD(&c->sl->gen) != c->gen)
		return uev_corrupt(c, NULL);
	/* every sub-ring, starting with a different one each time so that a
	 * callback stopping the drain early starves none */
	for (i = 0; i < UEV_NSUB && !c->broken; i++) {
		struct uev_csub *u = &c->sub[(c->first + i) & (UEV_NSUB - 1)];

		unsigned int corrupt = c->corrupt;

		if (cbs->run && LOAD_ACQ(&u->sb->head) != u->tail)
			cbs->run(cbs->ctx);
		ret = uev_drain(c, u, cbs, &n);
		uev_publish(c, u);
		if (ret == -EBADMSG && c->corrupt != corrupt) {
			/* this sub-ring was resynchronised: the others are fine */
			err = ret;
			ret = 0;
			continue;
		}
		if (ret)
			break;
	}
	c->first = (c->first + 1) & (UEV_NSUB - 1);
	if (ret < 0)
		return ret;
	if (ret > 0)
		return n;
	if (err)
		return err;
	/* Drops with no later record to carry them: report once drained. */
	for (k = 0; k < UEV_NSUB; k++) {
		struct uev_csub *u = &c->sub[k];

		if (LOAD_ACQ(&u->sb->head) == u->tail && LOAD(&u->sb->dropped)) {
			uint64_t cnt = __atomic_exchange_n(&u->sb->dropped, 0, __ATOMIC_ACQ_REL);

			if (!uev_lost_plausible(c, u, cnt))
				return uev_corrupt(c, u);
			uev_report_lost(cbs, cnt, uev_past(c, LOAD(&u->sb->drop_ts)));
		}
	}
	return n;
}

void uev_consumer__prefault_wait(struct uev_consumer *c)
{
	if (c && c->prefaulting) {
		pthread_join(c->prefault_thr, NULL);
		c->prefaulting = false;
	}
}

void uev_consumer__detach(struct uev_consumer *c)
{
	if (!c)
		return;
	uev_consumer__prefault_wait(c);
	if (LOAD(&c->sl->own) == c->own)
		uev_release(c);
	else
		__atomic_fetch_and(&c->ctl->active, ~(1ull << c->slot), __ATOMIC_SEQ_CST);
	if (c->ring)
		munmap(c->ring, c->map_size);
	munmap(c->ctl, UEV_CTL_SIZE);
	close(c->fd);
	free(c);
}
