// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_report.c - libFuzzer target for the whole report path: the input is
 * opened as a trace.dat file, the libtraceevent handle is built from its
 * metadata (with and without plugins, as report and report -N), and every
 * buffer's records are merged and printed as text, -N text, -R text with a
 * filter, and JSON, as `tracemap report` would print them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "dat-internal.h"
#include "internal.h"
#include "tracemap.h"

#define FUZZ_NAME	"fuzz.dat"

static FILE *devnull;

static void ignore_warning(void *ctx, const char *msg)
{
	/* every warning names the input */
	if (!strstr(msg, FUZZ_NAME))
		abort();
	(*(unsigned int *)ctx)++;
}

/* A failure message names the input (allocation failures aside). */
static void check_error(void)
{
	if (errno != ENOMEM && !strstr(tm_last_error(), FUZZ_NAME))
		abort();
}

/* Merge every buffer of the file and print it; the printer sees every record the merge passes. */
static void print_all(struct tm_dat *dat, struct tm_events *ev, const struct tm_print_opts *po,
		      const char *filter_expr)
{
	struct tep_handle *tep = tm_events_tep(ev);
	struct tm_printer *p = tm_printer_new(ev, po, devnull);
	struct tm_merge *m = tm_merge_new();
	struct tm_filter *f = NULL;
	struct tm_event_rec rec;
	unsigned int warnings = 0;
	uint64_t passed = 0;
	int buf, r = -1;

	if (!p || !m)
		goto out;
	if (filter_expr) {
		f = tm_filter_new(tep);
		if (!f || tm_filter_add(f, filter_expr, false))
			goto out;
	}
	if (tm_merge_check_records(m, tep, ignore_warning, &warnings))
		goto out;
	for (buf = 0; buf < tm_dat_buffer_count(dat); buf++) {
		if (tm_printer_set_buffer(p, buf, tm_dat_buffer_name(dat, buf),
					  tm_dat_buffer_clock(dat, buf) ?: tm_dat_clock(dat)) ||
		    tm_merge_add_dat(m, dat, buf, NULL, 0))
			goto out;
	}
	while ((r = tm_merge_next(m, &rec)) > 0) {
		if (f && !tm_filter_pass(f, &rec))
			continue;
		passed++;
		if (tm_printer_event(p, &rec))
			abort();	/* only a write to /dev/null could fail */
	}
	if (r < 0)
		check_error();
	else if (tm_printer_count(p) != passed || warnings != tm_merge_skipped(m))
		abort();
out:
	tm_filter_free(f);
	tm_merge_free(m);
	tm_printer_free(p);
}

static void report(struct tm_dat *dat, bool no_plugins)
{
	unsigned int warnings = 0;
	struct tm_events *ev = tm_events_from_dat(dat, no_plugins, ignore_warning, &warnings);
	struct tm_print_opts text = { 0 }, raw = { .raw = true, .nsec = true };
	struct tm_print_opts json = { .json = true };

	if (!ev) {
		check_error();
		return;
	}
	print_all(dat, ev, &text, NULL);
	if (!no_plugins) {
		print_all(dat, ev, &json, NULL);
		print_all(dat, ev, &raw, "common_pid != 0 || prev_comm ~ \"k*\"");
	}
	tm_events_free(ev);
}

/*
 * The plugins stay loaded between inputs (a handle that is never freed):
 * each tep then only takes another reference, and libFuzzer's leak check
 * does not see dlopen's bookkeeping as a leak of every input.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static struct tep_plugin_list *keep_plugins;
	static struct tep_handle *keep;

	(void)argc;
	(void)argv;
	keep = tep_alloc();
	keep_plugins = keep ? tep_load_plugins(keep) : NULL;
	if (!keep_plugins)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_dat *dat;
	int fd;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	fd = memfd_create(FUZZ_NAME, MFD_CLOEXEC);
	if (fd < 0 || !devnull)
		abort();
	if (tm_write_all(fd, data, size))
		abort();
	dat = tm_dat_open_fd(fd, FUZZ_NAME);
	if (dat) {
		report(dat, false);
		report(dat, true);
		tm_dat_close(dat);
	} else {
		check_error();
	}
	close(fd);
	return 0;
}
