/* SPDX-License-Identifier: GPL-2.0-only */
/* tm-list.h - read-only queries of a tracefs instance: events, systems, clocks, tracers, options. */
#ifndef TM_LIST_H
#define TM_LIST_H

#include <regex.h>
#include <stddef.h>

/*
 * Every function here only reads tracefs. Lists are NULL-terminated, sorted
 * (byte order), malloc'ed arrays freed with tm_strv_free(); NULL on error with
 * errno set and tm_last_error() saying what failed.
 */

/*
 * The directory of an instance under tracefs dir: dir itself for NULL (the
 * top level), dir/instances/<name> otherwise. Fails (ENOENT) when the
 * instance does not exist. Free the result with free().
 */
char *tm_list_instance_dir(const char *tracefs, const char *instance);

/* Event systems: the directories under <dir>/events. */
char **tm_list_systems(const char *dir);
/* Events as "system:event", only those filter matches when filter is not NULL. */
char **tm_list_events(const char *dir, const regex_t *filter);
/* Clocks of <dir>/trace_clock; *current gets the index of the selected one (-1 if none). */
char **tm_list_clocks(const char *dir, int *current);
/*
 * The lines of <tracefs>/available_filter_functions ("name" or "name [module]"),
 * only those filter matches when filter is not NULL (top level only: the
 * functions are the kernel's, not an instance's).
 */
char **tm_list_functions(const char *tracefs, const regex_t *filter);
/*
 * The instances under <tracefs>/instances, one line each: "NAME SIZE KiB"
 * (buffer_size_kb), then " persistent" for a boot-mapped one and ", holds
 * the previous boot's events" when its last_boot_info is not "# Current".
 */
char **tm_list_instances(const char *tracefs);
/* Tracers of <dir>/available_tracers. */
char **tm_list_tracers(const char *dir);
/* Options of <dir>/options as "NAME VALUE" lines (VALUE is the file's content, 0 or 1). */
char **tm_list_options(const char *dir);
/*
 * The format file of an event named "system:event", "system/event", or a bare
 * "event" when exactly one system has it. ENOENT for an unknown event,
 * EINVAL for an ambiguous bare name (the message lists the systems).
 * Returns the file's content (NUL-terminated, free()).
 */
char *tm_list_event_format(const char *dir, const char *event);

#endif /* TM_LIST_H */
