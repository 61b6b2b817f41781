// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ksyms.c - libFuzzer target, differential: the input as kallsyms text
 * through our symbol table (lib/events/ksyms.c) and through libtraceevent's own
 * (tep_parse_kallsyms()). Where libtraceevent reads every line, ours must
 * drop none and hold the same table (as tep_print_funcs() prints it) and
 * answer every symbol's address -1, +0, +1 the same; where it stops at a
 * line, ours must have dropped one. Run: bash tests/fuzz/run.sh 60 ksyms.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "fuzz-text.h"
#include "util/internal.h"
#include "events/ksyms.h"

static void count_warning(void *ctx, const char *msg)
{
	(void)msg;
	(*(int *)ctx)++;
}

/* What tep_print_funcs() prints on stdout. */
static char *native_table(struct tep_handle *tep)
{
	FILE *f = tmpfile();
	char *s = NULL;
	int saved;
	off_t n;

	if (!f)
		abort();
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fileno(f), STDOUT_FILENO);
	tep_print_funcs(tep);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = lseek(fileno(f), 0, SEEK_END);
	s = calloc(1, (size_t)n + 1);
	if (!s || pread(fileno(f), s, (size_t)n, 0) != n)
		abort();
	fclose(f);
	return s;
}

static char *our_table(struct tm_ksyms *k)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		abort();
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

static void same_lookup(struct tep_handle *nat, struct tep_handle *our, unsigned long long a)
{
	const char *n = tep_find_function(nat, a), *o = tep_find_function(our, a);

	if (!n != !o || (n && strcmp(n, o)) ||
	    tep_find_function_address(nat, a) != tep_find_function_address(our, a))
		abort();
}

static void same_answers(struct tep_handle *nat, struct tep_handle *our, struct tm_ksyms *k)
{
	char *a = native_table(nat), *o = our_table(k);

	if (strcmp(a, o))
		abort();
	free(a);
	free(o);
	for (size_t i = 0; i < tm_ksyms_count(k); i++) {
		uint64_t addr;

		tm_ksyms_at(k, i, &addr, NULL);
		for (int d = -1; d <= 1; d++)
			same_lookup(nat, our, addr + d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int warnings = 0;
	struct tm_meta_warn w = { .fn = count_warning, .ctx = &warnings, .file = "fuzz" };
	struct tm_blob b = { .len = size };
	struct tep_handle *nat, *our;
	struct tm_ksyms *k;
	char *text;
	int ret;

	text = fuzz_text(data, size, &nat, &our);
	if (!text)
		return 0;
	ret = tep_parse_kallsyms(nat, text);	/* before ours writes NULs into text */
	b.data = text;
	k = tm_ksyms_new(text, b, &w);
	if (!k || tm_ksyms_attach(k, our))
		abort();
	if (ret < 0 ? !warnings : warnings)
		abort();
	if (ret == 0)
		same_answers(nat, our, k);
	tep_free(nat);
	tep_free(our);
	tm_ksyms_free(k);
	return 0;
}
