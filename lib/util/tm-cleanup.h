/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-cleanup.h - the hidden temporaries a stop signal removes before it ends the
 * process (cleanup.c; the temporaries name themselves through util/internal.h).
 */
#ifndef TM_CLEANUP_H
#define TM_CLEANUP_H

/*
 * SIGINT, SIGTERM and SIGHUP unlink every temporary named,
 * then end the process by the signal. For commands whose outputs can be made
 * again from their inputs only.
 */
void tm_cleanup_on_stop_signals(void);

#endif /* TM_CLEANUP_H */
