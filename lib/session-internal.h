/* SPDX-License-Identifier: GPL-2.0-only */
/* session-internal.h - helpers shared by session*.c: instance file writes, event setup. */
#ifndef TM_SESSION_INTERNAL_H
#define TM_SESSION_INTERNAL_H

#include "internal.h"
#include "tm-record.h"

/* snprintf into a path buffer; -1 (ENAMETOOLONG, message set) when it does not fit. */
/* Write text to <dir>/<file> (truncating); message names the file and errno. */
TM_HIDDEN int tm_sess_write(const char *dir, const char *file, const char *text);
/* Like tm_sess_write() without O_TRUNC (pid lists append). */
TM_HIDDEN int tm_sess_append(const char *dir, const char *file, const char *text);
/* Enable the events of specs in instance dir and set their filters. */
TM_HIDDEN int tm_sess_enable_events(const char *dir, const struct tm_event_spec *specs,
				    size_t n);

#endif /* TM_SESSION_INTERNAL_H */
