/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-fast.h - compiled event formats that skip libtraceevent's general
 * interpreter: simple print formats (print-fast.c) and the sched plugin's
 * handlers (print-sched.c). Private to print.c, which checks every format
 * against libtraceevent's output on its first records before trusting it.
 */
#ifndef TM_PRINT_FAST_H
#define TM_PRINT_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_event;
struct tep_handle;

/* A growing output buffer the renderers append to. */
struct tm_fastbuf {
	char	*buf;
	size_t	len, cap;
};

struct tm_fastfmt;

struct tm_fastfmt_ops {
	/* Append the event text: 0 done, -1 this record needs libtraceevent. */
	int	(*render)(struct tm_fastfmt *f, struct tm_fastbuf *b, const uint8_t *data,
			  uint32_t size);
	/* Optional: learn from libtraceevent's text of a record render refused. */
	void	(*learn)(struct tm_fastfmt *f, const uint8_t *data, uint32_t size,
			 const char *text, size_t len);
	void	(*free)(struct tm_fastfmt *f);
};

struct tm_fastfmt {
	const struct tm_fastfmt_ops	*ops;
	struct tep_handle		*tep;
	bool				swap;	/* file byte order differs from ours */
	uint64_t			*comm_gen; /* bumped when a comm is registered */
};

/* The event's compiled format, or NULL to leave it to libtraceevent. */
struct tm_fastfmt *tm_fastfmt_compile(struct tep_handle *tep, const struct tep_event *ev,
				      bool swap);
/* print-sched.c: the sched_switch / sched_wakeup plugin handlers, or NULL. */
struct tm_fastfmt *tm_schedfmt_compile(struct tep_handle *tep, const struct tep_event *ev,
				       bool swap);
void tm_fastfmt_free(struct tm_fastfmt *f);

/* Helpers shared by the renderers. */
int tm_fastbuf_grow(struct tm_fastbuf *b, size_t more);

static inline int tm_fastbuf_reserve(struct tm_fastbuf *b, size_t more)
{
	return b->len + more <= b->cap ? 0 : tm_fastbuf_grow(b, more);
}

/* Appends n reserved bytes; short copies inline (most pieces are a few bytes). */
static inline void tm_fastbuf_put(struct tm_fastbuf *b, const char *s, size_t n)
{
	char *d = b->buf + b->len;

	b->len += n;
	if (n > 16) {
		__builtin_memcpy(d, s, n);
		return;
	}
	while (n--)
		*d++ = *s++;
}
/* Decimal (signed when neg_ok and the value is negative as int64). */
int tm_fastbuf_dec(struct tm_fastbuf *b, uint64_t v, bool is_signed);
uint64_t tm_fast_read(const uint8_t *p, unsigned int size, bool swap);

#endif /* TM_PRINT_FAST_H */
