/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk-map.h - the kernel strings of a trace (printk-map.c): the file's
 * printk formats ("0xADDR : \"TEXT\"" lines, tracefs's printk_formats) as a
 * table from address to text. An event field that is a `const char *` into
 * the kernel (suspend_resume's action, rcu_utilization's s) holds such an
 * address; libtraceevent resolves it when it prints the event but has no
 * public lookup, so outputs that need the text (convert) ask this table.
 */
#ifndef TM_PRINTK_MAP_H
#define TM_PRINTK_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/internal.h"
#include "trace/tm-trace.h"

struct tm_printk_map;

struct tep_format_field;

/*
 * The table of b's lines (copied: b may go away), those report's
 * libtraceevent gets (tm_meta_clean_printk()). A line without a ':' or a
 * text after it is skipped. NULL + message on ENOMEM.
 */
TM_HIDDEN struct tm_printk_map *tm_printk_map_new(struct tm_blob b);
TM_HIDDEN void tm_printk_map_free(struct tm_printk_map *m);
/*
 * The text at addr, as libtraceevent registers it (the quotes around it
 * and a "\n" escape before the closing one dropped); NULL when none.
 */
TM_HIDDEN const char *tm_printk_map_find(const struct tm_printk_map *m, uint64_t addr);
/* Is tf a `const char *` into the kernel that its event prints with %s (printk-map.c)? */
TM_HIDDEN bool tm_field_is_kernel_string(const struct tep_format_field *tf);

#endif /* TM_PRINTK_MAP_H */
