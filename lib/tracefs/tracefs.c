// SPDX-License-Identifier: GPL-2.0-only
/* tracefs.c - locate tracefs (mounting it when we may) and check access. */
#include <errno.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include <tracefs.h>

#include "util/internal.h"
#include "tm-tracefs.h"

/* First tracefs mount point listed in /proc/mounts, copied into buf. */
static bool tracefs_find_mount(char *buf, size_t len)
{
	struct mntent *m;
	bool found = false;
	FILE *f;

	f = setmntent("/proc/mounts", "re");
	if (!f)
		return false;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "tracefs")) {
			snprintf(buf, len, "%s", m->mnt_dir);
			found = true;
			break;
		}
	}
	endmntent(f);
	return found;
}

static int tracefs_mount(void)
{
	if (geteuid() != 0)
		return tm_failx(EPERM, "tracefs is not mounted and mounting it needs root: "
				"run as root, or ask an admin to 'mount -t tracefs -o gid=GROUP,mode=0750 "
				"nodev %s'", TM_TRACEFS_DEFAULT);
	if (mount("nodev", TM_TRACEFS_DEFAULT, "tracefs", 0, NULL))
		return tm_fail(errno, "mount tracefs at %s", TM_TRACEFS_DEFAULT);
	return 0;
}

const char *tm_tracefs_open(bool need_write)
{
	char dir[4096];
	const char *path;

	if (!tracefs_find_mount(dir, sizeof(dir))) {
		if (tracefs_mount())
			return NULL;
		snprintf(dir, sizeof(dir), "%s", TM_TRACEFS_DEFAULT);
	}
	if (access(dir, need_write ? R_OK | W_OK | X_OK : R_OK | X_OK)) {
		tm_fail(errno, "cannot %s tracefs at %s (run as root, or mount tracefs "
			"with gid=GROUP and join that group)",
			need_write ? "write to" : "read", dir);
		return NULL;
	}
	/* libtracefs keeps its own copy of the path for the calls we make through it */
	if (tracefs_set_tracing_dir(dir)) {
		tm_fail(errno, "use tracefs at %s", dir);
		return NULL;
	}
	path = tracefs_tracing_dir();
	if (!path)
		tm_fail(errno ? errno : ENOENT, "find tracefs at %s", dir);
	return path;
}
