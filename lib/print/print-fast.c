// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-fast.c - a compiled form of simple print formats ("comm=%s pid=%d"
 * over plain fields and REC->array[N] elements, __get_str(),
 * value-preserving casts, plain %p, %ps/%pS through libtraceevent's
 * function lookup, %s of field ? "a" : "b", and __print_symbolic() with
 * numeric values), so the common events skip libtraceevent's general
 * interpreter (the pieces are printed by print-fast-render.c). Any other
 * argument that reads one integer field only (__print_flags, enum symbols,
 * masks) prints a text learnt per value from libtraceevent's own line.
 * Anything else (plugins other than sched's and hrtimer's, helpers,
 * arithmetic over several fields) stays with libtraceevent, and so does any
 * record with a value these rules do not cover (NULL pointer, unnamed
 * symbol, address outside every function, a value not learnt yet). Each
 * event type's compiled output is checked against libtraceevent's on its
 * first records before it is trusted (print.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "print-piece.h"
#include "print-learn.h"

#define MAX_SYMS	64
#define MAX_WIDTH	64	/* wider numbers go through printf */

void tm_fastfmt_free(struct tm_fastfmt *f)
{
	if (f)
		f->ops->free(f);
}

static void simple_free(struct tm_fastfmt *base)
{
	struct simplefmt *f = (struct simplefmt *)base;
	int i;

	for (i = 0; i < f->n; i++) {
		free(f->p[i].syms);
		tm_learnt_free(f->p[i].learnt);
	}
	free(f);
}

/* Events with side effects or special printing stay with libtraceevent. */
static bool event_plain(const struct tep_event *ev)
{
	return !ev->handler && !(ev->flags & (TEP_EVENT_FL_ISFTRACE | TEP_EVENT_FL_ISPRINT |
		TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_ISFUNCENT | TEP_EVENT_FL_ISFUNCRET |
		TEP_EVENT_FL_NOHANDLE | TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_FAILED));
}

/* Flags and width: does the piece need printf? (only '-', '0' and a width are ours) */
static void parse_flags(struct piece *pc, const char *s, const char *end)
{
	pc->simple = true;
	for (; s < end && (*s == '-' || *s == '0'); s++) {
		pc->left |= *s == '-';
		pc->zero |= *s == '0';
	}
	for (; s < end && *s >= '0' && *s <= '9' && pc->width <= MAX_WIDTH; s++)
		pc->width = pc->width * 10 + (unsigned int)(*s - '0');
	if (s != end || pc->width > MAX_WIDTH)
		pc->simple = false;
}

/* Parse one conversion at *fmt (after '%'): flags, width, precision, length, type. */
static int parse_conv(const char **fmt, struct piece *pc, int *ls)
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
	/* plain %p, and %ps/%pS (function names); %pM, %pI4 ... stay with libtraceevent */
	if (*s == 'p' && !n && !*ls && !isalnum((unsigned char)s[1])) {
		pc->conv = 'p';
		strcpy(pc->spec, "%p");
		*fmt = s + 1;
		return 0;
	}
	if (*s == 'p' && !n && !*ls && s[1] && strchr("sSfF", s[1]) &&
	    !isalnum((unsigned char)s[2])) {
		pc->conv = 'f';
		pc->fn_off = s[1] == 'S' || s[1] == 'F';
		*fmt = s + 2;
		return 0;
	}
	/* libtraceevent does not take '+' and ' ' (it prints "%+d" as ">+<d") */
	if (*ls > 2 || !strchr("diuxXs", *s) || memchr(start, '+', n) || memchr(start, ' ', n))
		return -1;
	pc->conv = *s;
	/* '%', the n flag bytes, "ll", the letter and the NUL */
	if (n + 5 > sizeof(pc->spec))
		return -1;
	pc->spec[0] = '%';
	memcpy(pc->spec + 1, start, n);
	pc->plain = n == 0;
	parse_flags(pc, start, start + n);
	if (pc->conv == 's') {
		pc->spec[n + 1] = 's';
		pc->spec[n + 2] = '\0';
	} else {
		/* values are passed as long long */
		pc->spec[n + 1] = 'l';
		pc->spec[n + 2] = 'l';
		pc->spec[n + 3] = pc->conv;
		pc->spec[n + 4] = '\0';
	}
	*fmt = s + 1;
	return 0;
}

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

/* An integer read from the payload: a plain field or one element of a fixed array. */
struct num_src {
	unsigned int	offset, size;
	bool		is_signed;
};

static bool int_size(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* REC->array[N] with a constant N inside a fixed array of integers (no casts). */
static bool element_src(const struct tep_event *ev, const struct tep_print_arg *arg,
			struct num_src *src)
{
	const struct tep_print_arg *idx = arg->op.right;
	const struct tep_format_field *f;
	unsigned long long n;
	char *end;

	if (strcmp(arg->op.op, "[") || !arg->op.left || arg->op.left->type != TEP_PRINT_FIELD ||
	    !idx || idx->type != TEP_PRINT_ATOM || !isdigit((unsigned char)idx->atom.atom[0]))
		return false;
	f = arg_field(ev, arg->op.left);
	if (!f || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
	    !(f->flags & TEP_FIELD_IS_ARRAY) || !int_size(f->elementsize))
		return false;
	errno = 0;
	n = strtoull(idx->atom.atom, &end, 0);
	if (errno || *end || n >= f->arraylen ||
	    (unsigned long long)f->offset + (n + 1) * f->elementsize > (unsigned int)f->size +
	    (unsigned int)f->offset)
		return false;
	src->offset = (unsigned int)f->offset + (unsigned int)n * f->elementsize;
	src->size = f->elementsize;
	src->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	return true;
}

/* Where an integer argument is read from: false for anything but a field or an element. */
static bool num_src(const struct tep_event *ev, const struct tep_print_arg *arg,
		    struct num_src *src)
{
	const struct tep_format_field *f;

	if (arg->type == TEP_PRINT_OP)
		return element_src(ev, arg, src);
	f = arg_field(ev, arg);
	if (arg->type != TEP_PRINT_FIELD || !f ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
	    !int_size((unsigned int)f->size))
		return false;
	src->offset = (unsigned int)f->offset;
	src->size = (unsigned int)f->size;
	src->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	return true;
}

/* A cast that cannot change the value: 64-bit casts of 64-bit or unsigned integers. */
static const struct tep_print_arg *strip_cast(const struct tep_event *ev,
					      const struct tep_print_arg *arg)
{
	static const char *const wide[] = {
		"unsigned long long", "long long", "unsigned long", "long", "u64", "s64",
	};
	struct num_src src;
	size_t i;

	if (arg->type != TEP_PRINT_TYPE || !arg->typecast.item ||
	    !num_src(ev, arg->typecast.item, &src))
		return arg;
	for (i = 0; i < TM_ARRAY_SIZE(wide); i++)
		if (!strcmp(arg->typecast.type, wide[i]) && (src.size == 8 || !src.is_signed))
			return arg->typecast.item;
	return arg;
}

static int bind_num(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg,
		    int ls)
{
	struct num_src src;

	if (!num_src(ev, strip_cast(ev, arg), &src))
		return -1;
	pc->cast = ls ? 8 : 4;
	/* narrow signed fields and 8-byte fields printed as int depend on extension rules */
	if (src.is_signed && src.size < pc->cast)
		return -1;
	if (src.size == 8 && pc->cast == 4)
		return -1;
	pc->kind = PIECE_NUM;
	pc->is_signed = pc->conv == 'd' || pc->conv == 'i';
	pc->offset = src.offset;
	pc->size = src.size;
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

/* %p, or %ps/%pS (conv 'f'), of a 64-bit field of a 64-bit kernel. */
static int bind_ptr(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg)
{
	const struct tep_format_field *f = arg_field(ev, arg);

	if (arg->type != TEP_PRINT_FIELD || !f || f->size != 8 || sizeof(void *) != 8 ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    tep_get_long_size(ev->tep) != 8)
		return -1;
	pc->kind = pc->conv == 'f' ? PIECE_FUNC : PIECE_PTR;
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
	    TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_SIGNED)) || !int_size((unsigned int)f->size))
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

/* %s of field ? "a" : "b": libtraceevent tests the field's value, read unsigned, against 0. */
static int bind_cond(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg)
{
	const struct tep_print_arg *alt = arg->op.right;
	struct num_src src;
	int i;

	if (strcmp(arg->op.op, "?") || !arg->op.left || !alt || alt->type != TEP_PRINT_OP ||
	    strcmp(alt->op.op, ":") || !alt->op.left || !alt->op.right ||
	    alt->op.left->type != TEP_PRINT_ATOM || alt->op.right->type != TEP_PRINT_ATOM ||
	    !num_src(ev, strip_cast(ev, arg->op.left), &src))
		return -1;
	pc->kind = PIECE_COND;
	pc->offset = src.offset;
	pc->size = src.size;
	pc->alt[0] = alt->op.right->atom.atom;
	pc->alt[1] = alt->op.left->atom.atom;
	for (i = 0; i < 2; i++)
		pc->alt_len[i] = (unsigned int)strlen(pc->alt[i]);
	return 0;
}

/* The one integer field arg reads (through casts, operators, flags, symbols), or NULL. */
static const struct tep_format_field *one_field(const struct tep_event *ev,
						const struct tep_print_arg *a,
						const struct tep_format_field *f, int depth)
{
	const struct tep_format_field *g;

	if (!a || depth > 32)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return f;
	case TEP_PRINT_FIELD:
		g = arg_field(ev, a);
		if (!g || (g->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
		    TEP_FIELD_IS_STRING)) || !int_size((unsigned int)g->size))
			return NULL;
		return !f || f == g ? g : NULL;
	case TEP_PRINT_TYPE:
		return one_field(ev, a->typecast.item, f, depth + 1);
	case TEP_PRINT_FLAGS:
		return one_field(ev, a->flags.field, f, depth + 1);
	case TEP_PRINT_SYMBOL:
		return one_field(ev, a->symbol.field, f, depth + 1);
	case TEP_PRINT_OP:
		/* an element is read at another offset: not this field's value */
		if (!strcmp(a->op.op, "["))
			return NULL;
		f = a->op.left ? one_field(ev, a->op.left, f, depth + 1) : f;
		return f || !a->op.left ? one_field(ev, a->op.right, f, depth + 1) : NULL;
	default:
		return NULL;
	}
}

/*
 * Any other argument that depends on one integer field only (__print_flags,
 * __print_symbolic over enum names, a ?: over a mask): its text is learnt
 * per value of the field from libtraceevent's line (print-fast-render.c).
 * Numbers only when computed (a bare field has as many texts as values).
 */
static int bind_learn(struct piece *pc, const struct tep_event *ev,
		      const struct tep_print_arg *arg)
{
	const struct tep_format_field *f = one_field(ev, arg, NULL, 0);

	if (!f || pc->conv == 'p' || pc->conv == 'f' ||
	    (pc->conv != 's' && arg->type != TEP_PRINT_OP))
		return -1;
	pc->learnt = tm_learnt_new();
	if (!pc->learnt)
		return -1;
	pc->kind = PIECE_LEARN;
	pc->offset = (unsigned int)f->offset;
	pc->size = (unsigned int)f->size;
	return 0;
}

/*
 * A learnt piece after another one of the same field with only literals
 * between ("prev_state=%s%s"): one text for the lot, so a value is learnt
 * from one line.
 */
static void merge_learnt(struct simplefmt *f)
{
	struct piece *last = &f->p[f->n - 1];
	int i;

	for (i = f->n - 2; i >= 0 && f->p[i].kind == PIECE_LIT; i--)
		;
	if (i < 0 || f->p[i].kind != PIECE_LEARN || f->p[i].offset != last->offset ||
	    f->p[i].size != last->size)
		return;
	tm_learnt_free(last->learnt);
	f->n = i + 1;
}

static int bind_arg(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg,
		    int ls)
{
	int r;

	if (pc->conv == 'p' || pc->conv == 'f')
		r = bind_ptr(pc, ev, arg);
	else if (pc->conv == 's' && arg->type == TEP_PRINT_SYMBOL)
		r = bind_sym(pc, ev, arg);
	else if (pc->conv == 's' && arg->type == TEP_PRINT_OP)
		r = bind_cond(pc, ev, arg);
	else if (pc->conv == 's')
		r = bind_str(pc, ev, arg);
	else
		r = bind_num(pc, ev, arg, ls);
	if (!r)
		return 0;
	free(pc->syms);
	pc->syms = NULL;
	pc->nsyms = 0;
	pc->kind = PIECE_LIT;
	return bind_learn(pc, ev, arg);
}

static struct simplefmt *grow(struct simplefmt *f, int *cap)
{
	struct simplefmt *g;

	if (f && f->n < *cap)
		return f;
	*cap = *cap ? *cap * 2 : 8;
	g = realloc(f, sizeof(*g) + (size_t)*cap * sizeof(g->p[0]));
	if (!g && f)
		simple_free(&f->base);	/* the pieces' symbols and learnt texts too */
	else if (!f)
		g->n = 0;
	return g;
}

static const struct tm_fastfmt_ops simple_ops = {
	.render = tm_simple_render,
	.learn = tm_simple_learn,
	.confirm = tm_simple_confirm,
	.free = simple_free,
};

/* A literal piece: text up to the next conversion or escape, or one escape. */
static int add_literal(struct piece *pc, const char **fmt)
{
	const char *s = *fmt;

	pc->kind = PIECE_LIT;
	if (*s == '\\' || (s[0] == '%' && s[1] == '%')) {
		/* escapes print as libtraceevent decodes them: verified anyway */
		if (*s == '\\' && !strchr("nt\\\"", s[1]))
			return -1;
		pc->lit = s[1] == 'n' ? "\n" : s[1] == 't' ? "\t" : s + 1;
		pc->lit_len = 1;
		*fmt = s + 2;
		return 0;
	}
	for (pc->lit = s; *s && *s != '%' && *s != '\\'; s++)
		;
	pc->lit_len = (unsigned int)(s - pc->lit);
	*fmt = s;
	return 0;
}

struct tm_fastfmt *tm_fastfmt_compile(struct tep_handle *tep, const struct tep_event *ev,
				      bool swap)
{
	const struct tep_print_arg *arg = ev->print_fmt.args;
	const char *s = ev->print_fmt.format;
	struct simplefmt *f = NULL;
	struct piece *pc;
	int cap = 0, ls;

	if (!s || !event_plain(ev))
		return NULL;
	while (*s) {
		f = grow(f, &cap);
		if (!f)
			return NULL;
		pc = &f->p[f->n];
		memset(pc, 0, sizeof(*pc));
		if (*s != '%' || s[1] == '%') {
			if (add_literal(pc, &s))
				goto fail;
			f->n++;
			continue;
		}
		s++;
		if (!arg || parse_conv(&s, pc, &ls))
			goto fail;
		f->n++;	/* counted first so a failed binding's symbols are freed */
		if (bind_arg(pc, ev, arg, ls))
			goto fail;
		if (pc->kind == PIECE_LEARN)
			merge_learnt(f);
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
