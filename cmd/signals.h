/* SPDX-License-Identifier: GPL-2.0-only */
/* signals.h - the process-wide stop flag set by SIGINT/SIGTERM/SIGHUP (and SIGUSR2, SIGCHLD). */
#ifndef TM_SIGNALS_H
#define TM_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/*
 * Install the handlers and block SIGINT, SIGTERM, SIGHUP, SIGUSR2 and
 * SIGCHLD, so they arrive only while the caller waits with
 * tm_signals_wait(). SIGUSR2 is only counted (a flight dump or an output
 * switch where record asks for one). SIGPIPE is ignored (a closed stdout
 * becomes EPIPE, and cleanup still runs).
 */
void tm_signals_init(const char *sub);
/*
 * Wait up to timeout_ms (-1: forever) with the signals unblocked. Returns
 * early when a signal arrived.
 */
void tm_signals_wait(int timeout_ms);
/* Number of stop signals received so far, and the last one. */
int tm_signals_stop_count(void);
int tm_signals_last(void);
/* Number of SIGUSR2 received so far. */
int tm_signals_usr2_count(void);
/* True once SIGCHLD arrived (then call waitpid). */
bool tm_signals_child_event(void);
void tm_signals_clear_child(void);
/* Unblock the signals for good: a second Ctrl-C then prints "stopping..." only. */
void tm_signals_unblock(void);
/* In a forked child before exec: default dispositions, nothing blocked. */
void tm_signals_reset_child(void);

#endif /* TM_SIGNALS_H */
