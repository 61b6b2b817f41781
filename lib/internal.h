/* SPDX-License-Identifier: GPL-2.0-only */
/* internal.h - helpers shared by the library's sources, never exported. */
#ifndef TM_INTERNAL_H
#define TM_INTERNAL_H

#include <stdarg.h>
#include "tracemap.h"

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

/* snprintf a path into buf; -1 with ENAMETOOLONG (message set) if it does not fit. */
TM_HIDDEN int tm_path(char *buf, size_t len, const char *fmt, ...) TM_PRINTF(3, 4);
/* Read a whole (small) file into a malloc'ed NUL-terminated buffer. */
TM_HIDDEN char *tm_read_file(const char *path, size_t *len);
/* Write all of buf, retrying on short writes and EINTR (no message). */
TM_HIDDEN int tm_write_all(int fd, const void *buf, size_t len);
/* pread() all of len bytes; -1 with errno EIO on a short file (no message). */
TM_HIDDEN int tm_pread_all(int fd, void *buf, size_t len, off_t off);
/* Write text to the existing <dir>/<file> (truncating); -1, message names the file and errno. */
TM_HIDDEN int tm_file_write(const char *dir, const char *file, const char *text);
/* Like tm_file_write() without O_TRUNC (tracefs pid lists append). */
TM_HIDDEN int tm_file_append(const char *dir, const char *file, const char *text);

#endif /* TM_INTERNAL_H */
