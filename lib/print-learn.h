/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-learn.h - texts of print arguments learnt per value of the one
 * field they depend on (print-learn.c). Private to print-fast.c.
 */
#ifndef TM_PRINT_LEARN_H
#define TM_PRINT_LEARN_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct tep_event;
struct tep_format_field;
struct tep_print_arg;

#define TM_LEARN_MAX	32	/* values kept per argument; others go to libtraceevent */

struct tm_learnt {
	unsigned int	n;
	struct {
		uint64_t	value;
		char		*text;
		unsigned int	len;
	} e[TM_LEARN_MAX];
};

/* The one plain integer field arg depends on (casts, ops, flags, symbols), or NULL. */
TM_HIDDEN const struct tep_format_field *tm_learn_field(const struct tep_event *ev,
							const struct tep_print_arg *arg);
/* The text learnt for v, or NULL. */
TM_HIDDEN const char *tm_learn_find(struct tm_learnt *l, uint64_t v, unsigned int *len);
/* Keep text for v: 0, or -1 when full (or out of memory). */
TM_HIDDEN int tm_learn_add(struct tm_learnt *l, uint64_t v, const char *text, size_t len);
/* Drop the text added last (it did not reproduce the line). */
TM_HIDDEN void tm_learn_forget_last(struct tm_learnt *l);
TM_HIDDEN void tm_learn_free(struct tm_learnt *l);

#endif /* TM_PRINT_LEARN_H */
