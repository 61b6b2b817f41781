// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ksyms.c - our kallsyms table (ksyms.c) against libtraceevent's own
 * (tep_parse_kallsyms() on a second tep handle): the same symbols in the
 * same order with the same modules, the same answer for every symbol's
 * address -1, +0 and +1, the same %ps/%pS text and stack traces; on this
 * machine's /proc/kallsyms, fixtures' kallsyms and odd lines.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/internal.h"
#include "events/ksyms.h"
#include "dat/tm-dat.h"
#include "tm_fixtures.h"
#include "tm_test.h"
#include "dat/dat-internal.h"

/* libtraceevent's table and ours, each in a tep handle that knows both events. */
struct both {
	struct tep_handle	*native, *ours;
	struct tm_ksyms		*k;
	struct tm_warnings		ws;
	int			mismatches;
};

/*
 * ours reads text (len bytes, may hold lines libtraceevent cannot scan);
 * libtraceevent reads clean (text without those lines, NUL-terminated).
 */
static int both_init(struct tm_test *t, struct both *b, const char *text, size_t len,
		     const char *clean)
{
	struct tm_meta_warn w = { .fn = tm_warn_collect, .ctx = &b->ws, .file = "t.dat" };
	struct tm_blob blob = { .len = len, .off = 1000 };
	char *copy = malloc(len + 1);

	memset(b, 0, sizeof(*b));
	b->native = tm_sym_tep();
	b->ours = tm_sym_tep();
	if (!copy || !b->native || !b->ours) {
		free(copy);
		TM_CHECK(!"out of memory");
		return -1;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	blob.data = copy;
	TM_CHECK_INT(tep_parse_kallsyms(b->native, clean), 0);
	b->k = tm_ksyms_new(copy, blob, &w);
	TM_CHECK(b->k != NULL);
	if (!b->k)
		return -1;
	TM_CHECK_INT(tm_ksyms_attach(b->k, b->ours), 0);
	return 0;
}

static void both_free(struct both *b)
{
	tep_free(b->native);
	tep_free(b->ours);
	tm_ksyms_free(b->k);
}

/* What tep_print_funcs() prints on stdout: libtraceevent's sorted table. */
static char *native_dump(struct tep_handle *tep)
{
	FILE *f = tmpfile();
	int saved;
	long n;
	char *s;

	if (!f)
		return NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fileno(f), STDOUT_FILENO);
	tep_print_funcs(tep);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = lseek(fileno(f), 0, SEEK_END);
	s = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (s && pread(fileno(f), s, (size_t)n, 0) != n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* Our table the way tep_print_funcs() prints one. */
static char *our_dump(struct tm_ksyms *k)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < tm_ksyms_count(k); i++) {
		const char *mod, *name;
		uint64_t addr;

		name = tm_ksyms_at(k, i, &addr, &mod);
		fprintf(f, "%016llx %s", (unsigned long long)addr, name);
		if (mod)
			fprintf(f, " [%s]\n", mod);
		else
			fputc('\n', f);
	}
	fclose(f);
	return s;
}

static void same_table(struct tm_test *t, struct both *b)
{
	char *a = native_dump(b->native), *o = our_dump(b->k);

	TM_CHECK(a && o);
	if (a && o && strcmp(a, o)) {
		size_t i = 0;

		while (a[i] == o[i])
			i++;
		while (i && a[i - 1] != '\n')
			i--;
		fprintf(stderr, "  tables differ at byte %zu:\n  libtraceevent: %.80s\n"
			"  ours:          %.80s\n", i, a + i, o + i);
		t->failures++;
	}
	free(a);
	free(o);
}

static void report(struct tm_test *t, struct both *b, unsigned long long addr, const char *what,
		   const char *a, const char *o)
{
	if (b->mismatches++ < 10)
		fprintf(stderr, "  0x%llx: %s: libtraceevent \"%s\", ours \"%s\"\n", addr, what,
			a ? a : "(null)", o ? o : "(null)");
	t->failures += b->mismatches == 1;
}

/* One address through tep_find_function*() of both handles and through ours directly. */
static void same_lookup(struct tm_test *t, struct both *b, unsigned long long addr)
{
	const char *a = tep_find_function(b->native, addr);
	const char *o = tep_find_function(b->ours, addr);
	unsigned long long sa = tep_find_function_address(b->native, addr);
	unsigned long long so = tep_find_function_address(b->ours, addr);
	uint64_t start = 0;
	const char *direct = tm_ksyms_find(b->k, addr, &start, NULL);

	if (!a != !o || (a && strcmp(a, o)))
		report(t, b, addr, "name", a, o);
	if (sa != so)
		report(t, b, addr, "start", "", "");
	if (direct != o || (o && start != so))
		report(t, b, addr, "resolver", o, direct);
}

/* The text of one record of event id with data (size bytes) in tep. */
static void print_record(struct tep_handle *tep, struct trace_seq *s, void *data, int size)
{
	struct tep_record rec = { .data = data, .size = size };

	trace_seq_reset(s);
	tep_print_event(tep, s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
}

/* %pS/%ps of one address, and a stack trace of eight, print the same. */
static void same_print(struct tm_test *t, struct both *b, const uint64_t *addrs)
{
	uint8_t data[80] = { 0 };
	struct trace_seq sa, so;
	int id, size;

	trace_seq_init(&sa);
	trace_seq_init(&so);
	for (int i = 0; i < 2; i++) {
		id = i ? 4 : 900;
		size = i ? 80 : 16;
		memcpy(data, &id, 2);
		if (i)
			memcpy(data + 16, addrs, 64);
		else
			memcpy(data + 8, addrs, 8);
		print_record(b->native, &sa, data, size);
		print_record(b->ours, &so, data, size);
		if (strcmp(sa.buffer, so.buffer))
			report(t, b, (unsigned long long)addrs[0], "printed", sa.buffer, so.buffer);
	}
	trace_seq_destroy(&sa);
	trace_seq_destroy(&so);
}

static void same_answers(struct tm_test *t, struct both *b)
{
	static const uint64_t edges[] = { 0, 1, ~0ULL, ~0ULL - 1, 0xffffffff80000000ULL };
	size_t n = tm_ksyms_count(b->k), i;
	uint64_t stack[8];
	int d, k = 0;

	same_table(t, b);
	for (i = 0; i < TM_ARRAY_SIZE(edges); i++)
		same_lookup(t, b, edges[i]);
	for (i = 0; i < n; i++) {
		uint64_t addr;

		tm_ksyms_at(b->k, i, &addr, NULL);
		for (d = -1; d <= 1; d++) {
			same_lookup(t, b, addr + d);
			stack[k++] = addr + d;
			if (k == 8) {
				same_print(t, b, stack);
				k = 0;
			}
		}
	}
	for (i = 0; i < TM_ARRAY_SIZE(edges); i++)
		stack[i] = edges[i];
	same_print(t, b, stack);
}

TM_TEST(ksyms_match_libtraceevent_on_proc_kallsyms)
{
	size_t len;
	char *text = tm_read_file("/proc/kallsyms", &len);
	struct both b;

	TM_REQUIRE(text);
	if (!both_init(t, &b, text, len, text)) {
		TM_CHECK(tm_ksyms_count(b.k) > 1000);
		TM_CHECK_INT(b.ws.n, 0);
		same_answers(t, &b);
	}
	both_free(&b);
	free(text);
}

static void match_fixture(struct tm_test *t, const char *name, size_t min)
{
	struct tm_dat *dat = tm_dat_open(tm_fixture(name));
	struct tm_blob ks;
	struct both b;

	TM_REQUIRE(dat);
	ks = tm_dat_kallsyms(dat);
	TM_CHECK(ks.len > 0);
	if (!both_init(t, &b, ks.data, ks.len, ks.data)) {
		TM_CHECK(tm_ksyms_count(b.k) >= min);
		same_answers(t, &b);
	}
	both_free(&b);
	tm_dat_close(dat);
}

TM_TEST(ksyms_match_libtraceevent_on_fixture_kallsyms)
{
	/* the trimmed kallsyms (three symbols at _text) and a full one */
	match_fixture(t, "sched-v7-zstd.dat", 19);
	match_fixture(t, "upstream/tc34-v7-zstd.dat", 1000);
}

/*
 * Lines the kernel does not write but libtraceevent reads: spacing, signs,
 * prefixes, 17 digits, CR, modules in every shape, the kinds it leaves out,
 * symbols sharing an address, out of order.
 */
static const char odd[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 t startup_64\n"
	"ffffffff81000100 T after\n"
	"  ffffffff81000200   T\tspaced\n"
	"0xffffffff81000300 T hex_prefix\n"
	"ffffffff81000400T glued\n"
	"1ffffffff81000500 T seventeen\n"
	"-1 T minus_one\n"
	"+ffffffff81000600 t plus\n"
	"ffffffff81000700 T crlf\r\n"
	"ffffffff81000800 ? question\n"
	"ffffffff81000900 A absolute\n"
	"ffffffff81000a00 a absolute_local\n"
	"ffffffff81000b00 t $x\n"
	"ffffffff81000c00 t $d.1\t[mod]\n"
	"ffffffffc0000000 t mod_fn\t[mod]\n"
	"ffffffffc0000010 t spaced_mod\t[ mod2]\n"
	"ffffffffc0000020 t empty_mod\t[]\n"
	"ffffffffc0000030 t short_mod\t[m\n"
	"ffffffffc0000040 t open_mod\t[\n"
	"ffffffffc0000050 t extra\t[mod3] more\n"
	"ffffffffc0000060 t no_tab [mod4]\n"
	"ffffffffc0000070 t two_tabs\t\t[mod5]\n"
	"ffffffffc0000080 t trailing_tab\t\n"
	"ffffffff80000000 T earlier\n"
	"ffffffff81000000 T late_alias\n"
	"ffffffffc0000000 t mod_alias\t[other]\n"
	"0 t zero\n"
	"ffffffffffffffff t top\n"
	"ffffffff81000d00 t name with spaces\n"
	"ffffffff81000e00 t last_line_without_newline";

TM_TEST(ksyms_match_libtraceevent_on_odd_lines)
{
	struct both b;

	if (!both_init(t, &b, odd, sizeof(odd) - 1, odd)) {
		TM_CHECK_INT(b.ws.n, 0);
		same_answers(t, &b);
		TM_CHECK_STR(tm_ksyms_find(b.k, 0xffffffff81000000ULL, NULL, NULL), "_stext");
	}
	both_free(&b);
}

/*
 * The kernel's own lines are read in one pass that finds a line's end with
 * its name, 8 bytes at a time: names of every length across those steps,
 * ended by '\n', by a module, by odd white space or by the text's end, with
 * bytes below 0x21 or above 0x7e inside, read as libtraceevent reads them.
 */
TM_TEST(ksyms_match_libtraceevent_on_names_of_every_length)
{
	static const char *const ends[] = { "\n", "\t[mod]\n", " \n", "\r\n", "\v\n",
					    "\x01z\n", "\x7f\xc3\xa9\n" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct both b;

	TM_REQUIRE(f);
	for (int n = 1; n <= 24; n++)
		for (size_t e = 0; e < TM_ARRAY_SIZE(ends); e++)
			fprintf(f, "ffffffff81%06x %c %.*s%s", n * 64 + (int)e * 8, "Tt"[n & 1], n,
				"abcdefghijklmnopqrstuvwxyz", ends[e]);
	fputs("ffffffff82000000 T no_newline_at_the_end", f);
	fclose(f);
	if (!both_init(t, &b, text, len, text)) {
		TM_CHECK_INT(b.ws.n, 0);
		TM_CHECK_INT(tm_ksyms_count(b.k), 24 * TM_ARRAY_SIZE(ends) + 1);
		same_answers(t, &b);
	}
	both_free(&b);
	free(text);
}

/* The kernel's own order: symbols sharing an address, then the next ones. */
TM_TEST(ksyms_match_libtraceevent_on_shared_addresses)
{
	static const char sorted[] =
		"ffffffff81000000 T a1\nffffffff81000000 T a2\nffffffff81000000 T a3\n"
		"ffffffff81000000 T a4\nffffffff81000010 T b1\nffffffff81000010 T b2\n"
		"ffffffff81000020 T c\nffffffff81000030 T d1\nffffffff81000030 T d2\n"
		"ffffffff81000030 T d3\nffffffff81000030 T d4\nffffffff81000030 T d5\n";
	struct both b;

	if (!both_init(t, &b, sorted, sizeof(sorted) - 1, sorted))
		same_answers(t, &b);
	both_free(&b);
}

/* Lines libtraceevent would stop at are dropped with a warning each; the rest read the same. */
TM_TEST(ksyms_drop_bad_lines_with_a_warning)
{
	static const char bad[] =
		"ffffffff81000000 T _text\n"
		"not a symbol\n"
		"\n"
		"ffffffff81000100 T\n"
		"ffffffff81000200 T two\n"
		"ffff\n"
		"\0\0\0\n"
		"ffffffff81000300 T nul\0inside\n"
		"ffffffff81000400 T four\n"
		"xyz T bad_address";
	static const char clean[] =
		"ffffffff81000000 T _text\nffffffff81000200 T two\nffffffff81000400 T four\n";
	struct both b;

	if (!both_init(t, &b, bad, sizeof(bad) - 1, clean)) {
		TM_CHECK_INT(b.ws.n, 5);
		TM_CHECK_STR(b.ws.last, "t.dat: kallsyms at offset 1144: line dropped: "
			     "not \"ADDRESS TYPE NAME\"");
		TM_CHECK_INT(tm_ksyms_count(b.k), 3);
		same_answers(t, &b);
	}
	both_free(&b);
}

TM_TEST(ksyms_line_with_nul_is_dropped)
{
	static const char text[] = "ffffffff81000000 T a\nffffffff81000300 T b\0c\n";
	struct both b;

	if (!both_init(t, &b, text, sizeof(text) - 1, "ffffffff81000000 T a\n")) {
		TM_CHECK_INT(b.ws.n, 1);
		TM_CHECK_STR(b.ws.last, "t.dat: kallsyms at offset 1021: line dropped: "
			     "NUL byte inside");
		same_answers(t, &b);
	}
	both_free(&b);
}

TM_TEST(ksyms_empty_text_finds_nothing)
{
	struct both b;

	if (!both_init(t, &b, "", 0, "")) {
		TM_CHECK_INT(tm_ksyms_count(b.k), 0);
		TM_CHECK(!tm_ksyms_find(b.k, 0, NULL, NULL));
		TM_CHECK(!tep_find_function(b.ours, 0));
		same_answers(t, &b);
	}
	both_free(&b);
}

/* v7: the warning names the section and the byte in its body. */
TM_TEST(ksyms_warning_names_the_section)
{
	struct tm_warnings ws = { 0 };
	struct tm_meta_warn w = { .fn = tm_warn_collect, .ctx = &ws, .file = "t.dat" };
	struct tm_blob b = { .len = 4, .sec = 5000, .off = 12 };
	char *text = strdup("bad\n");
	struct tm_ksyms *k;

	TM_REQUIRE(text);
	b.data = text;
	k = tm_ksyms_new(text, b, &w);
	TM_REQUIRE(k);
	TM_CHECK_INT(tm_ksyms_count(k), 0);
	TM_CHECK_INT(ws.n, 1);
	TM_CHECK_STR(ws.last, "t.dat: kallsyms section at offset 5000 (body byte 12): "
		     "line dropped: not \"ADDRESS TYPE NAME\"");
	tm_ksyms_free(k);
}
