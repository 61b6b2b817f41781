/* SPDX-License-Identifier: GPL-2.0-only */
/* internal.h - helpers shared by the library's sources, never exported. */
#ifndef TM_INTERNAL_H
#define TM_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#define TM_HIDDEN __attribute__((visibility("hidden")))
#define TM_PRINTF(a, b) __attribute__((format(printf, a, b)))

#define TM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Record a failure: the message becomes "<fmt>: <strerror(err)>", errno is
 * set to err and -1 is returned, so callers can write
 *	return tm_fail(errno, "open %s", path);
 */
TM_HIDDEN int tm_fail(int err, const char *fmt, ...) TM_PRINTF(2, 3);
/* Like tm_fail() but the message is used as is (no errno text). */
TM_HIDDEN int tm_failx(int err, const char *fmt, ...) TM_PRINTF(2, 3);
/* Prefix the current message with "<fmt>: " (keeps errno). Returns -1. */
TM_HIDDEN int tm_fail_prefix(const char *fmt, ...) TM_PRINTF(1, 2);

/*
 * bigmem.c: like malloc() (free() it), for a buffer that will be written
 * whole: from 512 KiB on, rounded up to and aligned on 2 MiB and backed by
 * transparent huge pages when the kernel allows. NULL, errno ENOMEM.
 */
TM_HIDDEN void *tm_alloc_big(size_t size);
/* Zeroed pages for a large table mostly left zero; NULL + errno. Free with tm_free_sparse(). */
TM_HIDDEN void *tm_alloc_sparse(size_t size);
/* Free what tm_alloc_sparse(size) returned (NULL is fine). */
TM_HIDDEN void tm_free_sparse(void *p, size_t size);
/* Fault in the pages of [p, p + len) in one call (best effort): for buffers about to be written. */
TM_HIDDEN void tm_prefault(void *p, size_t len);

/* snprintf a path into buf; -1 with ENAMETOOLONG (message set) if it does not fit. */
TM_HIDDEN int tm_path(char *buf, size_t len, const char *fmt, ...) TM_PRINTF(3, 4);
/* Read a whole (small) file into a malloc'ed NUL-terminated buffer. */
TM_HIDDEN char *tm_read_file(const char *path, size_t *len);
/* Write all of buf, retrying on short writes and EINTR (no message). */
TM_HIDDEN int tm_write_all(int fd, const void *buf, size_t len);
/* pread() all of len bytes; -1 with errno EIO on a short file (no message). */
TM_HIDDEN int tm_pread_all(int fd, void *buf, size_t len, off_t off);

struct tm_outfile;

/* outfile.c: empty a regular output file and rewind it; nothing for a stream. -1 + message. */
TM_HIDDEN int tm_outfile_truncate(struct tm_outfile *out);

/* cleanup.c: path is a temporary until tm_cleanup_remove(path) (best effort). */
TM_HIDDEN void tm_cleanup_add(const char *path);
/* path is no longer one (renamed into place or removed). */
TM_HIDDEN void tm_cleanup_remove(const char *path);

#endif /* TM_INTERNAL_H */
