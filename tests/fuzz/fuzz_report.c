// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_report.c - libFuzzer target for the whole report and convert path:
 * the input is opened as a trace.dat file, the libtraceevent handle is
 * built from its metadata (with and without plugins, as report and
 * report -N), and every buffer's records go through tm_evout_run_dat() into
 * each output: text, -N text, -R text with a filter, JSON, Perfetto and
 * Chrome JSON, as `tracemap report` and `tracemap convert` write them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "dat/dat-internal.h"
#include "util/internal.h"
#include "emit/tm-evout.h"
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

/*
 * One output over every buffer of the file, as report and convert run it
 * (tm_evout_run_dat(): merge, record check, filter). Every record skipped
 * got its warning; a failure names the file.
 */
static void run_output(struct tm_dat *dat, struct tm_events *ev, struct tm_evout *out,
		       const char *filter_expr)
{
	struct tep_handle *tep = tm_events_tep(ev);
	unsigned int warnings = 0;
	uint64_t skipped = 0;
	struct tm_run_opts o = {
		.warn = ignore_warning,
		.warn_ctx = &warnings,
		.skipped = &skipped,
	};

	if (!out) {
		check_error();	/* out of memory only */
		return;
	}
	if (filter_expr) {
		o.filter = tm_filter_new(tep);
		if (!o.filter || tm_filter_add(o.filter, filter_expr, false))
			goto out;
	}
	if (tm_evout_run_dat(out, dat, tep, &o))
		check_error();
	else if (warnings != skipped)
		abort();
out:
	tm_filter_free(o.filter);
	tm_evout_free(out);
}

/* report (text, JSON, -R with a filter) and convert (Perfetto, Chrome JSON); -N: text only. */
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
	run_output(dat, ev, tm_evout_text_new(ev, &text, devnull), NULL);
	if (!no_plugins) {
		run_output(dat, ev, tm_evout_text_new(ev, &json, devnull), NULL);
		run_output(dat, ev, tm_evout_text_new(ev, &raw, devnull),
			   "common_pid != 0 || prev_comm ~ \"k*\"");
		run_output(dat, ev, tm_evout_perfetto_new(devnull), NULL);
		run_output(dat, ev, tm_evout_chrome_new(devnull), NULL);
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
