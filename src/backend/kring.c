// SPDX-License-Identifier: LGPL-2.1-or-later
/* One BPF ring buffer, consumed from user space: see kring.h. */
#include "backend/kring.h"
#include "common/pages.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

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
	/*
	 * Producer page, the data, then the start of the data again: a record
	 * that wraps reads on. The kernel maps every page at mmap(), each one
	 * counted in our resident memory: the second copy only as far as a
	 * record can reach past the end.
	 */
	r->map_len = page + size + (size < KRING_WRAP_READ ? size : KRING_WRAP_READ);
	p = mmap(NULL, r->map_len, PROT_READ, MAP_SHARED, map_fd, (off_t)page);
	if (p == MAP_FAILED) {
		int err = -errno;

		munmap(r->consumer, page);
		r->consumer = NULL;
		return err;
	}
	r->producer = p;
	r->data = (unsigned char *)p + page;
	r->touched = size < KRING_EAGER ? size : KRING_EAGER;
	pages__touch_read(r->data, r->touched);
	r->cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
	r->published = r->cons;
	r->publish_every = size / 16;
	return 0;
}

bool kring__populate(struct kring *r, size_t chunk)
{
	size_t size = r->mask + 1;
	size_t all = size + (size < KRING_WRAP_READ ? size : KRING_WRAP_READ);

	if (chunk > all - r->touched)
		chunk = all - r->touched;
	pages__touch_read(r->data + r->touched, chunk);
	r->touched += chunk;
	return r->touched < all;
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

bool kring__wait_busy(const struct kring *r, unsigned long limit, uint64_t now, uint64_t wait_ns,
		      uint64_t *deadline)
{
	if (r->cons >= limit)
		return false;
	if (!*deadline)
		*deadline = now + wait_ns;
	else if (now >= *deadline)
		return false;
	kring__relax();
	return true;
}
