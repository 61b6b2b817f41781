// SPDX-License-Identifier: GPL-2.0-only
/* main.c - runs every registered unit test, TAP output, a closing count line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_test.h"

static struct tm_test *tm_tests;

void tm_test_register(struct tm_test *t)
{
	struct tm_test **p = &tm_tests;

	/* keep them sorted by name so runs are repeatable */
	while (*p && strcmp((*p)->name, t->name) < 0)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
}

const char *tm_fixture(const char *name)
{
	static char path[4096];
	const char *dir = getenv("TM_FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", name);
	return path;
}

int main(int argc, char **argv)
{
	int n = 0, passed = 0, failed = 0;
	struct tm_test *t;

	for (t = tm_tests; t; t = t->next)
		if (argc < 2 || strstr(t->name, argv[1]))
			n++;
	printf("1..%d\n", n);
	n = 0;
	for (t = tm_tests; t; t = t->next) {
		if (argc >= 2 && !strstr(t->name, argv[1]))
			continue;
		fflush(stdout);
		t->fn(t);
		printf("%s %d %s\n", t->failures ? "not ok" : "ok", ++n, t->name);
		if (t->failures)
			failed++;
		else
			passed++;
	}
	printf("# unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
