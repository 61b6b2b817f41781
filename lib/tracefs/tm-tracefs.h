/* SPDX-License-Identifier: GPL-2.0-only */
/* tm-tracefs.h - finding/mounting tracefs and naming tracemap's instances. */
#ifndef TM_TRACEFS_H
#define TM_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define TM_TRACEFS_DEFAULT	"/sys/kernel/tracing"
#define TM_INSTANCE_PREFIX	"tracemap-"

/*
 * Find the mounted tracefs, mounting it at /sys/kernel/tracing when it is not
 * mounted and we are root. need_write asks for write access too. Returns the
 * directory (libtracefs-owned storage) or NULL with a message that says what
 * is missing and how to grant access.
 */
const char *tm_tracefs_open(bool need_write);

/*
 * Names of stale tracemap instances under tracefs dir (their owner process
 * is gone, or is not tracemap), as a NULL-terminated malloc'ed array (free
 * with tm_strv_free). NULL + message when instances/ cannot be read.
 */
char **tm_instance_list_stale(const char *tracefs);
/* Free a NULL-terminated string list and its strings (NULL is fine). */
void tm_strv_free(char **v);
/*
 * tracefs_instance_destroy() of instances/<name>: the kernel tears the buffer
 * down. -1 + message (not for ENOENT).
 */
int tm_instance_remove(const char *tracefs, const char *name);

/* ---- probes (probe.c, uprobe.c, kprobe.c): tracemap_<pid> groups of dynamic events ---- */

/* The kinds of probes a recording adds to the kernel, each removed with its instance. */
enum tm_probe_kind {
	TM_PROBE_UPROBE,	/* --uprobe: uprobe_events (uprobes and uretprobes) */
	TM_PROBE_KPROBE,	/* --kprobe: kprobe_events (kprobes and kretprobes) */
	TM_PROBE_KINDS
};

/* "uprobe" or "kprobe". */
const char *tm_probe_kind_name(enum tm_probe_kind kind);
/* Check the syntax of a --uprobe spec "PATH:SYMBOL[+OFF][%return]"; -1 + message (EINVAL). */
int tm_uprobe_spec_check(const char *spec);
/*
 * Check the syntax of a --kprobe spec "SYMBOL[+OFF][%return] [FETCHARGS]" (the
 * fetch arguments are the kernel's to judge); -1 + message (EINVAL).
 */
int tm_kprobe_spec_check(const char *spec);
/*
 * The probes ("GROUP/EVENT") of kind whose group is tracemap_<pid> of a
 * tracemap process that is gone, as a NULL-terminated malloc'ed array
 * (tm_strv_free); empty on kernels without that kind. NULL + message.
 */
char **tm_probe_list_stale(const char *tracefs, enum tm_probe_kind kind);
/*
 * The instance ("tracemap-<pid>") of the recording a probe "GROUP/EVENT"
 * belongs to, into inst; false when its group is not tracemap_<pid> or inst
 * is too short.
 */
bool tm_probe_instance(const char *event, char *inst, size_t len);
/*
 * Remove one probe "GROUP/EVENT" of kind (tracefs_dynevent_destroy()); -1 +
 * message (EBUSY if enabled).
 */
int tm_probe_remove_event(const char *tracefs, enum tm_probe_kind kind, const char *event);

#endif /* TM_TRACEFS_H */
