// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Attaching a controller to a traced process's user-event region (see
 * uev_shm.h for the layout): finding and checking its memfd, taking a slot
 * (a free one, or the provisional one the process enabled for itself),
 * sizing, zeroing and prefaulting its ring, configuring and releasing it.
 * The traced process can write anything into the region at any time: the
 * header and an adopted slot's configuration are copied and checked here,
 * and the consumer keeps its own copies, never re-read from the region
 * (uev_consumer.c drains it). The memfd must be sealed against shrinking,
 * so that the traced process cannot make our accesses fault (SIGBUS).
 */
#include "uevent/uev_consumer_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/pages.h"
#include "common/thread.h"
#include "uevent/uev_producer.h"

static bool uev_pid_dead(pid_t pid)
{
	return pid > 0 && kill(pid, 0) < 0 && errno == ESRCH;
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
 * The ring's first faults taken here, by reads (no byte of an adopted
 * slot changes) a chunk at a time unmapped again, on a thread while the
 * BPF programs load: shmem zeroes a page at its first fault, which would
 * otherwise land in the traced process's first lap (a 20k-event burst:
 * 117 against 75 ns an event, docs/benchmarks.md).
 */
#define UEV_PREFAULT_CHUNK (1u << 20)

static void uev_prefault_range(uint8_t *p, size_t len)
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

/* The first UEV_EAGER bytes of each sub-ring. */
static void uev_prefault(struct uev_consumer *c)
{
	size_t n = c->sub_size < UEV_EAGER ? c->sub_size : UEV_EAGER;

	for (unsigned int k = 0; k < UEV_NSUB; k++)
		uev_prefault_range(c->ring + (uint64_t)k * c->sub_size, n);
}

static void uev_allocate(struct uev_consumer *c)
{
	size_t n = c->sub_size < UEV_EAGER ? c->sub_size : UEV_EAGER;

	for (unsigned int k = 0; k < UEV_NSUB; k++)
		(void)fallocate(c->fd, FALLOC_FL_KEEP_SIZE,
				(off_t)(UEV_RING_OFF(c->slot) + (uint64_t)k * c->sub_size),
				(off_t)n);
}

static void *uev_prefault_main(void *arg)
{
	uev_prefault(arg);
	return NULL;
}

/* On a thread, waited for by uev_consumer__prefault_wait. */
static void uev_prefault_start(struct uev_consumer *c)
{
	c->prefaulting = !thread__start_blocked(&c->prefault_thr, uev_prefault_main, c);
	if (!c->prefaulting)
		uev_prefault(c);
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

/*
 * c's hold on the region of fd (the memfd of process pid): a descriptor of
 * its own, the control part mapped and its header checked.
 */
static int uev_map_ctl(struct uev_consumer *c, int fd, pid_t pid)
{
	void *p;
	int err;

	c->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (c->fd < 0)
		return -errno;
	c->target = pid;
	c->me = getpid();
	/* what the process writes, and checks in its slot, is by its ids */
	if (pid != c->me)
		uev_ns__init(&c->ns, pid);
	else
		c->ns.inner = pid;
	p = mmap(NULL, UEV_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		close(c->fd);
		return err;
	}
	c->ctl = p;
	err = uev_check_header(c->ctl);
	if (err) {
		munmap(c->ctl, UEV_CTL_SIZE);
		close(c->fd);
	}
	return err;
}

/*
 * A slot for c: the provisional one its process enabled, adopted, or a
 * free one, claimed. *max_data and *size: what the stream asks for, and
 * on return what the slot will have. Nothing is held on failure.
 */
static int uev_take_slot(struct uev_consumer *c, size_t *max_data, size_t *size)
{
	int err;

	if (!uev_adopt(c, c->ns.inner)) {
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
			uev_release(c);
			return -EPROTO;
		}
		*size = (size_t)rs;
		if (*max_data > rm)
			*max_data = rm;
		c->rec_max = rm;
		return 0;
	}
	err = uev_claim(c);
	if (err)
		return err;
	c->rec_max = (uint32_t)*max_data;
	return 0;
}

/* Map the ring of c's slot (c->size) and set up its sub-rings. */
static int uev_map_ring(struct uev_consumer *c)
{
	struct uev_slot *sl = c->sl;
	void *p;

	c->sub_size = UEV_SUB_SIZE(c->size);
	c->map_size = UEV_NSUB * c->sub_size;
	p = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		 (off_t)UEV_RING_OFF(c->slot));
	if (p == MAP_FAILED)
		return -errno;
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
	return 0;
}

/* The ring's pages, allocated and faulted in (on a thread: async). */
static void uev_ring_pages(struct uev_consumer *c, bool async)
{
	/* Allocate the (zeroed) start of each sub-ring now: the traced process
	 * then only maps those pages, and allocates the rest on its first lap
	 * as it writes on (uev_populate). Pages already written (an adopted
	 * slot) are left as they are. */
	if (!c->adopted)
		uev_zero_ring(c);
	uev_allocate(c);
	if (async)
		uev_prefault_start(c);
	else
		uev_prefault(c);
}

/* Configure c's slot: from then on it is c's, and its producers write
 * events for c. */
static void uev_slot_publish(struct uev_consumer *c)
{
	struct uev_slot *sl = c->sl;

	if (c->adopted) {
		/* stays enabled: what it holds and what comes until the owner
		 * says otherwise is the owner's */
		c->flags |= UEV_SLOT_ENABLED;
		STORE(&sl->max_data, c->max_data);
		STORE(&sl->ring_size, c->size);
		STORE(&sl->target_pid, (int32_t)c->ns.inner);
		memset(sl->filter, 0, sizeof(sl->filter));
		STORE(&sl->flags, c->flags);
		__atomic_fetch_or(&c->ctl->active, 1ull << c->slot, __ATOMIC_SEQ_CST);
		/* what was written until now, children's records included,
		 * was written before the slot was ours (uev_attribute, in
		 * uev_consumer.c) */
		for (unsigned int k = 0; k < UEV_NSUB; k++)
			c->sub[k].adopted_end = LOAD_ACQ(&sl->sub[k].head);
		return;
	}
	STORE(&sl->gen, c->gen);
	STORE(&sl->flags, c->flags);
	STORE(&sl->target_pid, (int32_t)c->ns.inner);
	STORE(&sl->max_data, c->max_data);
	STORE(&sl->ring_size, c->size);
	memset(sl->filter, 0, sizeof(sl->filter));
	uev_slot_reset_subs(sl);
	STORE_REL(&sl->own, c->own);
}

int uev_consumer__attach_fd(struct uev_consumer **out, int fd, pid_t pid, const struct uev_opts *o)
{
	struct uev_consumer *c;
	size_t max_data, size;
	int err;

	*out = NULL;
	err = uev_check_fd(fd);
	if (err)
		return err;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	err = uev_map_ctl(c, fd, pid);
	if (err) {
		free(c);
		return err;
	}

	max_data = o ? o->max_data_size : 0;
	if (max_data > UEV_CONSUMER_MAX_DATA)
		max_data = UEV_CONSUMER_MAX_DATA;
	size = uev_pow2(o ? o->ring_bytes : 0);
	while (size < UEV_SLOT_MAX && size < 4 * UEV_REC_MAX(max_data))
		size <<= 1;
	c->flags = (o && o->inherit) ? UEV_SLOT_INHERIT : 0;

	err = uev_take_slot(c, &max_data, &size);
	if (err)
		goto err_ctl;
	c->max_data = (uint32_t)max_data;
	c->size = size;
	if (!c->adopted)
		__atomic_fetch_and(&c->ctl->active, ~(1ull << c->slot), __ATOMIC_SEQ_CST);
	err = uev_map_ring(c);
	if (err)
		goto err_release;
	uev_ring_pages(c, o->prefault_async);
	uev_slot_publish(c);
	*out = c;
	return 0;

err_release:
	uev_release(c);
err_ctl:
	munmap(c->ctl, UEV_CTL_SIZE);
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

size_t uev_consumer__max_data(const struct uev_consumer *c)
{
	return c->max_data;
}

size_t uev_consumer__ring_size(const struct uev_consumer *c)
{
	return c->size;
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
