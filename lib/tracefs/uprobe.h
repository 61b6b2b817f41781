/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uprobe.h - user-space probes of a session (uprobe.c) in their own event
 * group, and ELF symbol lookup for them (elf-sym.c). Private.
 */
#ifndef TM_UPROBE_H
#define TM_UPROBE_H

#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

struct tm_uprobes;

/*
 * Create one uprobe per spec ("PATH:SYMBOL[+OFF][%return]") in
 * <tracefs>/uprobe_events under group. NULL + message naming the spec (and
 * the kernel's reason from error_log); probes made so far are removed.
 */
TM_HIDDEN struct tm_uprobes *tm_uprobes_create(const char *tracefs, const char *group,
					       const char *const *specs, size_t n);
/* Number of probes, and probe i as an event name "group:name" for -e. */
TM_HIDDEN size_t tm_uprobes_count(const struct tm_uprobes *u);
TM_HIDDEN const char *tm_uprobes_event(const struct tm_uprobes *u, size_t i);
/* Remove every probe (after the instance that enabled them is gone) and free; -1 + message. */
TM_HIDDEN int tm_uprobes_destroy(struct tm_uprobes *u);

/* The file offset of function symbol name in ELF file path (libelf); -1 + message. */
TM_HIDDEN int tm_elf_symbol_offset(const char *path, const char *name, uint64_t *off);

#endif /* TM_UPROBE_H */
