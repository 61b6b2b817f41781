// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture-child.c - the COMMAND of `record -- COMMAND` and `stream --
 * COMMAND`: forked blocked until the instance is ready, released when
 * tracing starts, reaped, reported, and its status made tracemap's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture.h"
#include "cmd.h"
#include "signals.h"


/* Fork COMMAND, blocked on a pipe until capture_child_release(): the instance is ready first. */
int capture_child_spawn(struct capture *r)
{
	int fds[2];
	char c;

	if (pipe2(fds, O_CLOEXEC)) {
		cmd_err(r->sub, "pipe: %s", strerror(errno));
		return -1;
	}
	r->child = fork();
	if (r->child < 0) {
		cmd_err(r->sub, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (r->child == 0) {
		signals_reset_child();
		close(fds[1]);
		/* EOF without a byte means the parent gave up: do not run */
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		execvp(r->o->command[0], r->o->command);
		fprintf(stderr, "tracemap %s: cannot run %s: %s\n", r->sub, r->o->command[0],
			strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	r->go_fd = fds[1];
	return 0;
}

void capture_child_release(struct capture *r)
{
	if (r->go_fd < 0)
		return;
	if (write(r->go_fd, "g", 1) != 1)
		cmd_err(r->sub, "start %s: %s", r->o->command[0], strerror(errno));
	close(r->go_fd);
	r->go_fd = -1;
}

void capture_child_reap(struct capture *r, bool block)
{
	pid_t p;

	if (r->child <= 0 || r->child_done)
		return;
	do {
		p = waitpid(r->child, &r->child_status, block ? 0 : WNOHANG);
	} while (p < 0 && errno == EINTR);
	if (p == r->child)
		r->child_done = true;
}

/* On a failure before the child ran: it never execs (closing go_fd gives it EOF). */
void capture_child_abandon(struct capture *r)
{
	if (r->go_fd >= 0) {
		close(r->go_fd);
		r->go_fd = -1;
	}
	capture_child_reap(r, true);
}

void capture_wait_command(struct capture *r)
{
	int stops = signals_stop_count();

	if (r->child <= 0 || r->go_fd >= 0)
		return;
	capture_child_reap(r, false);
	if (r->child_done)
		return;
	cmd_err(r->sub, "waiting for %s (pid %d) to exit; Ctrl-C stops it", r->o->command[0],
		   (int)r->child);
	while (!r->child_done) {
		signals_wait(200);
		/* as while recording: a stop signal goes on to COMMAND */
		if (signals_stop_count() != stops) {
			stops = signals_stop_count();
			kill(r->child, signals_last());
		}
		capture_child_reap(r, false);
	}
}

void capture_child_report(struct capture *r)
{
	int st = r->child_status;

	if (r->child <= 0 || r->o->quiet || !r->child_done)
		return;
	if (WIFEXITED(st))
		cmd_err(r->sub, "%s exited with status %d", r->o->command[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		cmd_err(r->sub, "%s killed by signal %d (%s)", r->o->command[0], WTERMSIG(st),
			   strsignal(WTERMSIG(st)));
}

int capture_exit_status(const struct capture *r, int ret)
{
	int st = r->child_status;

	if (ret != TM_EXIT_OK || r->child <= 0 || !r->child_done)
		return ret;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return ret;
}
