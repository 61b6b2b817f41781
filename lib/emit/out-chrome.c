// SPDX-License-Identifier: GPL-2.0-only
/*
 * out-chrome.c - the Chrome trace-event JSON output ({"traceEvents": [...]}),
 * which chrome://tracing, Perfetto and speedscope-style viewers open. Each
 * task is a thread (its own process row: trace.dat records no tgids): "X"
 * slices for each stretch it ran on a CPU, from the top buffer's
 * sched_switch records; function_graph calls as "B"/"E" slices named by
 * the kernel function (an exit whose entry is not in the file: an "X" of
 * the kernel's calltime..rettime, ending at the exit); an "i" instant with
 * the fields as args for every other record (and "buffer", an instance's
 * records; ftrace:function named by its ip); "M" records naming the
 * threads. Times are microseconds with three decimals, so nanoseconds
 * survive.
 *
 * A task's slices never overlap: a slice starts no earlier than the task's
 * previous one ended (per-CPU clocks may disagree by a little), and a task
 * switched in while still running elsewhere (its switch-out was lost) ends
 * its old slice there. The idle tasks (pid 0) get no slices.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "events/field.h"
#include "events/tasks.h"
#include "print/print-internal.h"
#include "json-out.h"
#include "tm-evout.h"
#include "trace/tm-trace.h"

#define CPU_LANES	(1 << 22)	/* PID_MAX_LIMIT: above every pid */
#define MACHINE_SHIFT	23
#define HEX_LEN		19	/* "0x" + 16 digits + NUL */
#define EVENT_IDS	65536	/* common_type is 16 bits */
#define FLUSH_AT	(256 << 10)	/* elements are held and written this many bytes at a time */

/* A function_graph entry written as a "B" whose exit has not come yet. */
struct call {
	uint64_t	func;
	int64_t		depth;
};

/* An entry of the task table: k.comm is the name of its last sched_switch. */
struct task {
	struct tm_task	k;		/* k.pid: its tid */
	int		open_cpu;	/* a slice runs there; -1: none */
	uint64_t	last_end;	/* end of its last slice */
	struct call	*calls;		/* open "B"s, innermost last */
	uint32_t	ncalls, calls_cap;
};

/* The fields of ftrace:funcgraph_entry or _exit (calltime, rettime: exit only). */
struct fgraph_event {
	const struct tep_event		*ev;	/* NULL: not in the file, or no func */
	const struct tep_format_field	*func, *depth, *calltime, *rettime;
};

/* What an event id's instants need, worked out at its first record. */
struct ev_slot {
	bool			known;
	int			id;
	struct tep_event	*ev;	/* NULL: not in the file */
	struct tm_jsonfmt	*fmt;	/* its fields' pieces; NULL: out of memory */
};

struct cpu_run {
	int		tid;		/* -1: no slice open */
	uint64_t	start;
};

struct chrome_output {
	struct tm_evout		base;
	FILE			*f;
	struct tep_handle	*tep;
	struct tm_buf		jo;		/* elements not written yet */
	struct tm_common	common;		/* where common_type and common_pid lie */
	struct ev_slot		*slots;		/* EVENT_IDS, filled on first use */
	bool			any;		/* an element was written: comma first */
	struct tm_tasks		*tasks;		/* of struct task */
	struct cpu_run		*cpus;
	int			ncpus;
	uint64_t		last_ts;
	struct tep_event	*sw;		/* sched_switch, NULL if the file has none */
	const struct tm_evout_buffer *buffers;	/* their names: args "buffer" */
	int			nbuffers;
	int			pid_base;	/* added to pids and tids: machine << 23 */
	bool			head, tail;	/* write the document's head, its tail */
	char			host[72];	/* " (hostname)" of one of several machines */
	bool			*cpu_used;	/* CPUs with a lane slice: named at the end */
	const struct tep_format_field *prev_pid, *prev_comm, *next_pid, *next_comm;
	struct fgraph_event	fg_entry, fg_exit;
	struct tep_event	*fn;		/* ftrace:function, NULL without an ip field */
	const struct tep_format_field *fn_ip;
};

static struct chrome_output *to_chrome(struct tm_evout *out)
{
	return (struct chrome_output *)out;
}

/* ---- tasks ---- */

static struct task *task_get(struct chrome_output *c, int tid)
{
	bool added;
	struct task *t = (struct task *)tm_tasks_add(c->tasks, tid, &added);

	if (t && added)
		t->open_cpu = -1;
	return t;
}

/* ---- JSON elements ---- */

/* ,"pid":P,"tid":T */
static void put_pid_tid(struct chrome_output *c, int pid, int tid)
{
	jo_lit(&c->jo, ",\"pid\":");
	jo_int(&c->jo, pid);
	jo_lit(&c->jo, ",\"tid\":");
	jo_int(&c->jo, tid);
}

static void element_start(struct chrome_output *c, const char *ph, const char *name, size_t len)
{
	if (c->any)
		jo_lit(&c->jo, ",");
	jo_lit(&c->jo, "\n{\"ph\":\"");
	jo_raw(&c->jo, ph, strlen(ph));
	jo_lit(&c->jo, "\",\"name\":");
	jo_str(&c->jo, name, len);
	c->any = true;
}

/* Hand the held elements to the FILE. */
static int out_write(struct chrome_output *c)
{
	size_t len = c->jo.len;

	c->jo.len = 0;
	if (len && fwrite_unlocked(c->jo.text, 1, len, c->f) != len)
		return tm_fail(errno, "write output");
	return 0;
}

static int element_end(struct chrome_output *c)
{
	jo_lit(&c->jo, "}");
	if (c->jo.err)
		return tm_fail(ENOMEM, "JSON element");
	return c->jo.len >= FLUSH_AT ? out_write(c) : 0;
}

/* ,"buffer":NAME inside args (first: no comma), in a file of several buffers. */
static void put_buffer_arg(struct chrome_output *c, int buf, bool first)
{
	const char *name;

	if (c->nbuffers < 2 || buf < 0 || buf >= c->nbuffers)
		return;
	name = c->buffers[buf].name ?: "";
	if (!first)
		jo_lit(&c->jo, ",");
	jo_lit(&c->jo, "\"buffer\":");
	jo_str(&c->jo, name, strlen(name));
}

/* The slice of the task that ran on cpu in [start, end), on the CPU's lane. */
static int put_cpu_slice(struct chrome_output *c, const struct task *t, int cpu,
			 uint64_t start, uint64_t end)
{
	int pid = c->pid_base + CPU_LANES;

	c->cpu_used[cpu] = true;
	element_start(c, "X", t->k.comm, strlen(t->k.comm));
	jo_lit(&c->jo, ",\"cat\":\"sched\"");
	put_pid_tid(c, pid, pid + 1 + cpu);
	jo_ts_lit(&c->jo, ",\"ts\":", start);
	jo_ts_lit(&c->jo, ",\"dur\":", end > start ? end - start : 0);
	jo_lit(&c->jo, ",\"args\":{\"pid\":");
	jo_int(&c->jo, t->k.pid);
	put_buffer_arg(c, 0, false);
	jo_lit(&c->jo, "}");
	return element_end(c);
}

static int put_slice(struct chrome_output *c, struct task *t, int cpu, uint64_t start,
		     uint64_t end)
{
	if (put_cpu_slice(c, t, cpu, start, end))
		return -1;
	if (start < t->last_end)
		start = t->last_end;
	if (end < start)
		end = start;
	t->last_end = end;
	t->open_cpu = -1;
	element_start(c, "X", t->k.comm, strlen(t->k.comm));
	jo_lit(&c->jo, ",\"cat\":\"sched\"");
	put_pid_tid(c, c->pid_base + t->k.pid, c->pid_base + t->k.pid);
	jo_ts_lit(&c->jo, ",\"ts\":", start);
	jo_ts_lit(&c->jo, ",\"dur\":", end - start);
	jo_lit(&c->jo, ",\"args\":{\"cpu\":");
	jo_int(&c->jo, cpu);
	put_buffer_arg(c, 0, false);
	jo_lit(&c->jo, "}");
	return element_end(c);
}

/* Close the slice open on cpu (if any) at ts. */
static int close_cpu(struct chrome_output *c, int cpu, uint64_t ts)
{
	struct cpu_run *run = &c->cpus[cpu];
	struct task *t;

	if (run->tid < 0)
		return 0;
	t = task_get(c, run->tid);
	run->tid = -1;
	return t ? put_slice(c, t, cpu, run->start, ts) : -1;
}

/* The task's name from a comm field of rec (kept when the record is too short). */
static void copy_comm(struct chrome_output *c, struct task *t, const struct tep_format_field *f,
		      const struct tm_event_rec *rec)
{
	const uint8_t *p;
	uint32_t len;

	if (f && tm_field_bytes(c->tep, f, rec->data, rec->size, &p, &len))
		tm_task_set_comm(&t->k, (const char *)p, len);
}

static int on_switch(struct chrome_output *c, const struct tm_event_rec *rec)
{
	uint64_t prev = 0, next = 0;
	struct task *t;
	int cpu = rec->cpu;

	if (cpu < 0 || cpu >= c->ncpus)
		return tm_failx(EINVAL, "sched_switch of CPU %d outside the file's %d CPUs",
				cpu, c->ncpus);
	if (!tm_field_get(c->prev_pid, rec->data, rec->size, c->common.swap, &prev) ||
	    !tm_field_get(c->next_pid, rec->data, rec->size, c->common.swap, &next))
		return 0;	/* a short record: nothing to learn */
	if ((int)prev && (t = task_get(c, (int)prev)))
		copy_comm(c, t, c->prev_comm, rec);
	if (close_cpu(c, cpu, rec->ts))
		return -1;
	if (!(int)next)
		return 0;
	t = task_get(c, (int)next);
	if (!t)
		return -1;
	copy_comm(c, t, c->next_comm, rec);
	if (t->open_cpu >= 0 && close_cpu(c, t->open_cpu, rec->ts))
		return -1;
	t->open_cpu = cpu;
	c->cpus[cpu].tid = t->k.pid;
	c->cpus[cpu].start = rec->ts;
	return 0;
}

/* A kernel address as report names it: its symbol, else the address in hex. */
static const char *func_name(struct chrome_output *c, uint64_t addr, char hex[HEX_LEN])
{
	const char *name = tep_find_function(c->tep, addr);

	if (name)
		return name;
	snprintf(hex, HEX_LEN, "0x%" PRIx64, addr);
	return hex;
}

/* The event of id and its fields' pieces, worked out at its first record (NULL: ENOMEM). */
static struct ev_slot *ev_slot(struct chrome_output *c, int id)
{
	struct ev_slot *sl = &c->slots[(unsigned int)id & (EVENT_IDS - 1)];

	if (sl->known && sl->id == id)
		return sl->fmt ? sl : NULL;
	tm_jsonfmt_free(sl->fmt);	/* an id past 16 bits took the slot */
	sl->known = true;
	sl->id = id;
	sl->ev = tep_find_event(c->tep, id);
	sl->fmt = tm_jsonfmt_new(c->tep, sl->ev);
	if (!sl->fmt)
		tm_fail(ENOMEM, "JSON event fields");
	return sl->fmt ? sl : NULL;
}

/* The fields object (args) of a record of sl's event, "buffer" last in a multi-buffer file. */
static void put_fields(struct chrome_output *c, const struct ev_slot *sl,
		       const struct tm_event_rec *rec)
{
	struct tm_buf *b = &c->jo;
	bool empty;

	if (tm_jsonfmt_put_fields(sl->fmt, b, rec->data, rec->size)) {
		c->jo.err = ENOMEM;
		return;
	}
	if (c->nbuffers < 2 || !b->len || b->text[b->len - 1] != '}')
		return;
	/* the fields' object, reopened: "buffer" after the fields */
	empty = b->len >= 2 && b->text[b->len - 2] == '{';
	b->len--;
	put_buffer_arg(c, rec->buffer, empty);
	jo_lit(&c->jo, "}");
}

static int put_instant(struct chrome_output *c, const struct tm_event_rec *rec, int type)
{
	struct ev_slot *sl = ev_slot(c, type);
	int pid = tm_common_pid(c->tep, &c->common, rec->data, rec->size);
	struct tep_event *ev = sl ? sl->ev : NULL;
	const char *name = ev ? ev->name : "unknown";
	char hex[HEX_LEN];
	uint64_t ip;

	if (!sl || !task_get(c, pid))
		return -1;
	if (ev && ev == c->fn && tm_field_get(c->fn_ip, rec->data, rec->size, c->common.swap, &ip))
		name = func_name(c, ip, hex);
	element_start(c, "i", name, strlen(name));
	jo_lit(&c->jo, ",\"cat\":");
	jo_str(&c->jo, ev ? ev->system : "", ev ? strlen(ev->system) : 0);
	jo_lit(&c->jo, ",\"s\":\"t\"");
	put_pid_tid(c, c->pid_base + pid, c->pid_base + pid);
	jo_ts_lit(&c->jo, ",\"ts\":", rec->ts);
	jo_lit(&c->jo, ",\"args\":");
	put_fields(c, sl, rec);
	return element_end(c);
}

/* ---- function_graph ---- */

/* A call element's head: its function's name, the task's lane, ts. */
static void put_call_head(struct chrome_output *c, const char *ph, int pid, uint64_t func,
			  uint64_t ts)
{
	char hex[HEX_LEN];
	const char *name = func_name(c, func, hex);

	element_start(c, ph, name, strlen(name));
	jo_lit(&c->jo, ",\"cat\":\"funcgraph\"");
	put_pid_tid(c, c->pid_base + pid, c->pid_base + pid);
	jo_ts_lit(&c->jo, ",\"ts\":", ts);
}

static int put_call_args(struct chrome_output *c, uint64_t func, int64_t depth, int buf)
{
	jo_lit(&c->jo, ",\"args\":{\"depth\":");
	jo_int(&c->jo, depth);
	jo_lit(&c->jo, ",\"func\":\"");
	jo_hex(&c->jo, func);
	jo_lit(&c->jo, "\"");
	put_buffer_arg(c, buf, false);
	jo_lit(&c->jo, "}");
	return element_end(c);
}

static int call_push(struct task *t, uint64_t func, int64_t depth)
{
	if (t->ncalls == t->calls_cap) {
		uint32_t cap = t->calls_cap ? t->calls_cap * 2 : 16;
		struct call *calls = reallocarray(t->calls, cap, sizeof(*calls));

		if (!calls)
			return tm_fail(ENOMEM, "function_graph calls");
		t->calls = calls;
		t->calls_cap = cap;
	}
	t->calls[t->ncalls++] = (struct call){ .func = func, .depth = depth };
	return 0;
}

/* func and depth of a funcgraph record; false when it is too short for func. */
static bool call_fields(struct chrome_output *c, const struct fgraph_event *fe,
			const struct tm_event_rec *rec, uint64_t *func, int64_t *depth)
{
	uint64_t d = 0;

	if (!tm_field_get(fe->func, rec->data, rec->size, c->common.swap, func))
		return false;
	if (fe->depth)
		tm_field_get(fe->depth, rec->data, rec->size, c->common.swap, &d);
	*depth = (int64_t)d;
	return true;
}

static int on_fg_entry(struct chrome_output *c, const struct tm_event_rec *rec, int pid)
{
	uint64_t func;
	int64_t depth;
	struct task *t;

	if (!call_fields(c, &c->fg_entry, rec, &func, &depth))
		return put_instant(c, rec, c->fg_entry.ev->id);
	t = task_get(c, pid);
	if (!t || call_push(t, func, depth))
		return -1;
	put_call_head(c, "B", pid, func, rec->ts);
	return put_call_args(c, func, depth, rec->buffer);
}

/*
 * An exit ends the innermost open call of its function and depth, and the
 * calls opened after it (their exits were lost) at the same time: every "E"
 * closes the "B" a viewer matches it with. An exit without one (the file
 * starts inside the call) is an "X" of the kernel's own duration, ending at
 * the exit: an unmatched "E" would close another slice.
 */
static int on_fg_exit(struct chrome_output *c, const struct tm_event_rec *rec, int pid)
{
	uint64_t func, call = 0, ret = 0, dur = 0;
	struct fgraph_event *fe = &c->fg_exit;
	int64_t depth;
	struct task *t;
	uint32_t i;

	if (!call_fields(c, fe, rec, &func, &depth))
		return put_instant(c, rec, fe->ev->id);
	t = task_get(c, pid);
	if (!t)
		return -1;
	for (i = t->ncalls; i > 0; i--)
		if (t->calls[i - 1].func == func && t->calls[i - 1].depth == depth)
			break;
	while (i && t->ncalls >= i) {
		put_call_head(c, "E", pid, t->calls[--t->ncalls].func, rec->ts);
		jo_lit(&c->jo, ",\"args\":{");
		put_buffer_arg(c, rec->buffer, true);
		jo_lit(&c->jo, "}");
		if (element_end(c))
			return -1;
	}
	if (i)
		return 0;
	if (fe->calltime && fe->rettime &&
	    tm_field_get(fe->calltime, rec->data, rec->size, c->common.swap, &call) &&
	    tm_field_get(fe->rettime, rec->data, rec->size, c->common.swap, &ret) && ret > call)
		dur = ret - call;
	put_call_head(c, "X", pid, func, rec->ts > dur ? rec->ts - dur : 0);
	jo_ts_lit(&c->jo, ",\"dur\":", rec->ts > dur ? dur : rec->ts);
	return put_call_args(c, func, depth, rec->buffer);
}

/* A funcgraph record: a call of its task; the idle tasks (pid 0 on every CPU) keep instants. */
static int on_fgraph(struct chrome_output *c, const struct tm_event_rec *rec, int type)
{
	int pid = tm_common_pid(c->tep, &c->common, rec->data, rec->size);

	if (pid <= 0)
		return put_instant(c, rec, type);
	if (c->fg_entry.ev && type == c->fg_entry.ev->id)
		return on_fg_entry(c, rec, pid);
	return on_fg_exit(c, rec, pid);
}

static void find_fgraph(struct chrome_output *c, struct fgraph_event *fe, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(c->tep, "ftrace", name);

	memset(fe, 0, sizeof(*fe));
	if (!ev || !(fe->func = tep_find_field(ev, "func")))
		return;
	fe->ev = ev;
	fe->depth = tep_find_field(ev, "depth");
	fe->calltime = tep_find_field(ev, "calltime");
	fe->rettime = tep_find_field(ev, "rettime");
}

/* The events named by kernel functions: function_graph's and ftrace:function. */
static void find_ftrace(struct chrome_output *c)
{
	find_fgraph(c, &c->fg_entry, "funcgraph_entry");
	find_fgraph(c, &c->fg_exit, "funcgraph_exit");
	c->fn = tep_find_event_by_name(c->tep, "ftrace", "function");
	c->fn_ip = c->fn ? tep_find_field(c->fn, "ip") : NULL;
	if (!c->fn_ip)
		c->fn = NULL;
}

/* A loss: one global instant, count -1 when the kernel did not say how many. */
static int put_lost(struct chrome_output *c, int buf, int cpu, int64_t missed, uint64_t ts)
{
	element_start(c, "i", "events lost", 11);
	jo_lit(&c->jo, ",\"cat\":\"tracemap\",\"s\":\"g\"");
	put_pid_tid(c, c->pid_base, c->pid_base);
	jo_ts_lit(&c->jo, ",\"ts\":", ts);
	jo_lit(&c->jo, ",\"args\":{\"cpu\":");
	jo_int(&c->jo, cpu);
	jo_lit(&c->jo, ",\"count\":");
	jo_int(&c->jo, missed);
	put_buffer_arg(c, buf, false);
	jo_lit(&c->jo, "}");
	return element_end(c);
}

/* ---- the output interface ---- */

/* One of several machines: its pid range, its name, which end of the document it writes. */
static void set_machine(struct chrome_output *c, const struct tm_evout_info *info)
{
	const char *u = info->uname, *sp = u ? strchr(u, ' ') : NULL;
	int n = sp ? (int)strcspn(sp + 1, " ") : 0;

	c->head = info->machine <= 0;
	c->tail = info->machine >= info->machines - 1;
	c->any = !c->head;	/* the previous machine wrote elements: a comma first */
	c->pid_base = info->machine > 0 ? info->machine << MACHINE_SHIFT : 0;
	if (info->machines > 1)
		snprintf(c->host, sizeof(c->host), " (%.*s)", n ? n : 7, n ? sp + 1 : "unknown");
}

static int chrome_begin(struct tm_evout *out, const struct tm_evout_info *info)
{
	struct chrome_output *c = to_chrome(out);
	const char *clock = info->nbuffers ? info->buffers[0].clock : NULL;
	int i;

	c->tep = info->tep;
	c->buffers = info->buffers;
	c->nbuffers = info->nbuffers;
	c->ncpus = info->cpu_slots > 0 ? info->cpu_slots : 1;
	c->cpus = calloc((size_t)c->ncpus, sizeof(*c->cpus));
	c->cpu_used = calloc((size_t)c->ncpus, sizeof(*c->cpu_used));
	c->slots = calloc(EVENT_IDS, sizeof(*c->slots));
	if (!c->cpus || !c->cpu_used || !c->slots)
		return tm_fail(ENOMEM, "Chrome JSON output");
	c->tasks = tm_tasks_new(sizeof(struct task));
	if (!c->tasks)
		return -1;
	set_machine(c, info);
	for (i = 0; i < c->ncpus; i++)
		c->cpus[i].tid = -1;
	c->sw = tep_find_event_by_name(c->tep, "sched", "sched_switch");
	if (c->sw) {
		c->prev_pid = tep_find_field(c->sw, "prev_pid");
		c->prev_comm = tep_find_field(c->sw, "prev_comm");
		c->next_pid = tep_find_field(c->sw, "next_pid");
		c->next_comm = tep_find_field(c->sw, "next_comm");
		if (!c->prev_pid || !c->next_pid)
			c->sw = NULL;
	}
	tm_common_init(&c->common, c->tep);
	find_ftrace(c);
	if (!c->head)
		return 0;
	jo_lit(&c->jo, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"tracemap "
		TM_VERSION "\",\"clock\":");
	clock = clock && *clock ? clock : "local";
	jo_str(&c->jo, clock, strlen(clock));
	jo_lit(&c->jo, "},\"traceEvents\":[");
	return c->jo.err ? tm_fail(ENOMEM, "Chrome JSON output") : 0;
}

static int chrome_event(struct tm_evout *out, const struct tm_event_rec *rec)
{
	struct chrome_output *c = to_chrome(out);
	int type;

	c->last_ts = rec->ts;
	if (rec->missed && put_lost(c, rec->buffer, rec->cpu, rec->missed, rec->ts))
		return -1;
	type = tm_common_type(c->tep, &c->common, rec->data, rec->size);
	if (c->sw && rec->buffer == 0 && type == c->sw->id)
		return on_switch(c, rec);
	if ((c->fg_entry.ev && type == c->fg_entry.ev->id) ||
	    (c->fg_exit.ev && type == c->fg_exit.ev->id))
		return on_fgraph(c, rec, type);
	return put_instant(c, rec, type);
}

static int chrome_lost(struct tm_evout *out, int buf, int cpu, int64_t missed)
{
	struct chrome_output *c = to_chrome(out);

	return missed ? put_lost(c, buf, cpu, missed, c->last_ts) : 0;
}

/* One "M" element of pid/tid: args {"name": name + suffix}, or {"sort_index": sort}. */
static int put_meta(struct chrome_output *c, const char *what, int pid, int tid,
		    const char *name, const char *suffix, int sort)
{
	size_t nlen = name ? strlen(name) : 0, slen = suffix ? strlen(suffix) : 0;
	char *both;

	element_start(c, "M", what, strlen(what));
	put_pid_tid(c, pid, tid);
	jo_lit(&c->jo, ",\"args\":{");
	if (name) {
		/* one string: escaped as a whole, as a byte sequence may span the two */
		both = malloc(nlen + slen + 1);
		if (!both)
			return tm_fail(ENOMEM, "JSON element");
		memcpy(both, name, nlen);
		memcpy(both + nlen, suffix, slen + 1);
		jo_lit(&c->jo, "\"name\":");
		jo_str(&c->jo, both, nlen + slen);
		free(both);
	} else {
		jo_lit(&c->jo, "\"sort_index\":");
		jo_int(&c->jo, sort);
	}
	jo_lit(&c->jo, "}");
	return element_end(c);
}

static int put_name(struct chrome_output *c, const struct task *t)
{
	const char *comm = t->k.comm[0] ? t->k.comm : tep_data_comm_from_pid(c->tep, t->k.pid);
	int id = c->pid_base + t->k.pid;

	return put_meta(c, "process_name", id, id, comm, c->host, 0) ||
	       put_meta(c, "thread_name", id, id, comm, "", 0);
}

/*
 * The CPU lanes' process, first in the list, and a named thread per CPU in
 * CPU order. Left out when no task ran, except for one of several machines:
 * the next machine's elements follow a comma, so this one writes at least one.
 */
static int put_cpu_names(struct chrome_output *c)
{
	int pid = c->pid_base + CPU_LANES, cpu;
	bool any = false;
	char name[32];

	for (cpu = 0; cpu < c->ncpus; cpu++)
		any |= c->cpu_used[cpu];
	if (!any && c->head && c->tail)
		return 0;
	if (put_meta(c, "process_name", pid, pid, "CPUs", c->host, 0) ||
	    put_meta(c, "process_sort_index", pid, pid, NULL, NULL, -1))
		return -1;
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		if (!c->cpu_used[cpu])
			continue;
		snprintf(name, sizeof(name), "CPU %d", cpu);
		if (put_meta(c, "thread_name", pid, pid + 1 + cpu, name, "", 0) ||
		    put_meta(c, "thread_sort_index", pid, pid + 1 + cpu, NULL, NULL, cpu))
			return -1;
	}
	return 0;
}

static int chrome_end(struct tm_evout *out)
{
	struct chrome_output *c = to_chrome(out);
	const struct task *t;
	size_t i;
	int cpu;

	for (cpu = 0; cpu < c->ncpus; cpu++)
		if (close_cpu(c, cpu, c->last_ts))
			return -1;
	for (i = 0; (t = (const struct task *)tm_tasks_next(c->tasks, &i));)
		if (put_name(c, t))
			return -1;
	if (put_cpu_names(c))
		return -1;
	if (c->tail)
		jo_lit(&c->jo, "\n]}\n");
	if (c->jo.err)
		return tm_fail(ENOMEM, "Chrome JSON output");
	if (out_write(c) || fflush(c->f))
		return tm_fail(errno, "write output");
	return 0;
}

static void chrome_free(struct tm_evout *out)
{
	struct chrome_output *c = to_chrome(out);
	struct task *t;
	size_t i;

	for (i = 0; c->slots && i < EVENT_IDS; i++)
		tm_jsonfmt_free(c->slots[i].fmt);
	free(c->slots);
	free(c->jo.text);
	for (i = 0; c->tasks && (t = (struct task *)tm_tasks_next(c->tasks, &i));)
		free(t->calls);
	tm_tasks_free(c->tasks);
	free(c->cpus);
	free(c->cpu_used);
	free(c);
}

static const struct tm_evout_ops chrome_ops = {
	.begin = chrome_begin,
	.event = chrome_event,
	.lost = chrome_lost,
	.end = chrome_end,
	.free = chrome_free,
};

struct tm_evout *tm_evout_chrome_new(FILE *f)
{
	struct chrome_output *c = calloc(1, sizeof(*c));

	if (!c) {
		tm_fail(ENOMEM, "Chrome JSON output");
		return NULL;
	}
	c->base.ops = &chrome_ops;
	c->f = f;
	c->head = c->tail = true;
	return &c->base;
}
