// SPDX-License-Identifier: GPL-2.0-only
/* error.c - the per-thread "what failed" message behind tm_last_error(). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>

#include "internal.h"

/* Per thread, so recorder threads never overwrite each other's message. */
static _Thread_local char tm_error_buf[1024];

const char *tm_last_error(void)
{
	return tm_error_buf[0] ? tm_error_buf : "unknown error";
}

static void error_vset(int err, bool with_errno, const char *fmt, va_list ap)
{
	char msg[896];	/* leaves room for the errno text */

	int n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (with_errno)
		n = snprintf(tm_error_buf, sizeof(tm_error_buf), "%s: %s", msg, strerror(err));
	else
		n = snprintf(tm_error_buf, sizeof(tm_error_buf), "%s", msg);
	(void)n;	/* a message cut at 1023 bytes is still one useful line */
	errno = err;
}

int tm_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err ? err : EIO, true, fmt, ap);
	va_end(ap);
	return -1;
}

int tm_failx(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err ? err : EINVAL, false, fmt, ap);
	va_end(ap);
	return -1;
}

int tm_fail_prefix(const char *fmt, ...)
{
	char prefix[384], old[640] = "";
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	strncpy(old, tm_last_error(), sizeof(old) - 1);
	old[sizeof(old) - 1] = '\0';
	if (snprintf(tm_error_buf, sizeof(tm_error_buf), "%s: %s", prefix, old) < 0)
		tm_error_buf[0] = '\0';
	errno = err;
	return -1;
}
