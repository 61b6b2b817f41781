// SPDX-License-Identifier: GPL-2.0-only
/*
 * ksyms-boot.c - the symbols of the boot that wrote a persistent ring
 * buffer's events. The kallsyms stored with such a trace are the boot that
 * extracted it; with KASLR the kernel's text (and every module) sat
 * elsewhere in the boot before. The instance's last_boot_info tells where:
 * 6.12-6.14 print "text delta:\tN" (the current text minus the old one) and
 * "data delta:\tN"; 6.15 on print the old boot's text address as
 * "ADDR\t[kernel]" and one "ADDR\tMODULE" line per module, the base of its
 * text. "# Current" (or 7.x's "0\t[kernel]", a cold boot) means the buffer
 * holds this boot's events. The ranges
 * built here are handed to the table (ksyms.c), which moves each address
 * before its lookup.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

#define BOOT_PAGE	4096ULL		/* KASLR moves the kernel and modules by whole pages */
#define MOD_NAME_LEN	64

struct old_mod {
	char		name[MOD_NAME_LEN];
	uint64_t	old_base;
	uint64_t	base, end;	/* this boot's text, from MODULES or kallsyms */
	bool		loaded;
};

struct boot_info {
	bool		current;	/* "# Current": nothing moved */
	bool		has_text;	/* "ADDR\t[kernel]" */
	uint64_t	old_text;
	bool		has_delta;	/* "text delta: N" */
	int64_t		text_delta;
	struct old_mod	*mods;
	size_t		nmod, cap;
};

static int add_mod(struct boot_info *bi, const char *name, size_t len, uint64_t base)
{
	struct old_mod *m;

	if (bi->nmod == bi->cap) {
		size_t cap = bi->cap ? bi->cap * 2 : 32;

		m = realloc(bi->mods, cap * sizeof(*m));
		if (!m)
			return tm_fail(ENOMEM, "last_boot_info modules");
		bi->mods = m;
		bi->cap = cap;
	}
	m = &bi->mods[bi->nmod++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%.*s", (int)len, name);
	m->old_base = base;
	return 0;
}

/* "text delta:" (6.12's spelling) or "text_delta:"; the number after it. */
static bool delta_line(const char *s, const char *what, int64_t *v)
{
	size_t n = strlen(what);
	char *end;

	if (strncmp(s, what, n) || (s[n] != ' ' && s[n] != '_') || strncmp(s + n + 1, "delta:", 6))
		return false;
	errno = 0;
	*v = strtoll(s + n + 7, &end, 0);
	return !errno && end != s + n + 7;
}

/* One line of last_boot_info (NUL-terminated, no '\n'); odd lines are skipped. */
static int parse_line(struct boot_info *bi, const char *s)
{
	unsigned long long addr;
	int64_t delta;
	size_t len;
	char *end;

	s += strspn(s, " \t");
	if (!strncmp(s, "# Current", 9)) {
		bi->current = true;
		return 0;
	}
	if (delta_line(s, "text", &delta)) {
		bi->has_delta = true;
		bi->text_delta = delta;
		return 0;
	}
	errno = 0;
	addr = strtoull(s, &end, 16);
	if (errno || end == s || (*end != ' ' && *end != '\t'))
		return 0;
	s = end + strspn(end, " \t");
	len = strcspn(s, " \t\r");
	if (!len)
		return 0;
	if (len == 8 && !strncmp(s, "[kernel]", 8)) {
		/* 7.x on a cold boot (no valid previous buffer): address 0, this boot's */
		if (!addr)
			bi->current = true;
		bi->has_text = true;
		bi->old_text = addr;
		return 0;
	}
	return add_mod(bi, s, len, addr);
}

static int parse_info(struct boot_info *bi, const char *info)
{
	const char *colon = strchr(info, ':');
	char *text, *line, *save = NULL;
	int ret = 0;

	/* "<instance>:" first, as trace-cmd 3.4 stores it */
	text = strdup(colon ? colon + 1 : info);
	if (!text)
		return tm_fail(ENOMEM, "last_boot_info");
	for (line = strtok_r(text, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save))
		ret = parse_line(bi, line);
	free(text);
	return ret;
}

static struct old_mod *find_mod(struct boot_info *bi, const char *name)
{
	for (size_t i = 0; i < bi->nmod; i++)
		if (!strcmp(bi->mods[i].name, name))
			return &bi->mods[i];
	return NULL;
}

/* /proc/modules lines: "NAME SIZE REFS DEPS STATE 0xADDR ...": each old module's base now. */
static void modules_bases(struct boot_info *bi, const char *modules)
{
	const char *p = modules;

	while (p && *p) {
		unsigned long long size, addr;
		char name[MOD_NAME_LEN];
		struct old_mod *m;

		if (sscanf(p, "%63s %llu %*s %*s %*s %llx", name, &size, &addr) == 3 &&
		    (m = find_mod(bi, name)) && addr) {
			m->base = addr;
			m->end = addr + size;
			m->loaded = true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

struct cur_kernel {
	uint64_t	text, lo, hi;	/* _text (0: none), the lowest and highest symbol */
};

/* This boot's kernel and module extents, from the table itself. */
static void table_extents(struct tm_ksyms *k, struct boot_info *bi, bool have_modules,
			  struct cur_kernel *ck)
{
	const char *name, *mod, *last_mod = NULL;
	struct old_mod *m = NULL;
	uint64_t addr;

	memset(ck, 0, sizeof(*ck));
	for (size_t i = 0; (name = tm_ksyms_at(k, i, &addr, &mod)); i++) {
		if (!mod) {
			if (!ck->text && !strcmp(name, "_text"))
				ck->text = addr;
			if (!ck->lo || addr < ck->lo)
				ck->lo = addr;
			if (addr > ck->hi)
				ck->hi = addr;
			continue;
		}
		if (have_modules)
			continue;
		if (mod != last_mod && (!last_mod || strcmp(mod, last_mod)))
			m = find_mod(bi, mod);
		last_mod = mod;
		if (!m)
			continue;
		if (!m->loaded || addr < m->base)
			m->base = addr & ~(BOOT_PAGE - 1);
		if (addr >= m->end)
			m->end = addr + 1;
		m->loaded = true;
	}
}

/* Why the old kernel cannot be placed in this table, or NULL; *delta the shift. */
static const char *kernel_delta(const struct boot_info *bi, const struct cur_kernel *ck,
				int64_t *delta)
{
	if (bi->has_text) {
		if (!ck->text)
			return "the file's kallsyms have no _text";
		*delta = (int64_t)(ck->text - bi->old_text);
	} else if (bi->has_delta) {
		*delta = bi->text_delta;
	} else {
		return "last_boot_info gives no kernel address";
	}
	if ((uint64_t)*delta % BOOT_PAGE)
		return "the two boots' text differs by less than a page";
	if (!ck->hi)
		return "the file has no kallsyms";
	return NULL;
}

static void warn_unloaded(const struct boot_info *bi, const struct tm_meta_warn *w)
{
	size_t n = 0;
	const char *first = NULL;

	for (size_t i = 0; i < bi->nmod; i++) {
		if (!bi->mods[i].loaded) {
			first = first ? first : bi->mods[i].name;
			n++;
		}
	}
	if (n)
		tm_meta_warnf(w, "%zu module(s) of the previous boot (%s%s) have no symbols in "
			      "this file: their addresses print as hex", n, first, n > 1 ? ", ..." : "");
}

static int build_shifts(struct tm_ksyms *k, struct boot_info *bi, const struct cur_kernel *ck,
			int64_t delta, const struct tm_meta_warn *w)
{
	struct tm_ksym_shift *sh = calloc(bi->nmod + 1, sizeof(*sh));
	uint64_t lo = ck->text ? ck->text : ck->lo;
	size_t n = 0;
	int ret;

	if (!sh)
		return tm_fail(ENOMEM, "kallsyms of the previous boot");
	sh[n++] = (struct tm_ksym_shift){ lo - (uint64_t)delta, ck->hi + BOOT_PAGE - (uint64_t)delta,
					  delta };
	for (size_t i = 0; i < bi->nmod; i++) {
		const struct old_mod *m = &bi->mods[i];

		if (m->loaded)
			sh[n++] = (struct tm_ksym_shift){ m->old_base,
							  m->old_base + (m->end - m->base) + BOOT_PAGE,
							  (int64_t)(m->base - m->old_base) };
	}
	warn_unloaded(bi, w);
	ret = tm_ksyms_other_boot(k, sh, n);
	free(sh);
	return ret;
}

int tm_ksyms_boot(struct tm_ksyms *k, const char *info, const char *modules,
		  const struct tm_meta_warn *w)
{
	struct boot_info bi = { 0 };
	struct cur_kernel ck;
	const char *why;
	int64_t delta = 0;
	int ret = 0;

	if (!info || !k)
		return 0;
	if (parse_info(&bi, info))
		goto fail;
	if (bi.current)
		goto out;
	if (modules)
		modules_bases(&bi, modules);
	table_extents(k, &bi, modules != NULL, &ck);
	why = kernel_delta(&bi, &ck, &delta);
	if (why) {
		tm_meta_warnf(w, "the events are a previous boot's whose kernel cannot be matched "
			      "with this file's symbols (%s): kernel addresses print as hex", why);
		ret = tm_ksyms_other_boot(k, NULL, 0);
		goto out;
	}
	ret = build_shifts(k, &bi, &ck, delta, w);
out:
	free(bi.mods);
	return ret;
fail:
	free(bi.mods);
	return -1;
}
