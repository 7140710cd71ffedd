// SPDX-License-Identifier: LGPL-2.1-or-later
/* One BPF ring buffer, consumed from user space: see kring.h. */
#include "backend/kring.h"
#include "core/pages.h"

#include <errno.h>
#include <linux/bpf.h>
#include <sys/mman.h>
#include <unistd.h>

#define RB_HDR_SZ 8u /* BPF_RINGBUF_HDR_SZ: u32 len (+ busy, discard bits), u32 pg_off */

int kring__open(struct kring *r, int map_fd, size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	r->mask = size - 1;
	r->head_len = 0;
	/* the consumer page is the only one user space may write */
	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->consumer = p;
	/* producer page, then the data twice: a record that wraps reads on */
	r->map_len = page + 2 * size;
	p = mmap(NULL, r->map_len, PROT_READ, MAP_SHARED, map_fd, (off_t)page);
	if (p == MAP_FAILED) {
		int err = -errno;

		munmap(r->consumer, page);
		r->consumer = NULL;
		return err;
	}
	r->producer = p;
	r->data = (unsigned char *)p + page;
	pages__touch_read(r->data, 2 * size); /* see core/pages.h */
	r->cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
	r->published = r->cons;
	r->publish_every = size / 16;
	return 0;
}

void kring__close(struct kring *r)
{
	if (r->consumer)
		munmap(r->consumer, (size_t)sysconf(_SC_PAGESIZE));
	if (r->producer)
		munmap(r->producer, r->map_len);
	r->consumer = NULL;
	r->producer = NULL;
}

unsigned long kring__producer_pos(const struct kring *r)
{
	return __atomic_load_n(r->producer, __ATOMIC_ACQUIRE);
}

bool kring__empty(const struct kring *r)
{
	return kring__producer_pos(r) == r->cons;
}

unsigned int kring__fill(const struct kring *r)
{
	unsigned long used = kring__producer_pos(r) - r->cons;

	return (unsigned int)(used * 1000 / (r->mask + 1));
}

int kring__peek(struct kring *r, unsigned long limit, const void **data, size_t *size)
{
	while (r->cons < limit) {
		const uint32_t *hdr = (const uint32_t *)(r->data + (r->cons & r->mask));
		uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		size_t rlen;

		if (len & BPF_RINGBUF_BUSY_BIT)
			return 0;
		rlen = ((len & ~(uint32_t)BPF_RINGBUF_DISCARD_BIT) + RB_HDR_SZ + 7) & ~(size_t)7;
		if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
			r->head_len = rlen;
			*data = hdr + 2;
			*size = len;
			return 1;
		}
		r->cons += rlen;
		if (r->cons - r->published >= r->publish_every)
			kring__publish(r);
	}
	return 0;
}

void kring__publish(struct kring *r)
{
	if (r->published == r->cons)
		return;
	__atomic_store_n(r->consumer, r->cons, __ATOMIC_RELEASE);
	r->published = r->cons;
}

void kring__advance(struct kring *r)
{
	r->cons += r->head_len;
	r->head_len = 0;
	if (r->cons - r->published >= r->publish_every)
		kring__publish(r);
}
