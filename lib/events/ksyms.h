/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ksyms.h - the kernel symbol table of a trace (ksyms.c): /proc/kallsyms
 * text scanned in place, handed to libtraceevent as its function resolver.
 * Lookups answer exactly what libtraceevent 1.7.1's own table
 * (tep_parse_kallsyms()) answers for the same text, without its copies,
 * per-symbol allocations and per-line sscanf().
 */
#ifndef TM_KSYMS_H
#define TM_KSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"
#include "meta-check.h"
#include "trace/tm-trace.h"

struct tep_handle;
struct tm_ksyms;

/*
 * A table of the symbols in text: b's bytes in a malloc'ed buffer of b.len
 * + 1 bytes ending in a NUL (b.data may be text itself; b says where the
 * text is for warnings). The table takes text over (also on failure) and
 * writes NULs into it after names and modules. A line libtraceevent cannot
 * scan is dropped with a warning to w (may be NULL), as meta-check.c does
 * for the other texts. NULL + message (ENOMEM, EFBIG past 4 GiB).
 */
TM_HIDDEN struct tm_ksyms *tm_ksyms_new(char *text, struct tm_blob b,
					const struct tm_meta_warn *w);
/* Free the table and its text (NULL is fine). */
TM_HIDDEN void tm_ksyms_free(struct tm_ksyms *k);
/* Make k tep's function resolver (%ps, stack traces, tep_find_function()); -1 + message. */
TM_HIDDEN int tm_ksyms_attach(struct tm_ksyms *k, struct tep_handle *tep);

/* Old-boot addresses [lo, hi) plus delta are this table's (current boot's). */
struct tm_ksym_shift {
	uint64_t	lo, hi;
	int64_t		delta;
};

/*
 * The trace's addresses are a previous boot's: resolve one through the
 * shift of the range holding it (copied), none outside them (n 0: print
 * every address as hex). -1 + message (ENOMEM).
 */
TM_HIDDEN int tm_ksyms_other_boot(struct tm_ksyms *k, const struct tm_ksym_shift *shifts,
				  size_t n);
/*
 * Resolve k's lookups for the boot that info (the LAST_BOOT_INFO option's
 * "<instance>:<last_boot_info>") describes (ksyms-boot.c): the kernel moved
 * by the two boots' text addresses (7.x's "ADDR\t[kernel]" line, 6.12's
 * "text delta:"), each module by its two bases (modules: the file's
 * /proc/modules text, or NULL: the module's first symbol). Nothing for the
 * current boot's info ("# Current"). A boot that cannot be matched gets one
 * warning to w and hex addresses. -1 + message (ENOMEM).
 */
TM_HIDDEN int tm_ksyms_boot(struct tm_ksyms *k, const char *info, const char *modules,
			    const struct tm_meta_warn *w);

/* Number of symbols kept (lines of type 'A'/'a' or names starting with '$' are not). */
TM_HIDDEN size_t tm_ksyms_count(const struct tm_ksyms *k);
/*
 * The symbol containing addr, as libtraceevent's lookup picks it: its name,
 * *start its address, *mod its module or NULL (start and mod may be NULL).
 * NULL when none: addr below the first symbol, or past the last one's address.
 */
TM_HIDDEN const char *tm_ksyms_find(struct tm_ksyms *k, uint64_t addr, uint64_t *start,
				    const char **mod);
/* Symbol i in lookup order (by address; at one address the later line first). */
TM_HIDDEN const char *tm_ksyms_at(struct tm_ksyms *k, size_t i, uint64_t *addr,
				  const char **mod);

#endif /* TM_KSYMS_H */
