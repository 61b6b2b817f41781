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
 * and a raw clock cannot be compared). They are decoded with the union of
 * their event formats, so an event in two of them must have one format, byte
 * for byte, and one id, and an id one event (pieces and dumps of one
 * recording always agree; an event only one file has is fine). Files of
 * different machines are put on one timeline only through their DATE
 * options (record --date), which turn every file's times into wall-clock ns.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* One event format of a file: its id, system and name (in the text, nlen bytes). */
struct fmt_ref {
	long		id;
	const char	*sys;
	const char	*name;
	int		nlen;
	struct tm_blob	f;
};

/* A file's event formats (ftrace's too), sorted by id; those without an id left out. */
struct fmt_index {
	struct fmt_ref	*refs;
	size_t		n;
};

static int ref_by_id(const void *a, const void *b)
{
	long ia = ((const struct fmt_ref *)a)->id, ib = ((const struct fmt_ref *)b)->id;

	return (ia > ib) - (ia < ib);
}

static void index_add(struct fmt_index *x, const char *sys, struct tm_blob f)
{
	const char *nm = memmem(f.data, f.len, "name: ", 6);
	struct fmt_ref *r = &x->refs[x->n];

	r->id = tm_dat_format_id(f);
	if (r->id < 0 || !nm)
		return;
	r->sys = sys;
	r->name = nm + 6;
	r->nlen = (int)strcspn(r->name, "\n");
	r->f = f;
	x->n++;
}

static int index_build(struct fmt_index *x, const struct tm_dat *dat)
{
	size_t s, i, n = tm_dat_ftrace_format_count(dat);

	for (s = 0; s < tm_dat_system_count(dat); s++)
		n += tm_dat_event_format_count(dat, s);
	x->n = 0;
	x->refs = malloc((n ? n : 1) * sizeof(*x->refs));
	if (!x->refs)
		return tm_fail(ENOMEM, "%s: event formats", tm_dat_path(dat));
	for (i = 0; i < tm_dat_ftrace_format_count(dat); i++)
		index_add(x, "ftrace", tm_dat_ftrace_format(dat, i));
	for (s = 0; s < tm_dat_system_count(dat); s++)
		for (i = 0; i < tm_dat_event_format_count(dat, s); i++)
			index_add(x, tm_dat_system_name(dat, s), tm_dat_event_format(dat, s, i));
	qsort(x->refs, x->n, sizeof(*x->refs), ref_by_id);
	return 0;
}

static bool same_event(const struct fmt_ref *a, const struct fmt_ref *b)
{
	return !strcmp(a->sys, b->sys) && a->nlen == b->nlen && !memcmp(a->name, b->name, a->nlen);
}

/* a's format of r's event (by system and name, whatever its id), or NULL. */
static const struct fmt_ref *find_event(const struct fmt_index *a, const struct fmt_ref *r)
{
	for (size_t i = 0; i < a->n; i++)
		if (same_event(&a->refs[i], r))
			return &a->refs[i];
	return NULL;
}

/*
 * Files of one machine are decoded with one table of event formats, the union
 * of theirs: an event one file lacks is no conflict, but one event in two
 * formats (or ids), or one id for two events, is.
 */
static int formats_agree(const struct tm_dat *b, const struct fmt_index *xb,
			 const struct tm_dat *a, const struct fmt_index *xa)
{
	for (size_t i = 0; i < xb->n; i++) {
		const struct fmt_ref *r = &xb->refs[i], *q;

		q = bsearch(r, xa->refs, xa->n, sizeof(*r), ref_by_id);
		if (q && !same_event(q, r))
			return tm_failx(EINVAL, "%s: event id %ld is %s/%.*s, in %s it is "
					"%s/%.*s (files of one machine share one table of "
					"event formats): convert them separately",
					tm_dat_path(b), r->id, r->sys, r->nlen, r->name,
					tm_dat_path(a), q->sys, q->nlen, q->name);
		if (!q)
			q = find_event(xa, r);
		if (q && !blob_eq(q->f, r->f))
			return tm_failx(EINVAL, "%s: event %s/%.*s is not as in %s (files of "
					"one machine share one table of event formats): "
					"convert them separately", tm_dat_path(b), r->sys,
					r->nlen, r->name, tm_dat_path(a));
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
	return 0;
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

/* Each file's formats agree with those of every earlier file of its machine. */
static int machine_formats(struct tm_dat *const *dats, int n, const int *machine)
{
	struct fmt_index x[n > 0 ? n : 1];
	int i, j, ret = 0;

	for (i = 0; i < n; i++)
		x[i].refs = NULL;
	for (i = 0; !ret && i < n; i++)
		ret = index_build(&x[i], dats[i]);
	for (i = 1; !ret && i < n; i++)
		for (j = 0; !ret && j < i; j++)
			if (machine[j] == machine[i])
				ret = formats_agree(dats[i], &x[i], dats[j], &x[j]);
	for (i = 0; i < n; i++)
		free(x[i].refs);
	return ret;
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
	if (machine_formats(dats, n, machine))
		return -1;
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
