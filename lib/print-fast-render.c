// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-fast-render.c - prints the pieces of a compiled format
 * (print-fast.c) for one record, without printf where the conversion is
 * one we format ourselves: decimal and hex numbers with at most '-', '0'
 * and a width, plain strings, pointers, symbol names.
 */
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat-format.h"
#include "print-piece.h"

/* printf's %d %u %x %X with only '-', '0' and a width, of v already cast. */
static int put_int(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	const char *digits = pc->conv == 'X' ? upper : lower;
	bool neg = pc->is_signed && (int64_t)v < 0;
	char tmp[24], *s = tmp + sizeof(tmp);
	size_t len, pad;

	if (neg)
		v = (uint64_t)0 - v;
	if (pc->conv == 'x' || pc->conv == 'X') {
		do {
			*--s = digits[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			*--s = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	}
	len = (size_t)(tmp + sizeof(tmp) - s) + neg;
	pad = pc->width > len ? pc->width - len : 0;
	if (tm_fastbuf_reserve(b, len + pad))
		return -1;
	if (!pc->left && !pc->zero)
		for (; pad; pad--)
			b->buf[b->len++] = ' ';
	if (neg)
		b->buf[b->len++] = '-';
	if (!pc->left)
		for (; pad; pad--)
			b->buf[b->len++] = '0';
	tm_fastbuf_put(b, s, len - neg);
	for (; pad; pad--)
		b->buf[b->len++] = ' ';
	return 0;
}

static int put_num(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	long long sv;
	int n;

	if (pc->cast == 4)
		v = pc->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : (uint32_t)v;
	if (pc->plain && pc->conv != 'x' && pc->conv != 'X')
		return tm_fastbuf_dec(b, v, pc->is_signed);
	if (pc->simple)
		return put_int(b, pc, v);
	if (tm_fastbuf_reserve(b, 64))
		return -1;
	sv = (long long)v;
	n = snprintf(b->buf + b->len, b->cap - b->len, pc->spec, sv);
	if (n < 0 || (size_t)n >= b->cap - b->len)
		return -1;
	b->len += (size_t)n;
	return 0;
}

static int put_str(struct tm_fastbuf *b, const struct piece *pc, const char *str, size_t len)
{
	char tmp[1024];
	int n;

	if (pc->plain) {
		if (tm_fastbuf_reserve(b, len))
			return -1;
		tm_fastbuf_put(b, str, len);
		return 0;
	}
	/* width or precision: printf needs a NUL-terminated copy */
	if (len >= sizeof(tmp) || tm_fastbuf_reserve(b, len + 256))
		return -1;
	memcpy(tmp, str, len);
	tmp[len] = '\0';
	n = snprintf(b->buf + b->len, b->cap - b->len, pc->spec, tmp);
	if (n < 0 || (size_t)n >= b->cap - b->len)
		return -1;
	b->len += (size_t)n;
	return 0;
}

/* Lower-case hex digits of v, as a bare %llx prints them. */
static int put_hex(struct tm_fastbuf *b, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int n = 1;
	uint64_t t;
	char *e;

	if (tm_fastbuf_reserve(b, 16))
		return -1;
	for (t = v; t >= 16; t >>= 4)
		n++;
	b->len += n;
	e = b->buf + b->len;
	for (; n; n--, v >>= 4)
		*--e = hex[v & 15];
	return 0;
}

/* glibc's %p of a non-NULL pointer; NULL ("(nil)") is left to libtraceevent. */
static int put_ptr(struct tm_fastbuf *b, uint64_t v)
{
	if (!v || tm_fastbuf_reserve(b, 2))
		return -1;
	tm_fastbuf_put(b, "0x", 2);
	return put_hex(b, v);
}

/*
 * %ps / %pS as libtraceevent prints them: the name of the function holding
 * v, by its lookup (kallsyms or the resolver set on the handle), and for
 * %pS "+0x<offset>"; an address without a function is left to it.
 */
static int put_func(struct tm_fastbuf *b, struct tep_handle *tep, const struct piece *pc,
		    uint64_t v)
{
	unsigned long long start;
	const char *name;
	size_t len;

	if (!tep_find_function_info(tep, v, &name, &start, NULL) || !name)
		return -1;
	len = strlen(name);
	if (tm_fastbuf_reserve(b, len + 3))
		return -1;
	tm_fastbuf_put(b, name, len);
	if (!pc->fn_off)
		return 0;
	tm_fastbuf_put(b, "+0x", 3);
	return put_hex(b, v - start);
}

/* The symbol's name; a value without one is left to libtraceevent. */
static int put_sym(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < pc->nsyms; i++) {
		if (pc->syms[i].value != v)
			continue;
		if (tm_fastbuf_reserve(b, pc->syms[i].len))
			return -1;
		tm_fastbuf_put(b, pc->syms[i].str, pc->syms[i].len);
		return 0;
	}
	return -1;
}

/* __get_str(): the NUL-terminated string at the field's data location. */
static int put_dyn_str(struct tm_fastbuf *b, const struct piece *pc, const uint8_t *data,
		       uint32_t size, bool swap)
{
	uint32_t loc = (uint32_t)tm_get_uint(data + pc->offset, 4, swap);
	uint32_t off = (loc & 0xffff) + (pc->rel ? pc->offset + 4 : 0);
	const char *str;
	size_t len;

	if (off >= size)
		return -1;
	str = (const char *)data + off;
	len = strnlen(str, size - off);
	if (len == size - off)	/* no NUL inside the record */
		return -1;
	return put_str(b, pc, str, len);
}

static int render_piece(const struct tm_fastfmt *base, struct tm_fastbuf *b,
			const struct piece *pc, const uint8_t *data, uint32_t size)
{
	bool swap = base->swap;
	const char *str;
	int i;

	if (pc->kind == PIECE_LIT) {
		if (tm_fastbuf_reserve(b, pc->lit_len))
			return -1;
		tm_fastbuf_put(b, pc->lit, pc->lit_len);
		return 0;
	}
	if (pc->offset + pc->size > size)
		return -1;
	switch (pc->kind) {
	case PIECE_NUM:
		return put_num(b, pc, tm_get_uint(data + pc->offset, pc->size, swap));
	case PIECE_PTR:
		return put_ptr(b, tm_get_uint(data + pc->offset, 8, swap));
	case PIECE_FUNC:
		return put_func(b, base->tep, pc, tm_get_uint(data + pc->offset, 8, swap));
	case PIECE_SYM:
		return put_sym(b, pc, tm_get_uint(data + pc->offset, pc->size, swap));
	case PIECE_COND:
		i = tm_get_uint(data + pc->offset, pc->size, swap) != 0;
		return put_str(b, pc, pc->alt[i], pc->alt_len[i]);
	case PIECE_STR_FIELD:
		str = (const char *)data + pc->offset;
		return put_str(b, pc, str, strnlen(str, pc->size));
	case PIECE_STR_DYN:
		return put_dyn_str(b, pc, data, size, swap);
	default:
		return -1;
	}
}

int tm_simple_render(struct tm_fastfmt *base, struct tm_fastbuf *b, const uint8_t *data,
		     uint32_t size)
{
	const struct simplefmt *f = (const struct simplefmt *)base;
	int i;

	for (i = 0; i < f->n; i++)
		if (render_piece(base, b, &f->p[i], data, size))
			return -1;
	return 0;
}
