// SPDX-License-Identifier: GPL-2.0-only
/*
 * bigmem.c - memory whose page faults matter. On a VM every first touch of
 * a 4 KiB page is a costly fault (about 15 us here: a 5 MB buffer took 20 ms
 * of faults). Buffers of megabytes written whole at once (a decompressed
 * kallsyms section, the symbol table) get transparent huge pages where the
 * kernel allows them: one fault for 512 pages. Big tables that stay mostly
 * zero come straight from the kernel, never cleared by calloc(), so only
 * the pages written cost. Other buffers about to be filled can be faulted
 * in with one call.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

#define TM_HUGE_PAGE	((size_t)2 << 20)
#define TM_BIG_MIN	((size_t)512 << 10)

void *tm_alloc_big(size_t size)
{
	size_t round;
	void *p;

	if (size < TM_BIG_MIN)
		return malloc(size);
	round = (size + TM_HUGE_PAGE - 1) & ~(TM_HUGE_PAGE - 1);
	if (round < size || posix_memalign(&p, TM_HUGE_PAGE, round)) {
		errno = ENOMEM;
		return NULL;
	}
	/* best effort: with THP "never" (or an old kernel) they are plain pages */
	madvise(p, round, MADV_HUGEPAGE);
	return p;
}

void *tm_alloc_sparse(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void tm_free_sparse(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

/* One madvise() for many faults: about 3x cheaper per page here. Linux 5.14+, else nothing. */
void tm_prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}
