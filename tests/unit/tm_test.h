/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm_test.h - a tiny unit-test runner: TM_TEST(name) { ... } registers a test,
 * TM_CHECK*() record failures without stopping the test.
 */
#ifndef TM_TEST_H
#define TM_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct tm_test {
	const char	*name;
	void		(*fn)(struct tm_test *t);
	int		failures;
	struct tm_test	*next;
};

void tm_test_register(struct tm_test *t);
/* Path of a file in tests/fixtures, from the top of the tree (TM_FIXTURES overrides). */
const char *tm_fixture(const char *name);

#define TM_TEST(id)							\
	static void id(struct tm_test *t);				\
	static struct tm_test id##_desc = { .name = #id, .fn = id };	\
	__attribute__((constructor)) static void id##_register(void)	\
	{ tm_test_register(&id##_desc); }				\
	static void id(struct tm_test *t)

#define TM_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "  %s:%d: check failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		t->failures++;						\
	}								\
} while (0)

#define TM_CHECK_INT(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b) {							\
		fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n",	\
			__FILE__, __LINE__, #a, _a, _b);		\
		t->failures++;						\
	}								\
} while (0)

#define TM_CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (!_a || strcmp(_a, _b)) {					\
		fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", \
			__FILE__, __LINE__, #a, _a ? _a : "(null)", _b); \
		t->failures++;						\
	}								\
} while (0)

/* Stop the test here when cond fails (for preconditions). */
#define TM_REQUIRE(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "  %s:%d: required: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		t->failures++;						\
		return;							\
	}								\
} while (0)

#endif /* TM_TEST_H */
