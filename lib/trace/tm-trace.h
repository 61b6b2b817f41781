/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-trace.h - what a trace is, as cmd/ sees it: a text of its metadata as a
 * file stored it (struct tm_blob) and one decoded record (struct tm_event_rec).
 * The rest of the trace model is private (trace-internal.h).
 */
#ifndef TM_TRACE_H
#define TM_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* A text blob of a file's metadata (not NUL-terminated unless said). */
struct tm_blob {
	const char	*data;
	size_t		len;
	/*
	 * Where data[0] is, for messages: sec 0 and off its file offset, or
	 * (v7) sec the file offset of its section and off the byte in the
	 * section's (uncompressed) body.
	 */
	uint64_t	sec;
	uint64_t	off;
};

/* One record ready to print. */
struct tm_event_rec {
	uint64_t	ts;		/* trace-clock units */
	const void	*data;		/* payload, common fields first */
	uint32_t	size;		/* payload bytes */
	int		cpu;
	int		buffer;		/* 0 top level, then instances */
	int		file;		/* which of several files merged (0 for one) */
	int64_t		missed;		/* events lost before it: 0, n, or -1 unknown */
};

#endif /* TM_TRACE_H */
