// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-fast-render.c - prints the pieces of a compiled format
 * (print-fast.c) for one record, without printf where the conversion is
 * one we format ourselves: decimal and hex numbers with at most '-', '0'
 * and a width, plain strings, pointers, symbol and function names, and
 * texts learnt from libtraceevent's lines (print-learn.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat/dat-format.h"
#include "print-piece.h"
#include "print-learn.h"
#include "print-buf.h"

/* printf's %d %u %x %X with only '-', '0' and a width, of v already cast. */
static int put_int(struct tm_buf *b, const struct piece *pc, uint64_t v)
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
	if (tm_buf_reserve(b, len + pad))
		return -1;
	if (!pc->left && !pc->zero)
		for (; pad; pad--)
			b->text[b->len++] = ' ';
	if (neg)
		b->text[b->len++] = '-';
	if (!pc->left)
		for (; pad; pad--)
			b->text[b->len++] = '0';
	tm_buf_put_reserved(b, s, len - neg);
	for (; pad; pad--)
		b->text[b->len++] = ' ';
	return 0;
}

static int put_num(struct tm_buf *b, const struct piece *pc, uint64_t v)
{
	long long sv;
	int n;

	if (pc->cast == 4)
		v = pc->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : (uint32_t)v;
	if (pc->plain && pc->conv != 'x' && pc->conv != 'X')
		return tm_buf_dec(b, v, pc->is_signed);
	if (pc->plain && pc->conv == 'x')
		return tm_buf_hex(b, v);
	if (pc->simple)
		return put_int(b, pc, v);
	if (tm_buf_reserve(b, 64))
		return -1;
	sv = (long long)v;
	n = snprintf(b->text + b->len, b->cap - b->len, pc->spec, sv);
	if (n < 0 || (size_t)n >= b->cap - b->len)
		return -1;
	b->len += (size_t)n;
	return 0;
}

static int put_str(struct tm_buf *b, const struct piece *pc, const char *str, size_t len)
{
	char tmp[1024];
	int n;

	if (pc->plain) {
		if (tm_buf_reserve(b, len))
			return -1;
		tm_buf_put_reserved(b, str, len);
		return 0;
	}
	/* width or precision: printf needs a NUL-terminated copy */
	if (len >= sizeof(tmp) || tm_buf_reserve(b, len + 256))
		return -1;
	memcpy(tmp, str, len);
	tmp[len] = '\0';
	n = snprintf(b->text + b->len, b->cap - b->len, pc->spec, tmp);
	if (n < 0 || (size_t)n >= b->cap - b->len)
		return -1;
	b->len += (size_t)n;
	return 0;
}

/* glibc's %p of a non-NULL pointer; NULL ("(nil)") is left to libtraceevent. */
static int put_ptr(struct tm_buf *b, uint64_t v)
{
	if (!v || tm_buf_reserve(b, 2))
		return -1;
	tm_buf_put_reserved(b, "0x", 2);
	return tm_buf_hex(b, v);
}

/*
 * %ps / %pS as libtraceevent prints them: the name of the function holding
 * v, by its lookup (kallsyms or the resolver set on the handle), and for
 * %pS "+0x<offset>"; an address without a function is left to it.
 */
static int put_func(struct tm_buf *b, struct tep_handle *tep, const struct piece *pc,
		    uint64_t v)
{
	unsigned long long start;
	const char *name;
	size_t len;

	if (!tep_find_function_info(tep, v, &name, &start, NULL) || !name)
		return -1;
	len = strlen(name);
	if (tm_buf_reserve(b, len + 3))
		return -1;
	tm_buf_put_reserved(b, name, len);
	if (!pc->fn_off)
		return 0;
	tm_buf_put_reserved(b, "+0x", 3);
	return tm_buf_hex(b, v - start);
}

static int put_learnt(struct tm_fastfmt *base, struct tm_buf *b, const struct piece *pc,
		      uint64_t v)
{
	bool confirmed = false;
	unsigned int len;
	const char *t = tm_learnt_find(pc->learnt, v, &len, &confirmed);

	if (!t || tm_buf_reserve(b, len))
		return -1;
	if (!confirmed)
		base->unconfirmed = true;
	tm_buf_put_reserved(b, t, len);
	return 0;
}

/* The symbol's name; a value without one is left to libtraceevent. */
static int put_sym(struct tm_buf *b, const struct piece *pc, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < pc->nsyms; i++) {
		if (pc->syms[i].value != v)
			continue;
		if (tm_buf_reserve(b, pc->syms[i].len))
			return -1;
		tm_buf_put_reserved(b, pc->syms[i].str, pc->syms[i].len);
		return 0;
	}
	return -1;
}

/* __get_str(): the NUL-terminated string at the field's data location. */
static int put_dyn_str(struct tm_buf *b, const struct piece *pc, const uint8_t *data,
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

static int render_piece(struct tm_fastfmt *base, struct tm_buf *b,
			const struct piece *pc, const uint8_t *data, uint32_t size)
{
	bool swap = base->swap;
	const char *str;
	int i;

	if (pc->kind == PIECE_LIT) {
		if (tm_buf_reserve(b, pc->lit_len))
			return -1;
		tm_buf_put_reserved(b, pc->lit, pc->lit_len);
		return 0;
	}
	if (pc->size > size || pc->offset > size - pc->size)
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
	case PIECE_LEARN:
		return put_learnt(base, b, pc, tm_get_uint(data + pc->offset, pc->size, swap));
	case PIECE_STR_FIELD:
		str = (const char *)data + pc->offset;
		return put_str(b, pc, str, strnlen(str, pc->size));
	case PIECE_STR_DYN:
		return put_dyn_str(b, pc, data, size, swap);
	default:
		return -1;
	}
}

int tm_simple_render(struct tm_fastfmt *base, struct tm_buf *b, const uint8_t *data,
		     uint32_t size)
{
	struct simplefmt *f = (struct simplefmt *)base;
	const struct piece *pc, *end = f->p + f->n;

	for (pc = f->p; pc < end; pc++) {
		/* literals, half the pieces, without the call */
		if (pc->kind == PIECE_LIT && !tm_buf_reserve(b, pc->lit_len)) {
			tm_buf_put_reserved(b, pc->lit, pc->lit_len);
			continue;
		}
		if (render_piece(base, b, pc, data, size))
			return -1;
	}
	return 0;
}

/* The first learnt piece whose value has no text yet, or -1; *n: how many there are. */
static int unknown_piece(const struct simplefmt *f, const uint8_t *data, uint32_t size,
			 uint64_t *value, int *n)
{
	const struct piece *pc;
	unsigned int len;
	int i, found = -1;
	uint64_t v;

	*n = 0;
	for (i = 0; i < f->n; i++) {
		pc = &f->p[i];
		if (pc->kind != PIECE_LEARN)
			continue;
		if (pc->size > size || pc->offset > size - pc->size)
			return -1;
		v = tm_get_uint(data + pc->offset, pc->size, f->base.swap);
		if (tm_learnt_find(pc->learnt, v, &len, NULL))
			continue;
		if (!(*n)++) {
			found = i;
			*value = v;
		}
	}
	return found;
}

static int render_range(struct simplefmt *f, struct tm_buf *b, int from, int to,
			const uint8_t *data, uint32_t size)
{
	int i;

	for (i = from; i < to; i++)
		if (render_piece(&f->base, b, &f->p[i], data, size))
			return -1;
	return 0;
}

/*
 * Where the text of piece i ends in text (after pre bytes): before our
 * text of the pieces after it when i is the only new value; else before the
 * literal after it, when that literal occurs once in the rest of the line
 * (it occurs right after the text, so that is where). -1: not certain.
 */
static long text_end(struct simplefmt *f, int i, bool alone, const uint8_t *data,
		     uint32_t size, const char *text, size_t len, size_t pre)
{
	const struct piece *next = i + 1 < f->n ? &f->p[i + 1] : NULL;
	struct tm_buf post = { 0 };
	const char *at;
	long end = -1;

	if (alone) {
		if (!render_range(f, &post, i + 1, f->n, data, size) && pre + post.len <= len &&
		    (!post.len || !memcmp(text + len - post.len, post.text, post.len)))
			end = (long)(len - post.len);
		free(post.text);
		return end;
	}
	if (!next || next->kind != PIECE_LIT || !next->lit_len)
		return -1;
	at = memmem(text + pre, len - pre, next->lit, next->lit_len);
	if (!at || memmem(at + 1, len - (size_t)(at + 1 - text), next->lit, next->lit_len))
		return -1;
	return at - text;
}

/*
 * libtraceevent printed this record: when a learnt value was new, its text
 * is what lies between our text of the pieces before it and where
 * text_end() says it ends, provided the line starts with ours. The line is
 * then ours again by construction (one new value) or once the others are
 * learnt from it or later records.
 */
void tm_simple_learn(struct tm_fastfmt *base, const uint8_t *data, uint32_t size,
		     const char *text, size_t len)
{
	struct simplefmt *f = (struct simplefmt *)base;
	struct tm_buf pre = { 0 };
	uint64_t v = 0;
	int n, i = unknown_piece(f, data, size, &v, &n);
	long end;

	if (i < 0 || tm_learnt_full(f->p[i].learnt))
		return;
	if (!render_range(f, &pre, 0, i, data, size) && pre.len <= len &&
	    (!pre.len || !memcmp(text, pre.text, pre.len))) {
		end = text_end(f, i, n == 1, data, size, text, len, pre.len);
		if (end >= (long)pre.len)
			tm_learnt_add(f->p[i].learnt, v, text + pre.len, (size_t)end - pre.len);
	}
	free(pre.text);
}

/* The record printed right: each learnt text it used is libtraceevent's own. */
void tm_simple_confirm(struct tm_fastfmt *base, const uint8_t *data, uint32_t size)
{
	struct simplefmt *f = (struct simplefmt *)base;
	const struct piece *pc;
	int i;

	for (i = 0; i < f->n; i++) {
		pc = &f->p[i];
		if (pc->kind == PIECE_LEARN && pc->size <= size && pc->offset <= size - pc->size)
			tm_learnt_confirm(pc->learnt,
					  tm_get_uint(data + pc->offset, pc->size, base->swap));
	}
}
