// SPDX-License-Identifier: GPL-2.0-only
/*
 * zombie.c - a zombie for the tests (build/tm-zombie):
 *   tm-zombie NAME SECONDS   prints "ZOMBIE HOLDER" and exits: ZOMBIE is a
 *                            process named NAME that has exited and that
 *                            HOLDER, its parent, never reaps; HOLDER lives
 *                            SECONDS at the most (or until killed), then the
 *                            zombie goes to init, which reaps it
 *
 * No race: the holder learns of the exit with waitid(WNOWAIT), which leaves
 * the child a zombie, and only then is the pid printed. A shell cannot do this:
 * dash reaps a finished background job after any builtin (`echo $!`), so a
 * shell parent that "never waits" sometimes has no zombie to show.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "tm-zombie: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * The holder: fork the child that dies as NAME, wait for it to be a zombie
 * without reaping it, report its pid on fd OUT, then sleep. Its own stdio and
 * every other fd go to /dev/null or are closed, so that nothing the test waits
 * on (a $(...) pipe, bats's fd 3) stays open for SECONDS.
 */
static void hold(const char *name, unsigned int seconds, int out)
{
	siginfo_t info;
	pid_t child;
	int null;

	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		prctl(PR_SET_NAME, name);
		_exit(0);
	}
	memset(&info, 0, sizeof(info));
	while (waitid(P_PID, child, &info, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			die("waitid");
	if (dprintf(out, "%d %d\n", (int)child, (int)getpid()) < 0)
		die("write");
	null = open("/dev/null", O_RDWR);
	if (null < 0)
		die("/dev/null");
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	closefrom(3);
	/* sleep() returns early on a signal that is caught: none is */
	sleep(seconds);
	_exit(0);
}

int main(int argc, char **argv)
{
	char buf[64];
	int fds[2];
	ssize_t n;
	pid_t holder;

	if (argc != 3 || strlen(argv[1]) > 15 || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: tm-zombie NAME(at most 15 bytes) SECONDS\n");
		return 2;
	}
	if (pipe(fds))
		die("pipe");
	holder = fork();
	if (holder < 0)
		die("fork");
	if (holder == 0) {
		close(fds[0]);
		hold(argv[1], (unsigned int)atoi(argv[2]), fds[1]);
	}
	close(fds[1]);
	/* one short line, written at once: one read has it, or EOF if the holder failed */
	do {
		n = read(fds[0], buf, sizeof(buf) - 1);
	} while (n < 0 && errno == EINTR);
	if (n <= 0) {
		fprintf(stderr, "tm-zombie: the holder (pid %d) reported no zombie\n", (int)holder);
		return 1;
	}
	buf[n] = '\0';
	fputs(buf, stdout);
	return 0;
}
