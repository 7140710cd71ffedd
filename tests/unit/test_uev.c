// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of the user-event transport: ring, drops, names, hostile memory. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <trace.h>

#include "common/clock.h"
#include "uevent/uev_consumer.h"
#include "uevent/uev_producer.h"
#include "uevent/uev_shm.h"

struct rx {
	unsigned int n;
	uint64_t lost;
	unsigned int lost_calls;
	uint64_t lost_ts;
	unsigned int lost_before_event; /* events seen when the last lost() came */
	struct pt_event_hdr last;
	unsigned char data[4096];
	uint32_t seq[64]; /* next expected sequence per writer */
	bool check_seq;
	unsigned int seq_err;
	/* writer w's tid and pthread_self(), set before it writes (0: not checked) */
	struct {
		pid_t tid;
		uint64_t thread;
	} who[64];
	unsigned int who_err;
	int stop_after;
};

static int rx_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct rx *r = ctx;

	r->last = *h;
	if (h->data_len <= sizeof(r->data))
		memcpy(r->data, data, h->data_len);
	if (r->check_seq && h->data_len >= 8) {
		uint32_t w, s;

		memcpy(&w, data, 4);
		memcpy(&s, (const char *)data + 4, 4);
		if (w < 64) {
			if (s < r->seq[w])
				r->seq_err++;
			r->seq[w] = s + 1;
			/* write_seq's caller address: seq_prog() */
			if (r->who[w].tid &&
			    (h->tid != r->who[w].tid || h->thread != r->who[w].thread ||
			     h->pid != getpid() || h->prog_addr != 0x1000 + w * 16 + s % 3))
				r->who_err++;
		}
	}
	r->n++;
	if (r->stop_after && (int)r->n >= r->stop_after)
		return 1;
	return 0;
}

static void rx_lost(void *ctx, uint64_t count, uint64_t ts)
{
	struct rx *r = ctx;

	r->lost += count;
	r->lost_calls++;
	r->lost_ts = ts;
	r->lost_before_event = r->n;
}

struct fx {
	int fd;
	struct uev_ctl *ctl;
	struct uev_consumer *c;
	struct rx rx;
	struct uev_cbs cbs;
};

/* The processes a fixture's region is shared with (see uev_cbs.shares). */
static pid_t fx_sharers[4];

static bool fx_shares(void *ctx, pid_t pid)
{
	for (size_t i = 0; i < sizeof(fx_sharers) / sizeof(fx_sharers[0]); i++)
		if (fx_sharers[i] && fx_sharers[i] == pid)
			return true;
	return false;
}

static struct fx *fx_new_opts(size_t ring, size_t max_data, bool inherit)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct uev_opts o = { .ring_bytes = ring, .max_data_size = max_data, .inherit = inherit };

	assert_non_null(f);
	assert_int_equal(uev_producer__region_create(&f->fd, &f->ctl), 0);
	assert_int_equal(uev_consumer__attach_fd(&f->c, f->fd, getpid(), &o), 0);
	assert_int_equal(uev_consumer__set_enabled(f->c, true), 0);
	f->cbs.event = rx_event;
	f->cbs.lost = rx_lost;
	f->cbs.shares = fx_shares;
	f->cbs.ctx = &f->rx;
	return f;
}

static struct fx *fx_new(size_t ring, size_t max_data)
{
	return fx_new_opts(ring, max_data, false);
}

static void fx_free(struct fx *f)
{
	uev_consumer__detach(f->c);
	munmap(f->ctl, UEV_TOTAL_SIZE);
	close(f->fd);
	free(f);
}

static unsigned int slot_of(struct fx *f)
{
	unsigned int s;

	for (s = 0; s < UEV_NSLOTS; s++)
		if (UEV_OWN_STATE(f->ctl->slots[s].own) == UEV_SLOT_READY)
			return s;
	fail();
	return 0;
}

/* The sub-ring this thread writes into, its size and its bytes. */
static struct uev_sub *my_sub(struct fx *f, unsigned int s)
{
	return &f->ctl->slots[s].sub[(uint32_t)gettid() & (UEV_NSUB - 1)];
}

static uint64_t sub_size(struct fx *f, unsigned int s)
{
	return UEV_SUB_SIZE(f->ctl->slots[s].ring_size);
}

static uint8_t *my_ring(struct fx *f, unsigned int s)
{
	return (uint8_t *)f->ctl + UEV_RING_OFF(s) +
	       ((uint32_t)gettid() & (UEV_NSUB - 1)) * sub_size(f, s);
}

static void test_basic(void **state)
{
	struct fx *f = fx_new(65536, 256);
	unsigned int s = slot_of(f);
	char buf[300];
	int i;

	for (i = 0; i < 300; i++)
		buf[i] = (char)i;
	uev_producer__write_slot(f->ctl, s, 5, buf, 68, (void *)0x1234);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.last.id, 2048 + 5);
	assert_int_equal(f->rx.last.data_len, 68);
	assert_int_equal(f->rx.last.trunc, PT_NOT_TRUNCATED);
	assert_int_equal(f->rx.last.pid, getpid());
	assert_int_equal(f->rx.last.tid, gettid());
	assert_int_equal(f->rx.last.thread, (uint64_t)pthread_self());
	assert_int_equal(f->rx.last.prog_addr, 0x1234);
	assert_true(f->rx.last.ts > 0);
	assert_memory_equal(f->rx.data, buf, 68);

	/* truncation */
	uev_producer__write_slot(f->ctl, s, 0, buf, 300, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.last.data_len, 256);
	assert_int_equal(f->rx.last.trunc, PT_TRUNCATED_RECORD);
	assert_memory_equal(f->rx.data, buf, 256);

	/* empty payload */
	uev_producer__write_slot(f->ctl, s, 1, NULL, 0, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.last.data_len, 0);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	assert_int_equal(f->rx.lost, 0);

	/* stop after one event: the rest stays for the next call; busy
	 * counts the sub-rings holding data (one thread writes into one) */
	assert_int_equal(uev_consumer__busy(f->c), 0);
	for (i = 0; i < 3; i++)
		uev_producer__write_slot(f->ctl, s, 1, buf, 8, NULL);
	assert_int_equal(uev_consumer__busy(f->c), 1);
	f->rx.stop_after = f->rx.n + 1;
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(uev_consumer__busy(f->c), 1);
	f->rx.stop_after = 0;
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 2);
	assert_int_equal(uev_consumer__busy(f->c), 0);
	fx_free(f);
}

/* A record carries its writer's context only when the one before it is not its own. */
static void check_ctx(struct fx *f, pid_t tid, pthread_t th, uint64_t prog)
{
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.last.pid, getpid());
	assert_int_equal(f->rx.last.tid, tid);
	assert_int_equal(f->rx.last.thread, (uint64_t)th);
	assert_int_equal(f->rx.last.prog_addr, prog);
}

/* The context of the last event delivered. */
static void check_ctx_last(struct fx *f, pid_t tid, pthread_t th, uint64_t prog)
{
	assert_int_equal(f->rx.last.pid, getpid());
	assert_int_equal(f->rx.last.tid, tid);
	assert_int_equal(f->rx.last.thread, (uint64_t)th);
	assert_int_equal(f->rx.last.prog_addr, prog);
}

struct other {
	sem_t go, done;
	struct fx *f;
	unsigned int s;
	pid_t tid;
	bool quit;
};

static void *other_main(void *arg)
{
	struct other *o = arg;
	unsigned char buf[68] = { 0 };

	o->tid = gettid();
	sem_post(&o->done);
	for (;;) {
		sem_wait(&o->go);
		if (o->quit)
			return NULL;
		uev_producer__write_slot(o->f->ctl, o->s, 2, buf, sizeof(buf), (void *)0x77);
		sem_post(&o->done);
	}
}

static void test_context(void **state)
{
	struct fx *f = fx_new(65536, 256);
	unsigned int s = slot_of(f), i, tries;
	struct uev_sub *sl = my_sub(f, s);
	unsigned char buf[68] = { 0 };
	struct other o = { .f = f, .s = s };
	pthread_t th;
	uint64_t h;

	(void)state;
	/* alone: the first record has it all, then only what changed */
	h = sl->head;
	uev_producer__write_slot(f->ctl, s, 1, buf, 68, (void *)0x10);
	assert_int_equal(sl->head - h, 12 + 16 + 4 + 8 + 68 + 4); /* padded to 8 */
	check_ctx(f, gettid(), pthread_self(), 0x10);
	h = sl->head;
	uev_producer__write_slot(f->ctl, s, 1, buf, 68, (void *)0x10);
	assert_int_equal(sl->head - h, 12 + 68);
	check_ctx(f, gettid(), pthread_self(), 0x10);
	h = sl->head;
	uev_producer__write_slot(f->ctl, s, 1, buf, 68, (void *)0x20);
	assert_int_equal(sl->head - h, 12 + 8 + 68);
	check_ctx(f, gettid(), pthread_self(), 0x20);
	/* the timestamp's high half comes when it changes */
	h = sl->head;
	uev_producer__write_slot_at(f->ctl, s, 1, buf, 68, (void *)0x20, 5);
	assert_int_equal(sl->head - h, 12 + 4 + 68 + 4); /* padded to 8 */
	check_ctx(f, gettid(), pthread_self(), 0x20);
	assert_int_equal(f->rx.last.ts, 5);
	uev_producer__write_slot_at(f->ctl, s, 1, buf, 68, (void *)0x20, (1ull << 32) + 7);
	check_ctx(f, gettid(), pthread_self(), 0x20);
	assert_int_equal(f->rx.last.ts, (1ull << 32) + 7);
	h = sl->head;
	uev_producer__write_slot_at(f->ctl, s, 1, buf, 68, (void *)0x20, (1ull << 32) + 9);
	assert_int_equal(sl->head - h, 12 + 68);
	check_ctx(f, gettid(), pthread_self(), 0x20);
	assert_int_equal(f->rx.last.ts, (1ull << 32) + 9);
	uev_producer__write_slot_at(f->ctl, s, 1, buf, 68, (void *)0x20, (3ull << 32) + 1);
	check_ctx(f, gettid(), pthread_self(), 0x20);
	assert_int_equal(f->rx.last.ts, (3ull << 32) + 1);

	/* another thread writing into the same sub-ring, in turns */
	sem_init(&o.go, 0, 0);
	sem_init(&o.done, 0, 0);
	for (tries = 0; tries < 256; tries++) {
		o.quit = false;
		assert_int_equal(pthread_create(&th, NULL, other_main, &o), 0);
		sem_wait(&o.done);
		if ((o.tid & (UEV_NSUB - 1)) == (gettid() & (UEV_NSUB - 1)))
			break;
		o.quit = true;
		sem_post(&o.go);
		pthread_join(th, NULL);
	}
	assert_true(tries < 256);
	for (i = 0; i < 6; i++) {
		sem_post(&o.go);
		sem_wait(&o.done);
		check_ctx(f, o.tid, th, 0x77);
		uev_producer__write_slot(f->ctl, s, 1, buf, 68, (void *)0x20);
		check_ctx(f, gettid(), pthread_self(), 0x20);
	}
	/* the other thread's events in a row, read in one go */
	for (i = 0; i < 3; i++) {
		sem_post(&o.go);
		sem_wait(&o.done);
	}
	h = sl->head;
	sem_post(&o.go);
	sem_wait(&o.done);
	assert_int_equal(sl->head - h, 12 + 68);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 4);
	assert_int_equal(f->rx.last.tid, o.tid);
	assert_int_equal(f->rx.last.thread, (uint64_t)th);
	assert_int_equal(f->rx.last.prog_addr, 0x77);
	o.quit = true;
	sem_post(&o.go);
	pthread_join(th, NULL);
	sem_destroy(&o.go);
	sem_destroy(&o.done);
	fx_free(f);
}

static void test_wrap(void **state)
{
	struct fx *f = fx_new(4096, 200);
	unsigned int s = slot_of(f), i;
	unsigned char buf[200];
	uint64_t total = 0;

	f->rx.check_seq = true;
	for (i = 0; i < 5000; i++) {
		uint32_t w = 0, len = 8 + (i * 37) % 190;

		memcpy(buf, &w, 4);
		memcpy(buf + 4, &i, 4);
		uev_producer__write_slot(f->ctl, s, i % 7, buf, len, NULL);
		if (i % 5 == 4) {
			int n = uev_consumer__consume(f->c, &f->cbs);

			assert_true(n > 0);
			total += (uint64_t)n;
		}
		assert_int_equal(f->rx.lost, 0);
	}
	total += (uint64_t)uev_consumer__consume(f->c, &f->cbs);
	assert_int_equal(total, 5000);
	assert_int_equal(f->rx.seq_err, 0);
	assert_int_equal(f->rx.seq[0], 5000);
	fx_free(f);
}

static void test_drops_exact(void **state)
{
	struct fx *f = fx_new(4096, 64);
	unsigned int s = slot_of(f), i, fit, before;
	struct uev_sub *sl = my_sub(f, s);
	unsigned char buf[64] = { 0 };
	uint64_t lost, ts = 1000;

	(void)state;
	/* about 4096 / (12 + 64) records fit; the others are counted */
	for (i = 0; i < 1000; i++)
		uev_producer__write_slot_at(f->ctl, s, 1, buf, 64, NULL, ts++);
	fit = 1000 - (unsigned int)sl->dropped;
	assert_in_range(fit, 45, 55);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), fit);
	lost = 1000 - fit;
	assert_int_equal(f->rx.lost, lost);
	assert_int_equal(f->rx.lost_calls, 1);
	assert_int_equal(f->rx.lost_before_event, fit);
	assert_true(f->rx.lost_ts > 0);

	/* a new loss episode, then an event carrying it */
	for (i = 0; i < 100; i++)
		uev_producer__write_slot_at(f->ctl, s, 1, buf, 64, NULL, ts++);
	fit = 100 - (unsigned int)sl->dropped;
	assert_in_range(fit, 45, 55);
	before = f->rx.n;
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), fit);
	lost += 100 - fit;
	assert_int_equal(f->rx.lost, lost);
	/* nothing pending now */
	uev_producer__write_slot_at(f->ctl, s, 1, buf, 64, NULL, ts++);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.lost_calls, 2);
	assert_int_equal(f->rx.lost_before_event, before + fit);

	/* drops, then room, then a record carries the count: lost() precedes it */
	for (i = 0; i < 100; i++)
		uev_producer__write_slot_at(f->ctl, s, 1, buf, 64, NULL, ts++);
	fit = 100 - (unsigned int)sl->dropped;
	assert_in_range(fit, 45, 55);
	f->rx.stop_after = (int)(f->rx.n + fit); /* drain exactly the full ring */
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), fit);
	f->rx.stop_after = 0;
	assert_int_equal(f->rx.lost_calls, 2);
	before = f->rx.n;
	uev_producer__write_slot_at(f->ctl, s, 2, buf, 64, NULL, ts++);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.lost_calls, 3);
	assert_int_equal(f->rx.lost_before_event, before);
	assert_int_equal(f->rx.last.id, 2050);
	assert_int_equal(f->rx.last.ts, ts - 1);
	lost += 100 - fit;
	assert_int_equal(f->rx.lost, lost);
	fx_free(f);
}

struct mt {
	struct fx *f;
	unsigned int s;
	uint32_t w;
	unsigned int n;
};

/*
 * n events of writer w into slot s: w and a sequence number, 8..63 bytes,
 * one of three caller addresses (the reader checks them and the thread).
 */
static void write_seq(struct fx *f, unsigned int s, uint32_t w, unsigned int n)
{
	unsigned char buf[64] = { 0 };
	uint32_t i;

	f->rx.who[w].thread = (uint64_t)pthread_self();
	__atomic_store_n(&f->rx.who[w].tid, gettid(), __ATOMIC_RELEASE);
	for (i = 0; i < n; i++) {
		memcpy(buf, &w, 4);
		memcpy(buf + 4, &i, 4);
		uev_producer__write_slot(f->ctl, s, 3, buf, 8 + i % 56,
					 (void *)(uintptr_t)(0x1000 + w * 16 + i % 3));
	}
}

static void *mt_writer(void *arg)
{
	struct mt *m = arg;

	write_seq(m->f, m->s, m->w, m->n);
	return NULL;
}

static void test_multithread(void **state)
{
	struct fx *f = fx_new(16384, 64);
	struct mt m[4];
	pthread_t th[4];
	uint64_t total = 0;
	int i;

	f->rx.check_seq = true;
	for (i = 0; i < 4; i++) {
		m[i] = (struct mt){ .f = f, .s = slot_of(f), .w = (uint32_t)i, .n = 200000 };
		assert_int_equal(pthread_create(&th[i], NULL, mt_writer, &m[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		void *rv;

		while (pthread_tryjoin_np(th[i], &rv) == EBUSY) {
			int n = uev_consumer__consume(f->c, &f->cbs);

			assert_true(n >= 0);
			total += (uint64_t)n;
		}
	}
	for (;;) {
		int n = uev_consumer__consume(f->c, &f->cbs);

		assert_true(n >= 0);
		if (!n)
			break;
		total += (uint64_t)n;
	}
	assert_int_equal(f->rx.seq_err, 0);
	assert_int_equal(f->rx.who_err, 0);
	assert_int_equal(total + f->rx.lost, 4 * 200000);
	fx_free(f);
}

struct subw {
	struct fx *f;
	unsigned int s;
	uint32_t w;
	unsigned int n;
	pthread_barrier_t *start;
	pid_t tid;
};

static void *subw_writer(void *arg)
{
	struct subw *m = arg;

	m->tid = gettid();
	pthread_barrier_wait(m->start);
	write_seq(m->f, m->s, m->w, m->n);
	return NULL;
}

/*
 * n writers of per events each into f's slot, started together; read
 * while they write and after they are done: the number of events read.
 */
static uint64_t run_writers(struct fx *f, struct subw *m, unsigned int n, unsigned int per)
{
	pthread_t th[16];
	pthread_barrier_t start;
	uint64_t total = 0;
	unsigned int i;

	assert_true(n <= 16);
	pthread_barrier_init(&start, NULL, n + 1);
	for (i = 0; i < n; i++) {
		m[i] = (struct subw){ .f = f, .s = slot_of(f), .w = i, .n = per, .start = &start };
		assert_int_equal(pthread_create(&th[i], NULL, subw_writer, &m[i]), 0);
	}
	pthread_barrier_wait(&start);
	for (i = 0; i < n; i++) {
		void *rv;

		while (pthread_tryjoin_np(th[i], &rv) == EBUSY) {
			int got = uev_consumer__consume(f->c, &f->cbs);

			assert_true(got >= 0);
			total += (uint64_t)got;
		}
	}
	for (;;) {
		int got = uev_consumer__consume(f->c, &f->cbs);

		assert_true(got >= 0);
		if (!got)
			break;
		total += (uint64_t)got;
	}
	pthread_barrier_destroy(&start);
	return total;
}

/*
 * 4 threads at once into small sub-rings (drops): each thread's events in
 * order and delivered + lost == written, exactly, whatever sub-ring each
 * thread writes into.
 */
static void test_subrings(void **state)
{
	struct fx *f = fx_new(4096, 64);
	struct subw m[4];
	uint64_t total;
	unsigned int used = 0, i, k;
	uint32_t seen = 0;

	(void)state;
	f->rx.check_seq = true;
	total = run_writers(f, m, 4, 100000);
	assert_int_equal(uev_consumer__pending(f->c), 0);
	assert_int_equal(f->rx.seq_err, 0);
	assert_int_equal(f->rx.who_err, 0);
	assert_int_equal(total + f->rx.lost, 4 * 100000);
	/* the threads wrote into their own sub-rings (tid % UEV_NSUB) */
	for (i = 0; i < 4; i++)
		seen |= 1u << ((uint32_t)m[i].tid & (UEV_NSUB - 1));
	for (k = 0; k < UEV_NSUB; k++) {
		bool w = f->ctl->slots[slot_of(f)].sub[k].head != 0;

		assert_int_equal(w, !!(seen & (1u << k)));
		used += w;
	}
	assert_true(used >= 2);
	fx_free(f);
}

/*
 * 8 threads at once: two per sub-ring (tid % UEV_NSUB), so that records
 * of two writers interleave and each writer's context comes and goes:
 * every event still reaches the reader with its own tid, pthread_t and
 * caller, in order.
 */
static void test_shared_subrings(void **state)
{
	struct fx *f = fx_new(1u << 20, 64);
	struct subw m[8];
	uint64_t total;
	unsigned int i, k, per[UEV_NSUB] = { 0 };

	(void)state;
	f->rx.check_seq = true;
	total = run_writers(f, m, 8, 50000);
	assert_int_equal(f->rx.seq_err, 0);
	assert_int_equal(f->rx.who_err, 0);
	assert_int_equal(total + f->rx.lost, 8 * 50000);
	assert_true(total > 0);
	for (i = 0; i < 8; i++)
		per[(uint32_t)m[i].tid & (UEV_NSUB - 1)]++;
	for (k = 0; k < UEV_NSUB; k++)
		if (per[k] >= 2)
			break;
	assert_true(k < UEV_NSUB); /* some sub-ring had two writers */
	fx_free(f);
}

/* Is the page at p mapped in this process (/proc/self/pagemap bit 63)? */
static bool page_mapped(const void *p)
{
	uint64_t ent = 0;
	long psz = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/pagemap", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &ent, sizeof(ent), (off_t)((uintptr_t)p / (uintptr_t)psz * 8)),
			 (ssize_t)sizeof(ent));
	close(fd);
	return ent >> 63;
}

/*
 * shmem zeroes a fallocate()d page at its first fault, and until then
 * lseek(SEEK_DATA) sees a hole there: the controller takes those faults
 * when it attaches, so that the traced process's first events do not; of
 * the start of each sub-ring only (UEV_EAGER bytes, all of a 1 MiB ring).
 */
static void controller_prefaults(bool async, size_t ring)
{
	struct uev_opts o = { .ring_bytes = ring, .max_data_size = 64, .prefault_async = async };
	struct uev_consumer *c;
	struct uev_ctl *ctl;
	off_t start, sub, eager;
	unsigned int s;
	int fd;

	assert_int_equal(uev_producer__region_create(&fd, &ctl), 0);
	assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), 0);
	/* a stream waits before the process may write (stream__create) */
	if (async)
		uev_consumer__prefault_wait(c);
	for (s = 0; s < UEV_NSLOTS; s++)
		if (UEV_OWN_STATE(ctl->slots[s].own) == UEV_SLOT_READY)
			break;
	assert_true(s < UEV_NSLOTS);
	sub = (off_t)UEV_SUB_SIZE(ctl->slots[s].ring_size);
	eager = sub < (off_t)UEV_EAGER ? sub : (off_t)UEV_EAGER;
	for (unsigned int k = 0; k < UEV_NSUB; k++) {
		start = (off_t)UEV_RING_OFF(s) + (off_t)k * sub;
		assert_int_equal(lseek(fd, start, SEEK_DATA), start);
		if (eager == sub)
			continue; /* the next sub-ring's start follows */
		/* the rest is not allocated: a hole */
		assert_int_equal(lseek(fd, start, SEEK_HOLE), start + eager);
	}
	uev_consumer__detach(c);
	munmap(ctl, UEV_TOTAL_SIZE);
	close(fd);
}

static void test_controller_prefaults(void **state)
{
	(void)state;
	controller_prefaults(false, 1u << 20);
	/* on a thread, while a stream loads its programs */
	controller_prefaults(true, 1u << 20);
	/* a larger ring: its start only */
	controller_prefaults(false, 16u << 20);
}

/* Minor page faults of the calling thread so far. */
static long thread_minflt(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_THREAD, &ru), 0);
	return ru.ru_minflt;
}

/*
 * First lap of a sub-ring: the writer maps the pages ahead of itself a
 * chunk at a time (one madvise, not a fault per page), and no further.
 * Mapping them takes read faults, which map the pages around too
 * (fault-around: 16 pages by default), not a write fault per page, and
 * the writes after take no fault at all.
 */
static void test_first_lap_mapped(void **state)
{
	struct fx *f = fx_new(1u << 20, 64);
	unsigned int s = slot_of(f), n = 0;
	unsigned char buf[64] = { 0 };
	uint8_t *ring = my_ring(f, s);
	const uint64_t chunk = 128 * 1024;
	char probe[8192] __attribute__((aligned(4096)));
	long flt;

	(void)state;
	if (madvise(probe, 4096, MADV_POPULATE_READ) && errno == EINVAL) {
		/* Linux < 5.14: the pages fault in one by one, as before */
		print_message("MADV_POPULATE_READ unknown to this kernel: not checked\n");
		fx_free(f);
		return;
	}
	assert_false(page_mapped(ring));
	flt = thread_minflt();
	uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), NULL);
	/* a chunk, 32 pages: a fault per page would be 32 */
	assert_in_range(thread_minflt() - flt, 1, chunk / 4096 / 4);
	assert_true(page_mapped(ring));
	assert_true(page_mapped(ring + chunk - 4096));
	assert_false(page_mapped(ring + 2 * chunk));
	/* the pages mapped are writable: writing them takes (almost) no fault */
	flt = thread_minflt();
	while (my_sub(f, s)->head < chunk - sizeof(buf) - 64) {
		uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), NULL);
		n++;
	}
	/* a fault per page would be 31 (ASan's shadow pages take a few) */
	assert_in_range(thread_minflt() - flt, 0, chunk / 4096 / 4);
	/* write past the middle of the second chunk: the third one is mapped */
	while (my_sub(f, s)->head < chunk + chunk / 2 + 64) {
		uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), NULL);
		n++;
	}
	assert_true(page_mapped(ring + 2 * chunk + chunk - 4096));
	assert_false(page_mapped(ring + 4 * chunk));
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), (int)n + 1);
	assert_int_equal(f->rx.lost, 0);
	fx_free(f);
}

static void test_names(void **state)
{
	char name[80], got[64];
	uint32_t id, id2, i;
	struct uev_consumer *c;
	int err;

	assert_int_equal(uev_consumer__attach(&c, 0, &(struct uev_opts){ .ring_bytes = 4096 }), 0);
	assert_int_equal(posix_trace_eventid_open("alpha", &id), 0);
	assert_int_equal(posix_trace_eventid_open("beta", &id2), 0);
	assert_true(id > 2048 && id2 > 2048 && id != id2);
	assert_int_equal(posix_trace_eventid_open("alpha", &id2), 0);
	assert_int_equal(id, id2);
	assert_int_equal(uev_consumer__type_name(c, id, got, sizeof(got)), 0);
	assert_string_equal(got, "alpha");
	assert_int_equal(uev_consumer__type_name(c, id, got, 3), -ENAMETOOLONG);
	assert_int_equal(uev_consumer__type_name(c, 2048, got, sizeof(got)), 0);
	assert_string_equal(got, "posix_trace_unnamed_userevent");
	assert_int_equal(posix_trace_eventid_open("posix_trace_unnamed_userevent", &id2), 0);
	assert_int_equal(id2, 2048);
	assert_int_equal(uev_consumer__type_name(c, 2048 + 255, got, sizeof(got)), -ENOENT);
	assert_int_equal(uev_consumer__type_name(c, 4000, got, sizeof(got)), -ENOENT);

	memset(name, 'x', sizeof(name));
	name[63] = 0;
	assert_int_equal(posix_trace_eventid_open(name, &id), 0);
	assert_int_equal(uev_consumer__type_name(c, id, got, sizeof(got)), 0);
	assert_int_equal(strlen(got), 63);
	name[63] = 'x';
	name[64] = 0;
	assert_int_equal(posix_trace_eventid_open(name, &id), ENAMETOOLONG);
	name[79] = 0;
	assert_int_equal(posix_trace_eventid_open(name, &id), ENAMETOOLONG);

	/* fill the table: then the unnamed id */
	for (i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "ev%u", i);
		err = posix_trace_eventid_open(name, &id);
		assert_int_equal(err, 0);
		if (uev_consumer__type_count(c) < 256)
			assert_true(id > 2048);
	}
	assert_int_equal(id, 2048);
	assert_int_equal(uev_consumer__type_count(c), 256);
	assert_int_equal(posix_trace_eventid_open("alpha", &id2), 0);
	assert_int_equal(uev_consumer__type_name(c, id2, got, sizeof(got)), 0);
	assert_string_equal(got, "alpha");
	uev_consumer__detach(c);
}

/* The public API through this process's own region: enable, filter. */
static void test_self_api(void **state)
{
	struct uev_consumer *c;
	struct rx rx = { 0 };
	struct uev_cbs cbs = { .event = rx_event, .lost = rx_lost, .ctx = &rx };
	uint32_t id = 2048 + 1;
	uint64_t t;
	int v = 42;

	assert_int_equal(
		uev_consumer__attach(&c, 0,
				     &(struct uev_opts){ .ring_bytes = 8192, .max_data_size = 16 }),
		0);
	posix_trace_event(id, &v, sizeof(v)); /* not enabled yet */
	assert_int_equal(uev_consumer__consume(c, &cbs), 0);
	uev_consumer__set_enabled(c, true);
	t = clock__mono_ns();
	posix_trace_event(id, &v, sizeof(v));
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_true(rx.last.ts >= t && rx.last.ts <= clock__mono_ns());
	assert_int_equal(rx.last.id, id);
	assert_int_equal(rx.last.pid, getpid());
	assert_true(rx.last.prog_addr >= (uint64_t)(uintptr_t)test_self_api &&
		    rx.last.prog_addr < (uint64_t)(uintptr_t)test_self_api + 4096);
	assert_int_equal(uev_consumer__set_id_enabled(c, id, false), 0);
	posix_trace_event(id, &v, sizeof(v));
	posix_trace_event(id + 1, &v, sizeof(v));
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_int_equal(rx.last.id, id + 1);
	assert_int_equal(uev_consumer__set_id_enabled(c, 17, false), -EINVAL);
	uev_consumer__set_id_enabled(c, id, true);
	posix_trace_event(4000, &v, sizeof(v)); /* not a user id: ignored */
	posix_trace_event(id, NULL, 10);
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_int_equal(rx.last.data_len, 0);
	uev_consumer__set_enabled(c, false);
	posix_trace_event(id, &v, sizeof(v));
	assert_int_equal(uev_consumer__consume(c, &cbs), 0);
	uev_consumer__detach(c);
}

static void test_slots(void **state)
{
	struct uev_consumer *c[UEV_NSLOTS + 1];
	struct uev_opts o = { .ring_bytes = 4096 };
	int fd, i;
	struct uev_ctl *ctl;
	pid_t child;

	assert_int_equal(uev_producer__region_create(&fd, &ctl), 0);
	for (i = 0; i < UEV_NSLOTS; i++)
		assert_int_equal(uev_consumer__attach_fd(&c[i], fd, getpid(), &o), 0);
	assert_int_equal(uev_consumer__attach_fd(&c[i], fd, getpid(), &o), -EBUSY);
	uev_consumer__detach(c[3]);
	assert_int_equal(uev_consumer__attach_fd(&c[3], fd, getpid(), &o), 0);
	/* an owner that died: its slot is reclaimed */
	child = fork();
	if (!child)
		_exit(0);
	waitpid(child, NULL, 0);
	uev_consumer__detach(c[5]);
	ctl->slots[5].own = UEV_OWN(child, UEV_SLOT_READY);
	assert_int_equal(uev_consumer__attach_fd(&c[5], fd, getpid(), &o), 0);
	for (i = 0; i < UEV_NSLOTS; i++)
		uev_consumer__detach(c[i]);
	/* not a region */
	assert_int_equal(uev_consumer__attach_fd(&c[0], 0, getpid(), &o) < 0, 1);
	munmap(ctl, UEV_TOTAL_SIZE);
	close(fd);
}

static void test_dead_writer(void **state)
{
	/* the dead writer is a child sharing the region: a stream that inherits */
	struct fx *f = fx_new_opts(4096, 64, true);
	unsigned int s = slot_of(f);
	struct uev_sub *sl = my_sub(f, s);
	uint8_t *ring = my_ring(f, s);
	struct uev_rec *rec;
	struct uev_thr th = { 0 };
	unsigned char buf[8] = { 0 };
	uint64_t pos;
	pid_t child;

	uev_producer__write_slot(f->ctl, s, 1, buf, 8, NULL);
	/* a reservation of 64 bytes by a process that then died */
	child = fork();
	if (!child)
		_exit(0);
	waitpid(child, NULL, 0);
	fx_sharers[0] = child;
	rec = (struct uev_rec *)(ring + sl->head);
	rec->commit = UEV_COMMIT(sl->head, UEV_KIND_RESV, 64);
	th.tid = child;
	memcpy(rec + 1, &th, sizeof(th));
	sl->head += 64;
	uev_producer__write_slot(f->ctl, s, 2, buf, 8, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 2);
	assert_int_equal(f->rx.lost, 1);
	assert_int_equal(f->rx.lost_before_event, 1);
	assert_int_equal(f->rx.last.id, 2050);

	/* the dead process's record (its context), then its reservation
	 * following it (RESV_OWN: the writer is the one of the record before) */
	pos = sl->head;
	rec = (struct uev_rec *)(ring + (pos & 4095));
	rec->ts_lo = 5;
	rec->idx = 4;
	rec->flags = UEV_REC_THREAD | UEV_REC_TSHI | UEV_REC_PROG;
	th.pid = child;
	memcpy(rec + 1, &th, sizeof(th));
	memset((uint8_t *)(rec + 1) + sizeof(th), 0, 4 + 8 + 8); /* ts_hi, prog, data */
	__atomic_store_n(&rec->commit, UEV_COMMIT(pos, UEV_KIND_DATA, 8), __ATOMIC_RELEASE);
	sl->head += 48;
	rec = (struct uev_rec *)(ring + (sl->head & 4095));
	rec->commit = UEV_COMMIT(sl->head, UEV_KIND_RESV_OWN, 64);
	sl->head += 64;
	uev_producer__write_slot(f->ctl, s, 2, buf, 8, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 2);
	assert_int_equal(f->rx.lost, 2);
	assert_int_equal(f->rx.last.id, 2050);
	assert_int_equal(f->rx.last.tid, gettid());

	/* a live writer (us) holding a reservation: wait */
	pos = sl->head;
	rec = (struct uev_rec *)(ring + (pos & 4095));
	rec->commit = UEV_COMMIT(pos, UEV_KIND_RESV_OWN, 64);
	sl->head += 64;
	uev_producer__write_slot(f->ctl, s, 2, buf, 8, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	/* ... until it commits: 12 + 52 bytes, our context (the record
	 * before it is ours) */
	rec->idx = 3;
	rec->flags = 0;
	__atomic_store_n(&rec->commit, UEV_COMMIT(pos, UEV_KIND_DATA, 52), __ATOMIC_RELEASE);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 2);
	assert_int_equal(f->rx.last.pid, getpid());
	assert_int_equal(f->rx.last.tid, gettid());
	assert_int_equal(f->rx.last.thread, (uint64_t)pthread_self());
	fx_sharers[0] = 0;
	fx_free(f);
}

/* Each corruption gives -EBADMSG, then the consumer works again. */
static void corrupt_and_check(struct fx *f, void (*how)(struct fx *, unsigned int, uint8_t *))
{
	unsigned int s = slot_of(f);
	uint8_t *ring = my_ring(f, s);
	unsigned char buf[64] = { 1, 2, 3 };
	unsigned int before;

	uev_producer__write_slot(f->ctl, s, 1, buf, 20, NULL);
	how(f, s, ring);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	before = f->rx.n;
	uev_producer__write_slot(f->ctl, s, 1, buf, 20, (void *)0x42);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.n, before + 1);
	/* the writer sends its context again after a resynchronisation */
	assert_int_equal(f->rx.last.pid, getpid());
	assert_int_equal(f->rx.last.thread, (uint64_t)pthread_self());
	assert_int_equal(f->rx.last.prog_addr, 0x42);
}

static void bad_head(struct fx *f, unsigned int s, uint8_t *ring)
{
	my_sub(f, s)->head = 0xdeadbeefdeadbee0ull;
}

static void bad_head_align(struct fx *f, unsigned int s, uint8_t *ring)
{
	my_sub(f, s)->head += 3;
}

static uint8_t *rec_at_tail(struct fx *f, unsigned int s, uint8_t *ring)
{
	return ring + (my_sub(f, s)->tail & (sub_size(f, s) - 1));
}

static void bad_tag(struct fx *f, unsigned int s, uint8_t *ring)
{
	((struct uev_rec *)rec_at_tail(f, s, ring))->commit ^= 1u << 28;
}

static void bad_kind(struct fx *f, unsigned int s, uint8_t *ring)
{
	((struct uev_rec *)rec_at_tail(f, s, ring))->commit |= 0xfu << 24;
}

static void bad_len(struct fx *f, unsigned int s, uint8_t *ring)
{
	((struct uev_rec *)rec_at_tail(f, s, ring))->commit |= 0x00fffff0u;
}

static void bad_flags(struct fx *f, unsigned int s, uint8_t *ring)
{
	((struct uev_rec *)rec_at_tail(f, s, ring))->flags |= 0x80;
}

static void bad_idx(struct fx *f, unsigned int s, uint8_t *ring)
{
	((struct uev_rec *)rec_at_tail(f, s, ring))->idx = 9999;
}

static void bad_pad(struct fx *f, unsigned int s, uint8_t *ring)
{
	struct uev_rec *r = (struct uev_rec *)rec_at_tail(f, s, ring);

	uint64_t tail = my_sub(f, s)->tail, size = sub_size(f, s);

	r->commit = UEV_COMMIT(tail, UEV_KIND_PAD, size - (tail & (size - 1)) + 8);
}

/* A PAD in the middle shorter than a header, or not a multiple of 8. */
static void bad_pad_short(struct fx *f, unsigned int s, uint8_t *ring)
{
	uint64_t tail = my_sub(f, s)->tail;

	((struct uev_rec *)rec_at_tail(f, s, ring))->commit = UEV_COMMIT(tail, UEV_KIND_PAD, 8);
}

static void bad_pad_odd(struct fx *f, unsigned int s, uint8_t *ring)
{
	uint64_t tail = my_sub(f, s)->tail;

	((struct uev_rec *)rec_at_tail(f, s, ring))->commit = UEV_COMMIT(tail, UEV_KIND_PAD, 20);
}

static void bad_own(struct fx *f, unsigned int s, uint8_t *ring)
{
	f->ctl->slots[s].own = UEV_OWN(1, UEV_SLOT_READY);
}

static void test_corruptions(void **state)
{
	struct fx *f = fx_new(4096, 64);

	corrupt_and_check(f, bad_head);
	corrupt_and_check(f, bad_head_align);
	corrupt_and_check(f, bad_tag);
	corrupt_and_check(f, bad_kind);
	corrupt_and_check(f, bad_len);
	corrupt_and_check(f, bad_flags);
	corrupt_and_check(f, bad_idx);
	corrupt_and_check(f, bad_pad);
	corrupt_and_check(f, bad_pad_short);
	corrupt_and_check(f, bad_pad_odd);
	/* the owner word overwritten: reported; the slot is no longer ours */
	{
		unsigned int s = slot_of(f);

		bad_own(f, s, NULL);
		assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	}
	fx_free(f);
}

/* A time in the future is a lie, as any other: the region is corrupt. */
static void test_future_ts(void **state)
{
	struct fx *f = fx_new(4096, 64);
	unsigned int s = slot_of(f);
	struct uev_sub *sl = my_sub(f, s);
	unsigned char buf[8] = { 0 };
	uint64_t t;

	uev_producer__write_slot_at(f->ctl, s, 1, buf, 8, NULL, UINT64_MAX - 5);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	uev_producer__write_slot_at(f->ctl, s, 1, buf, 8, NULL, clock__mono_ns() + 1000000000ull);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	assert_int_equal(f->rx.n, 0);
	uev_producer__write_slot(f->ctl, s, 1, buf, 8, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	/* drops whose first one is in the future: carried by a record ... */
	sl->drop_ts = clock__mono_ns() + 1000000000ull;
	sl->dropped = 2;
	uev_producer__write_slot(f->ctl, s, 1, buf, 8, NULL);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	/* ... or reported once drained */
	sl->drop_ts = clock__mono_ns() + 1000000000ull;
	sl->dropped = 2;
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	assert_int_equal(f->rx.lost, 0);
	/* the past is fine */
	t = clock__mono_ns() - 1;
	sl->drop_ts = t;
	sl->dropped = 2;
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	assert_int_equal(f->rx.lost, 2);
	assert_int_equal(f->rx.lost_ts, t);
	fx_free(f);
}

/* The time of a record is read during the call that writes it. */
static void test_ts_in_call(void **state)
{
	struct fx *f = fx_new(65536, 256);
	unsigned int s = slot_of(f), i;
	unsigned char buf[68] = { 0 };

	for (i = 0; i < 1000; i++) {
		uint64_t t1 = clock__mono_ns(), t2;

		uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), NULL);
		t2 = clock__mono_ns();
		assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
		assert_true(f->rx.last.ts >= t1 && f->rx.last.ts <= t2);
	}
	/* a given time is kept */
	uev_producer__write_slot_at(f->ctl, s, 1, buf, sizeof(buf), NULL, 12345);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.last.ts, 12345);
	fx_free(f);
}

/* Write a reservation of ours by hand at the head of our sub-ring (24 bytes). */
static struct uev_rec *reserve_by_hand(struct fx *f, unsigned int s)
{
	struct uev_sub *sl = my_sub(f, s);
	uint64_t pos = sl->head;
	struct uev_rec *rec = (struct uev_rec *)(my_ring(f, s) + (pos & (sub_size(f, s) - 1)));

	rec->commit = UEV_COMMIT(pos, UEV_KIND_RESV_OWN, 24);
	sl->head = pos + 24;
	return rec;
}

/* Commit it: 8 bytes of payload, our context, timestamp ts. */
static void commit_by_hand(struct uev_rec *rec, uint64_t pos, uint64_t ts)
{
	uint32_t hi = (uint32_t)(ts >> 32);

	rec->ts_lo = (uint32_t)ts;
	rec->idx = 3;
	rec->flags = UEV_REC_TSHI;
	memcpy(rec + 1, &hi, sizeof(hi));
	memset((uint8_t *)(rec + 1) + sizeof(hi), 0, 8);
	__atomic_store_n(&rec->commit, UEV_COMMIT(pos, UEV_KIND_DATA, 8), __ATOMIC_RELEASE);
}

static void test_watermark(void **state)
{
	struct fx *f = fx_new(4096, 64);
	unsigned int s = slot_of(f), i;
	unsigned char buf[8] = { 0 };
	struct uev_rec *rec;
	uint64_t t, wm, pos;

	assert_int_equal(uev_consumer__watermark(f->c), 0);
	for (i = 0; i < 3; i++)
		uev_producer__write_slot(f->ctl, s, 1, buf, 8, NULL);
	t = clock__mono_ns();
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 3);
	wm = uev_consumer__watermark(f->c);
	assert_true(wm >= t && wm <= clock__mono_ns());

	/* the callback stopped the drain: where it was */
	for (i = 0; i < 3; i++)
		uev_producer__write_slot(f->ctl, s, 1, buf, 8, NULL);
	f->rx.stop_after = (int)f->rx.n + 1;
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	f->rx.stop_after = 0;
	assert_int_equal(uev_consumer__watermark(f->c), wm);
	t = clock__mono_ns();
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 2);
	assert_true(uev_consumer__watermark(f->c) >= t);

	/* a live writer (us) holding a reservation: the watermark waits
	 * before it (the other sub-rings may catch up with ours), whatever
	 * comes after it */
	t = clock__mono_ns();
	pos = my_sub(f, s)->head;
	rec = reserve_by_hand(f, s);
	for (i = 0; i < 3; i++)
		uev_producer__write_slot(f->ctl, s, 2, buf, 8, NULL);
	usleep(1000);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	wm = uev_consumer__watermark(f->c);
	assert_true(wm <= t);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	assert_int_equal(uev_consumer__watermark(f->c), wm);
	/* committed with a time read after its reservation: all of it comes */
	commit_by_hand(rec, pos, t + 1);
	t = clock__mono_ns();
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 4);
	assert_true(uev_consumer__watermark(f->c) >= t);
	assert_int_equal(f->rx.last.id, 2050);
	fx_free(f);
}

/* Many writers, one reader: no event is older than the watermark before it. */
struct wm_rx {
	uint64_t wm;
	unsigned int n, late;
};

static int wm_event(void *ctx, struct pt_event_hdr *h, const void *data)
{
	struct wm_rx *w = ctx;

	(void)data;
	w->n++;
	w->late += h->ts < w->wm;
	return 0;
}

static void test_watermark_threads(void **state)
{
	struct fx *f = fx_new(16384, 64);
	struct wm_rx w = { 0 };
	struct uev_cbs cbs = { .event = wm_event, .ctx = &w };
	struct mt m[6];
	pthread_t th[6];
	unsigned int i, done = 0;

	for (i = 0; i < 6; i++) {
		m[i] = (struct mt){ .f = f, .s = slot_of(f), .w = i, .n = 100000 };
		assert_int_equal(pthread_create(&th[i], NULL, mt_writer, &m[i]), 0);
	}
	while (done < 6) {
		uint64_t wm;

		assert_true(uev_consumer__consume(f->c, &cbs) >= 0);
		wm = uev_consumer__watermark(f->c);
		assert_true(wm >= w.wm && wm <= clock__mono_ns());
		w.wm = wm;
		if (pthread_tryjoin_np(th[done], NULL) == 0)
			done++;
	}
	assert_true(uev_consumer__consume(f->c, &cbs) >= 0);
	assert_true(w.n > 0);
	assert_int_equal(w.late, 0);
	fx_free(f);
}

/*
 * The high half of the time our last record had is not the clock's once
 * reserved: that reservation becomes a PAD, the record follows with all
 * our context.
 */
static void test_pad_retry(void **state)
{
	struct fx *f = fx_new(65536, 256);
	unsigned int s = slot_of(f);
	struct uev_sub *sl = my_sub(f, s);
	unsigned char buf[68] = { 0 };
	uint64_t h, t1, t2, old;

	if (!(clock__mono_ns() >> 32))
		skip(); /* booted less than 4.3 s ago: no older high half */
	old = ((clock__mono_ns() >> 32) - 1) << 32 | 5;
	uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), (void *)0x10);
	uev_producer__write_slot_at(f->ctl, s, 1, buf, sizeof(buf), (void *)0x10, old);
	h = sl->head;
	t1 = clock__mono_ns();
	uev_producer__write_slot(f->ctl, s, 2, buf, sizeof(buf), (void *)0x10);
	t2 = clock__mono_ns();
	/* a PAD as long as the record without its context, then the record */
	assert_int_equal(sl->head - h, (12 + 68) + (12 + 16 + 4 + 8 + 68 + 4));
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 3);
	assert_int_equal(f->rx.lost, 0);
	assert_int_equal(f->rx.last.id, 2050);
	assert_true(f->rx.last.ts >= t1 && f->rx.last.ts <= t2);
	check_ctx_last(f, gettid(), pthread_self(), 0x10);
	/* the high half is the clock's now: our context again */
	h = sl->head;
	uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), (void *)0x10);
	assert_int_equal(sl->head - h, 12 + 68);
	check_ctx(f, gettid(), pthread_self(), 0x10);
	fx_free(f);
}

/* The same when the record given up wraps: a PAD to the end, one at 0. */
static void test_pad_retry_wrap(void **state)
{
	struct fx *f = fx_new(4096, 256);
	unsigned int s = slot_of(f);
	struct uev_sub *sl = my_sub(f, s);
	unsigned char buf[68] = { 0 };
	uint64_t h, off, t1, t2, old;

	if (!(clock__mono_ns() >> 32))
		skip();
	old = ((clock__mono_ns() >> 32) - 1) << 32 | 5;
	/* records of 24 bytes up to where one of 80 does not fit */
	for (;;) {
		off = sl->head & 4095;
		if (off > 4096 - 80 && off <= 4096 - 8)
			break;
		uev_producer__write_slot_at(f->ctl, s, 1, buf, 8, NULL, old);
		assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	}
	h = sl->head;
	t1 = clock__mono_ns();
	uev_producer__write_slot(f->ctl, s, 2, buf, sizeof(buf), NULL);
	t2 = clock__mono_ns();
	assert_int_equal(sl->head - h, (4096 - off) + (12 + 68) + (12 + 16 + 4 + 8 + 68 + 4));
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.lost, 0);
	assert_true(f->rx.last.ts >= t1 && f->rx.last.ts <= t2);
	check_ctx_last(f, gettid(), pthread_self(), 0);
	h = sl->head;
	uev_producer__write_slot(f->ctl, s, 1, buf, sizeof(buf), NULL);
	assert_int_equal(sl->head - h, 12 + 68);
	check_ctx(f, gettid(), pthread_self(), 0);
	fx_free(f);
}

/* A PAD anywhere: skipped; a record after it that claims the context of
 * the one before the PAD gets none (no writer does that). */
static void test_mid_pad(void **state)
{
	struct fx *f = fx_new(4096, 64);
	unsigned int s = slot_of(f);
	struct uev_sub *sl = my_sub(f, s);
	uint8_t *ring = my_ring(f, s);
	unsigned char buf[8] = { 0 };
	uint64_t pos;

	uev_producer__write_slot(f->ctl, s, 1, buf, 8, (void *)0x10);
	pos = sl->head;
	__atomic_store_n((uint32_t *)(ring + (pos & 4095)), UEV_COMMIT(pos, UEV_KIND_PAD, 40),
			 __ATOMIC_RELEASE);
	sl->head = pos + 40;
	uev_producer__write_slot(f->ctl, s, 2, buf, 8, (void *)0x20);
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 2);
	assert_int_equal(f->rx.last.id, 2050);
	check_ctx_last(f, gettid(), pthread_self(), 0x20);

	pos = sl->head;
	__atomic_store_n((uint32_t *)(ring + (pos & 4095)), UEV_COMMIT(pos, UEV_KIND_PAD, 16),
			 __ATOMIC_RELEASE);
	pos += 16;
	sl->head = pos;
	commit_by_hand(reserve_by_hand(f, s), pos, clock__mono_ns());
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 1);
	assert_int_equal(f->rx.last.id, 2048 + 3);
	assert_int_equal(f->rx.last.tid, 0);
	assert_int_equal(f->rx.last.pid, getpid());
	assert_int_equal(f->rx.last.thread, 0);
	assert_int_equal(f->rx.last.prog_addr, 0);
	assert_int_equal(f->rx.lost, 0);
	fx_free(f);
}

static void test_give_up(void **state)
{
	struct fx *f = fx_new(4096, 64);
	unsigned int s = slot_of(f), i;
	uint64_t t;

	for (i = 0; i < UEV_CONSUMER_CORRUPT_MAX; i++) {
		my_sub(f, s)->head = 5;
		assert_int_equal(uev_consumer__consume(f->c, &f->cbs), -EBADMSG);
	}
	my_sub(f, s)->head = 5;
	t = clock__mono_ns();
	assert_int_equal(uev_consumer__consume(f->c, &f->cbs), 0);
	assert_int_equal(f->ctl->active & (1u << s), 0);
	/* nothing comes from it again: it holds nobody back */
	assert_true(uev_consumer__watermark(f->c) >= t);
	fx_free(f);
}

static void test_bad_names(void **state)
{
	struct fx *f = fx_new(4096, 64);
	char got[64];

	f->ctl->names[7].state = UEV_NAME_READY;
	memset(f->ctl->names[7].name, 'A', UEV_NAME_LEN);
	assert_int_equal(uev_consumer__type_name(f->c, 2048 + 7, got, sizeof(got)), -EBADMSG);
	f->ctl->names[8].state = 77;
	assert_int_equal(uev_consumer__type_name(f->c, 2048 + 8, got, sizeof(got)), -ENOENT);
	f->ctl->name_count = 0xffffffffu;
	assert_int_equal(uev_consumer__type_count(f->c), 256);
	f->ctl->name_count = 0;
	assert_int_equal(uev_consumer__type_count(f->c), 1);
	fx_free(f);
}

/* Random garbage everywhere, interleaved with real writes: never crash. */
static void test_random_garbage(void **state)
{
	unsigned int round, i;

	srand(1234);
	for (round = 0; round < 200; round++) {
		struct fx *f = fx_new(4096 << (round % 3), 128);
		unsigned int s = slot_of(f);
		uint8_t *ring = (uint8_t *)f->ctl + UEV_RING_OFF(s);
		size_t size = f->ctl->slots[s].ring_size;
		unsigned char buf[128];
		int ret = 0;

		for (i = 0; i < 40; i++) {
			unsigned int k;

			memset(buf, (int)i, sizeof(buf));
			uev_producer__write_slot(f->ctl, s, i % 4, buf, rand() % 128, NULL);
			switch (rand() % 6) {
			case 0: /* random bytes in the ring */
				for (k = 0; k < 64; k++)
					ring[rand() % size] = (uint8_t)rand();
				break;
			case 1: /* a random head */
				my_sub(f, s)->head = ((uint64_t)rand() << 32) | (unsigned)rand();
				break;
			case 2: /* the whole ring */
				for (k = 0; k < size; k++)
					ring[k] = (uint8_t)rand();
				break;
			case 3: /* the slot control block */
				for (k = 0; k < sizeof(struct uev_slot); k++)
					((uint8_t *)&f->ctl->slots[s])[k] = (uint8_t)rand();
				break;
			default:
				break;
			}
			ret = uev_consumer__consume(f->c, &f->cbs);
			assert_true(ret >= 0 || ret == -EBADMSG);
		}
		/* the names too */
		for (i = 0; i < sizeof(f->ctl->names); i++)
			((uint8_t *)f->ctl->names)[i] = (uint8_t)rand();
		for (i = 2048; i < 2048 + 300; i++) {
			char got[64];
			int r = uev_consumer__type_name(f->c, i, got, sizeof(got));

			assert_true(r == 0 || r == -ENOENT || r == -EBADMSG);
			if (!r)
				assert_true(strlen(got) < 64);
		}
		fx_free(f);
	}
}

/* ---- provisional slot (PTBPF_UEV_PENDING) ---- */

static void prov_write(struct uev_ctl *ctl, unsigned int s, uint32_t seq, size_t len)
{
	unsigned char buf[1024] = { 0 };
	uint32_t w = 0;

	memcpy(buf, &w, 4);
	memcpy(buf + 4, &seq, 4);
	uev_producer__write_slot(ctl, s, 3, buf, len, NULL);
}

static void test_prov_claim(void **state)
{
	struct uev_opts o = { .ring_bytes = 1 << 20, .max_data_size = 64 };
	struct uev_opts big = { .ring_bytes = 4096, .max_data_size = 1 << 20 };
	struct uev_consumer *c, *c2, *cx;
	struct rx rx = { .check_seq = true }, rx2 = { 0 };
	struct uev_cbs cbs = { .event = rx_event, .lost = rx_lost, .ctx = &rx };
	struct uev_cbs cbs2 = { .event = rx_event, .lost = rx_lost, .ctx = &rx2 };
	struct uev_ctl *ctl;
	uint64_t t0 = 0;
	int fd, s;
	uint32_t i;

	assert_int_equal(uev_producer__region_create(&fd, &ctl), 0);
	s = uev_producer__prov_init(ctl, getpid());
	assert_true(s >= 0 && s < UEV_NSLOTS);
	assert_int_equal(ctl->slots[s].own, UEV_OWN(getpid(), UEV_SLOT_PROV));
	assert_true(ctl->active & (1ull << s));
	for (i = 0; i < 10; i++)
		prov_write(ctl, (unsigned int)s, i, 100);
	/* a controller of another pid does not adopt it */
	assert_int_equal(uev_consumer__attach_fd(&cx, fd, getpid() + 1, &o), 0);
	assert_int_equal(uev_consumer__ring_size(cx), 1 << 20);
	uev_consumer__detach(cx);
	assert_int_equal(ctl->slots[s].own, UEV_OWN(getpid(), UEV_SLOT_PROV));

	/* the first one does: same slot, its ring size, enabled */
	assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), 0);
	assert_int_equal(uev_consumer__ring_size(c), UEV_PROV_RING);
	assert_int_equal(uev_consumer__max_data(c), 64);
	assert_int_equal(ctl->slots[s].own, UEV_OWN(getpid(), UEV_SLOT_READY));
	assert_int_equal(ctl->slots[s].max_data, 64);
	assert_true(ctl->active & (1ull << s));
	/* the second one gets a fresh slot */
	assert_int_equal(uev_consumer__attach_fd(&c2, fd, getpid(), &o), 0);
	assert_int_equal(uev_consumer__ring_size(c2), 1 << 20);
	uev_consumer__set_enabled(c2, true);

	/* the events written before: delivered once, in order, truncated */
	assert_int_equal(uev_consumer__consume(c, &cbs), 10);
	assert_int_equal(rx.seq_err, 0);
	assert_int_equal(rx.seq[0], 10);
	assert_int_equal(rx.last.id, 2048 + 3);
	assert_int_equal(rx.last.data_len, 64);
	assert_int_equal(rx.last.trunc, PT_TRUNCATED_RECORD);
	assert_int_equal(rx.last.pid, getpid());
	assert_true(rx.last.ts > 0);
	t0 = rx.last.ts;
	assert_int_equal(rx.lost, 0);
	assert_int_equal(uev_consumer__consume(c, &cbs), 0);
	assert_int_equal(uev_consumer__consume(c2, &cbs2), 0);
	/* then an ordinary slot */
	prov_write(ctl, (unsigned int)s, 10, 20);
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_int_equal(rx.last.data_len, 20);
	assert_int_equal(rx.last.trunc, PT_NOT_TRUNCATED);
	assert_true(rx.last.ts >= t0);
	assert_int_equal(rx.seq_err, 0);
	uev_consumer__set_enabled(c, false);
	assert_int_equal(ctl->active & (1ull << s), 0);
	uev_consumer__detach(c2);
	uev_consumer__detach(c);
	assert_int_equal(ctl->slots[s].own, UEV_SLOT_FREE);

	/* a max data size larger than the provisional ring allows: clamped */
	s = uev_producer__prov_init(ctl, getpid());
	assert_true(s >= 0);
	prov_write(ctl, (unsigned int)s, 0, 1000);
	assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &big), 0);
	assert_int_equal(uev_consumer__ring_size(c), UEV_PROV_RING);
	assert_int_equal(uev_consumer__max_data(c), UEV_PROV_MAX_DATA);
	memset(&rx, 0, sizeof(rx));
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_int_equal(rx.last.data_len, 1000);
	assert_int_equal(rx.last.trunc, PT_NOT_TRUNCATED);
	uev_consumer__detach(c);
	munmap(ctl, UEV_TOTAL_SIZE);
	close(fd);
}

struct race {
	int fd;
	struct uev_consumer *c;
	int err;
};

static void *race_attach(void *arg)
{
	struct race *r = arg;
	struct uev_opts o = { .ring_bytes = 8192, .max_data_size = 16 };

	r->err = uev_consumer__attach_fd(&r->c, r->fd, getpid(), &o);
	return NULL;
}

/* Controllers attaching at the same time: exactly one adopts it. */
static void test_prov_race(void **state)
{
	struct race r[6];
	pthread_t th[6];
	struct uev_ctl *ctl;
	int fd, round, i, adopted;

	assert_int_equal(uev_producer__region_create(&fd, &ctl), 0);
	for (round = 0; round < 20; round++) {
		assert_true(uev_producer__prov_init(ctl, getpid()) >= 0);
		for (i = 0; i < 6; i++) {
			r[i].fd = fd;
			pthread_create(&th[i], NULL, race_attach, &r[i]);
		}
		adopted = 0;
		for (i = 0; i < 6; i++) {
			pthread_join(th[i], NULL);
			assert_int_equal(r[i].err, 0);
			if (uev_consumer__ring_size(r[i].c) == UEV_PROV_RING)
				adopted++;
		}
		assert_int_equal(adopted, 1);
		for (i = 0; i < 6; i++)
			uev_consumer__detach(r[i].c);
	}
	munmap(ctl, UEV_TOTAL_SIZE);
	close(fd);
}

/*
 * Ring full before the claim: the drops reach the adopting controller.
 * ring_size 0: the slot as this library makes it; otherwise as a library
 * of another version would (another ring size), adopted at that size.
 */
static void prov_drops(uint64_t ring_size)
{
	struct uev_opts o = { .ring_bytes = 1 << 20, .max_data_size = 2048 };
	struct uev_consumer *c;
	struct rx rx = { .check_seq = true };
	struct uev_cbs cbs = { .event = rx_event, .lost = rx_lost, .ctx = &rx };
	struct uev_ctl *ctl;
	int fd, s;
	uint32_t i, fit, want;

	assert_int_equal(uev_producer__region_create(&fd, &ctl), 0);
	s = uev_producer__prov_init(ctl, getpid());
	assert_true(s >= 0);
	if (ring_size) {
		ctl->slots[s].ring_size = ring_size;
		ctl->slots[s].max_data = (uint32_t)(ring_size / 4 - 64);
	} else {
		ring_size = UEV_PROV_RING;
	}
	/* 1016-byte records (the first 1040: it carries the thread's
	 * context; one whose timestamp gets a new high half 1024): more than
	 * fit in one sub-ring (a thread's); what did not fit was counted */
	want = (uint32_t)(UEV_SUB_SIZE(ring_size) / 1016 + 50);
	for (i = 0; i < want; i++)
		prov_write(ctl, (unsigned int)s, i, 1000);
	fit = want - (uint32_t)ctl->slots[s].sub[gettid() & (UEV_NSUB - 1)].dropped;
	assert_in_range(fit, UEV_SUB_SIZE(ring_size) / 1024 - 1, UEV_SUB_SIZE(ring_size) / 1016);
	assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), 0);
	assert_int_equal(uev_consumer__ring_size(c), ring_size);
	assert_int_equal(uev_consumer__consume(c, &cbs), fit);
	assert_int_equal(rx.seq[0], fit);
	assert_int_equal(rx.seq_err, 0);
	assert_int_equal(rx.lost, want - fit);
	assert_int_equal(rx.lost_calls, 1);
	assert_true(rx.lost_ts > 0);
	prov_write(ctl, (unsigned int)s, want, 8);
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_int_equal(rx.lost, want - fit);
	uev_consumer__detach(c);
	munmap(ctl, UEV_TOTAL_SIZE);
	close(fd);
}

static void test_prov_drops(void **state)
{
	(void)state;
	prov_drops(0);
}

/* A provisional slot of 256 KiB, as before UEV_PROV_RING became 4 MiB. */
static void test_prov_other_size(void **state)
{
	(void)state;
	prov_drops(256 * 1024);
}

/* A provisional slot whose size or record limit is impossible: refused. */
static void test_prov_bad_size(void **state)
{
	struct uev_opts o = { .ring_bytes = 1 << 20, .max_data_size = 2048 };
	struct uev_consumer *c;
	struct uev_ctl *ctl;
	int fd, s;

	(void)state;
	assert_int_equal(uev_producer__region_create(&fd, &ctl), 0);
	s = uev_producer__prov_init(ctl, getpid());
	assert_true(s >= 0);
	ctl->slots[s].ring_size = 3000; /* not a power of two */
	assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), -EPROTO);
	assert_int_equal(ctl->slots[s].own, UEV_SLOT_FREE);
	s = uev_producer__prov_init(ctl, getpid());
	assert_true(s >= 0);
	ctl->slots[s].max_data = 1u << 30; /* records larger than the ring */
	assert_int_equal(uev_consumer__attach_fd(&c, fd, getpid(), &o), -EPROTO);
	munmap(ctl, UEV_TOTAL_SIZE);
	close(fd);
}

/* This process's own provisional slot, written by posix_trace_event. */
static void test_prov_self(void **state)
{
	struct uev_opts o = { .ring_bytes = 8192, .max_data_size = 16 };
	struct rx rx = { 0 };
	struct uev_cbs cbs = { .event = rx_event, .lost = rx_lost, .ctx = &rx };
	struct uev_consumer *c;
	struct uev_ctl *ctl;
	int fd, s, v = 7;

	assert_int_equal(uev_producer__self(&fd, &ctl), 0);
	/* nobody adopts it: released by the first event after the deadline */
	s = uev_producer__prov_start(50000000ull);
	assert_true(s >= 0);
	assert_int_equal(ctl->slots[s].own, UEV_OWN(getpid(), UEV_SLOT_PROV));
	posix_trace_event(2048, &v, sizeof(v));
	posix_trace_event(2048, &v, sizeof(v));
	assert_int_not_equal(ctl->slots[s].sub[(uint32_t)gettid() & (UEV_NSUB - 1)].head, 0);
	usleep(80000);
	assert_int_equal(ctl->slots[s].own, UEV_OWN(getpid(), UEV_SLOT_PROV));
	posix_trace_event(2048, &v, sizeof(v));
	assert_int_equal(ctl->slots[s].own, UEV_SLOT_FREE);
	assert_int_equal(ctl->active & (1ull << s), 0);
	/* a controller now gets an ordinary empty slot */
	assert_int_equal(uev_consumer__attach(&c, 0, &o), 0);
	assert_int_equal(uev_consumer__ring_size(c), 8192);
	uev_consumer__set_enabled(c, true);
	assert_int_equal(uev_consumer__consume(c, &cbs), 0);
	uev_consumer__detach(c);

	/* adopted in time */
	s = uev_producer__prov_start(10000000000ull);
	assert_true(s >= 0);
	posix_trace_event(2048, &v, sizeof(v));
	posix_trace_event(2049, &v, sizeof(v));
	assert_int_equal(uev_consumer__attach(&c, 0, &o), 0);
	assert_int_equal(uev_consumer__ring_size(c), UEV_PROV_RING);
	assert_int_equal(uev_consumer__consume(c, &cbs), 2);
	assert_int_equal(rx.last.id, 2049);
	posix_trace_event(2048, &v, sizeof(v));
	assert_int_equal(uev_consumer__consume(c, &cbs), 1);
	assert_int_equal(rx.lost, 0);
	uev_consumer__detach(c);
	assert_int_equal(ctl->slots[s].own, UEV_SLOT_FREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_context),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_drops_exact),
		cmocka_unit_test(test_multithread),
		cmocka_unit_test(test_self_api),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_dead_writer),
		cmocka_unit_test(test_corruptions),
		cmocka_unit_test(test_future_ts),
		cmocka_unit_test(test_ts_in_call),
		cmocka_unit_test(test_watermark),
		cmocka_unit_test(test_watermark_threads),
		cmocka_unit_test(test_pad_retry),
		cmocka_unit_test(test_pad_retry_wrap),
		cmocka_unit_test(test_mid_pad),
		cmocka_unit_test(test_give_up),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_random_garbage),
		cmocka_unit_test(test_prov_claim),
		cmocka_unit_test(test_prov_race),
		cmocka_unit_test(test_prov_drops),
		cmocka_unit_test(test_prov_other_size),
		cmocka_unit_test(test_prov_bad_size),
		cmocka_unit_test(test_prov_self),
		cmocka_unit_test(test_subrings),
		cmocka_unit_test(test_shared_subrings),
		cmocka_unit_test(test_first_lap_mapped),
		cmocka_unit_test(test_controller_prefaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
