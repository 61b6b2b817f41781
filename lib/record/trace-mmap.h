/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-mmap.h - the Linux 6.10 uapi of the mapped ring buffer (linux/trace_mmap.h),
 * carried here because Debian 12's kernel headers (6.1) predate it.
 */
#ifndef TM_TRACE_MMAP_H
#define TM_TRACE_MMAP_H

#include <stdint.h>
#include <sys/ioctl.h>

/* The meta page at offset 0 of a mapped per_cpu/cpuN/trace_pipe_raw: 80 bytes. */
struct tm_trace_buffer_meta {
	uint32_t	meta_page_size;		/* bytes of the meta mapping */
	uint32_t	meta_struct_len;	/* sizeof this struct as the kernel knows it */
	uint32_t	subbuf_size;		/* bytes of one sub-buffer */
	uint32_t	nr_subbufs;		/* sub-buffers in the data mapping */
	struct {
		uint64_t	lost_events;	/* events lost before the reader sub-buffer */
		uint32_t	id;		/* index of the reader sub-buffer */
		uint32_t	read;		/* data bytes of it handed out so far */
	} reader;
	uint64_t	flags;
	uint64_t	entries;
	uint64_t	overrun;
	uint64_t	read;
	/*
	 * reserved1/reserved2 in 6.10's uapi; the pKVM remotes series names them, and 7.3
	 * fills them (6.12 leaves 0): sub-buffers overwritten unread, and written to.
	 * pages_lost is the summary's count of sub-buffers lost (tm_ring_subbufs_lost()).
	 */
	uint64_t	pages_lost;
	uint64_t	pages_touched;
};

_Static_assert(sizeof(struct tm_trace_buffer_meta) == 80, "trace_buffer_meta is 80 bytes");

/* Make the next sub-buffer with data the reader (or hand out more of the current one). */
#define TM_TRACE_MMAP_IOCTL_GET_READER	_IO('R', 0x20)

#endif /* TM_TRACE_MMAP_H */
