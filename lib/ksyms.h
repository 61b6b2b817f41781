/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ksyms.h - a trace.dat's kallsyms as libtraceevent's function resolver
 * (ksyms.c), also looked up directly by the compiled %ps/%pS formats.
 * Private to the library.
 */
#ifndef TM_KSYMS_H
#define TM_KSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "meta-check.h"

struct tep_handle;
struct tm_ksyms;

/*
 * The symbols of kallsyms text b, whose lines are checked as
 * tm_meta_clean_kallsyms() checks them (warnings to w). b's text is read in
 * place and must outlive ks; own, if not NULL, is freed with ks (and on
 * failure). NULL + message on ENOMEM.
 */
TM_HIDDEN struct tm_ksyms *tm_ksyms_new(struct tm_blob b, char *own,
					const struct tm_meta_warn *w);
TM_HIDDEN void tm_ksyms_free(struct tm_ksyms *ks);
/* Symbols registered (those libtraceevent would register). */
TM_HIDDEN size_t tm_ksyms_count(const struct tm_ksyms *ks);
/* Make ks tep's function resolver; ks must outlive tep's lookups. -1 on ENOMEM. */
TM_HIDDEN int tm_ksyms_attach(struct tm_ksyms *ks, struct tep_handle *tep);
/*
 * The symbol libtraceevent's tep_find_function() names for addr, its start
 * address in *start; NULL when none.
 */
TM_HIDDEN const char *tm_ksyms_lookup(struct tm_ksyms *ks, uint64_t addr, uint64_t *start);

#endif /* TM_KSYMS_H */
