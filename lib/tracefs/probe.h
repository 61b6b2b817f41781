/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe.h - the probes of a session (probe.c), all in its own event group:
 * uprobes from --uprobe specs (uprobe.c, symbols found with elf-sym.c) and
 * kprobes from --kprobe specs (kprobe.c). Private.
 */
#ifndef TM_PROBE_H
#define TM_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"
#include "tm-tracefs.h"

#define TM_PROBE_NAME_MAX	64	/* the kernel's MAX_EVENT_NAME_LEN */

struct tm_probes;
struct tracefs_dynevent;

/* An empty set of room for n probes of group ("tracemap_<pid>"); NULL + message. */
TM_HIDDEN struct tm_probes *tm_probes_new(const char *group, size_t n);
/* The group every probe of p is made in. */
TM_HIDDEN const char *tm_probes_group(const struct tm_probes *p);
/*
 * The event name of a probe on symbol (+offset, a return probe: ret), unique
 * in p: "sym", "sym_0x10", "sym__return", every character but [A-Za-z0-9_]
 * made '_', a leading digit after '_'; "_2", "_3"... when taken.
 */
TM_HIDDEN void tm_probes_name(const struct tm_probes *p, const char *symbol, uint64_t offset,
			      bool ret, char *name, size_t len);
/*
 * Make probe (allocated for group and name by libtracefs) in the kernel and
 * keep it in p; what says what it is in a failure's message, which carries
 * the kernel's reason from error_log. probe is p's, or freed on failure.
 */
TM_HIDDEN int tm_probes_add(struct tm_probes *p, enum tm_probe_kind kind,
			    struct tracefs_dynevent *probe, const char *name, const char *what);
/* Number of probes, and probe i as an event name "group:name" for -e. */
TM_HIDDEN size_t tm_probes_count(const struct tm_probes *p);
TM_HIDDEN const char *tm_probes_event(const struct tm_probes *p, size_t i);
/* Remove every probe (after the instance that enabled them is gone) and free; -1 + message. */
TM_HIDDEN int tm_probes_destroy(struct tm_probes *p);
/* The tracefs file libtracefs writes a probe of kind to (dynamic_events where it exists). */
TM_HIDDEN const char *tm_probe_file(enum tm_probe_kind kind);

/* Add one uprobe "PATH:SYMBOL[+OFF][%return]" to p (uprobe.c); -1 + message. */
TM_HIDDEN int tm_uprobe_add(struct tm_probes *p, const char *spec);
/* Add one kprobe "SYMBOL[+OFF][%return] [FETCHARGS]" to p (kprobe.c); -1 + message. */
TM_HIDDEN int tm_kprobe_add(struct tm_probes *p, const char *spec);

/* The file offset of function symbol name in ELF file path (libelf); -1 + message. */
TM_HIDDEN int tm_elf_symbol_offset(const char *path, const char *name, uint64_t *off);

#endif /* TM_PROBE_H */
