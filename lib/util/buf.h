/* SPDX-License-Identifier: GPL-2.0-only */
/* buf.h - a growable byte buffer the trace.dat writer builds headers and sections in (buf.c). */
#ifndef TM_BUF_H
#define TM_BUF_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A growable buffer; a failed allocation sticks in err and later puts do nothing. */
struct tm_buf {
	uint8_t	*data;
	size_t	len;
	size_t	cap;
	int	err;
};

/* Make room for more bytes at data + len (len unchanged); on ENOMEM sets err. */
TM_HIDDEN void tm_buf_reserve(struct tm_buf *b, size_t more);
/* Append len bytes (host byte order for the numbers below); on ENOMEM sets err. */
TM_HIDDEN void tm_buf_put(struct tm_buf *b, const void *p, size_t len);
TM_HIDDEN void tm_buf_put16(struct tm_buf *b, uint16_t v);
TM_HIDDEN void tm_buf_put32(struct tm_buf *b, uint32_t v);
TM_HIDDEN void tm_buf_put64(struct tm_buf *b, uint64_t v);
/* A string with its NUL. */
TM_HIDDEN void tm_buf_putstr(struct tm_buf *b, const char *s);
/* Free the bytes and zero the buffer (ready for reuse). */
TM_HIDDEN void tm_buf_free(struct tm_buf *b);

#endif /* TM_BUF_H */
