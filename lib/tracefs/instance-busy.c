// SPDX-License-Identifier: GPL-2.0-only
/*
 * instance-busy.c - removing an instance that may be busy: the kernel refuses
 * tracefs_instance_destroy()'s rmdir (EBUSY) while any process holds one of
 * its files open, so retry for a while, then name the processes that hold it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stdbool.h>
#include <tracefs.h>

#include "util/internal.h"
#include "tracefs-internal.h"

#define TM_BUSY_STEP_MS		50
#define TM_BUSY_MAX_NAMED	4	/* holders named in the message */

/* True when one of pid's open files lies under dir. */
static bool pid_holds(const char *pid, const char *dir, size_t dir_len)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct dirent *d;
	bool found = false;
	DIR *fds;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid);
	fds = opendir(path);
	if (!fds)
		return false;
	while (!found && (d = readdir(fds))) {
		ssize_t n;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid, d->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		found = !strncmp(target, dir, dir_len) && target[dir_len] == '/';
	}
	closedir(fds);
	return found;
}

/* ", pid N (comm)" appended to buf (cut at len). */
static void name_holder(char *buf, size_t len, const char *pid)
{
	char path[PATH_MAX], comm[64] = "?";
	size_t used = strlen(buf);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(buf + used, len - used, "%spid %s (%s)", used ? ", " : "", pid, comm);
}

void tm_dir_holders(const char *dir, char *buf, size_t len)
{
	size_t dir_len = strlen(dir);
	struct dirent *d;
	int named = 0, more = 0;
	DIR *proc;

	buf[0] = '\0';
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' || !pid_holds(d->d_name, dir, dir_len))
			continue;
		if (named++ < TM_BUSY_MAX_NAMED)
			name_holder(buf, len, d->d_name);
		else
			more++;
	}
	closedir(proc);
	if (more)
		snprintf(buf + strlen(buf), len - strlen(buf), " and %d more", more);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The refusal of the instance at dir: EBUSY names who holds it open. */
static int destroy_refused(const char *dir, int err)
{
	char holders[256];

	if (err != EBUSY)
		return tm_fail(err, "remove instance %s", dir);
	/* libtracefs 1.6.4 has no word on who holds it: /proc says */
	tm_dir_holders(dir, holders, sizeof(holders));
	if (!holders[0])
		return tm_failx(EBUSY, "remove instance %s: %s (a file of it is open or mapped)",
				dir, strerror(EBUSY));
	return tm_failx(EBUSY, "remove instance %s: %s (held open by %s)", dir, strerror(EBUSY),
			holders);
}

int tm_instance_destroy(struct tracefs_instance *in, int wait_ms)
{
	char *dir;
	int ret;

	for (int waited = 0;; waited += TM_BUSY_STEP_MS) {
		if (!tracefs_instance_destroy(in) || errno == ENOENT)
			return 0;
		if (errno != EBUSY || waited >= wait_ms)
			break;
		sleep_ms(TM_BUSY_STEP_MS);
	}
	ret = errno;
	dir = tracefs_instance_get_dir(in);
	if (!dir)
		return tm_fail(ENOMEM, "remove instance");
	ret = destroy_refused(dir, ret);
	tracefs_put_tracing_file(dir);
	return ret;
}
