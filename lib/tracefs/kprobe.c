// SPDX-License-Identifier: GPL-2.0-only
/*
 * kprobe.c - kernel probes: a --kprobe spec "SYMBOL[+OFF][%return] [FETCHARGS]"
 * checked and made a kprobe (or kretprobe) of the session's group (probe.c),
 * its fetch arguments as kprobe_events takes them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "probe.h"

#define KPROBE_USAGE	"expected SYMBOL[+OFF][%%return] [FETCHARGS]"

struct kprobe_spec {
	char		addr[256];	/* SYMBOL[+OFF], as the kernel takes it */
	char		symbol[256];
	uint64_t	offset;		/* +OFF */
	bool		ret;		/* %return */
	const char	*args;		/* the fetch arguments in the spec, NULL: none */
};

/*
 * A control character would end the line the probe is written as (what
 * followed would be another command): refused, and not echoed.
 */
static int kprobe_control(const char *text)
{
	for (const char *c = text; *c; c++)
		if (iscntrl((unsigned char)*c) && *c != '\t')
			return tm_failx(EINVAL, "bad kprobe: control character \\x%02x at byte %zu "
					"(" KPROBE_USAGE ")", (unsigned char)*c, (size_t)(c - text));
	return 0;
}

/* "+OFF" of [plus, end): a number, decimal or 0x hex; -1 + message. */
static int kprobe_offset(const char *text, const char *plus, const char *end, uint64_t *off)
{
	char *num_end;

	errno = 0;
	*off = isdigit((unsigned char)plus[1]) ? strtoull(plus + 1, &num_end, 0) : 0;
	if (!isdigit((unsigned char)plus[1]) || errno || num_end != end)
		return tm_failx(EINVAL, "bad kprobe '%s': bad offset after '+'", text);
	return 0;
}

static int kprobe_spec_parse(const char *text, struct kprobe_spec *s)
{
	size_t head = strcspn(text, " \t"), len;
	const char *end = text + head, *plus, *args = end + strspn(end, " \t");

	if (kprobe_control(text))
		return -1;
	if (!head)
		return tm_failx(EINVAL, "bad kprobe '%s' (" KPROBE_USAGE ")", text);
	s->args = *args ? args : NULL;
	s->ret = head > 7 && !strncmp(end - 7, "%return", 7);
	if (s->ret)
		end -= 7;
	plus = memchr(text, '+', end - text);
	s->offset = 0;
	if (plus && kprobe_offset(text, plus, end, &s->offset))
		return -1;
	len = (plus ? plus : end) - text;
	if (!len || len >= sizeof(s->symbol) || memchr(text, '%', len))
		return tm_failx(EINVAL, "bad kprobe '%s': bad symbol (" KPROBE_USAGE ")", text);
	snprintf(s->symbol, sizeof(s->symbol), "%.*s", (int)len, text);
	snprintf(s->addr, sizeof(s->addr), "%.*s", (int)(end - text), text);
	return 0;
}

int tm_kprobe_spec_check(const char *text)
{
	struct kprobe_spec s;

	return kprobe_spec_parse(text, &s);
}

/*
 * The kernel refused: a kernel without kprobe events (no kprobe_events; this
 * one's dynamic_events takes no kprobe) says so after its errno.
 */
static int kprobe_refused(const char *what)
{
	int err = errno;

	if (tracefs_file_exists(NULL, "kprobe_events"))
		return -1;
	return tm_failx(err, "%s: %s (this kernel has no kprobe events: no kprobe_events in %s)",
			what, strerror(err), tracefs_tracing_dir());
}

int tm_kprobe_add(struct tm_probes *p, const char *text)
{
	const char *group = tm_probes_group(p);
	char name[TM_PROBE_NAME_MAX], what[1400];
	struct tracefs_dynevent *probe;
	struct kprobe_spec s;

	if (kprobe_spec_parse(text, &s))
		return -1;
	tm_probes_name(p, s.symbol, s.offset, s.ret, name, sizeof(name));
	snprintf(what, sizeof(what), "kprobe '%s': add '%c:%s/%s %s%s%s' to %s", text,
		 s.ret ? 'r' : 'p', group, name, s.addr, s.args ? " " : "", s.args ? s.args : "",
		 tm_probe_file(TM_PROBE_KPROBE));
	probe = s.ret ? tracefs_kretprobe_alloc(group, name, s.addr, s.args, 0) :
			tracefs_kprobe_alloc(group, name, s.addr, s.args);
	if (!probe)
		return tm_fail(errno ? errno : ENOMEM, "%s", what);
	if (tm_probes_add(p, TM_PROBE_KPROBE, probe, name, what))
		return kprobe_refused(what);
	return 0;
}
