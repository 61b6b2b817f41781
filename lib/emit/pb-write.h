/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pb-write.h - protobuf wire format written straight into a struct tm_buf:
 * varints, tags, length-delimited fields and nested messages whose length is
 * filled in when they close. The Perfetto output encodes its events with
 * these instead of building a protobuf-c struct per event (the cost that
 * made convert 4-5x slower than report).
 */
#ifndef TM_PB_WRITE_H
#define TM_PB_WRITE_H

#include <stdint.h>
#include <string.h>

#include "util/buf.h"

#define PB_VARINT	0
#define PB_LEN		2

static inline size_t pb_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline size_t pb_put_varint_at(uint8_t *o, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		o[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	o[n++] = (uint8_t)v;
	return n;
}

static inline void pb_varint(struct tm_buf *b, uint64_t v)
{
	tm_buf_reserve(b, 10);
	if (!b->err)
		b->len += pb_put_varint_at(b->data + b->len, v);
}

static inline void pb_tag(struct tm_buf *b, uint32_t field, unsigned int wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

/* int32/int64/uint32/uint64/enum/bool: a negative int32 is sign-extended, as protobuf does. */
static inline void pb_uint(struct tm_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_VARINT);
	pb_varint(b, v);
}

static inline void pb_bytes(struct tm_buf *b, uint32_t field, const void *p, size_t len)
{
	pb_tag(b, field, PB_LEN);
	pb_varint(b, len);
	tm_buf_put(b, p, len);
}

static inline void pb_str(struct tm_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/*
 * A nested message: its tag and one byte kept for its length; pb_close()
 * writes the length, moving the body when it needs more than one byte.
 * Returns where the body starts.
 */
static inline size_t pb_open(struct tm_buf *b, uint32_t field)
{
	pb_tag(b, field, PB_LEN);
	tm_buf_reserve(b, 1);
	if (b->err)
		return 0;
	b->len++;
	return b->len;
}

static inline void pb_close(struct tm_buf *b, size_t body)
{
	size_t len, n;

	if (b->err)
		return;
	len = b->len - body;
	n = pb_varint_size(len);
	if (n > 1) {
		tm_buf_reserve(b, n - 1);
		if (b->err)
			return;
		memmove(b->data + body + n - 1, b->data + body, len);
		b->len += n - 1;
	}
	pb_put_varint_at(b->data + body - 1, len);
}

#endif /* TM_PB_WRITE_H */
