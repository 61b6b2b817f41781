/* SPDX-License-Identifier: GPL-2.0-only */
/* errlog.h - the kernel's reason for a refused tracefs write, from error_log (errlog.c). Private. */
#ifndef TM_ERRLOG_H
#define TM_ERRLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "util/internal.h"

struct tracefs_instance;

/* Empty the instance's error_log (0 when the kernel has none); -1 + message. */
TM_HIDDEN int tm_errlog_clear(struct tracefs_instance *in);
/*
 * The newest entry of the instance's error_log as one line into out:
 * "REASON (position N: CMD-before^CMD-after)", or just REASON when the
 * entry has no command. false when the log is empty or unreadable.
 */
TM_HIDDEN bool tm_errlog_last(struct tracefs_instance *in, char *out, size_t len);
/* tm_file_put_why(): in tracefs-internal.h (lib/longrec's --trigger writes through it too). */

#endif /* TM_ERRLOG_H */
