/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-learn.h - texts of a print argument learnt per value of the one
 * field it depends on (print-learn.c). Private to the compiled formats.
 */
#ifndef TM_PRINT_LEARN_H
#define TM_PRINT_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

/* Values kept per argument; records with other values stay with libtraceevent. */
#define TM_LEARN_MAX		256
/* Longest text kept. */
#define TM_LEARN_TEXT_MAX	256

struct tm_learnt;

/* NULL with ENOMEM. */
TM_HIDDEN struct tm_learnt *tm_learnt_new(void);
TM_HIDDEN void tm_learnt_free(struct tm_learnt *l);
/*
 * The text learnt for v (not NUL-terminated), or NULL. *confirmed (may be
 * NULL): a line printed with it has matched libtraceevent's since.
 */
TM_HIDDEN const char *tm_learnt_find(const struct tm_learnt *l, uint64_t v, unsigned int *len,
				     bool *confirmed);
/* A line printed with v's text matched libtraceevent's: it needs no more checks. */
TM_HIDDEN void tm_learnt_confirm(struct tm_learnt *l, uint64_t v);
/* True when no more values are taken. */
TM_HIDDEN bool tm_learnt_full(const struct tm_learnt *l);
/* Keep text for v (not known yet): 0, or -1 when full, too long or out of memory. */
TM_HIDDEN int tm_learnt_add(struct tm_learnt *l, uint64_t v, const char *text, size_t len);

#endif /* TM_PRINT_LEARN_H */
