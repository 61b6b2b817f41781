// SPDX-License-Identifier: GPL-2.0-only
/*
 * print.c - one record as a line of text exactly like `trace-cmd report`
 * prints it (spec Appendix A): current trace-cmd's (3.2-3.4: a latency
 * column, print-latency.c, and sched_switch states from the format,
 * print-states.c) or 3.1.6's; or as JSON (print-json.c). The event text
 * comes from a compiled format (print-fast.c, print-sched.c) once it has
 * matched the reference text (libtraceevent's, or print-states.c's) on the
 * event's first records, and each text it learns from that reference on its
 * first use; the task, CPU, time and name columns are formatted here without
 * printf. Output collects in one buffer written in large pieces.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "util/internal.h"
#include "util/json-str.h"
#include "print-columns.h"
#include "print-fast.h"
#include "print-internal.h"
#include "events/field.h"
#include "dat/page.h"
#include "trace/tm-trace.h"
#include "events/events-internal.h"
#include "events/tm-events.h"

#define TM_MAX_BUFFERS	64
#define TM_NAME_COLS	20	/* event names are padded to this width */
#define TM_EVENT_IDS	65536	/* common_type is 16 bits */
#define TM_SLOT_BLOCK	256	/* slots are allocated for this many ids at a time */
/*
 * An event's records compared with libtraceevent's text before its compiled
 * format is trusted; a text the format learns later is compared the first
 * time it prints, whatever the count. At 256 the comparisons took 13% of a
 * 51k-event file's instructions. No format that matched 64 records failed
 * on a later one in any file we hold (fixtures, findings, bench files).
 */
#define TM_FAST_CHECKS	64

enum fast_state {
	FAST_UNKNOWN,
	FAST_CHECKING,
	FAST_ON,
	FAST_OFF,
};

/* Per event type: the compiled print format and how far it is trusted. */
struct fast_slot {
	struct tm_fastfmt	*fmt;
	enum fast_state		state;
	unsigned int		checked;
	bool			known;		/* ev and head are set */
	struct fast_slot	*next_known;	/* the printer's list of known slots */
	struct tep_event	*ev;
	char			*head;		/* " name: " padded to the name column */
	unsigned int		head_len;
	char			*states;	/* sched_switch of current trace-cmd: its letters */
	struct tm_jsonfmt	*json;		/* --json: the event's pieces, made on first use */
};

#define TM_COMM_CACHE	1024

/* "%16s-%-5d" of a pid as last printed, valid while gen matches. */
struct comm_entry {
	int		pid;
	uint64_t	gen;		/* 0: empty */
	unsigned int	len;
	char		text[52];
};

struct buffer_info {
	char	*name;		/* NULL for the top level */
	bool	usecs;		/* clock counts ns: print seconds */
	char	*json;		/* --json: ",\"buffer\":\"name\"" when named */
	size_t	json_len;
};

struct tm_printer {
	struct tep_handle	*tep;
	struct tm_print_opts	opts;
	FILE			*out;
	struct trace_seq	seq;
	struct buffer_info	bufs[TM_MAX_BUFFERS];
	int			nbufs;
	int			prefix_width;	/* 0: no instance prefixes */
	/* last event looked up: consecutive records are often of one type */
	struct fast_slot	*slots[TM_EVENT_IDS / TM_SLOT_BLOCK];	/* by event id */
	struct fast_slot	*known;		/* the slots in use: freed without a full scan */
	struct fast_slot	no_slot;	/* when a block cannot be allocated */
	bool			compile;	/* try compiled formats (not -R, not JSON) */
	struct comm_entry	*comms;		/* TM_COMM_CACHE */
	uint64_t		comm_gen;	/* bumped whenever a comm may have changed */
	bool			cmdlines_ready;	/* a pid's name was looked up (print-sched.c) */
	const uint64_t		*names_gen;	/* the events handle's: reloads renamed tasks */
	uint64_t		names_seen;	/* *names_gen when comm_gen last followed it */
	struct tm_buf	obuf;		/* output not yet handed to out */
	bool			swap;		/* file byte order differs from ours */
	struct tm_latency	*lat;		/* the latency column: current text or -l */
	struct tm_buf	scratch;	/* --json: a task name escaped outside the cache */
	struct tm_json_clock	clock;		/* --json of a file with dates: the last second */
	struct tm_secs_cache	secs;		/* the time column's seconds */
	bool			common_ready;	/* common is set */
	struct tm_common	common;		/* where common_type and common_pid lie */
	struct tm_fgraph	*fg;		/* function_graph's text, or NULL */
};

/* trace-cmd prints seconds for these clocks and raw counts for the others. */
static bool clock_in_usecs(const char *clock)
{
	static const char *const ns_clocks[] = {
		"local", "global", "uptime", "perf", "tai", "x86-tsc-nsec",
	};
	size_t i;

	if (!clock || !*clock || !strncmp(clock, "mono", 4))
		return true;
	for (i = 0; i < TM_ARRAY_SIZE(ns_clocks); i++)
		if (!strcmp(clock, ns_clocks[i]))
			return true;
	return false;
}

struct tm_printer *tm_printer_new(const struct tm_events *ev, const struct tm_print_opts *opts,
				  FILE *out)
{
	struct tep_handle *tep = tm_events_tep(ev);
	struct tm_printer *p = calloc(1, sizeof(*p));
	bool want_lat = !opts->json && (opts->latency || opts->compat == TM_TEXT_CURRENT);

	if (!p) {
		tm_fail(ENOMEM, "printer");
		return NULL;
	}
	p->tep = tep;
	p->opts = *opts;
	p->out = out;
	p->nbufs = 1;
	p->bufs[0].usecs = true;
	trace_seq_init(&p->seq);
	p->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	p->compile = !opts->raw && !opts->json && !opts->tep_only;
	p->comm_gen = 1;
	p->names_gen = tm_events_names_gen(ev);
	p->names_seen = *p->names_gen;
	p->comms = calloc(TM_COMM_CACHE, sizeof(*p->comms));
	if (want_lat)
		p->lat = tm_latency_new(tep);
	errno = 0;
	p->fg = tm_fgraph_new(tep, opts);
	if (!p->comms || (want_lat && !p->lat) || (!p->fg && errno)) {
		tm_latency_free(p->lat);
		free(p->comms);
		free(p);
		tm_fail(ENOMEM, "printer");
		return NULL;
	}
	if (opts->nsec)
		tep_set_flag(tep, TEP_NSEC_OUTPUT);
	return p;
}

void tm_printer_free(struct tm_printer *p)
{
	struct fast_slot *slot;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nbufs; i++) {
		free(p->bufs[i].name);
		free(p->bufs[i].json);
	}
	for (slot = p->known; slot; slot = slot->next_known) {
		tm_jsonfmt_free(slot->json);
		tm_fastfmt_free(slot->fmt);
		free(slot->head);
		free(slot->states);
	}
	for (i = 0; i < (int)TM_ARRAY_SIZE(p->slots); i++)
		free(p->slots[i]);
	tm_latency_free(p->lat);
	free(p->comms);
	tm_printer_flush(p);
	tm_fgraph_free(p->fg);
	free(p->obuf.text);
	free(p->scratch.text);
	trace_seq_destroy(&p->seq);
	free(p);
}

int tm_printer_set_buffer(struct tm_printer *p, int buf, const char *name, const char *clock)
{
	struct buffer_info *b;
	int i;

	if (buf < 0 || buf >= TM_MAX_BUFFERS)
		return tm_failx(EINVAL, "buffer %d: at most %d buffers", buf, TM_MAX_BUFFERS);
	b = &p->bufs[buf];
	free(b->name);
	free(b->json);
	b->name = b->json = NULL;
	if (name && *name) {
		b->name = strdup(name);
		b->json = malloc(11 + TM_JSON_STR_MAX(strlen(name)));
		if (!b->name || !b->json)
			return tm_fail(ENOMEM, "buffer %s", name);
		memcpy(b->json, ",\"buffer\":", 10);
		b->json_len = (size_t)(tm_json_put_str(b->json + 10, name, strlen(name)) - b->json);
	}
	b->usecs = clock_in_usecs(clock);
	for (i = p->nbufs; i < buf; i++)
		p->bufs[i].usecs = true;
	if (buf >= p->nbufs)
		p->nbufs = buf + 1;
	/* trace-cmd right-aligns names to the longest one, top level blank */
	p->prefix_width = 0;
	for (i = 0; i < p->nbufs; i++)
		if (p->bufs[i].name && (int)strlen(p->bufs[i].name) > p->prefix_width)
			p->prefix_width = (int)strlen(p->bufs[i].name);
	if (p->prefix_width > 256)
		return tm_failx(EINVAL, "buffer name longer than 256 bytes");
	return 0;
}

/* ---- column formatting (the writers: print-columns.h) ---- */

/*
 * libtraceevent's "%6.1000d" (µs, rounded) and "%9.1d" (ns) time formats:
 * "%5llu.%0*llu" when the value exceeds 10^prec, else "%12llu"; trace-cmd
 * puts a blank in front. Other clocks print "%12llu" without the blank.
 */
static char *put_time(const struct tm_printer *p, struct tm_secs_cache *c, char *o, int buf,
		      uint64_t ts)
{
	bool usecs = buf >= 0 && buf < p->nbufs ? p->bufs[buf].usecs : true;

	if (!usecs)
		return tm_col_uint(o, ts, 12);
	*o++ = ' ';
	/* constant divisors: the compiler multiplies instead */
	if (p->opts.nsec)
		return tm_col_fraction(c, o, ts, 1000000000ULL, 9);
	return tm_col_fraction(c, o, (ts + 500) / 1000, 1000000ULL, 6);
}

void tm_printer_format_ts(const struct tm_printer *p, int buf, uint64_t ts,
			  char *out, size_t len)
{
	char tmp[64], *e = put_time(p, NULL, tmp, buf, ts);

	snprintf(out, len, "%.*s", (int)(e - tmp), tmp);
}

/* tep_data_type() and tep_data_pid() without their lookups (events/field.h). */
static int rec_type(struct tm_printer *p, const struct tep_record *r)
{
	if (!p->common_ready) {
		tm_common_init(&p->common, p->tep);
		p->common_ready = true;
	}
	return tm_common_type(p->tep, &p->common, r->data, (uint32_t)r->size);
}

/* After rec_type(). */
static int rec_pid(struct tm_printer *p, const struct tep_record *r)
{
	return tm_common_pid(p->tep, &p->common, r->data, (uint32_t)r->size);
}

/* The slot of event id (ids past 16 bits share slots: the text columns do not mind). */
static struct fast_slot *find_slot(struct tm_printer *p, int id)
{
	unsigned int idx = (unsigned int)id & (TM_EVENT_IDS - 1);
	struct fast_slot **block = &p->slots[idx / TM_SLOT_BLOCK], *slot;
	size_t len, i;
	char *h;

	if (!*block && !(*block = calloc(TM_SLOT_BLOCK, sizeof(**block))))
		return &p->no_slot;
	slot = &(*block)[idx % TM_SLOT_BLOCK];
	if (slot->known)
		return slot;
	slot->known = true;
	slot->next_known = p->known;
	p->known = slot;
	slot->ev = tep_find_event(p->tep, id);
	if (slot->ev && p->opts.compat == TM_TEXT_CURRENT && !p->opts.raw)
		slot->states = tm_sched_states(slot->ev);
	len = slot->ev ? strnlen(slot->ev->name, 256) : 0;
	/* " name: " and blanks up to TM_NAME_COLS, with room for word copies */
	h = malloc(len + TM_NAME_COLS + 16);
	if (!h)
		return slot;
	h[0] = ' ';
	memcpy(h + 1, slot->ev ? slot->ev->name : "", len);
	h[len + 1] = ':';
	h[len + 2] = ' ';
	for (i = len; i < TM_NAME_COLS; i++)
		h[i + 3] = ' ';
	slot->head = h;
	slot->head_len = (unsigned int)(len < TM_NAME_COLS ? TM_NAME_COLS + 3 : len + 3);
	return slot;
}

static char *put_head(char *o, const struct fast_slot *slot)
{
	if (slot->head)
		return tm_col_words(o, slot->head, slot->head_len);
	memcpy(o, " : ", 3);
	o += 3;
	memset(o, ' ', TM_NAME_COLS);
	return o + TM_NAME_COLS;
}

/* The "%16s-%-5d" task column ("%8.8s-%-5d" with -l), from the cache when nothing changed. */
static char *put_task(struct tm_printer *p, char *o, int pid)
{
	struct comm_entry *c = &p->comms[(unsigned int)pid % TM_COMM_CACHE];
	int width = p->opts.latency ? 8 : 16;
	const char *comm;
	char *start = o;
	size_t len;

	if (c->gen == p->comm_gen && c->pid == pid)
		return tm_col_words(o, c->text, c->len);
	comm = tep_data_comm_from_pid(p->tep, pid);
	/* a name looked up (the idle task's is not): libtraceevent sorted its names */
	p->cmdlines_ready |= pid != 0;
	len = strnlen(comm, p->opts.latency ? 8 : 256);
	o = tm_col_padded(o, comm, len, width);
	*o++ = '-';
	o = tm_col_int(o, pid, -5);
	len = (size_t)(o - start);
	if (len <= sizeof(c->text) - 8) {
		memcpy(c->text, start, len);
		c->len = (unsigned int)len;
		c->pid = pid;
		c->gen = p->comm_gen;
	}
	return o;
}

/* At most this much of a latency text that libtraceevent made long ("[UNKNOWN EVENT]"). */
#define TM_LAT_MAX	32

/*
 * After the task: " [001]" (3.1.6), " [001] d..2." (current trace-cmd), or
 * with -l "   1d..2." (-R: "   1-0x1", the flags' value, as trace-cmd prints it).
 */
static char *put_cpu_flags(struct tm_printer *p, char *o, struct tep_record *r,
			   const struct fast_slot *slot)
{
	const char *lat;
	size_t len;

	*o++ = ' ';
	if (p->opts.latency) {
		o = tm_col_int(o, r->cpu, 3);
		if (p->opts.raw)
			return o + sprintf(o, "-0x%x", (unsigned int)tep_data_flags(p->tep, r));
	} else {
		*o++ = '[';
		o = r->cpu >= 0 && r->cpu < 1000 ? tm_col_zeroed(o, (uint32_t)r->cpu, 3)
						 : tm_col_int(o, r->cpu, 3);
		*o++ = ']';
		if (!p->lat)
			return o;
		*o++ = ' ';
	}
	/* the cached texts are 8-byte words; libtraceevent's trace_seq has room too */
	lat = tm_latency_text(p->lat, r, slot->ev != NULL, &len);
	return tm_col_words(o, lat, len < TM_LAT_MAX ? len : TM_LAT_MAX);
}

#define TM_OBUF_FLUSH	(256 * 1024)

/*
 * The collected output to out: straight to its descriptor after what stdio
 * holds (fwrite would copy 256 KiB into its own buffer first), or through
 * stdio for a stream without one (open_memstream).
 */
static int write_obuf(struct tm_printer *p)
{
	int fd = fileno(p->out);

	if (fd < 0)
		return fwrite_unlocked(p->obuf.text, 1, p->obuf.len, p->out) == p->obuf.len ? 0 : -1;
	if (fflush(p->out))
		return -1;
	return tm_write_all(fd, p->obuf.text, p->obuf.len);
}

int tm_printer_flush(struct tm_printer *p)
{
	/* a held function_graph entry stays "name() {": no next record now */
	tm_fgraph_release(p->fg);
	if (p->obuf.len && write_obuf(p)) {
		p->obuf.len = 0;
		return tm_fail(errno, "write output");
	}
	p->obuf.len = 0;
	return 0;
}

/* A held function_graph entry keeps the output in memory up to this much. */
#define TM_OBUF_HOLD_MAX	(64 * TM_OBUF_FLUSH)

/* After each record: hand the buffer to out once it is large (and holds no entry). */
static int end_record(struct tm_printer *p)
{
	if (p->obuf.len >= TM_OBUF_FLUSH &&
	    (!tm_fgraph_holding(p->fg) || p->obuf.len >= TM_OBUF_HOLD_MAX) &&
	    tm_printer_flush(p))
		return -1;
	return ferror(p->out) ? tm_fail(errno, "write output") : 0;
}

static int put_out(struct tm_printer *p, const char *s, size_t len)
{
	if (tm_buf_reserve(&p->obuf, len))
		return tm_fail(ENOMEM, "output buffer");
	tm_buf_put_reserved(&p->obuf, s, len);
	return 0;
}

static char *put_prefix(const struct tm_printer *p, char *o, int buf)
{
	const char *name = buf > 0 && buf < p->nbufs ? p->bufs[buf].name : NULL;

	if (!p->prefix_width)
		return o;
	o = tm_col_padded(o, name ? name : "", name ? strlen(name) : 0, p->prefix_width);
	*o++ = name ? ':' : ' ';
	*o++ = ' ';
	return o;
}

static char *put_dropped(char *o, const struct tm_event_rec *rec)
{
	memcpy(o, "CPU:", 4);
	o = tm_col_int(o + 4, rec->cpu, 0);
	*o++ = ' ';
	*o++ = '[';
	if (rec->missed > 0) {
		o = tm_col_int(o, rec->missed, 0);
		*o++ = ' ';
	}
	memcpy(o, "EVENTS DROPPED]\n", 16);
	return o + 16;
}

/* The task's name as a JSON string, from the cache when nothing changed. */
static const char *json_comm(struct tm_printer *p, int pid, size_t *len)
{
	struct comm_entry *c = &p->comms[(unsigned int)pid % TM_COMM_CACHE];
	const char *comm;
	size_t n;

	if (c->gen == p->comm_gen && c->pid == pid) {
		*len = c->len;
		return c->text;
	}
	comm = tep_data_comm_from_pid(p->tep, pid);
	p->cmdlines_ready |= pid != 0;
	n = strlen(comm);
	p->scratch.len = 0;
	if (tm_buf_reserve(&p->scratch, TM_JSON_STR_MAX(n)))
		return NULL;
	*len = (size_t)(tm_json_put_str(p->scratch.text, comm, n) - p->scratch.text);
	if (*len <= sizeof(c->text)) {
		memcpy(c->text, p->scratch.text, *len);
		c->len = (unsigned int)*len;
		c->pid = pid;
		c->gen = p->comm_gen;
	}
	return p->scratch.text;
}

/*
 * The event's JSON pieces, kept in its slot; an id the slots cannot tell
 * apart (past 16 bits: a damaged file) gets pieces of its own in *tmp.
 */
static const struct tm_jsonfmt *json_fmt(struct tm_printer *p, struct tep_record *r,
					 struct tm_jsonfmt **tmp)
{
	int id = rec_type(p, r);
	struct fast_slot *slot;

	if (id >= 0 && id < TM_EVENT_IDS) {
		slot = find_slot(p, id);
		if (slot != &p->no_slot) {
			if (!slot->json)
				slot->json = tm_jsonfmt_new(p->tep, slot->ev);
			return slot->json;
		}
	}
	*tmp = tm_jsonfmt_new(p->tep, tep_find_event(p->tep, id));
	return *tmp;
}

static int print_json(struct tm_printer *p, struct tep_record *r,
		      const struct tm_event_rec *rec)
{
	struct tm_json_rec jr = {
		.rec = rec,
		.clock = p->opts.wall_clock ? &p->clock : NULL,
	};
	struct tm_jsonfmt *tmp = NULL;
	const struct tm_jsonfmt *f = json_fmt(p, r, &tmp);
	int ret;

	jr.pid = rec_pid(p, r);	/* after json_fmt(): its rec_type() set the offsets */

	if (rec->buffer > 0 && rec->buffer < p->nbufs && p->bufs[rec->buffer].json) {
		jr.buffer = p->bufs[rec->buffer].json;
		jr.buffer_len = p->bufs[rec->buffer].json_len;
	}
	jr.comm = json_comm(p, jr.pid, &jr.comm_len);
	ret = f && jr.comm ? tm_jsonfmt_put(f, &p->obuf, &jr) : -1;
	tm_jsonfmt_free(tmp);
	if (ret)
		return tm_fail(ENOMEM, "JSON output");
	return end_record(p);
}

/*
 * The reference text of the event into p->seq: libtraceevent's, or for
 * current trace-cmd's sched_switch print-states.c's (both may register comms).
 */
static void info_by_tep(struct tm_printer *p, struct tep_record *r, const struct fast_slot *slot)
{
	p->comm_gen++;
	trace_seq_reset(&p->seq);
	if (slot->states)
		tm_sched_switch_text(&p->seq, slot->ev, slot->states, r);
	else
		tep_print_event(p->tep, &p->seq, r, "%s",
				p->opts.raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
}

/* trace-cmd drops one trailing newline, then ends the line: keep it instead. */
static int end_line(struct tm_printer *p, size_t start)
{
	if (p->obuf.len > start && p->obuf.text[p->obuf.len - 1] == '\n')
		return 0;
	return put_out(p, "\n", 1);
}

static int put_info(struct tm_printer *p, const char *s, size_t len)
{
	size_t start = p->obuf.len;

	return put_out(p, s, len) || end_line(p, start) ? -1 : 0;
}

/* Try the compiled format: 1 when it printed the text, 0 if not, -1 on error. */
static int fast_info(struct tm_printer *p, struct tep_record *r, struct fast_slot *slot)
{
	size_t start = p->obuf.len;
	struct tm_fastfmt *f;

	if (slot->state == FAST_UNKNOWN) {
		/* events with a plugin handler: only sched's and hrtimer's are compiled */
		slot->fmt = slot->ev->handler ? tm_schedfmt_compile(p->tep, slot->ev, p->swap)
					      : tm_fastfmt_compile(p->tep, slot->ev, p->swap);
		if (!slot->fmt && slot->ev->handler)
			slot->fmt = tm_hrtimerfmt_compile(p->tep, slot->ev, p->swap);
		slot->state = slot->fmt ? FAST_CHECKING : FAST_OFF;
		if (slot->fmt) {
			slot->fmt->comm_gen = &p->comm_gen;
			slot->fmt->cmdlines_ready = &p->cmdlines_ready;
		}
	}
	if (slot->state == FAST_OFF)
		return 0;
	f = slot->fmt;
	f->unconfirmed = false;
	if (f->ops->render(f, &p->obuf, r->data, (uint32_t)r->size)) {
		/* libtraceevent prints this one; the format may learn from it */
		p->obuf.len = start;
		info_by_tep(p, r, slot);
		if (f->ops->learn)
			f->ops->learn(f, r->data, (uint32_t)r->size, p->seq.buffer, p->seq.len);
		return put_info(p, p->seq.buffer, p->seq.len) ? -1 : 1;
	}
	if (slot->state == FAST_CHECKING || f->unconfirmed) {
		info_by_tep(p, r, slot);
		if (p->seq.len != p->obuf.len - start ||
		    memcmp(p->seq.buffer, p->obuf.text + start, p->seq.len)) {
			slot->state = FAST_OFF;
			tm_fastfmt_free(slot->fmt);
			slot->fmt = NULL;
			p->obuf.len = start;
			return put_info(p, p->seq.buffer, p->seq.len) ? -1 : 1;
		}
		if (f->unconfirmed && f->ops->confirm)
			f->ops->confirm(f, r->data, (uint32_t)r->size);
		if (slot->state == FAST_CHECKING && ++slot->checked >= TM_FAST_CHECKS)
			slot->state = FAST_ON;
	} else if (f->ops->commit) {
		/* libtraceevent did not print it: its plugin's side effects are ours */
		f->ops->commit(f);
	}
	return end_line(p, start) ? -1 : 1;
}

static int print_info(struct tm_printer *p, struct tep_record *r, struct fast_slot *slot)
{
	int ret = p->compile && slot->ev ? fast_info(p, r, slot) : 0;

	if (ret)
		return ret < 0 ? -1 : 0;
	info_by_tep(p, r, slot);
	return put_info(p, p->seq.buffer, p->seq.len);
}

/* function_graph's entry or return, or any other event's text. */
static int print_body(struct tm_printer *p, struct tep_record *r, const struct tm_event_rec *rec,
		      struct fast_slot *slot, int kind)
{
	int ret = 0;

	if (kind == TM_FGRAPH_ENTRY)
		ret = tm_fgraph_entry_text(p->fg, &p->obuf, rec, rec_pid(p, r));
	else if (kind == TM_FGRAPH_EXIT)
		ret = tm_fgraph_exit_text(p->fg, &p->obuf, rec->data, rec->size) ||
		      put_out(p, "\n", 1);
	else
		return print_info(p, r, slot);
	return ret ? tm_fail(ENOMEM, "output buffer") : 0;
}

/*
 * function_graph: rec may be the return of an entry its buffer holds (1:
 * then it is not printed). -F filters apply after that look, as trace-cmd's.
 */
static int skip_record(struct tm_printer *p, struct tep_record *r,
		       const struct tm_event_rec *rec, int *kind)
{
	int type, ret;

	*kind = TM_FGRAPH_NONE;
	if (p->fg) {
		type = rec_type(p, r);
		ret = tm_fgraph_next(p->fg, &p->obuf, rec, type, rec_pid(p, r));
		if (ret)
			return ret < 0 ? tm_fail(ENOMEM, "output buffer") : 1;
		*kind = tm_fgraph_kind(p->fg, type);
	}
	return p->opts.filter && !tm_filter_pass(p->opts.filter, rec);
}

int tm_printer_event(struct tm_printer *p, const struct tm_event_rec *rec)
{
	struct tep_record r = {
		.ts = rec->ts,
		.missed_events = rec->missed,
		.size = (int)rec->size,
		.data = (void *)rec->data,
		.cpu = rec->cpu,
	};
	struct fast_slot *slot;
	char *o, *line;
	int kind, skip;

	if (*p->names_gen != p->names_seen) {
		/* a reload renamed tasks: the cached task columns are stale */
		p->names_seen = *p->names_gen;
		p->comm_gen++;
	}
	skip = skip_record(p, &r, rec, &kind);
	if (skip)
		return skip < 0 ? -1 : 0;
	if (p->opts.json)
		return print_json(p, &r, rec);
	/* prefix, drop notice, task, name: each bounded to 256 bytes */
	if (tm_buf_reserve(&p->obuf, 1536))
		return tm_fail(ENOMEM, "output buffer");
	line = o = p->obuf.text + p->obuf.len;
	o = put_prefix(p, o, rec->buffer);
	if (rec->missed)
		o = put_dropped(o, rec);
	slot = find_slot(p, rec_type(p, &r));
	o = put_task(p, o, rec_pid(p, &r));
	o = put_cpu_flags(p, o, &r, slot);
	o = put_time(p, &p->secs, o, rec->buffer, rec->ts);
	*o++ = ':';
	o = put_head(o, slot);
	p->obuf.len += (size_t)(o - line);
	if (print_body(p, &r, rec, slot, kind))
		return -1;
	return end_record(p);
}

int tm_printer_dropped(struct tm_printer *p, int buf, int cpu, int64_t missed)
{
	struct tm_event_rec rec = { .cpu = cpu, .buffer = buf, .missed = missed };
	char *o, *line;

	if (!missed)
		return 0;
	if (tm_buf_reserve(&p->obuf, 512))
		return tm_fail(ENOMEM, "output buffer");
	line = o = p->obuf.text + p->obuf.len;
	if (p->opts.json) {
		o += sprintf(o, "{\"cpu\":%d,\"missed\":%lld}\n", cpu, (long long)missed);
	} else {
		o = put_prefix(p, o, buf);
		o = put_dropped(o, &rec);
	}
	p->obuf.len += (size_t)(o - line);
	return 0;
}

int tm_printer_page(struct tm_printer *p, int buf, int cpu, const void *page, size_t page_size,
		    unsigned int commit_size, bool big_endian, struct tm_filter *filter)
{
	struct tm_event_rec ev = { .cpu = cpu, .buffer = buf };
	struct tm_page pg;
	struct tm_rec rec;
	bool first = true;
	int r;

	if (tm_page_init(&pg, page, page_size, commit_size, big_endian))
		return -1;
	while ((r = tm_page_next(&pg, &rec)) > 0) {
		ev.ts = rec.ts;
		ev.data = rec.data;
		ev.size = rec.size;
		ev.missed = first ? pg.lost : 0;
		first = false;
		if (!tm_filter_pass(filter, &ev))
			continue;
		if (tm_printer_event(p, &ev))
			return -1;
	}
	return r;
}
