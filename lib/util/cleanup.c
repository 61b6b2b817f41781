// SPDX-License-Identifier: GPL-2.0-only
/*
 * cleanup.c - the hidden temporaries a stop signal must not leave behind: an
 * output written under a temporary beside it (outfile.c, sql's database)
 * names it here while it exists; a command whose outputs can be made again
 * from its inputs (report, convert, sql, recover) has SIGINT, SIGTERM and
 * SIGHUP unlink them, then die of the signal as it would have.
 * Commands that must keep what they wrote (extract: its reads consumed the
 * only copy) never install the handler; record and stream have their own.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "tm-cleanup.h"

#define TM_CLEANUP_SLOTS	16	/* temporaries open at once: one or two in practice */

static char *_Atomic slots[TM_CLEANUP_SLOTS];

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

void tm_cleanup_add(const char *path)
{
	char *copy = strdup(path);

	if (!copy)
		return;		/* best effort: the temporary stays after a signal */
	for (int i = 0; i < TM_CLEANUP_SLOTS; i++) {
		char *none = NULL;

		if (atomic_compare_exchange_strong(&slots[i], &none, copy))
			return;
	}
	free(copy);
}

/* The handler reads the slots: it must not run while one is freed. */
static void block_stop_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < TM_ARRAY_SIZE(stop_signals); i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void tm_cleanup_remove(const char *path)
{
	sigset_t old;

	block_stop_signals(&old);
	for (int i = 0; i < TM_CLEANUP_SLOTS; i++) {
		char *p = atomic_load(&slots[i]);

		if (p && !strcmp(p, path)) {
			atomic_store(&slots[i], NULL);
			free(p);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* unlink() is async-signal-safe; SA_RESETHAND: the raise kills once we return. */
static void on_stop_signal(int sig)
{
	int saved = errno;

	for (int i = 0; i < TM_CLEANUP_SLOTS; i++) {
		char *p = atomic_load(&slots[i]);

		if (p)
			unlink(p);
	}
	raise(sig);
	errno = saved;
}

void tm_cleanup_on_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	/* even where ignored at exec (a script's background job): a kill asks for the stop */
	for (size_t i = 0; i < TM_ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}
