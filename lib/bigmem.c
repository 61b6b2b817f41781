// SPDX-License-Identifier: GPL-2.0-only
/*
 * bigmem.c - memory whose page faults matter. On a VM every first touch of
 * a 4 KiB page is a costly fault (about 15 us here: a 5 MB buffer took 20 ms
 * of faults). Buffers of megabytes written whole at once (a decompressed
 * kallsyms section, the symbol table) get transparent huge pages where the
 * kernel allows them: one fault for 512 pages. Big tables that stay mostly
 * zero come straight from the kernel, never cleared by calloc(), so only
 * the pages written cost.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

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
