// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - the probes of a session (uprobes, kprobes) as libtracefs dynamic
 * events of tracemap's own group (tracemap_<pid>): unique names, made and
 * removed again on every exit path, and the stale groups of dead tracemap
 * processes that reset and recover remove.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "errlog.h"
#include "probe.h"
#include "tracefs-internal.h"

#define TM_PROBE_GROUP		"tracemap_"

struct tm_probes {
	char			group[64];
	size_t			n, cap;
	char			(*events)[TM_PROBE_NAME_MAX + 80];	/* "group:name" */
	enum tm_probe_kind	*kinds;
	struct tracefs_dynevent	**probes;	/* made in the kernel, events[i]'s */
};

static const struct {
	const char	*name;
	const char	*file;		/* before dynamic_events (4.17) */
	unsigned int	types;		/* libtracefs's */
} kinds[TM_PROBE_KINDS] = {
	[TM_PROBE_UPROBE] = { "uprobe", "uprobe_events",
			      TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE },
	[TM_PROBE_KPROBE] = { "kprobe", "kprobe_events",
			      TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE },
};

const char *tm_probe_kind_name(enum tm_probe_kind kind)
{
	return kinds[kind].name;
}

const char *tm_probe_file(enum tm_probe_kind kind)
{
	/* libtracefs writes every kind to dynamic_events where the kernel has it */
	return tracefs_file_exists(NULL, "dynamic_events") ? "dynamic_events" : kinds[kind].file;
}

struct tm_probes *tm_probes_new(const char *group, size_t n)
{
	struct tm_probes *p = calloc(1, sizeof(*p));

	if (!n)
		n = 1;
	if (!p || !(p->events = calloc(n, sizeof(*p->events))) ||
	    !(p->kinds = calloc(n, sizeof(*p->kinds))) ||
	    !(p->probes = calloc(n, sizeof(*p->probes)))) {
		tm_probes_destroy(p);
		tm_fail(ENOMEM, "probes");
		return NULL;
	}
	p->cap = n;
	snprintf(p->group, sizeof(p->group), "%s", group);
	return p;
}

const char *tm_probes_group(const struct tm_probes *p)
{
	return p->group;
}

void tm_probes_name(const struct tm_probes *p, const char *symbol, uint64_t offset, bool ret,
		    char *name, size_t len)
{
	char base[TM_PROBE_NAME_MAX - 8];
	size_t i, n = 0;
	int k = snprintf(base, sizeof(base), "%s%s", isdigit((unsigned char)symbol[0]) ?
			 "_" : "", symbol);

	if (offset && k >= 0 && (size_t)k < sizeof(base))
		k += snprintf(base + k, sizeof(base) - k, "_0x%llx", (unsigned long long)offset);
	if (ret && k >= 0 && (size_t)k < sizeof(base))
		snprintf(base + k, sizeof(base) - k, "__return");
	for (i = 0; base[i]; i++)
		if (!isalnum((unsigned char)base[i]) && base[i] != '_')
			base[i] = '_';
	snprintf(name, len, "%s", base);
	for (i = 0; i < p->n; i++) {
		const char *taken = strchr(p->events[i], ':') + 1;

		if (!strcmp(taken, name)) {
			snprintf(name, len, "%s_%zu", base, ++n + 1);
			i = (size_t)-1;	/* check the new name against all again */
		}
	}
}

/*
 * A probe of group created (make) or removed with libtracefs's dynamic event
 * calls; a refusal carries error_log's reason when it is about group.
 */
static int probe_call(struct tracefs_dynevent *probe, bool make, const char *group,
		      const char *what)
{
	char why[256], mine[80];
	int err;

	errno = 0;
	if (!(make ? tracefs_dynevent_create(probe) : tracefs_dynevent_destroy(probe, false)))
		return 0;
	err = errno ? errno : EIO;
	/* the log is global: use its newest entry only when it names our group */
	snprintf(mine, sizeof(mine), "%s/", group);
	if (tm_errlog_last(NULL, why, sizeof(why)) && strstr(why, mine))
		return tm_failx(err, "%s: %s: %s", what, strerror(err), why);
	return tm_fail(err, "%s", what);
}

int tm_probes_add(struct tm_probes *p, enum tm_probe_kind kind, struct tracefs_dynevent *probe,
		  const char *name, const char *what)
{
	if (p->n == p->cap) {
		tracefs_dynevent_free(probe);
		return tm_failx(ENOSPC, "%s: more probes than room for", what);
	}
	if (probe_call(probe, true, p->group, what)) {
		tracefs_dynevent_free(probe);
		return -1;
	}
	p->probes[p->n] = probe;
	p->kinds[p->n] = kind;
	snprintf(p->events[p->n++], sizeof(p->events[0]), "%s:%s", p->group, name);
	return 0;
}

size_t tm_probes_count(const struct tm_probes *p)
{
	return p ? p->n : 0;
}

const char *tm_probes_event(const struct tm_probes *p, size_t i)
{
	return p->events[i];
}

int tm_probes_destroy(struct tm_probes *p)
{
	char what[TM_PROBE_NAME_MAX + 160];
	int ret = 0;

	if (!p)
		return 0;
	for (size_t i = p->n; i-- > 0;) {
		snprintf(what, sizeof(what), "remove %s %s", kinds[p->kinds[i]].name,
			 p->events[i]);
		*strrchr(what, ':') = '/';
		if (probe_call(p->probes[i], false, p->group, what))
			ret = -1;
		tracefs_dynevent_free(p->probes[i]);
	}
	free(p->probes);
	free(p->kinds);
	free(p->events);
	free(p);
	return ret;
}

bool tm_probe_instance(const char *event, char *inst, size_t len)
{
	size_t glen = strlen(TM_PROBE_GROUP);
	const char *slash = strchr(event, '/');

	if (strncmp(event, TM_PROBE_GROUP, glen) || !slash)
		return false;
	return snprintf(inst, len, TM_INSTANCE_PREFIX "%.*s", (int)(slash - event - glen),
			event + glen) < (int)len;
}

/* "GROUP/EVENT" of a probe, when its group is tracemap_<pid> of a tracemap that is gone. */
static bool probe_stale(struct tracefs_dynevent *probe, char *event, size_t len)
{
	char *sys = NULL, *ev = NULL, inst[64];
	bool stale;

	tracefs_dynevent_info(probe, &sys, &ev, NULL, NULL, NULL);
	stale = sys && ev && snprintf(event, len, "%s/%s", sys, ev) < (int)len &&
		tm_probe_instance(event, inst, sizeof(inst)) && tm_instance_is_stale(inst);
	free(sys);
	free(ev);
	return stale;
}

char **tm_probe_list_stale(const char *tracefs, enum tm_probe_kind kind)
{
	struct tracefs_dynevent **all;
	char event[256], **v = calloc(1, sizeof(*v));
	size_t n = 0;

	/* libtracefs reads the probes of the tracefs tm_tracefs_open() chose */
	(void)tracefs;
	errno = 0;
	all = tracefs_dynevent_get_all(kinds[kind].types, NULL);
	/* NULL: none, or (ENOENT) a kernel without the kind: nothing of ours can be there */
	if (!all && errno && errno != ENOENT) {
		tm_fail(errno, "list %s", kinds[kind].file);
		free(v);
		return NULL;
	}
	for (size_t i = 0; v && all && all[i]; i++)
		if (probe_stale(all[i], event, sizeof(event)) && tm_strv_push(&v, &n, event)) {
			tm_strv_free(v);
			v = NULL;
		}
	tracefs_dynevent_list_free(all);
	if (!v)
		tm_fail(ENOMEM, "list %s", kinds[kind].file);
	return v;
}

int tm_probe_remove_event(const char *tracefs, enum tm_probe_kind kind, const char *event)
{
	const char *slash = strchr(event, '/');
	struct tracefs_dynevent *probe = NULL;
	char group[128], what[300];
	int ret;

	(void)tracefs;
	snprintf(what, sizeof(what), "remove %s %s", kinds[kind].name, event);
	if (!slash || slash - event >= (long)sizeof(group))
		return tm_failx(EINVAL, "%s: not GROUP/EVENT", what);
	snprintf(group, sizeof(group), "%.*s", (int)(slash - event), event);
	/* the kind's two types: entry, then return probes */
	for (unsigned int t = 1; t < TRACEFS_DYNEVENT_MAX && !probe; t <<= 1)
		if (kinds[kind].types & t)
			probe = tracefs_dynevent_get(t, group, slash + 1);
	if (!probe)
		return 0;	/* gone already */
	ret = probe_call(probe, false, group, what);
	tracefs_dynevent_free(probe);
	return ret;
}
