// SPDX-License-Identifier: GPL-2.0-only
/*
 * uprobe.c - user-space probes: a --uprobe spec checked, its symbol found in
 * the file, made a uprobe (or uretprobe) of the session's group (probe.c).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "probe.h"

struct tm_uprobe_spec {
	char		path[PATH_MAX];	/* absolute */
	char		symbol[256];
	uint64_t	offset;		/* +OFF */
	bool		ret;		/* %return */
};

/*
 * The probe line the kernel splits at white space: a control character in
 * the spec is refused without echoing it (a newline would start another
 * command), a path with white space (the spec's, or the one it resolves to)
 * could not be written as one word.
 */
static int uprobe_control(const char *text)
{
	for (const char *c = text; *c; c++)
		if (iscntrl((unsigned char)*c))
			return tm_failx(EINVAL, "bad uprobe: control character \\x%02x at byte %zu "
					"(expected PATH:SYMBOL[+OFF][%%return])",
					(unsigned char)*c, (size_t)(c - text));
	return 0;
}

static int uprobe_path_check(const char *text, const char *path)
{
	if (uprobe_control(path))
		return -1;
	if (strcspn(path, " \t") < strlen(path))
		return tm_failx(EINVAL, "uprobe '%s': %s: a probe cannot name a path with a space",
				text, path);
	return 0;
}

static int uprobe_spec_parse(const char *text, char *path, size_t path_len, char *symbol,
			 size_t sym_len, uint64_t *offset, bool *ret)
{
	const char *colon = strrchr(text, ':'), *sym, *end, *plus;
	char *num_end;
	size_t len;

	if (uprobe_control(text))
		return -1;
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

int tm_uprobe_add(struct tm_probes *p, const char *text)
{
	struct tm_uprobe_spec s;
	char raw[PATH_MAX], name[TM_PROBE_NAME_MAX], line[PATH_MAX + 200];
	char what[sizeof(line) + 600];
	const char *group = tm_probes_group(p);
	struct tracefs_dynevent *probe;
	uint64_t off;

	if (uprobe_spec_parse(text, raw, sizeof(raw), s.symbol, sizeof(s.symbol), &s.offset,
				 &s.ret))
		return -1;
	if (!realpath(raw, s.path))
		return tm_fail(errno, "uprobe '%s': %s", text, raw);
	if (uprobe_path_check(text, s.path))
		return -1;
	if (tm_elf_symbol_offset(s.path, s.symbol, &off))
		return -1;
	tm_probes_name(p, s.symbol, s.offset, s.ret, name, sizeof(name));
	snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx", s.ret ? 'r' : 'p', group, name,
		 s.path, (unsigned long long)(off + s.offset));
	snprintf(what, sizeof(what), "uprobe '%s': add '%s' to %s", text, line,
		 tm_probe_file(TM_PROBE_UPROBE));
	probe = (s.ret ? tracefs_uretprobe_alloc : tracefs_uprobe_alloc)
		(group, name, s.path, off + s.offset, NULL);
	if (!probe)
		return tm_fail(ENOMEM, "%s", what);
	return tm_probes_add(p, TM_PROBE_UPROBE, probe, name, what);
}
