/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs-internal.h - what the files of lib/tracefs/ share with the rest of lib/
 * (never with cmd/): the functions of its public headers that only lib calls.
 */
#ifndef TM_TRACEFS_INTERNAL_H
#define TM_TRACEFS_INTERNAL_H

#include "util/internal.h"

/* ---- lib-only part of tm-write.h ---- */

/* Selected trace clock ("local"), NULL if trace_clock had none. */
const char *tm_meta_clock(const struct tm_meta *meta);
/*
 * Read everything the file needs from tracefs for the instance (NULL = top
 * level): header_page/header_event, all ftrace formats, the formats of every
 * event enabled in the instance (its set_event; ftrace events are always
 * stored in their own section), the whole /proc/kallsyms (tm_meta_warning()
 * says when its addresses read as zero; kptr_restrict is never changed),
 * printk_formats, saved_cmdlines, uname, trace_clock, and per-CPU stats for
 * cpus [0, ncpus). Call after tracing stopped, so stats are final. NULL +
 * message naming the file that could not be read.
 */
struct tm_meta *tm_meta_collect(const char *tracefs, const char *instance, int ncpus);
/* Free the metadata (NULL is fine). */
void tm_meta_free(struct tm_meta *meta);
/* A warning collected on the way (e.g. kallsyms addresses zero), or NULL. */
const char *tm_meta_warning(const struct tm_meta *meta);

/* ---- lib-only part of tm-tracefs.h ---- */

/* "tracemap-<pid>" into buf (cut at len). */
void tm_instance_name(char *buf, size_t len, pid_t pid);

#endif /* TM_TRACEFS_INTERNAL_H */
