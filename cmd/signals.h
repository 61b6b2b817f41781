/* SPDX-License-Identifier: GPL-2.0-only */
/* signals.h - the process-wide stop flag set by SIGINT, SIGTERM and the other stop signals. */
#ifndef TM_SIGNALS_H
#define TM_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/*
 * Install the handlers of every stop signal (INT, TERM, HUP, QUIT, USR1,
 * USR2, PIPE, ALRM, VTALRM, PROF, XCPU, XFSZ, PWR, IO, STKFLT) and SIGCHLD,
 * and block them, so they arrive only while the caller waits with
 * signals_wait(). SIGPIPE and SIGXFSZ raised by our own writes do not
 * stop anything: the write fails with EPIPE or EFBIG instead.
 */
void signals_init(const char *sub);
/*
 * Wait up to timeout_ms (-1: forever) with the signals unblocked. Returns
 * early when a signal arrived.
 */
void signals_wait(int timeout_ms);
/* Number of stop signals received so far, and the last one. */
int signals_stop_count(void);
int signals_last(void);
/*
 * After signals_init(): SIGUSR2 no longer stops the run but is counted
 * (record's flight dumps and output switches ask for it).
 */
void signals_catch_usr2(void);
/* Number of SIGUSR2 received since signals_catch_usr2(). */
int signals_usr2_count(void);
/* True once SIGCHLD arrived (then call waitpid). */
bool signals_child_event(void);
void signals_clear_child(void);
/* Unblock the signals for good: a second Ctrl-C then prints "stopping..." only. */
void signals_unblock(void);
/* In a forked child before exec: default dispositions, nothing blocked. */
void signals_reset_child(void);

#endif /* TM_SIGNALS_H */
