// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ksyms_boot.c - a previous boot's addresses resolved through this
 * boot's kallsyms (ksyms-boot.c). The independent answer: libtraceevent's
 * own table on the kallsyms as the previous boot had them (every address
 * moved back by the boot's shift, which a test computes itself) prints the
 * same stack trace and %pS text as ours on this boot's table with the
 * LAST_BOOT_INFO text of either kernel form; and a written file read back.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/internal.h"
#include "events/ksyms.h"
#include "events/tm-events.h"
#include "dat/tm-dat.h"
#include "dat/dat-internal.h"
#include "dat/tm-write.h"
#include "tm_fixtures.h"
#include "tm_test.h"

#define CUR_TEXT	0xffffffffb1c00000ULL
#define OLD_TEXT	0xffffffffa0000000ULL
#define CUR_FOO		0xffffffffc0a00000ULL
#define OLD_FOO		0xffffffffc0800000ULL

/* A symbol: its offset from _text (kernel) or from the module's base. */
struct sym {
	uint64_t	off;
	char		type;
	const char	*name, *mod;
};

static const struct sym syms[] = {
	{ 0x0, 'T', "_text", NULL },
	{ 0x1000, 'T', "startup_64", NULL },
	{ 0x3a5f00, 'T', "schedule", NULL },
	{ 0x3a6100, 'T', "schedule_idle", NULL },
	{ 0x3b0000, 't', "do_idle", NULL },
	{ 0x800000, 'D', "init_task", NULL },
	{ 0x0, 't', "foo_open", "foo" },
	{ 0x240, 't', "foo_read", "foo" },
	{ 0x0, 't', "bar_probe", "bar" },
};

/* kallsyms text with the kernel at text and module foo at foo (bar at a fixed place). */
static char *kallsyms_at(uint64_t text, uint64_t foo)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < TM_ARRAY_SIZE(syms); i++) {
		const struct sym *y = &syms[i];
		uint64_t base = !y->mod ? text : !strcmp(y->mod, "foo") ? foo : 0xffffffffc0f00000ULL;

		fprintf(f, "%016llx %c %s", (unsigned long long)(base + y->off), y->type, y->name);
		if (y->mod)
			fprintf(f, "\t[%s]", y->mod);
		fputc('\n', f);
	}
	fclose(f);
	return s;
}

/* The %pS line of the first address and the stack of four (then zeros), as tep prints them. */
static char *print_both(struct tep_handle *tep, const uint64_t *addrs)
{
	uint8_t data[80] = { 0 };
	struct tep_record rec = { .data = data };
	struct trace_seq s;
	char *out;
	int id;

	trace_seq_init(&s);
	id = 900;
	memcpy(data, &id, 2);
	memcpy(data + 8, addrs, 8);
	rec.size = 16;
	tep_print_event(tep, &s, &rec, "%s|", TEP_PRINT_INFO);
	memset(data, 0, sizeof(data));
	id = 4;
	memcpy(data, &id, 2);
	memcpy(data + 16, addrs, 32);
	rec.size = 80;
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	out = strdup(s.buffer);
	trace_seq_destroy(&s);
	return out;
}

/* Ours: this boot's table moved by info (and modules); its text for addrs. */
static char *ours(struct tm_test *t, const char *info, const char *modules, const uint64_t *addrs,
		  struct tm_warnings *ws)
{
	struct tm_meta_warn w = { .fn = tm_warn_collect, .ctx = ws, .file = "t.dat" };
	char *text = kallsyms_at(CUR_TEXT, CUR_FOO), *out = NULL;
	struct tep_handle *tep = tm_sym_tep();
	struct tm_blob b = { 0 };
	struct tm_ksyms *k;

	TM_CHECK(text && tep);
	if (!text || !tep) {
		free(text);
		tep_free(tep);
		return NULL;
	}
	b.data = text;
	b.len = strlen(text);
	k = tm_ksyms_new(text, b, &w);
	TM_CHECK(k);
	if (!k) {
		tep_free(tep);
		return NULL;
	}
	TM_CHECK_INT(tm_ksyms_boot(k, info, modules, &w), 0);
	TM_CHECK_INT(tm_ksyms_attach(k, tep), 0);
	out = print_both(tep, addrs);
	tep_free(tep);
	tm_ksyms_free(k);
	return out;
}

/* libtraceevent's own table of the kallsyms the previous boot had. */
static char *native(struct tm_test *t, uint64_t text, uint64_t foo, const uint64_t *addrs)
{
	char *ks = kallsyms_at(text, foo), *out;
	struct tep_handle *tep = tm_sym_tep();

	TM_CHECK(ks && tep);
	if (!ks || !tep) {
		free(ks);
		tep_free(tep);
		return NULL;
	}
	TM_CHECK_INT(tep_parse_kallsyms(tep, ks), 0);
	out = print_both(tep, addrs);
	free(ks);
	tep_free(tep);
	return out;
}

/* Addresses of the previous boot: schedule+0xf3, do_idle+0x10, foo_read+0x8, _text+0x1000. */
static const uint64_t old_addrs[4] = {
	OLD_TEXT + 0x3a5ff3, OLD_TEXT + 0x3b0010, OLD_FOO + 0x248, OLD_TEXT + 0x1000,
};

TM_TEST(ksyms_boot_kernel_and_module_lines_resolve_the_old_boot)
{
	static const char info[] = "boot_map:ffffffffa0000000\t[kernel]\n"
				   "ffffffffc0800000\tfoo\n";
	struct tm_warnings ws = { 0 };
	char *o = ours(t, info, NULL, old_addrs, &ws);
	char *n = native(t, OLD_TEXT, OLD_FOO, old_addrs);

	TM_REQUIRE(o && n);
	TM_CHECK_STR(o, n);
	TM_CHECK(strstr(o, "=> schedule\n") && strstr(o, "=> do_idle\n") &&
		 strstr(o, "=> foo_read\n") && strstr(o, "schedule+0xf3"));
	TM_CHECK_INT(ws.n, 0);
	free(o);
	free(n);
}

TM_TEST(ksyms_boot_modules_option_gives_the_module_base)
{
	static const char info[] = ":ffffffffa0000000\t[kernel]\nffffffffc0800000\tfoo\n";
	/* this boot's foo at CUR_FOO - 0x1000 by /proc/modules: its first symbol is no base */
	static const char modules[] = "foo 16384 0 - Live 0xffffffffc09ff000\n"
				      "bar 8192 0 - Live 0xffffffffc0f00000\n";
	const uint64_t addrs[4] = { OLD_FOO + 0x1248, OLD_FOO + 0x1000, OLD_TEXT, 0 };
	struct tm_warnings ws = { 0 };
	char *o = ours(t, info, modules, addrs, &ws);
	char *n = native(t, OLD_TEXT, OLD_FOO + 0x1000, addrs);

	TM_REQUIRE(o && n);
	TM_CHECK_STR(o, n);
	TM_CHECK(strstr(o, "=> foo_read\n") && strstr(o, "=> foo_open\n"));
	free(o);
	free(n);
}

TM_TEST(ksyms_boot_text_delta_of_6_12_moves_the_kernel)
{
	/* 6.12 prints "text delta:\tN", the current text minus the old one */
	static const char *const infos[] = {
		"boot_map:text delta:\t297795584\ndata delta:\t297795584\n",
		"boot_map:text_delta: 297795584\ndata_delta: 297795584\n",
	};
	const uint64_t addrs[4] = { OLD_TEXT + 0x3a5ff3, OLD_TEXT + 0x3b0010, OLD_TEXT + 0x3a6100,
				    OLD_TEXT + 0x800008 };

	TM_CHECK_INT(CUR_TEXT - OLD_TEXT, 297795584ULL);
	for (size_t i = 0; i < TM_ARRAY_SIZE(infos); i++) {
		struct tm_warnings ws = { 0 };
		char *o = ours(t, infos[i], NULL, addrs, &ws);
		char *n = native(t, OLD_TEXT, OLD_FOO, addrs);

		TM_REQUIRE(o && n);
		TM_CHECK_STR(o, n);
		TM_CHECK(strstr(o, "=> schedule\n") && strstr(o, "=> schedule_idle\n"));
		TM_CHECK_INT(ws.n, 0);
		free(o);
		free(n);
	}
}

TM_TEST(ksyms_boot_that_cannot_be_matched_warns_once_and_prints_hex)
{
	/* a text address off the page grid: not this kernel moved by KASLR */
	static const char info[] = "boot_map:ffffffffa0000123\t[kernel]\n";
	/* this boot's own addresses must not resolve either: the events are not this boot's */
	const uint64_t addrs[4] = { CUR_TEXT + 0x3a5ff3, OLD_TEXT + 0x3a5ff3, CUR_TEXT, 0 };
	struct tm_warnings ws = { 0 };
	char *o = ours(t, info, NULL, addrs, &ws);

	TM_REQUIRE(o);
	TM_CHECK(!strstr(o, "schedule"));
	TM_CHECK(strstr(o, "=> 0xffffffffb1fa5ff3\n") || strstr(o, "=> ffffffffb1fa5ff3\n"));
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK(strstr(ws.last, "t.dat: ") && strstr(ws.last, "cannot be matched") &&
		 strstr(ws.last, "hex"));
	free(o);
}

TM_TEST(ksyms_boot_module_not_loaded_now_warns_and_prints_hex)
{
	static const char info[] = "x:ffffffffa0000000\t[kernel]\nffffffffc0700000\tgone\n";
	const uint64_t addrs[4] = { 0xffffffffc0700010ULL, OLD_TEXT + 0x3a5f00, 0, 0 };
	struct tm_warnings ws = { 0 };
	char *o = ours(t, info, NULL, addrs, &ws);

	TM_REQUIRE(o);
	TM_CHECK(strstr(o, "=> schedule\n") && strstr(o, "ffffffffc0700010"));
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK(strstr(ws.last, "(gone)"));
	free(o);
}

/* "# Current", and what 7.3 prints on a cold boot (no previous boot: text address 0) */
TM_TEST(ksyms_boot_current_info_changes_nothing)
{
	static const char *const infos[] = { "boot_map:# Current\n", "boot_map:0\t[kernel]\n" };

	for (size_t i = 0; i < TM_ARRAY_SIZE(infos); i++) {
		const uint64_t addrs[4] = { CUR_TEXT + 0x3a5ff3, CUR_FOO + 0x248, 0, 0 };
		struct tm_warnings ws = { 0 };
		char *o = ours(t, infos[i], NULL, addrs, &ws);
		char *n = native(t, CUR_TEXT, CUR_FOO, addrs);

		TM_REQUIRE(o && n);
		TM_CHECK_STR(o, n);
		TM_CHECK(strstr(o, "=> schedule\n"));
		TM_CHECK_INT(ws.n, 0);
		free(o);
		free(n);
	}
}

/* One file written with the options, read back: the options and the old boot's symbol. */
static void file_resolves(struct tm_test *t, const char *path, int version, struct tm_meta *meta)
{
	static const char info[] = "ffffffffa0000000\t[kernel]\nffffffffc0800000\tfoo\n";
	static const char mods[] = "foo 16384 0 - Live 0xffffffffc0a00000\n";
	struct tm_write_opts wo = { .version = version, .page_size = 4096,
				    .last_boot_instance = "boot_map", .last_boot_info = info,
				    .modules = mods, .modules_len = sizeof(mods) - 1 };
	/* the fixture's schedule (0xffffffff821f94a0, _text 0xffffffff81000000) in the old boot */
	uint64_t old_sched = 0xffffffffa0000000ULL + (0xffffffff821f94a0ULL - 0xffffffff81000000ULL);
	struct tm_events *ev;
	struct tm_dat *dat;
	char cmd[4400];
	int fd, status;
	size_t len;
	char *out;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	TM_REQUIRE(fd >= 0);
	TM_CHECK_INT(tm_dat_write_data(fd, meta, NULL, 0, TM_FIXTURE_CPUS, &wo), 0);
	close(fd);
	dat = tm_dat_open(path);
	TM_REQUIRE(dat);
	TM_CHECK_STR(tm_dat_last_boot_info(dat), "boot_map:ffffffffa0000000\t[kernel]\n"
		     "ffffffffc0800000\tfoo\n");
	/* MODULES is a section: version 7 only, as trace-cmd 3.4 writes it */
	if (version == 7)
		TM_CHECK_STR(tm_dat_modules(dat), mods);
	else
		TM_CHECK(tm_dat_modules(dat) == NULL);
	ev = tm_events_from_dat(dat, true, NULL, NULL);
	TM_REQUIRE(ev);
	TM_CHECK_STR(tep_find_function(tm_events_tep(ev), old_sched + 0x10), "schedule");
	TM_CHECK(tep_find_function(tm_events_tep(ev), 0xffffffff821f94a0ULL) == NULL);
	tm_events_free(ev);
	tm_dat_close(dat);
	/* trace-cmd 3.1.6 still reads the file, silently */
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>&1 >/dev/null", path);
	out = tm_run(cmd, &len, &status);
	TM_REQUIRE(out);
	TM_CHECK_INT(status, 0);
	TM_CHECK_INT(len, 0);
	free(out);
}

TM_TEST(ksyms_boot_file_with_last_boot_info_and_modules_resolves_the_old_boot)
{
	struct tm_meta *meta = tm_fixture_meta(t, 'A');
	char *dir = tm_scratch_dir(), path[4200];

	TM_REQUIRE(meta && dir);
	for (int version = 6; version <= 7; version++) {
		snprintf(path, sizeof(path), "%s/boot-v%d.dat", dir, version);
		file_resolves(t, path, version, meta);
	}
	tm_scratch_remove(dir);
	free(dir);
	tm_meta_free(meta);
}
