// SPDX-License-Identifier: GPL-2.0-only
/*
 * dat-machines.c - several trace.dat files on one timeline: which files come
 * from one machine (the pieces of one recording, overlapping flight dumps,
 * recordings of one host) and which from another, and whether their times
 * can be put side by side.
 *
 * The rule (man/tracemap-convert.1 says it to users): two files are of one
 * machine when their UNAME options ("sysname nodename release machine") are
 * equal and so are their CPU counts. A trace id cannot tell it: each file of
 * a long recording gets one of its own. Files of one machine share its pids
 * and its clock: without DATE options their trace clocks must be the same
 * clock, and each file must have a DATE option if one has (a wall-clock time
 * and a raw clock cannot be compared). They are decoded with the first
 * file's event formats, so every format of the others must be one of those,
 * byte for byte (pieces and dumps of one recording always are). Files of
 * different machines are put on one timeline only through their DATE
 * options (record --date), which turn every file's times into wall-clock ns.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dat-internal.h"
#include "trace/tm-trace.h"
#include "tm-dat.h"

/* The hostname (UNAME's second word) for messages, or "unknown". */
static const char *host_of(const struct tm_dat *dat, char *buf, size_t len)
{
	const char *u = tm_dat_uname(dat), *sp, *end;

	sp = u ? strchr(u, ' ') : NULL;
	if (!sp)
		return "unknown";
	end = strchr(sp + 1, ' ') ?: sp + 1 + strlen(sp + 1);
	snprintf(buf, len, "%.*s", (int)(end - sp - 1), sp + 1);
	return buf;
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_machine(const struct tm_dat *a, const struct tm_dat *b)
{
	return same_text(tm_dat_uname(a), tm_dat_uname(b)) && tm_dat_cpus(a) == tm_dat_cpus(b);
}

static bool blob_eq(struct tm_blob a, struct tm_blob b)
{
	return a.len == b.len && !memcmp(a.data, b.data, a.len);
}

/* Is format f one of system sys's formats in dat (by system name)? */
static bool has_format(const struct tm_dat *dat, const char *sys, struct tm_blob f)
{
	size_t s, i;

	for (s = 0; s < tm_dat_system_count(dat); s++) {
		if (strcmp(tm_dat_system_name(dat, s), sys))
			continue;
		for (i = 0; i < tm_dat_event_format_count(dat, s); i++)
			if (blob_eq(tm_dat_event_format(dat, s, i), f))
				return true;
	}
	return false;
}

/* Has dat an event of that name (n bytes) in system sys, in whatever format? */
static bool has_event(const struct tm_dat *dat, const char *sys, const char *name, int n)
{
	for (size_t s = 0; s < tm_dat_system_count(dat); s++) {
		if (strcmp(tm_dat_system_name(dat, s), sys))
			continue;
		for (size_t i = 0; i < tm_dat_event_format_count(dat, s); i++) {
			struct tm_blob f = tm_dat_event_format(dat, s, i);
			const char *nm = memmem(f.data, f.len, "name: ", 6);

			if (nm && (int)strcspn(nm + 6, "\n") == n && !memcmp(nm + 6, name, n))
				return true;
		}
	}
	return false;
}

/* Every event format of b is one of a's: b's records decode with a's formats. */
static int formats_within(const struct tm_dat *b, const struct tm_dat *a)
{
	size_t s, i;

	for (s = 0; s < tm_dat_system_count(b); s++) {
		const char *sys = tm_dat_system_name(b, s);

		for (i = 0; i < tm_dat_event_format_count(b, s); i++) {
			struct tm_blob f = tm_dat_event_format(b, s, i);
			const char *nm = memmem(f.data, f.len, "name: ", 6);
			int n = nm ? (int)strcspn(nm + 6, "\n") : 0;

			if (!has_format(a, sys, f))
				return tm_failx(EINVAL, "%s: event %s/%.*s is %s %s (files of "
						"one machine are decoded with the first file's "
						"formats): convert them separately, or that file first",
						tm_dat_path(b), sys, n, nm ? nm + 6 : "?",
						has_event(a, sys, nm ? nm + 6 : "", n) ?
						"not as in" : "not in", tm_dat_path(a));
		}
	}
	return 0;
}

/* Can b's times be put beside a's, b a file of a's machine? */
static int same_timeline(const struct tm_dat *b, const struct tm_dat *a)
{
	const char *ca = tm_dat_clock(a) ?: "local", *cb = tm_dat_clock(b) ?: "local";

	if (tm_dat_has_date(a) != tm_dat_has_date(b))
		return tm_failx(EINVAL, "%s has a DATE option (record --date) and %s none: "
				"wall-clock and trace-clock times cannot share one timeline",
				tm_dat_path(tm_dat_has_date(a) ? a : b),
				tm_dat_path(tm_dat_has_date(a) ? b : a));
	if (!tm_dat_has_date(a) && strcmp(ca, cb))
		return tm_failx(EINVAL, "%s (clock %s) and %s (clock %s): different trace "
				"clocks cannot share one timeline without DATE options",
				tm_dat_path(a), ca, tm_dat_path(b), cb);
	return formats_within(b, a);
}

/* The length of the stem of a numbered file's path (STEM.NNNN.dat), 0 if it is not one. */
static size_t numbered_stem(const char *path)
{
	size_t len = strlen(path), digits = 0;

	if (len < 10 || strcmp(path + len - 4, ".dat"))
		return 0;
	while (digits < len - 4 && isdigit((unsigned char)path[len - 5 - digits]))
		digits++;
	if (digits < 4 || digits + 5 >= len || path[len - 5 - digits] != '.')
		return 0;
	return len - 5 - digits;
}

/*
 * Numbered files of one name (record --flight, --switch-output, --trigger)
 * share the recording's trace id: a piece another run left beside them is
 * not merged into it.
 */
static int same_recording(const struct tm_dat *b, const struct tm_dat *a)
{
	const char *pa = tm_dat_path(a), *pb = tm_dat_path(b);
	size_t sa = numbered_stem(pa), sb = numbered_stem(pb);
	uint64_t ia, ib;

	if (!sa || sa != sb || strncmp(pa, pb, sa) || !tm_dat_trace_id(a, &ia) ||
	    !tm_dat_trace_id(b, &ib) || ia == ib)
		return 0;
	return tm_failx(EINVAL, "%s and %s are numbered files of two recordings (their trace ids "
			"differ): give the files of one recording", pb, pa);
}

int tm_dat_machines(struct tm_dat *const *dats, int n, int *machine)
{
	int first[n > 0 ? n : 1];	/* the first file of each machine */
	char h1[64], h2[64];
	int i, j, nm = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nm && !same_machine(dats[first[j]], dats[i]); j++)
			;
		if (j == nm)
			first[nm++] = i;
		machine[i] = j;
		if (j < nm && first[j] != i && (same_recording(dats[i], dats[first[j]]) ||
						 same_timeline(dats[i], dats[first[j]])))
			return -1;
	}
	for (i = 0; nm > 1 && i < n; i++) {
		if (tm_dat_has_date(dats[i]))
			continue;
		j = first[machine[i] ? 0 : 1];
		return tm_failx(EINVAL, "%s: no DATE option (record --date): files of different "
				"machines (%s, %s) share one timeline only by their wall-clock "
				"times", tm_dat_path(dats[i]), host_of(dats[i], h1, sizeof(h1)),
				host_of(dats[j], h2, sizeof(h2)));
	}
	return nm;
}
