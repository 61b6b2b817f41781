// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - `tracemap stream`: the capture (capture.c) feeding the live
 * merge (lib/out/out-live.c) instead of a file; events on stdout in timestamp order,
 * as text like `tracemap report` or as JSON lines.
 */
#include <argp.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cmd.h"
#include "signals.h"
#include "emit/tm-live.h"

#define SUB			"stream"
#define STREAM_POLL_MS		50	/* recorder poll timeout: quiet CPUs flush this often */
#define STREAM_STEP_MS		50	/* longest sleep of the main loop */
#define STREAM_CMDLINES_NS	1000000000ull

enum {
	OPT_JSON = 0x100,
	OPT_COMPAT,
};

struct stream_opts {
	struct capture_opts	cap;
	bool			json;
	enum tm_text_compat	compat;
};

struct stream {
	const struct stream_opts	*o;
	struct capture			cap;
	struct tm_events		*ev;
	struct tm_evout			*out;
	struct tm_names			*names;
	struct tm_live			*live;
	uint64_t			cmdlines_at;
	bool				gone;		/* the reader of stdout left */
	bool				failed;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "json", OPT_JSON, NULL, 0, "one JSON object per event and line", 3 },
	{ "compat", OPT_COMPAT, "VERSION", 0, "lines as trace-cmd VERSION's report prints them: "
	  "3.4 (default) or 3.1", 3 },
	{ 0 }
};

static const char doc[] =
	"Print ftrace events of a private tracefs instance live, in timestamp order."
	"\vWithout COMMAND, streams until SIGINT/SIGTERM/SIGHUP, --duration, or until "
	"the reader of stdout goes away. With COMMAND, streams until it exits. Lines "
	"look like `tracemap report` output; loss shows as CPU:N [EVENTS DROPPED] lines "
	"and in the summary on stderr.\n\n"
	"Exit status: 0 ok (also when the reader of stdout left), 1 failure, 2 usage error; "
	"else COMMAND's status (128+N: killed by signal N, 127: it could not be run).\n"
	"See tracemap-stream(1).";

static const char examples[] =
	"  tracemap stream -e sched -F -- sleep 1 | grep sleep\n"
	"  tracemap stream --json -e irq --duration 5 | jq -r .event\n"
	"  tracemap stream -F -e syscalls -- ls\n";

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct stream_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->cap;
		break;
	case OPT_JSON: o->json = true; break;
	case OPT_COMPAT: o->compat = arg_compat(state, arg); break;
	case ARGP_KEY_END: capture_check_events(state, &o->cap); break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- setup ---- */

/*
 * stdout: the printer collects text in its own large buffer and hands it
 * over once per step; on a terminal stdio passes each line on at once.
 */
static int setup_stdout(void)
{
	if (isatty(STDOUT_FILENO))
		return setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}

static int open_decoder(struct stream *s)
{
	const char *tracefs = tm_session_tracefs(s->cap.sess);
	struct tm_print_opts po = { .json = s->o->json, .compat = s->o->compat };
	struct tm_live_opts lo = {
		.ncpus = s->cap.ncpus,
		.cpus = s->cap.cpus,
		.page_size = tm_session_page_size(s->cap.sess),
		.out = stdout,
	};
	struct tm_evout_buffer top = { .name = NULL, .clock = s->o->cap.clock };
	struct tm_evout_info info = {
		.ncpus = s->cap.ncpus, .cpu_slots = s->cap.ncpus,
		.nbuffers = 1, .buffers = &top, .live = true,
	};

	s->ev = tm_events_from_tracefs(tracefs, tm_session_event_systems(s->cap.sess),
				       "/proc/kallsyms", false);
	if (!s->ev)
		return -1;
	info.tep = tm_events_tep(s->ev);
	s->out = tm_evout_text_new(s->ev, &po, stdout);
	if (!s->out || tm_evout_begin(s->out, &info))
		return -1;
	s->names = tm_names_new(s->ev, tm_session_quiet_events(s->cap.sess));
	if (!s->names)
		return -1;
	lo.output = s->out;
	lo.names = s->names;
	s->live = tm_live_new(&lo);
	s->cmdlines_at = mono_ns();
	return s->live ? 0 : -1;
}

/* ---- the loop ---- */

static bool reader_gone(int err)
{
	return err == EPIPE || err == EBADF;
}

/* The summary's events: those printed (the kernel also counts the hidden name events). */
static uint64_t stream_printed(void *ctx, int cpu)
{
	struct tm_live_shown shown;

	tm_live_get_shown(ctx, cpu, &shown);
	return shown.printed;
}

/* With -v: how many events the kernel handed out only to follow task names. */
static void stream_hidden_note(const struct stream *s)
{
	struct tm_live_shown shown;
	unsigned long long hidden = 0;

	if (!s->o->cap.verbose || s->o->cap.quiet)
		return;
	for (int cpu = 0; cpu < s->cap.ncpus; cpu++) {
		tm_live_get_shown(s->live, cpu, &shown);
		hidden += shown.hidden;
	}
	cmd_err(SUB, "%llu events read only to follow task names, not printed", hidden);
}

/* Print what is safe; on a write error stop quietly if the reader left. */
static int stream_print(struct stream *s, bool final)
{
	int r;

	do {
		r = tm_live_step(s->live, final);
	} while (r > 0 && (final || !signals_stop_count()));
	if (r >= 0)
		return 0;
	if (reader_gone(errno)) {
		s->gone = true;
		tm_live_discard(s->live);
	} else {
		cmd_fail(SUB);
		s->failed = true;
	}
	return -1;
}

/* A pipe on stdout whose reader closed it: stop even while no event comes. */
static bool stdout_broken(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = 0 };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLERR | POLLNVAL));
}

/* capture_wait()'s idle hook: wait for a drain round, take signals, print. */
static int stream_idle(void *ctx, int ms)
{
	struct stream *s = ctx;
	uint64_t now;

	tm_live_wait(s->live, ms < STREAM_STEP_MS ? ms : STREAM_STEP_MS);
	signals_wait(0);
	now = mono_ns();
	if (now - s->cmdlines_at >= STREAM_CMDLINES_NS) {
		/* tasks no record named get their names; a failed re-read keeps the old ones */
		tm_names_reload(s->names, tm_session_tracefs(s->cap.sess));
		s->cmdlines_at = now;
	}
	if (stream_print(s, false))
		return 1;
	if (stdout_broken()) {
		s->gone = true;
		tm_live_discard(s->live);
		return 1;
	}
	return 0;
}

static int name_child(struct stream *s)
{
	char comm[64] = "tracemap";
	FILE *f = fopen("/proc/self/comm", "re");

	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			snprintf(comm, sizeof(comm), "tracemap");
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
	}
	if (!tm_names_learn(s->names, s->cap.child, comm))
		return 0;
	cmd_fail(SUB);
	return -1;
}

static int stream_run(const struct stream_opts *o)
{
	struct stream s = { .o = o };
	struct capture_sink cs = { .timeout_ms = STREAM_POLL_MS, .emit_partial = true };
	struct capture_status st;
	struct capture_count count = { .events = stream_printed };
	int ret = TM_EXIT_FAIL;

	if (capture_open(&s.cap, &o->cap, SUB))
		goto out;
	if (setup_stdout() || open_decoder(&s)) {
		cmd_fail(SUB);
		goto out;
	}
	cs.sink = tm_live_sink(s.live);
	count.ctx = s.live;
	s.cap.count = &count;
	if (capture_start(&s.cap, &cs))
		goto out;
	/* stderr only, and only when the events go elsewhere than the terminal */
	capture_status_init(&st, &s.cap, status_wanted(o->cap.quiet, true));
	s.cap.status = &st;
	/* COMMAND runs under our name until its exec names it */
	if (s.cap.child > 0 && name_child(&s))
		goto out;
	capture_wait(&s.cap, stream_idle, &s);
	/* the final drain must never wait for the printer */
	tm_live_set_unbounded(s.live);
	if (capture_stop(&s.cap))
		goto out;
	if (!s.gone && !s.failed) {
		tm_names_reload(s.names, tm_session_tracefs(s.cap.sess));
		if (!stream_print(&s, true) && tm_evout_end(s.out)) {
			cmd_fail(SUB);
			s.failed = true;
		}
	}
	if (s.failed)
		goto out;
	capture_summary(&s.cap, NULL);
	stream_hidden_note(&s);
	ret = TM_EXIT_OK;
out:
	ret = capture_close(&s.cap, ret);
	tm_live_free(s.live);
	tm_names_free(s.names);
	tm_evout_free(s.out);
	tm_events_free(s.ev);
	if (fflush(stdout) && !s.gone && !reader_gone(errno) && ret == TM_EXIT_OK)
		ret = cmd_fail(SUB);
	return capture_exit_status(&s.cap, ret);
}

int cmd_stream(int argc, char **argv)
{
	struct stream_opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	capture_opts_init(&o.cap);
	o.cap.name_events = true;
	capture_parse_args(argc, argv, options, parse_opt, doc, examples, &o);
	ret = stream_run(&o);
	capture_opts_free(&o.cap);
	return ret;
}
