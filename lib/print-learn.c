// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-learn.c - print arguments whose text depends on one integer field
 * only (prev_state's "?:" over __print_flags() in sched_switch without the
 * plugin, __print_symbolic() over enum names, "flags & MASK"): their text
 * is not computed but learnt, per value of the field, from libtraceevent's
 * text of a record it printed (print-fast.c finds the piece between the
 * literals around it and keeps it only when the whole line then matches).
 * A value not seen yet, or beyond the table's size, goes to libtraceevent.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "print-learn.h"

/* The field arg reads, or NULL: no field, another field, or a kind we do not follow. */
static const struct tep_format_field *arg_one_field(const struct tep_event *ev,
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
		g = a->field.field ?: tep_find_any_field((struct tep_event *)ev, a->field.name);
		return g && (!f || f == g) ? g : NULL;
	case TEP_PRINT_TYPE:
		return arg_one_field(ev, a->typecast.item, f, depth + 1);
	case TEP_PRINT_FLAGS:
		return arg_one_field(ev, a->flags.field, f, depth + 1);
	case TEP_PRINT_SYMBOL:
		return arg_one_field(ev, a->symbol.field, f, depth + 1);
	case TEP_PRINT_OP:
		f = a->op.left ? arg_one_field(ev, a->op.left, f, depth + 1) : f;
		return f ? arg_one_field(ev, a->op.right, f, depth + 1) : NULL;
	default:
		return NULL;
	}
}

const struct tep_format_field *tm_learn_field(const struct tep_event *ev,
					      const struct tep_print_arg *arg)
{
	const struct tep_format_field *f = arg_one_field(ev, arg, NULL, 0);

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return NULL;
	return f;
}

const char *tm_learn_find(struct tm_learnt *l, uint64_t v, unsigned int *len)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->e[i].value == v) {
			*len = l->e[i].len;
			return l->e[i].text;
		}
	return NULL;
}

int tm_learn_add(struct tm_learnt *l, uint64_t v, const char *text, size_t len)
{
	char *t;

	if (l->n == TM_LEARN_MAX || len > 4096)
		return -1;
	t = malloc(len + 1);
	if (!t)
		return -1;
	memcpy(t, text, len);
	t[len] = '\0';
	l->e[l->n].value = v;
	l->e[l->n].text = t;
	l->e[l->n].len = (unsigned int)len;
	l->n++;
	return 0;
}

void tm_learn_forget_last(struct tm_learnt *l)
{
	if (l->n)
		free(l->e[--l->n].text);
}

void tm_learn_free(struct tm_learnt *l)
{
	if (!l)
		return;
	while (l->n)
		tm_learn_forget_last(l);
	free(l);
}
