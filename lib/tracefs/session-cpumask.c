// SPDX-License-Identifier: GPL-2.0-only
/* session-cpumask.c - parsing hex CPU masks as trace-cmd -M and tracing_cpumask take them. */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "util/internal.h"
#include "record/tm-record.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int tm_cpumask_parse(const char *text, bool *set, int ncpus)
{
	const char *p = text, *end;
	int bit = 0, any = 0;

	if (!strncmp(p, "0x", 2) || !strncmp(p, "0X", 2))
		p += 2;
	if (!*p)
		return tm_failx(EINVAL, "bad CPU mask '%s' (expected hex, e.g. 3 for CPUs 0-1)", text);
	memset(set, 0, sizeof(*set) * ncpus);
	/* the last digit holds CPUs 0-3; commas separate 32-bit words */
	for (end = p + strlen(p); end > p; end--) {
		char c = end[-1];
		int v;

		if (c == ',')
			continue;
		v = hex_digit(c);
		if (v < 0)
			return tm_failx(EINVAL, "bad CPU mask '%s' (expected hex, e.g. 3 for CPUs 0-1)",
					text);
		for (int b = 0; b < 4; b++, bit++) {
			if (!(v & (1 << b)))
				continue;
			if (bit >= ncpus)
				return tm_failx(EINVAL, "bad CPU mask '%s': CPU %d does not exist "
						"(CPUs 0-%d)", text, bit, ncpus - 1);
			set[bit] = true;
			any++;
		}
	}
	if (!any)
		return tm_failx(EINVAL, "bad CPU mask '%s': it selects no CPU", text);
	return 0;
}
