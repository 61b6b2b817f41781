// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-fast.c - a compiled form of simple print formats ("comm=%s pid=%d"
 * over plain fields, __get_str(), value-preserving casts, REC->array[N],
 * plain %p, %ps/%pS, __print_symbolic() with numeric values, "field ? a :
 * b"), so the common events skip libtraceevent's general interpreter; an
 * argument of one integer field that is none of these (__print_flags(),
 * symbols by enum name, masks) gets its text learnt per value
 * (print-learn.c). Plugins other than sched's, helpers and arithmetic over
 * several fields stay with libtraceevent, and so does any record with a
 * value these rules do not cover (NULL pointer, unnamed symbol, a value not
 * learnt yet). Each event type's compiled output is checked against
 * libtraceevent's on its first records before it is trusted (print.c).
 * The pieces are printed by print-fast-render.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "print-piece.h"

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
		tm_learn_free(f->p[i].learnt);
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
	/* plain %p, and %ps/%pS/%pf/%pF (a function); %pM ... stay libtraceevent's */
	if (*s == 'p' && !n && !*ls && !isalnum((unsigned char)s[1])) {
		*conv = 'p';
		strcpy(pc->spec, "%p");
		*fmt = s + 1;
		return 0;
	}
	if (*s == 'p' && !n && !*ls && s[1] && strchr("sSfF", s[1])) {
		*conv = 'f';
		pc->fn_off = s[1] == 'S' || s[1] == 'F';
		*fmt = s + 2;
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

static bool sym_value(const char *s, uint64_t *v);

/*
 * REC->array[N] of a fixed array of 8-byte elements printed as a long:
 * libtraceevent reads the element as an unsigned number of its size.
 */
static int bind_elem(struct piece *pc, const struct tep_event *ev,
		     const struct tep_print_arg *arg, int ls)
{
	const struct tep_print_arg *l = arg->op.left, *r = arg->op.right;
	const struct tep_format_field *f;
	uint64_t idx;

	if (strcmp(arg->op.op, "[") || !l || !r || l->type != TEP_PRINT_FIELD ||
	    r->type != TEP_PRINT_ATOM || !sym_value(r->atom.atom, &idx) || !ls)
		return -1;
	f = arg_field(ev, l);
	if (!f || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
	    !(f->flags & TEP_FIELD_IS_ARRAY) || f->elementsize != 8 ||
	    idx >= (uint64_t)(f->size / 8))
		return -1;
	pc->kind = PIECE_NUM;
	pc->cast = 8;
	pc->offset = (unsigned int)(f->offset + idx * 8);
	pc->size = 8;
	return 0;
}

static int bind_num(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg,
		    int ls, char conv)
{
	const struct tep_format_field *f;
	bool fsigned;

	pc->is_signed = conv == 'd' || conv == 'i';
	if (arg->type == TEP_PRINT_OP)
		return bind_elem(pc, ev, arg, ls);
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

/* An atom of a ternary: libtraceevent prints its text. */
static int cond_text(struct piece *pc, int i, const struct tep_print_arg *a)
{
	if (!a || a->type != TEP_PRINT_ATOM || !a->atom.atom)
		return -1;
	pc->alt[i] = a->atom.atom;
	pc->alt_len[i] = (unsigned int)strlen(a->atom.atom);
	return 0;
}

/* %s of REC->field ? "a" : "b" over a plain integer field. */
static int bind_cond(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg)
{
	const struct tep_print_arg *c = arg->op.left, *alts = arg->op.right;
	const struct tep_format_field *f;

	if (!pc->plain || strcmp(arg->op.op, "?") || !c || c->type != TEP_PRINT_FIELD || !alts ||
	    alts->type != TEP_PRINT_OP || strcmp(alts->op.op, ":") ||
	    cond_text(pc, 1, alts->op.left) || cond_text(pc, 0, alts->op.right))
		return -1;
	f = arg_field(ev, c);
	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return -1;
	pc->kind = PIECE_COND;
	pc->offset = (unsigned int)f->offset;
	pc->size = (unsigned int)f->size;
	return 0;
}

static int bind_arg(struct piece *pc, const struct tep_event *ev, const struct tep_print_arg *arg,
		    int ls, char conv)
{
	if (conv == 'p' || conv == 'f') {
		if (bind_ptr(pc, ev, arg))
			return -1;
		if (conv == 'f')
			pc->kind = PIECE_FUNC;
		return 0;
	}
	if (conv == 's' && arg->type == TEP_PRINT_OP)
		return bind_cond(pc, ev, arg);
	if (conv == 's' && arg->type == TEP_PRINT_SYMBOL)
		return bind_sym(pc, ev, arg);
	if (conv == 's')
		return bind_str(pc, ev, arg);
	return bind_num(pc, ev, arg, ls, conv);
}

/*
 * The last piece as a learnt one when its argument depends on one field; a
 * learnt piece right after another of the same field joins it ("%s%s").
 */
static int bind_learn(struct simplefmt *f, const struct tep_event *ev,
		      const struct tep_print_arg *arg)
{
	const struct tep_format_field *fld = tm_learn_field(ev, arg);
	struct piece *pc = &f->p[f->n - 1], *prev = f->n > 1 ? pc - 1 : NULL;

	free(pc->syms);
	pc->syms = NULL;
	pc->nsyms = 0;
	if (!fld)
		return -1;
	if (prev && prev->kind == PIECE_LEARN && prev->offset == (unsigned int)fld->offset) {
		f->n--;
		return 0;
	}
	pc->learnt = calloc(1, sizeof(*pc->learnt));
	if (!pc->learnt)
		return -1;
	pc->kind = PIECE_LEARN;
	pc->offset = (unsigned int)fld->offset;
	pc->size = (unsigned int)fld->size;
	return 0;
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

static const struct tm_fastfmt_ops simple_ops = {
	.render = tm_simple_render,
	.learn = tm_simple_learn,
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
		if (bind_arg(&f->p[f->n - 1], ev, arg, ls, conv) && bind_learn(f, ev, arg))
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

