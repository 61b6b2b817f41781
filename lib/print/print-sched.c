// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-sched.c - the text libtraceevent's sched_switch plugin prints for
 * sched_switch and sched_wakeup(_new) ("sh:10535 [120] S ==> true:10655
 * [120]", "sh:10535 [120] CPU:000"), produced directly, with the plugin's
 * side effect (each comm it prints is registered for its pid, once per
 * record printed, as the plugin registers it: commit()). The
 * prev_state text is not guessed: it is learnt from libtraceevent's own
 * output the first time each state value appears (print.c passes it in).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "dat/dat-format.h"
#include "util/internal.h"
#include "print-fast.h"
#include "print-buf.h"

#define SCHED_STATES	64
#define SCHED_SEEN	4096	/* (pid, comm) pairs already registered */

struct seen_comm {
	int		pid;
	unsigned int	len;	/* 0: empty */
	char		comm[32];
};

/* A comm the render printed, registered by commit() once its text is printed alone. */
struct pending_comm {
	int		pid;
	unsigned int	len;
	const char	*comm;	/* into the record: valid until commit() */
};

struct state_text {
	uint64_t	value;
	char		text[24];
	unsigned int	len;
	bool		confirmed;	/* a line printed with it matched libtraceevent's */
};

struct schedfmt {
	struct tm_fastfmt		base;
	bool				is_switch;
	/* sched_switch */
	const struct tep_format_field	*prev_comm, *prev_pid, *prev_prio, *prev_state;
	const struct tep_format_field	*next_comm, *next_pid, *next_prio;
	/* sched_wakeup(_new) */
	const struct tep_format_field	*comm, *pid, *prio, *success, *target_cpu;
	struct state_text		states[SCHED_STATES];
	int				nstates;
	struct seen_comm		*seen;
	struct pending_comm		pending[2];	/* of the last render */
	int				npending;
};

static bool comm_field(const struct tep_format_field *f)
{
	return f && (f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
	       f->size > 0 && f->size < 256;
}

static bool num_field(const struct tep_format_field *f)
{
	return f && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
}

/* A field a handler reads: where it goes in struct schedfmt and what it must be. */
struct sched_field {
	bool		is_switch;	/* sched_switch's, else sched_wakeup(_new)'s */
	const char	*name;
	size_t		slot;		/* offsetof the field pointer */
	char		kind;		/* 'c' comm (char array), 'n' number, '?' number or absent */
};

#define SLOT(m)	offsetof(struct schedfmt, m)

static const struct sched_field sched_fields[] = {
	{ true, "prev_comm", SLOT(prev_comm), 'c' },
	{ true, "prev_pid", SLOT(prev_pid), 'n' },
	{ true, "prev_prio", SLOT(prev_prio), 'n' },
	{ true, "prev_state", SLOT(prev_state), 'n' },
	{ true, "next_comm", SLOT(next_comm), 'c' },
	{ true, "next_pid", SLOT(next_pid), 'n' },
	{ true, "next_prio", SLOT(next_prio), 'n' },
	{ false, "comm", SLOT(comm), 'c' },
	{ false, "pid", SLOT(pid), 'n' },
	{ false, "prio", SLOT(prio), 'n' },
	{ false, "success", SLOT(success), '?' },	/* older kernels lack these two */
	{ false, "target_cpu", SLOT(target_cpu), '?' },
};

/* Look up the fields of the event's handler; false when one is missing or of the wrong kind. */
static bool bind_fields(struct schedfmt *f, const struct tep_event *ev)
{
	const struct tep_format_field **slot, *fld;
	const struct sched_field *t;
	bool ok = true;

	for (t = sched_fields; t < sched_fields + TM_ARRAY_SIZE(sched_fields); t++) {
		if (t->is_switch != f->is_switch)
			continue;
		fld = tep_find_any_field((struct tep_event *)ev, t->name);
		slot = (const struct tep_format_field **)((char *)f + t->slot);
		*slot = fld;
		if (!fld && t->kind == '?')
			continue;
		ok &= t->kind == 'c' ? comm_field(fld) : num_field(fld);
	}
	return ok;
}

static uint64_t num(const struct schedfmt *f, const struct tep_format_field *fld,
		    const uint8_t *data)
{
	return tm_get_uint(data + fld->offset, (unsigned int)fld->size, f->base.swap);
}

/* Values whose %d, %lld and zero-extended readings all print the same. */
static bool small(uint64_t v)
{
	return v < 0x80000000ULL;
}

/* The comm as the plugin prints it ("%.*s" of the field), its registration left pending. */
static int put_comm(struct schedfmt *f, struct tm_buf *b, const struct tep_format_field *fld,
		    const uint8_t *data, uint64_t pid)
{
	const char *comm = (const char *)data + fld->offset;
	size_t len = strnlen(comm, (size_t)fld->size);

	if (tm_buf_reserve(b, len))
		return -1;
	tm_buf_put_reserved(b, comm, len);
	if (f->npending < (int)TM_ARRAY_SIZE(f->pending))
		f->pending[f->npending++] = (struct pending_comm){
			.pid = (int)pid, .len = (unsigned int)len, .comm = comm,
		};
	return 0;
}

/*
 * Register a comm as the plugin does, each time. Before libtraceevent's
 * first name lookup it keeps every registration, and which of a pid's names
 * a lookup then finds depends on them all; after it a pair registered again
 * changes nothing, so that call is skipped.
 */
static void register_comm(struct schedfmt *f, const struct pending_comm *c)
{
	struct seen_comm *s = &f->seen[(unsigned int)c->pid % SCHED_SEEN];
	bool ready = f->base.cmdlines_ready && *f->base.cmdlines_ready;
	char name[256];

	if (ready && s->len == c->len + 1 && s->pid == c->pid && !memcmp(s->comm, c->comm, c->len))
		return;
	memcpy(name, c->comm, c->len);
	name[c->len] = '\0';
	tep_register_comm(f->base.tep, name, c->pid);
	if (f->base.comm_gen)
		(*f->base.comm_gen)++;
	if (c->len < sizeof(s->comm)) {
		s->pid = c->pid;
		s->len = c->len + 1;
		memcpy(s->comm, c->comm, c->len);
	}
}

/* The render's text is printed alone (libtraceevent's plugin did not run): its registrations. */
static void sched_commit(struct tm_fastfmt *base)
{
	struct schedfmt *f = (struct schedfmt *)base;

	for (int i = 0; i < f->npending; i++)
		register_comm(f, &f->pending[i]);
	f->npending = 0;
}

/* "comm:pid [prio]", the task text of the sched_switch plugin (registers comm). */
static int put_task(struct schedfmt *f, struct tm_buf *b, const struct tep_format_field *comm,
		    const uint8_t *data, uint64_t pid, uint64_t prio)
{
	if (put_comm(f, b, comm, data, pid) || tm_buf_lit(b, ":") ||
	    tm_buf_dec(b, pid, false) || tm_buf_lit(b, " [") ||
	    tm_buf_dec(b, prio, false) || tm_buf_lit(b, "]"))
		return -1;
	return 0;
}

static struct state_text *find_state(struct schedfmt *f, uint64_t v)
{
	int i;

	for (i = 0; i < f->nstates; i++)
		if (f->states[i].value == v)
			return &f->states[i];
	return NULL;
}

static bool fits(const struct tep_format_field *fld, uint32_t size)
{
	return !fld || (uint32_t)fld->offset + (uint32_t)fld->size <= size;
}

/* Text before the state ("comm:pid [prio] ") into b, without side effects. */
static int switch_prefix(const struct schedfmt *f, struct tm_buf *b, const uint8_t *data)
{
	const char *comm = (const char *)data + f->prev_comm->offset;
	size_t len = strnlen(comm, (size_t)f->prev_comm->size);

	if (tm_buf_reserve(b, len + 2))
		return -1;
	tm_buf_put_reserved(b, comm, len);
	tm_buf_put_reserved(b, ":", 1);
	if (tm_buf_dec(b, num(f, f->prev_pid, data), false) || tm_buf_reserve(b, 2))
		return -1;
	tm_buf_put_reserved(b, " [", 2);
	if (tm_buf_dec(b, num(f, f->prev_prio, data), false) || tm_buf_reserve(b, 2))
		return -1;
	tm_buf_put_reserved(b, "] ", 2);
	return 0;
}

static int switch_render(struct tm_fastfmt *base, struct tm_buf *b, const uint8_t *data,
			 uint32_t size)
{
	struct schedfmt *f = (struct schedfmt *)base;
	uint64_t ppid, pprio, npid, nprio;
	const struct state_text *st;

	f->npending = 0;
	if (!fits(f->prev_comm, size) || !fits(f->prev_pid, size) ||
	    !fits(f->prev_prio, size) || !fits(f->prev_state, size) ||
	    !fits(f->next_comm, size) || !fits(f->next_pid, size) ||
	    !fits(f->next_prio, size))
		return -1;
	ppid = num(f, f->prev_pid, data);
	pprio = num(f, f->prev_prio, data);
	npid = num(f, f->next_pid, data);
	nprio = num(f, f->next_prio, data);
	st = find_state(f, num(f, f->prev_state, data));
	if (!st || !small(ppid) || !small(pprio) || !small(npid) || !small(nprio))
		return -1;
	if (!st->confirmed)
		base->unconfirmed = true;
	if (put_task(f, b, f->prev_comm, data, ppid, pprio) || tm_buf_lit(b, " ") ||
	    tm_buf_reserve(b, st->len))
		return -1;
	tm_buf_put_reserved(b, st->text, st->len);
	if (tm_buf_lit(b, " ==> ") || put_task(f, b, f->next_comm, data, npid, nprio))
		return -1;
	return 0;
}

/* Keep the text between "comm:pid [prio] " and " ==> " for this state value. */
static void switch_learn(struct tm_fastfmt *base, const uint8_t *data, uint32_t size,
			 const char *text, size_t len)
{
	struct schedfmt *f = (struct schedfmt *)base;
	struct tm_buf pre = { 0 };
	struct state_text *st;
	const char *arrow;
	uint64_t v;

	if (f->nstates == SCHED_STATES || !fits(f->prev_state, size) ||
	    !fits(f->prev_comm, size) || !fits(f->prev_pid, size) ||
	    !fits(f->prev_prio, size))
		return;
	v = num(f, f->prev_state, data);
	if (find_state(f, v) || switch_prefix(f, &pre, data))
		goto out;
	if (pre.len > len || memcmp(pre.text, text, pre.len))
		goto out;
	arrow = memmem(text + pre.len, len - pre.len, " ==> ", 5);
	if (!arrow || (size_t)(arrow - text) - pre.len >= sizeof(st->text) ||
	    memchr(text + pre.len, ' ', (size_t)(arrow - text) - pre.len))
		goto out;
	st = &f->states[f->nstates++];
	st->value = v;
	st->len = (unsigned int)((size_t)(arrow - text) - pre.len);
	memcpy(st->text, text + pre.len, st->len);
	st->confirmed = false;
out:
	free(pre.text);
}

static int wakeup_render(struct tm_fastfmt *base, struct tm_buf *b, const uint8_t *data,
			 uint32_t size)
{
	struct schedfmt *f = (struct schedfmt *)base;
	uint64_t pid, prio, cpu = 0, ok = 0;

	f->npending = 0;
	if (!fits(f->comm, size) || !fits(f->pid, size) || !fits(f->prio, size) ||
	    !fits(f->success, size) || !fits(f->target_cpu, size))
		return -1;
	pid = num(f, f->pid, data);
	prio = num(f, f->prio, data);
	if (f->target_cpu)
		cpu = num(f, f->target_cpu, data);
	if (f->success)
		ok = num(f, f->success, data);
	if (!small(pid) || !small(prio) || cpu > 999 || !small(ok))
		return -1;
	if (put_task(f, b, f->comm, data, pid, prio))
		return -1;
	if (f->success && (tm_buf_lit(b, " success=") || tm_buf_dec(b, ok, false)))
		return -1;
	if (f->target_cpu) {
		char c[3] = { (char)('0' + cpu / 100), (char)('0' + cpu / 10 % 10),
			      (char)('0' + cpu % 10) };

		if (tm_buf_lit(b, " CPU:") || tm_buf_add(b, c, 3))
			return -1;
	}
	return 0;
}

/* The record printed right with its prev_state text: that text is libtraceevent's. */
static void switch_confirm(struct tm_fastfmt *base, const uint8_t *data, uint32_t size)
{
	struct schedfmt *f = (struct schedfmt *)base;
	struct state_text *st;

	if (fits(f->prev_state, size) && (st = find_state(f, num(f, f->prev_state, data))))
		st->confirmed = true;
}

static void sched_free(struct tm_fastfmt *base)
{
	struct schedfmt *f = (struct schedfmt *)base;

	tm_free_sparse(f->seen, SCHED_SEEN * sizeof(*f->seen));
	free(f);
}

static const struct tm_fastfmt_ops switch_ops = {
	.render = switch_render,
	.learn = switch_learn,
	.confirm = switch_confirm,
	.commit = sched_commit,
	.free = sched_free,
};

static const struct tm_fastfmt_ops wakeup_ops = {
	.render = wakeup_render,
	.commit = sched_commit,
	.free = sched_free,
};

struct tm_fastfmt *tm_schedfmt_compile(struct tep_handle *tep, const struct tep_event *ev,
				       bool swap)
{
	struct schedfmt *f;

	if (strcmp(ev->system, "sched"))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (f)
		f->seen = tm_alloc_sparse(SCHED_SEEN * sizeof(*f->seen));
	if (!f || !f->seen) {
		free(f);
		return NULL;
	}
	f->base.tep = tep;
	f->base.swap = swap;
	if (!strcmp(ev->name, "sched_switch")) {
		f->is_switch = true;
		f->base.ops = &switch_ops;
		if (bind_fields(f, ev))
			return &f->base;
	} else if (!strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new")) {
		f->base.ops = &wakeup_ops;
		if (bind_fields(f, ev))
			return &f->base;
	}
	sched_free(&f->base);
	return NULL;
}
