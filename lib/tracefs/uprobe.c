// SPDX-License-Identifier: GPL-2.0-only
/*
 * uprobe.c - user-space probes: --uprobe specs made into uprobe_events
 * lines of tracemap's own group (tracemap_<pid>), removed again on every
 * exit path, and the stale groups of dead tracemap processes.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "errlog.h"
#include "uprobe.h"
#include "tracefs-internal.h"
#include "tm-tracefs.h"

#define TM_UPROBE_NAME_MAX	64	/* the kernel's MAX_EVENT_NAME_LEN */
#define TM_UPROBE_GROUP		"tracemap_"

struct tm_uprobe_spec {
	char		path[PATH_MAX];	/* absolute */
	char		symbol[256];
	uint64_t	offset;		/* +OFF */
	bool		ret;		/* %return */
};

struct tm_uprobes {
	char			group[64];
	size_t			n;
	char			(*events)[TM_UPROBE_NAME_MAX + 80];	/* "group:name" */
	struct tracefs_dynevent	**probes;	/* made in the kernel, events[i]'s */
};

static int uprobe_spec_parse(const char *text, char *path, size_t path_len, char *symbol,
			 size_t sym_len, uint64_t *offset, bool *ret)
{
	const char *colon = strrchr(text, ':'), *sym, *end, *plus;
	char *num_end;
	size_t len;

	if (!colon || colon == text || !colon[1])
		return tm_failx(EINVAL, "bad uprobe '%s' (expected PATH:SYMBOL[+OFF][%%return])",
				text);
	sym = colon + 1;
	end = sym + strlen(sym);
	*ret = end - sym > 7 && !strcmp(end - 7, "%return");
	if (*ret)
		end -= 7;
	plus = memchr(sym, '+', end - sym);
	*offset = 0;
	if (plus) {
		errno = 0;
		*offset = strtoull(plus + 1, &num_end, 0);
		if (errno || num_end != end || plus + 1 == end)
			return tm_failx(EINVAL, "bad uprobe '%s': bad offset after '+'", text);
		end = plus;
	}
	len = end - sym;
	if (!len || len >= sym_len || strcspn(sym, " \t%+") < len)
		return tm_failx(EINVAL, "bad uprobe '%s': bad symbol", text);
	if ((size_t)(colon - text) >= path_len)
		return tm_failx(ENAMETOOLONG, "bad uprobe '%s': path too long", text);
	snprintf(symbol, sym_len, "%.*s", (int)len, sym);
	snprintf(path, path_len, "%.*s", (int)(colon - text), text);
	return 0;
}

int tm_uprobe_spec_check(const char *text)
{
	struct tm_uprobe_spec s;

	return uprobe_spec_parse(text, s.path, sizeof(s.path), s.symbol, sizeof(s.symbol),
				    &s.offset, &s.ret);
}

/* "sym", "sym_0x10", "sym__return" with every other character as '_'; unique in u. */
static void uprobe_name(const struct tm_uprobes *u, const struct tm_uprobe_spec *s,
			   char *name, size_t len)
{
	char base[TM_UPROBE_NAME_MAX - 8];
	size_t i, n = 0;
	int k = snprintf(base, sizeof(base), "%s%s", isdigit((unsigned char)s->symbol[0]) ?
			 "_" : "", s->symbol);

	if (s->offset && k >= 0 && (size_t)k < sizeof(base))
		k += snprintf(base + k, sizeof(base) - k, "_0x%llx",
			      (unsigned long long)s->offset);
	if (s->ret && k >= 0 && (size_t)k < sizeof(base))
		snprintf(base + k, sizeof(base) - k, "__return");
	for (i = 0; base[i]; i++)
		if (!isalnum((unsigned char)base[i]) && base[i] != '_')
			base[i] = '_';
	snprintf(name, len, "%s", base);
	for (i = 0; i < u->n; i++) {
		const char *taken = strchr(u->events[i], ':') + 1;

		if (!strcmp(taken, name)) {
			snprintf(name, len, "%s_%zu", base, ++n + 1);
			i = (size_t)-1;	/* check the new name against all again */
		}
	}
}

/*
 * A probe created (make) or removed with libtracefs's dynamic event calls; a
 * refusal carries error_log's reason when it is ours.
 */
static int uprobe_call(struct tracefs_dynevent *probe, bool make, const char *what)
{
	char why[256];
	int err;

	errno = 0;
	if (!(make ? tracefs_dynevent_create(probe) : tracefs_dynevent_destroy(probe, false)))
		return 0;
	err = errno ? errno : EIO;
	/* the log is global: use its newest entry only when it names our group */
	if (tm_errlog_last(NULL, why, sizeof(why)) && strstr(why, TM_UPROBE_GROUP))
		return tm_failx(err, "%s: %s: %s", what, strerror(err), why);
	return tm_fail(err, "%s", what);
}

static int uprobe_add(struct tm_uprobes *u, const char *text)
{
	struct tm_uprobe_spec s;
	char raw[PATH_MAX], name[TM_UPROBE_NAME_MAX], line[PATH_MAX + 200];
	char what[sizeof(line) + 600];
	struct tracefs_dynevent *probe;
	uint64_t off;

	if (uprobe_spec_parse(text, raw, sizeof(raw), s.symbol, sizeof(s.symbol), &s.offset,
				 &s.ret))
		return -1;
	if (!realpath(raw, s.path))
		return tm_fail(errno, "uprobe '%s': %s", text, raw);
	if (tm_elf_symbol_offset(s.path, s.symbol, &off))
		return -1;
	uprobe_name(u, &s, name, sizeof(name));
	snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx", s.ret ? 'r' : 'p', u->group, name,
		 s.path, (unsigned long long)(off + s.offset));
	snprintf(what, sizeof(what), "uprobe '%s': add '%s' to uprobe_events", text, line);
	probe = (s.ret ? tracefs_uretprobe_alloc : tracefs_uprobe_alloc)
		(u->group, name, s.path, off + s.offset, NULL);
	if (!probe)
		return tm_fail(ENOMEM, "%s", what);
	if (uprobe_call(probe, true, what)) {
		tracefs_dynevent_free(probe);
		return -1;
	}
	u->probes[u->n] = probe;
	snprintf(u->events[u->n++], sizeof(u->events[0]), "%s:%s", u->group, name);
	return 0;
}

struct tm_uprobes *tm_uprobes_create(const char *tracefs, const char *group,
				     const char *const *specs, size_t n)
{
	struct tm_uprobes *u = calloc(1, sizeof(*u));

	/* libtracefs writes the probes of the tracefs tm_tracefs_open() chose */
	(void)tracefs;
	if (!u || !(u->events = calloc(n ? n : 1, sizeof(*u->events))) ||
	    !(u->probes = calloc(n ? n : 1, sizeof(*u->probes)))) {
		tm_fail(ENOMEM, "uprobes");
		goto fail;
	}
	snprintf(u->group, sizeof(u->group), "%s", group);
	for (size_t i = 0; i < n; i++)
		if (uprobe_add(u, specs[i]))
			goto fail;
	return u;
fail:
	tm_uprobes_destroy(u);
	return NULL;
}

size_t tm_uprobes_count(const struct tm_uprobes *u)
{
	return u ? u->n : 0;
}

const char *tm_uprobes_event(const struct tm_uprobes *u, size_t i)
{
	return u->events[i];
}

int tm_uprobes_destroy(struct tm_uprobes *u)
{
	char what[TM_UPROBE_NAME_MAX + 120];
	int ret = 0;

	if (!u)
		return 0;
	for (size_t i = u->n; i-- > 0;) {
		snprintf(what, sizeof(what), "remove uprobe %s", u->events[i]);
		*strchr(what + strlen("remove uprobe "), ':') = '/';
		if (uprobe_call(u->probes[i], false, what))
			ret = -1;
		tracefs_dynevent_free(u->probes[i]);
	}
	free(u->probes);
	free(u->events);
	free(u);
	return ret;
}

bool tm_uprobe_instance(const char *event, char *inst, size_t len)
{
	size_t glen = strlen(TM_UPROBE_GROUP);
	const char *slash = strchr(event, '/');

	if (strncmp(event, TM_UPROBE_GROUP, glen) || !slash)
		return false;
	return snprintf(inst, len, TM_INSTANCE_PREFIX "%.*s", (int)(slash - event - glen),
			event + glen) < (int)len;
}

/* "GROUP/EVENT" of a probe, when its group is tracemap_<pid> of a tracemap that is gone. */
static bool uprobe_stale(struct tracefs_dynevent *probe, char *event, size_t len)
{
	char *sys = NULL, *ev = NULL, inst[64];
	bool stale;

	tracefs_dynevent_info(probe, &sys, &ev, NULL, NULL, NULL);
	stale = sys && ev && snprintf(event, len, "%s/%s", sys, ev) < (int)len &&
		tm_uprobe_instance(event, inst, sizeof(inst)) && tm_instance_is_stale(inst);
	free(sys);
	free(ev);
	return stale;
}

char **tm_uprobe_list_stale(const char *tracefs)
{
	struct tracefs_dynevent **all;
	char event[256], **v = calloc(1, sizeof(*v));
	size_t n = 0;

	/* libtracefs reads the uprobes of the tracefs tm_tracefs_open() chose */
	(void)tracefs;
	errno = 0;
	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE,
				       NULL);
	/* NULL: none, or (ENOENT) a kernel without uprobes: nothing of ours can be there */
	if (!all && errno && errno != ENOENT) {
		tm_fail(errno, "list uprobe_events");
		free(v);
		return NULL;
	}
	for (size_t i = 0; v && all && all[i]; i++)
		if (uprobe_stale(all[i], event, sizeof(event)) && tm_strv_push(&v, &n, event)) {
			tm_strv_free(v);
			v = NULL;
		}
	tracefs_dynevent_list_free(all);
	if (!v)
		tm_fail(ENOMEM, "list uprobe_events");
	return v;
}

int tm_uprobe_remove_event(const char *tracefs, const char *event)
{
	const char *slash = strchr(event, '/');
	struct tracefs_dynevent *probe;
	char group[128], what[300];
	int ret;

	(void)tracefs;
	snprintf(what, sizeof(what), "remove uprobe %s", event);
	if (!slash || slash - event >= (long)sizeof(group))
		return tm_failx(EINVAL, "%s: not GROUP/EVENT", what);
	snprintf(group, sizeof(group), "%.*s", (int)(slash - event), event);
	probe = tracefs_dynevent_get(TRACEFS_DYNEVENT_UPROBE, group, slash + 1);
	if (!probe)
		probe = tracefs_dynevent_get(TRACEFS_DYNEVENT_URETPROBE, group, slash + 1);
	if (!probe)
		return 0;	/* gone already */
	ret = uprobe_call(probe, false, what);
	tracefs_dynevent_free(probe);
	return ret;
}
