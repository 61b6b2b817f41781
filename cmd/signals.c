// SPDX-License-Identifier: GPL-2.0-only
/* signals.c - the one process-wide signal flag: stop requests, SIGUSR2 and child exits. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "signals.h"

/* The only process-wide state of tracemap: written by handlers, read by the main thread. */
static struct {
	volatile sig_atomic_t	stops;
	volatile sig_atomic_t	last;
	volatile sig_atomic_t	child;
	volatile sig_atomic_t	usr2;
	sigset_t		blocked;	/* the signals we handle */
	sigset_t		wait_mask;	/* mask while waiting: ours unblocked */
	char			msg[96];
	size_t			msg_len;
} tm_sig;

static void tm_on_stop(int sig)
{
	int saved = errno;

	tm_sig.last = sig;
	if (++tm_sig.stops == 2 && tm_sig.msg_len) {
		ssize_t n = write(STDERR_FILENO, tm_sig.msg, tm_sig.msg_len);

		(void)n;
	}
	errno = saved;
}

static void tm_on_child(int sig)
{
	(void)sig;
	tm_sig.child = 1;
}

static void tm_on_usr2(int sig)
{
	(void)sig;
	tm_sig.usr2++;
}

void tm_signals_init(const char *sub)
{
	struct sigaction sa;
	sigset_t old;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = tm_on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = tm_on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = tm_on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	tm_sig.msg_len = 0;
	if (sub) {
		int n = snprintf(tm_sig.msg, sizeof(tm_sig.msg),
				 "tracemap %s: stopping, writing the file...\n", sub);

		tm_sig.msg_len = n > 0 && (size_t)n < sizeof(tm_sig.msg) ? (size_t)n : 0;
	}
	sigemptyset(&tm_sig.blocked);
	sigaddset(&tm_sig.blocked, SIGINT);
	sigaddset(&tm_sig.blocked, SIGTERM);
	sigaddset(&tm_sig.blocked, SIGHUP);
	sigaddset(&tm_sig.blocked, SIGCHLD);
	sigaddset(&tm_sig.blocked, SIGUSR2);
	sigprocmask(SIG_BLOCK, &tm_sig.blocked, &old);
	tm_sig.wait_mask = old;
	sigdelset(&tm_sig.wait_mask, SIGINT);
	sigdelset(&tm_sig.wait_mask, SIGTERM);
	sigdelset(&tm_sig.wait_mask, SIGHUP);
	sigdelset(&tm_sig.wait_mask, SIGCHLD);
	sigdelset(&tm_sig.wait_mask, SIGUSR2);
}

void tm_signals_wait(int timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };

	ppoll(NULL, 0, timeout_ms < 0 ? NULL : &ts, &tm_sig.wait_mask);
}

int tm_signals_stop_count(void)
{
	return tm_sig.stops;
}

int tm_signals_last(void)
{
	return tm_sig.last;
}

int tm_signals_usr2_count(void)
{
	return tm_sig.usr2;
}

bool tm_signals_child_event(void)
{
	return tm_sig.child;
}

void tm_signals_clear_child(void)
{
	tm_sig.child = 0;
}

void tm_signals_unblock(void)
{
	sigprocmask(SIG_UNBLOCK, &tm_sig.blocked, NULL);
}

void tm_signals_reset_child(void)
{
	sigset_t none;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}
