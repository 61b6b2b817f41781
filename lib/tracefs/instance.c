// SPDX-License-Identifier: GPL-2.0-only
/* instance.c - "tracemap-<pid>" instances: naming, owners, stale cleanup; an instance's geometry. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#include <stdbool.h>
#include <tracefs.h>

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

/* Some CPU's buffer of the instance holds events ("entries:" of its stats). */
static bool holds_entries(struct tracefs_instance *in)
{
	char rel[64], *text, *line;
	bool any = false;

	for (int cpu = 0; cpu < get_nprocs_conf() && !any; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(in, rel, NULL);
		line = text ? strstr(text, "entries: ") : NULL;
		any = line && strtoull(line + strlen("entries: "), NULL, 10) > 0;
		free(text);
	}
	return any;
}

/*
 * last_boot_info text of a previous boot's buffer. Not: "# Current"; 7.x's
 * "0\t[kernel]" (a cold boot: no old text address); 6.12's "text delta:\t0",
 * which it prints on a cold boot and still once this boot wrote events (a
 * previous boot without KASLR reads the same: nothing to move either).
 */
static bool tells_previous_boot(const char *text)
{
	return strncmp(text, "# Current", 9) && strncmp(text, "0\t[kernel]", 10) &&
	       strncmp(text, "text delta:\t0\n", 14) && strncmp(text, "text_delta: 0\n", 14);
}

/* BACKUP of a "trace_instance=BACKUP=NAME[^...][@...][,...]" word when NAME is name. */
static char *backup_word(const char *word, const char *name)
{
	const char *v = word + strlen("trace_instance="), *eq = strchr(v, '=');
	size_t n = strlen(name);

	if (strncmp(word, "trace_instance=", strlen("trace_instance=")) || !eq || eq == v ||
	    strncmp(eq + 1, name, n) || !strchr("^@,", eq[1 + n]) || memchr(v, '/', eq - v))
		return NULL;
	return strndup(v, eq - v);
}

char *tm_instance_backup_source(const char *backup)
{
	char *cmdline = tm_read_file("/proc/cmdline", NULL), *save = NULL, *src = NULL;
	const char *prefix = "trace_instance=";
	size_t n = strlen(backup), plen = strlen(prefix);

	for (char *w = cmdline ? strtok_r(cmdline, " \n", &save) : NULL; w && !src;
	     w = strtok_r(NULL, " \n", &save)) {
		if (strncmp(w, prefix, plen))
			continue;
		w += plen;
		if (!strncmp(w, backup, n) && w[n] == '=' && w[n + 1])
			src = strndup(w + n + 1, strcspn(w + n + 1, "^@,"));
	}
	free(cmdline);
	return src;
}

char *tm_instance_backup(const char *tracefs, const char *name)
{
	char *cmdline = tm_read_file("/proc/cmdline", NULL), *save = NULL, *b = NULL;
	struct tracefs_instance *in;
	char dir[PATH_MAX];

	for (char *w = cmdline ? strtok_r(cmdline, " \n", &save) : NULL; w && !b;
	     w = strtok_r(NULL, " \n", &save)) {
		b = backup_word(w, name);
		if (!b)
			continue;
		/* the kernel removes a backup once it is read out */
		in = !tm_path(dir, sizeof(dir), "%s/instances/%s", tracefs, b) &&
		     !access(dir, F_OK) ? tm_tfs_open(tracefs, b) : NULL;
		if (!in || !holds_entries(in)) {
			free(b);
			b = NULL;
		}
		tracefs_instance_free(in);
	}
	free(cmdline);
	return b;
}

int tm_instance_last_boot(struct tracefs_instance *in, char **prev)
{
	char *text;

	*prev = NULL;
	if (!tracefs_file_exists(in, "last_boot_info"))
		return 0;
	errno = 0;
	text = tracefs_instance_file_read(in, "last_boot_info", NULL);
	if (!text)
		return tm_fail(errno ?: EIO, "read %s/last_boot_info",
			       tracefs_instance_get_name(in) ?: "the top level");
	if (tells_previous_boot(text))
		*prev = text;
	else
		free(text);
	return 1;
}

char **tm_instance_list_stale(const char *tracefs)
{
	char **all, **v = NULL;
	size_t n = 0;

	/*
	 * tracefs_instances() lists those of the tracefs tm_tracefs_open() chose;
	 * not with a regex, which 1.6.4 never frees (tm_instance_is_stale() knows ours)
	 */
	errno = 0;
	all = tracefs_instances(NULL);
	if (!all) {
		tm_fail(errno ? errno : EIO, "list %s/instances", tracefs);
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	for (char **p = all; v && *p; p++) {
		if (tm_instance_is_stale(*p) && tm_strv_push(&v, &n, *p)) {
			tm_strv_free(v);
			v = NULL;
		}
	}
	tracefs_list_free(all);
	if (!v)
		tm_fail(ENOMEM, "list %s/instances", tracefs);
	return v;
}

int tm_instance_remove(const char *tracefs, const char *name)
{
	struct tracefs_instance *in = tm_tfs_open(tracefs, name);
	int ret;

	if (!in)
		return errno == ENOENT ? 0 : -1;
	ret = tm_instance_destroy(in, 0);
	tracefs_instance_free(in);
	return ret;
}

int tm_instance_page_size(struct tracefs_instance *in, size_t *size)
{
	char *text;
	long kb;

	*size = sysconf(_SC_PAGESIZE);
	/* kernels before 6.8: one page per sub-buffer; libtracefs 1.6.4 cannot read it */
	if (!tracefs_file_exists(in, "buffer_subbuf_size_kb"))
		return 0;
	text = tm_tfs_read(in, "buffer_subbuf_size_kb", NULL);
	if (!text)
		return -1;
	kb = strtol(text, NULL, 10);
	free(text);
	if (kb > 0)
		*size = (size_t)kb * 1024;
	return 0;
}
