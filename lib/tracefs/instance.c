// SPDX-License-Identifier: GPL-2.0-only
/* instance.c - "tracemap-<pid>" instances: naming, owners, stale cleanup; an instance's geometry. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>

#include "util/internal.h"
#include "tracefs-internal.h"
#include "tm-tracefs.h"

void tm_instance_name(char *buf, size_t len, pid_t pid)
{
	snprintf(buf, len, TM_INSTANCE_PREFIX "%d", (int)pid);
}

pid_t tm_instance_owner(const char *name)
{
	const char *digits = name + strlen(TM_INSTANCE_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, TM_INSTANCE_PREFIX, strlen(TM_INSTANCE_PREFIX)) ||
	    *digits < '1' || *digits > '9')
		return -1;
	errno = 0;
	pid = strtol(digits, &end, 10);
	if (errno || *end || pid <= 0 || pid > INT_MAX)
		return -1;
	return (pid_t)pid;
}

/* A zombie (or a dead task not yet reaped) has released its instance for good. */
static bool pid_is_dead(pid_t pid)
{
	char path[64], buf[512], *paren;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold spaces and parentheses, the state follows the last ')' */
	paren = strrchr(buf, ')');
	return paren && (paren[1] == ' ') && (paren[2] == 'Z' || paren[2] == 'X');
}

/* A live pid can be reused by another program: only a running tracemap owns it. */
bool tm_pid_runs_tracemap(pid_t pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	if ((kill(pid, 0) && errno == ESRCH) || pid_is_dead(pid))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno != ENOENT;	/* cannot tell: keep it */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "tracemap", 8);
}

bool tm_instance_is_stale(const char *name)
{
	pid_t pid = tm_instance_owner(name);

	return pid > 0 && !tm_pid_runs_tracemap(pid);
}

void tm_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

int tm_strv_push(char ***v, size_t *n, const char *s)
{
	char **tmp = realloc(*v, (*n + 2) * sizeof(**v));

	if (!tmp)
		return -1;
	*v = tmp;
	tmp[*n] = strdup(s);
	if (!tmp[*n])
		return -1;
	tmp[++*n] = NULL;
	return 0;
}

char **tm_instance_list_stale(const char *tracefs)
{
	char path[PATH_MAX];
	struct dirent *d;
	char **v = NULL;
	size_t n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/instances", tracefs);
	dir = opendir(path);
	if (!dir) {
		tm_fail(errno, "open %s", path);
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v)
		goto nomem;
	while ((d = readdir(dir))) {
		if (!tm_instance_is_stale(d->d_name))
			continue;
		if (tm_strv_push(&v, &n, d->d_name))
			goto nomem;
	}
	closedir(dir);
	return v;
nomem:
	closedir(dir);
	tm_strv_free(v);
	tm_fail(ENOMEM, "list %s", path);
	return NULL;
}

int tm_instance_remove(const char *tracefs, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/instances/%s", tracefs, name);
	return tm_dir_remove(path, "instance", 0);
}

int tm_instance_page_size(const char *dir, size_t *size)
{
	char path[PATH_MAX], *text;
	long kb;

	*size = sysconf(_SC_PAGESIZE);
	if (tm_path(path, sizeof(path), "%s/buffer_subbuf_size_kb", dir))
		return -1;
	if (access(path, F_OK))
		return 0;	/* kernels before 6.8: one page per sub-buffer */
	text = tm_read_file(path, NULL);
	if (!text)
		return -1;
	kb = strtol(text, NULL, 10);
	free(text);
	if (kb > 0)
		*size = (size_t)kb * 1024;
	return 0;
}
