// SPDX-License-Identifier: GPL-2.0-only
/*
 * fit.c - a line of fields fitted to a width by dropping the least
 * important fields whole (tm-fit.h).
 */
#include <string.h>

#include "tm-fit.h"

/* The kept fields joined: TM_FIT_SEP between them, one space before an attached one. */
static int fit_width(const struct tm_fit_field *f, int n)
{
	int w = 0, shown = 0;

	for (int i = 0; i < n; i++) {
		if (!f[i].kept)
			continue;
		if (shown++)
			w += f[i].attached ? 1 : TM_FIT_SEP;
		w += (int)strlen(f[i].text);
	}
	return w;
}

/* The kept field to drop next: the highest rank, the rightmost of equals; -1: none. */
static int fit_victim(const struct tm_fit_field *f, int n)
{
	int victim = -1;

	for (int i = 0; i < n; i++)
		if (f[i].kept && f[i].rank > 0 && (victim < 0 || f[i].rank >= f[victim].rank))
			victim = i;
	return victim;
}

int tm_fit_fields(struct tm_fit_field *f, int n, int width)
{
	int w, victim;

	for (int i = 0; i < n; i++)
		f[i].kept = f[i].text && (!f[i].attached || (i && f[i - 1].kept));
	for (w = fit_width(f, n); w > width; w = fit_width(f, n)) {
		victim = fit_victim(f, n);
		if (victim < 0)
			break;
		f[victim].kept = false;
		/* the fields attached to it go with it, whatever their rank */
		for (int i = victim + 1; i < n && f[i].attached; i++)
			f[i].kept = false;
	}
	return w;
}
