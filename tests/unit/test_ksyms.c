// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ksyms.c - our kallsyms resolver (ksyms.c) answers every lookup as
 * libtraceevent does after tep_parse_kallsyms() of the same checked text.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "internal.h"
#include "ksyms.h"
#include "meta-check.h"
#include "tm_test.h"

/* Both answers for addr; 1 when they agree. */
static int same_answer(struct tep_handle *ref, struct tep_handle *ours, uint64_t addr)
{
	unsigned long long s1 = 0, s2 = 0;
	const char *n1 = NULL, *n2 = NULL;
	int f1 = tep_find_function_info(ref, addr, &n1, &s1, NULL);
	int f2 = tep_find_function_info(ours, addr, &n2, &s2, NULL);

	if (f1 != f2 || (f1 && (strcmp(n1, n2) || s1 != s2))) {
		fprintf(stderr, "  %#llx: libtraceevent %s+%#llx, ours %s+%#llx\n",
			(unsigned long long)addr, f1 ? n1 : "-", s1, f2 ? n2 : "-", s2);
		return 0;
	}
	return 1;
}

/* Lookups at, before and after every address of text, and at the ends. */
static int compare(struct tm_test *t, const char *text, size_t *nsyms)
{
	struct tm_blob b = { .data = text, .len = strlen(text) };
	struct tep_handle *ref = tep_alloc(), *ours = tep_alloc();
	char *clean = tm_meta_clean_kallsyms(b, NULL), *line;
	struct tm_ksyms *ks = NULL;
	int bad = 0;

	if (!ref || !ours || !clean)
		goto out;
	TM_CHECK_INT(tep_parse_kallsyms(ref, clean), 0);
	ks = tm_ksyms_new(b, NULL, NULL);
	if (!ks || tm_ksyms_attach(ks, ours))
		goto out;
	*nsyms = tm_ksyms_count(ks);
	bad += !same_answer(ref, ours, 0) + !same_answer(ref, ours, ~0ULL);
	for (line = clean; *line && bad < 10; line = strchr(line, '\n') + 1) {
		uint64_t a = strtoull(line, NULL, 16);

		bad += !same_answer(ref, ours, a) + !same_answer(ref, ours, a - 1) +
		       !same_answer(ref, ours, a + 1);
	}
out:
	TM_CHECK(ref && ours && clean && ks);
	tep_free(ours);
	tm_ksyms_free(ks);
	tep_free(ref);
	free(clean);
	return bad;
}

TM_TEST(ksyms_answers_as_libtraceevent_on_unusual_and_sorted_lines)
{
	static const char text[] =
		"ffffffff81000100 T _text\n"
		"ffffffff81000200 t alias_one\n"
		"ffffffff81000200 t alias_two\n"
		"ffffffff81000200 T alias_three\n"
		"ffffffff81000300 A absolute\n"
		"ffffffff81000310 a absolute_local\n"
		"ffffffff81000320 t $a\n"
		"ffffffff81000400 t in_module\t[mod_a]\n"
		"ffffffff81000400 t space_not_module [mod_b]\n"
		"ffffffff81000500 t tab_no_bracket\tmod_c\n"
		"ffffffff81000050 t out_of_order\n"
		"  ffffffff81000600 t leading_blanks\n"
		"0xffffffff81000700 t hex_prefix\n"
		"ffffffff81000800  t two_blanks\n"
		"ffffffff81000900 t\tafter_tab\n"
		"ffffffff81000a00 t bracket_blank\t[ mod_d]\n"
		"ffffffff810009ff t name_with\ttab_and_more words\n"
		"ffffffffffffff00 t near_top\n"
		"0000000000000000 t zero\n"
		"not a symbol line\n";
	/* in address order, as the kernel writes it: ties turned round without a sort */
	static const char sorted[] =
		"ffffffff81000100 T first\n"
		"ffffffff81000200 t tie_one\n"
		"ffffffff81000200 t tie_two\n"
		"ffffffff81000200 T tie_three\n"
		"ffffffff81000400 t pair_one\n"
		"ffffffff81000400 t pair_two\n";
	size_t n = 0;

	TM_CHECK_INT(compare(t, text, &n), 0);
	TM_CHECK(n >= 15);
	TM_CHECK_INT(compare(t, sorted, &n), 0);
	TM_CHECK_INT(n, 6);
}

/* The machine's own kallsyms: duplicates, modules, unsorted module symbols. */
TM_TEST(ksyms_answers_as_libtraceevent_on_proc_kallsyms)
{
	size_t len, n = 0;
	char *text = tm_read_file("/proc/kallsyms", &len);

	TM_REQUIRE(text);
	TM_CHECK_INT(compare(t, text, &n), 0);
	TM_CHECK(n > 1000);
	free(text);
}
