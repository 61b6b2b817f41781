// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-fast-render.c - prints a compiled format's pieces (print-fast.c)
 * for one record without printf where it can, and learns the texts of
 * one-field arguments from libtraceevent's line (print-learn.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat-format.h"
#include "print-piece.h"

/* Lower-case hex digits of v, as a bare %x / %lx / %llx prints them. */
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

static int put_num(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	long long sv;
	int n;

	if (pc->cast == 4)
		v = pc->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : (uint32_t)v;
	if (pc->plain && pc->spec[3] == 'x')
		return put_hex(b, v);
	if (!pc->plain || (pc->spec[3] != 'd' && pc->spec[3] != 'i' && pc->spec[3] != 'u')) {
		if (tm_fastbuf_reserve(b, 64))
			return -1;
		sv = (long long)v;
		n = snprintf(b->buf + b->len, b->cap - b->len, pc->spec, sv);
		if (n < 0 || (size_t)n >= b->cap - b->len)
			return -1;
		b->len += (size_t)n;
		return 0;
	}
	return tm_fastbuf_dec(b, v, pc->is_signed);
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

/* glibc's %p of a non-NULL pointer; NULL ("(nil)") is left to libtraceevent. */
static int put_ptr(struct tm_fastbuf *b, uint64_t v)
{
	if (!v || tm_fastbuf_reserve(b, 2))
		return -1;
	tm_fastbuf_put(b, "0x", 2);
	return put_hex(b, v);
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

/*
 * libtraceevent's %ps / %pS: the name of the kallsyms symbol holding v
 * (with "+0x<offset>" for %pS); an address without one is left to it.
 */
static int put_func(struct tm_fastbuf *b, struct tep_handle *tep, const struct piece *pc,
		    uint64_t v)
{
	unsigned long long start;
	const char *name;
	size_t len;

	if (!tep_find_function_info(tep, v, &name, &start, NULL))
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

static int put_cond(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	int i = v != 0;

	if (tm_fastbuf_reserve(b, pc->alt_len[i]))
		return -1;
	tm_fastbuf_put(b, pc->alt[i], pc->alt_len[i]);
	return 0;
}

static int put_learnt(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	unsigned int len;
	const char *t = tm_learn_find(pc->learnt, v, &len);

	if (!t || tm_fastbuf_reserve(b, len))
		return -1;
	tm_fastbuf_put(b, t, len);
	return 0;
}

static int render_piece(const struct tm_fastfmt *base, struct tm_fastbuf *b,
			const struct piece *pc, const uint8_t *data, uint32_t size)
{
	bool swap = base->swap;
	const char *str;
	uint32_t loc, off;
	size_t len;

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
	case PIECE_SYM:
		return put_sym(b, pc, tm_get_uint(data + pc->offset, pc->size, swap));
	case PIECE_FUNC:
		return put_func(b, base->tep, pc, tm_get_uint(data + pc->offset, 8, swap));
	case PIECE_COND:
		return put_cond(b, pc, tm_get_uint(data + pc->offset, pc->size, swap));
	case PIECE_LEARN:
		return put_learnt(b, pc, tm_get_uint(data + pc->offset, pc->size, swap));
	case PIECE_STR_FIELD:
		str = (const char *)data + pc->offset;
		return put_str(b, pc, str, strnlen(str, pc->size));
	default:
		loc = (uint32_t)tm_get_uint(data + pc->offset, 4, swap);
		off = (loc & 0xffff) + (pc->rel ? pc->offset + 4 : 0);
		if (off >= size)
			return -1;
		str = (const char *)data + off;
		len = strnlen(str, size - off);
		if (len == size - off)	/* no NUL inside the record */
			return -1;
		return put_str(b, pc, str, len);
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

/*
 * Learn the texts of this record's unknown values from libtraceevent's line:
 * each is what lies between the pieces printed before it and the literal
 * after it. Kept only when the whole line then prints the same.
 */
void tm_simple_learn(struct tm_fastfmt *base, const uint8_t *data, uint32_t size,
		     const char *text, size_t len)
{
	struct simplefmt *f = (struct simplefmt *)base;
	struct tm_learnt *added[8];
	struct tm_fastbuf b = { 0 };
	const struct piece *pc, *next;
	const char *end;
	int i, n = 0;
	uint64_t v;

	for (i = 0; i < f->n && b.len <= len; i++) {
		pc = &f->p[i];
		if (pc->kind == PIECE_LEARN && pc->offset + pc->size <= size &&
		    !tm_learn_find(pc->learnt, v = tm_get_uint(data + pc->offset, pc->size,
							      base->swap), &(unsigned int){ 0 })) {
			next = i + 1 < f->n ? &f->p[i + 1] : NULL;
			if (n == 8 || (next && (next->kind != PIECE_LIT || !next->lit_len)))
				goto undo;
			end = next ? memmem(text + b.len, len - b.len, next->lit, next->lit_len)
				   : text + len;
			if (!end || tm_learn_add(pc->learnt, v, text + b.len,
						 (size_t)(end - text) - b.len))
				goto undo;
			added[n++] = pc->learnt;
		}
		if (render_piece(base, &b, pc, data, size))
			goto undo;
	}
	b.len = 0;
	if (!tm_simple_render(base, &b, data, size) && b.len == len && !memcmp(b.buf, text, len))
		goto out;
undo:
	while (n)
		tm_learn_forget_last(added[--n]);
out:
	free(b.buf);
}
