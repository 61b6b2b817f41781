// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-fast.c - a compiled form of simple print formats ("comm=%s pid=%d"
 * over plain fields, __get_str(), value-preserving casts, plain %p and
 * __print_symbolic() with numeric values), so the common events skip
 * libtraceevent's general interpreter. Anything else (plugins other than
 * sched's, helpers, %ps, flags, arithmetic, ternaries) stays with
 * libtraceevent, and so does any record with a value these rules do not
 * cover (NULL pointer, unnamed symbol). Each event type's compiled output is
 * checked against libtraceevent's on its first records before it is trusted
 * (print.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "internal.h"
#include "print-fast.h"
#include "dat-format.h"

enum piece_kind {
	PIECE_LIT,
	PIECE_NUM,		/* integer field */
	PIECE_STR_FIELD,	/* char array field, cut at its size */
	PIECE_STR_DYN,		/* __get_str(): NUL-terminated dynamic string */
	PIECE_PTR,		/* plain %p of a 64-bit field */
	PIECE_SYM,		/* %s of __print_symbolic(field, { n, "name" }...) */
};

#define MAX_SYMS	64

struct sym {
	uint64_t	value;
	const char	*str;		/* owned by the tep event */
	unsigned int	len;
};

struct piece {
	enum piece_kind	kind;
	const char	*lit;		/* PIECE_LIT: points into the format */
	unsigned int	lit_len;
	char		spec[24];	/* printf spec, length modifier normalized */
	bool		plain;		/* bare %d/%u/%s: formatted without printf */
	bool		is_signed;	/* value printed as signed */
	unsigned int	cast;		/* 4: value cast to 32 bits, 8: 64 */
	unsigned int	offset, size;	/* field in the payload */
	bool		rel;		/* __rel_loc */
	struct sym	*syms;		/* PIECE_SYM */
	unsigned int	nsyms;
};

struct simplefmt {
	struct tm_fastfmt	base;
	int			n;
	struct piece		p[];
};

void tm_fastfmt_free(struct tm_fastfmt *f)
{
	if (f)
		f->ops->free(f);
}

static void simple_free(struct tm_fastfmt *base)
{
	struct simplefmt *f = (struct simplefmt *)base;
	int i;

	for (i = 0; i < f->n; i++)
		free(f->p[i].syms);
	free(f);
}

/* Events with side effects or special printing stay with libtraceevent. */
static bool event_plain(const struct tep_event *ev)
{
	return !ev->handler && !(ev->flags & (TEP_EVENT_FL_ISFTRACE | TEP_EVENT_FL_ISPRINT |
		TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_ISFUNCENT | TEP_EVENT_FL_ISFUNCRET |
		TEP_EVENT_FL_NOHANDLE | TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_FAILED));
}

/* Parse one conversion at *fmt (after '%'): flags, width, precision, length, type. */
static int parse_conv(const char **fmt, struct piece *pc, int *ls, char *conv)
{
	const char *s = *fmt, *start = s;
	size_t n;

	while (*s == '-' || *s == '0' || *s == ' ' || *s == '+' || *s == '#')
		s++;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	n = (size_t)(s - start);
	*ls = 0;
	if (*s == 'L') {
		*ls = 2;
		s++;
	} else {
		while (*s == 'l') {
			(*ls)++;
			s++;
		}
	}
	/* plain %p only: %ps, %pS, %pM ... are libtraceevent's extensions */
	if (*s == 'p' && !n && !*ls && !isalnum((unsigned char)s[1])) {
		*conv = 'p';
		strcpy(pc->spec, "%p");
		*fmt = s + 1;
		return 0;
	}
	if (*ls > 2 || !strchr("diuxXs", *s))
		return -1;
	*conv = *s;
	if (n + 4 > sizeof(pc->spec))
		return -1;
	pc->spec[0] = '%';
	memcpy(pc->spec + 1, start, n);
	pc->plain = n == 0;
	if (*conv == 's') {
		pc->spec[n + 1] = 's';
		pc->spec[n + 2] = '\0';
	} else {
		/* values are passed as long long */
		pc->spec[n + 1] = 'l';
		pc->spec[n + 2] = 'l';
		pc->spec[n + 3] = *conv;
		pc->spec[n + 4] = '\0';
	}
	*fmt = s + 1;
	return 0;
}

/* Accept only what has one obvious meaning whatever libtraceevent's casts do. */
/* libtraceevent binds field arguments lazily: look them up by name. */
static const struct tep_format_field *arg_field(const struct tep_event *ev,
						const struct tep_print_arg *arg)
{
	if (arg->type == TEP_PRINT_FIELD)
		return arg->field.field ?: tep_find_any_field((struct tep_event *)ev,
							      arg->field.name);
	if (arg->type == TEP_PRINT_STRING)
		return arg->string.field ?: tep_find_any_field((struct tep_event *)ev,
							       arg->string.string);
	return NULL;
}

/* A cast that cannot change the value: 64-bit casts of 64-bit or unsigned fields. */
static const struct tep_print_arg *strip_cast(const struct tep_event *ev,
					      const struct tep_print_arg *arg)
{
	static const char *const wide[] = {
		"unsigned long long", "long long", "unsigned long", "long", "u64", "s64",
	};
	const struct tep_format_field *f;
	size_t i;

	if (arg->type != TEP_PRINT_TYPE || !arg->typecast.item ||
	    arg->typecast.item->type != TEP_PRINT_FIELD)
		return arg;
	f = arg_field(ev, arg->typecast.item);
	for (i = 0; f && i < TM_ARRAY_SIZE(wide); i++)
		if (!strcmp(arg->typecast.type, wide[i]) &&
		    (f->size == 8 || !(f->flags & TEP_FIELD_IS_SIGNED)))
			return arg->typecast.item;
	return arg;
}

static int bind_num(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg,
		    int ls, char conv)
{
	const struct tep_format_field *f;
	bool fsigned;

	arg = strip_cast(ev, arg);
	f = arg_field(ev, arg);
	if (arg->type != TEP_PRINT_FIELD || !f)
		return -1;
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING))
		return -1;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -1;
	fsigned = f->flags & TEP_FIELD_IS_SIGNED;
	pc->cast = ls ? 8 : 4;
	/* narrow signed fields and 8-byte fields printed as int depend on extension rules */
	if (fsigned && (unsigned int)f->size < pc->cast)
		return -1;
	if (f->size == 8 && pc->cast == 4)
		return -1;
	pc->kind = PIECE_NUM;
	pc->is_signed = conv == 'd' || conv == 'i';
	pc->offset = (unsigned int)f->offset;
	pc->size = (unsigned int)f->size;
	return 0;
}

static int bind_str(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg)
{
	const struct tep_format_field *f = arg_field(ev, arg);

	if (!f)
		return -1;
	if (arg->type == TEP_PRINT_STRING) {
		if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4)
			return -1;
		pc->kind = PIECE_STR_DYN;
		pc->rel = f->flags & TEP_FIELD_IS_RELATIVE;
	} else if (arg->type == TEP_PRINT_FIELD) {
		if ((f->flags & TEP_FIELD_IS_DYNAMIC) || !(f->flags & TEP_FIELD_IS_STRING) ||
		    !(f->flags & TEP_FIELD_IS_ARRAY))
			return -1;
		pc->kind = PIECE_STR_FIELD;
	} else {
		return -1;
	}
	pc->offset = (unsigned int)f->offset;
	pc->size = (unsigned int)f->size;
	return 0;
}

static int bind_ptr(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg)
{
	const struct tep_format_field *f = arg_field(ev, arg);

	if (arg->type != TEP_PRINT_FIELD || !f || f->size != 8 || sizeof(void *) != 8 ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return -1;
	pc->kind = PIECE_PTR;
	pc->offset = (unsigned int)f->offset;
	pc->size = 8;
	return 0;
}

/* A symbol value the kernel already expanded to a plain non-negative number. */
static bool sym_value(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

static int bind_sym(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg)
{
	const struct tep_print_arg *fa = arg->symbol.field;
	const struct tep_print_flag_sym *fs;
	const struct tep_format_field *f;

	if (!fa || !pc->plain)
		return -1;
	fa = strip_cast(ev, fa);
	f = arg_field(ev, fa);
	if (fa->type != TEP_PRINT_FIELD || !f || (f->flags & (TEP_FIELD_IS_ARRAY |
	    TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_SIGNED)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return -1;
	pc->syms = calloc(MAX_SYMS, sizeof(*pc->syms));
	if (!pc->syms)
		return -1;
	for (fs = arg->symbol.symbols; fs; fs = fs->next) {
		if (pc->nsyms == MAX_SYMS || !fs->str ||
		    !sym_value(fs->value, &pc->syms[pc->nsyms].value))
			return -1;
		pc->syms[pc->nsyms].str = fs->str;
		pc->syms[pc->nsyms++].len = (unsigned int)strlen(fs->str);
	}
	pc->kind = PIECE_SYM;
	pc->offset = (unsigned int)f->offset;
	pc->size = (unsigned int)f->size;
	return 0;
}

static int bind_arg(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg,
		    int ls, char conv)
{
	if (conv == 'p')
		return bind_ptr(pc, ev, arg);
	if (conv == 's' && arg->type == TEP_PRINT_SYMBOL)
		return bind_sym(pc, ev, arg);
	if (conv == 's')
		return bind_str(pc, ev, arg);
	return bind_num(pc, ev, arg, ls, conv);
}

static struct simplefmt *grow(struct simplefmt *f, int *cap)
{
	struct simplefmt *g;

	if (f && f->n < *cap)
		return f;
	*cap = *cap ? *cap * 2 : 8;
	g = realloc(f, sizeof(*g) + (size_t)*cap * sizeof(g->p[0]));
	if (!g)
		free(f);
	else if (!f)
		g->n = 0;
	return g;
}

static int simple_render(struct tm_fastfmt *f, struct tm_fastbuf *b, const uint8_t *data,
			 uint32_t size);

static const struct tm_fastfmt_ops simple_ops = {
	.render = simple_render,
	.free = simple_free,
};

struct tm_fastfmt *tm_fastfmt_compile(struct tep_handle *tep, const struct tep_event *ev,
				      bool swap)
{
	const struct tep_print_arg *arg = ev->print_fmt.args;
	const char *s = ev->print_fmt.format, *lit;
	struct simplefmt *f = NULL;
	int cap = 0, ls;
	char conv;

	if (!s || !event_plain(ev))
		return NULL;
	while (*s) {
		f = grow(f, &cap);
		if (!f)
			return NULL;
		memset(&f->p[f->n], 0, sizeof(f->p[0]));
		if (*s == '\\' || (s[0] == '%' && s[1] == '%')) {
			/* escapes print as libtraceevent decodes them: verified anyway */
			if (*s == '\\' && !strchr("nt\\\"", s[1]))
				goto fail;
			f->p[f->n].kind = PIECE_LIT;
			f->p[f->n].lit = s[1] == 'n' ? "\n" : s[1] == 't' ? "\t" : s + 1;
			f->p[f->n].lit_len = 1;
			f->n++;
			s += 2;
			continue;
		}
		if (*s != '%') {
			for (lit = s; *s && *s != '%' && *s != '\\'; s++)
				;
			f->p[f->n].kind = PIECE_LIT;
			f->p[f->n].lit = lit;
			f->p[f->n].lit_len = (unsigned int)(s - lit);
			f->n++;
			continue;
		}
		s++;
		if (!arg || parse_conv(&s, &f->p[f->n], &ls, &conv))
			goto fail;
		f->n++;	/* counted first so a failed binding's symbols are freed */
		if (bind_arg(&f->p[f->n - 1], ev, arg, ls, conv))
			goto fail;
		arg = arg->next;
	}
	if (arg || !f)
		goto fail;
	f->base.ops = &simple_ops;
	f->base.tep = tep;
	f->base.swap = swap;
	return &f->base;
fail:
	if (f)
		simple_free(&f->base);
	return NULL;
}

/* ---- rendering ---- */

static int put_num(struct tm_fastbuf *b, const struct piece *pc, uint64_t v)
{
	long long sv;
	int n;

	if (pc->cast == 4)
		v = pc->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : (uint32_t)v;
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
	static const char hex[] = "0123456789abcdef";
	unsigned int n = 1;
	uint64_t t;
	char *e;

	if (!v || tm_fastbuf_reserve(b, 18))
		return -1;
	for (t = v; t >= 16; t >>= 4)
		n++;
	tm_fastbuf_put(b, "0x", 2);
	b->len += n;
	e = b->buf + b->len;
	for (; n; n--, v >>= 4)
		*--e = hex[v & 15];
	return 0;
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

static int simple_render(struct tm_fastfmt *base, struct tm_fastbuf *b, const uint8_t *data,
			 uint32_t size)
{
	const struct simplefmt *f = (const struct simplefmt *)base;
	bool swap = base->swap;
	const struct piece *pc;
	const char *str;
	uint32_t loc, off;
	size_t len;
	int i;

	for (i = 0; i < f->n; i++) {
		pc = &f->p[i];
		if (pc->kind == PIECE_LIT) {
			if (tm_fastbuf_reserve(b, pc->lit_len))
				return -1;
			tm_fastbuf_put(b, pc->lit, pc->lit_len);
			continue;
		}
		if (pc->offset + pc->size > size)
			return -1;
		switch (pc->kind) {
		case PIECE_NUM:
			if (put_num(b, pc, tm_get_uint(data + pc->offset, pc->size, swap)))
				return -1;
			break;
		case PIECE_PTR:
			if (put_ptr(b, tm_get_uint(data + pc->offset, 8, swap)))
				return -1;
			break;
		case PIECE_SYM:
			if (put_sym(b, pc, tm_get_uint(data + pc->offset, pc->size, swap)))
				return -1;
			break;
		case PIECE_STR_FIELD:
			str = (const char *)data + pc->offset;
			if (put_str(b, pc, str, strnlen(str, pc->size)))
				return -1;
			break;
		default:
			loc = (uint32_t)tm_get_uint(data + pc->offset, 4, swap);
			off = (loc & 0xffff) + (pc->rel ? pc->offset + 4 : 0);
			if (off >= size)
				return -1;
			str = (const char *)data + off;
			len = strnlen(str, size - off);
			if (len == size - off)	/* no NUL inside the record */
				return -1;
			if (put_str(b, pc, str, len))
				return -1;
		}
	}
	return 0;
}
