// SPDX-License-Identifier: GPL-2.0-only
/* signals.c - the one process-wide signal flag: stop requests and child exits. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "signals.h"

/*
 * Every signal whose default action ends the process and that a user (or a
 * limit) sends: each stops the run as SIGINT does, so the file is written and
 * the instance removed. Faults (SEGV, BUS, ILL, FPE, ABRT, TRAP, SYS) keep
 * their default: after one, nothing can be trusted to clean up.
 */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
	SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGIO, SIGSTKFLT,
};

#define TM_NR_STOP_SIGNALS	(sizeof(stop_signals) / sizeof(stop_signals[0]))

/* The only process-wide state of tracemap: written by handlers, read by the main thread. */
static struct {
	volatile sig_atomic_t	stops;
	volatile sig_atomic_t	last;
	volatile sig_atomic_t	child;
	volatile sig_atomic_t	usr2;		/* SIGUSR2 counted, not a stop (catch_usr2) */
	sigset_t		blocked;	/* the signals we handle */
	sigset_t		wait_mask;	/* mask while waiting: ours unblocked */
	char			msg[96];
	size_t			msg_len;
} sig_state;

/*
 * A write to a closed pipe (SIGPIPE) or past the file size limit (SIGXFSZ)
 * is signalled by the kernel as if we had sent it: the write fails with
 * EPIPE/EFBIG and that error is handled where it happens. Only the same
 * signals sent by someone else stop the run.
 */
static bool from_own_write(int sig, const siginfo_t *si)
{
	return (sig == SIGPIPE || sig == SIGXFSZ) && si && si->si_code == SI_USER &&
	       si->si_pid == getpid();
}

static void on_stop(int sig, siginfo_t *si, void *uctx)
{
	int saved = errno;

	(void)uctx;
	if (from_own_write(sig, si))
		return;
	sig_state.last = sig;
	if (++sig_state.stops == 2 && sig_state.msg_len) {
		ssize_t n = write(STDERR_FILENO, sig_state.msg, sig_state.msg_len);

		(void)n;
	}
	errno = saved;
}

static void on_child(int sig)
{
	(void)sig;
	sig_state.child = 1;
}

static void on_usr2(int sig)
{
	(void)sig;
	sig_state.usr2++;
}

void signals_init(const char *sub)
{
	struct sigaction sa;
	sigset_t old;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO;
	for (size_t i = 0; i < TM_NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, NULL);
	sa.sa_flags = SA_NOCLDSTOP;
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sig_state.msg_len = 0;
	if (sub) {
		int n = snprintf(sig_state.msg, sizeof(sig_state.msg),
				 "tracemap %s: stopping, writing the file...\n", sub);

		sig_state.msg_len = n > 0 && (size_t)n < sizeof(sig_state.msg) ? (size_t)n : 0;
	}
	/* SIGPIPE and SIGXFSZ stay deliverable: our own writes raise them synchronously */
	sigemptyset(&sig_state.blocked);
	for (size_t i = 0; i < TM_NR_STOP_SIGNALS; i++)
		if (stop_signals[i] != SIGPIPE && stop_signals[i] != SIGXFSZ)
			sigaddset(&sig_state.blocked, stop_signals[i]);
	sigaddset(&sig_state.blocked, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sig_state.blocked, &old);
	sig_state.wait_mask = old;
	for (size_t i = 0; i < TM_NR_STOP_SIGNALS; i++)
		sigdelset(&sig_state.wait_mask, stop_signals[i]);
	sigdelset(&sig_state.wait_mask, SIGCHLD);
}

void signals_wait(int timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };

	ppoll(NULL, 0, timeout_ms < 0 ? NULL : &ts, &sig_state.wait_mask);
}

int signals_stop_count(void)
{
	return sig_state.stops;
}

int signals_last(void)
{
	return sig_state.last;
}

void signals_catch_usr2(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
}

int signals_usr2_count(void)
{
	return sig_state.usr2;
}

bool signals_child_event(void)
{
	return sig_state.child;
}

void signals_clear_child(void)
{
	sig_state.child = 0;
}

void signals_unblock(void)
{
	sigprocmask(SIG_UNBLOCK, &sig_state.blocked, NULL);
}

void signals_reset_child(void)
{
	sigset_t none;

	for (size_t i = 0; i < TM_NR_STOP_SIGNALS; i++)
		signal(stop_signals[i], SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
