// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-sched.c - the tables sched_switch and the wakeups make, in one pass:
 * Perfetto's sched_slice (a stretch one task ran on a CPU, from the switch
 * that put it there to the next; end_state the letters of prev_state, "R+"
 * when preempted) and thread_state (Running, then the state it left in,
 * then R from the wakeup to the switch that runs it), and wakeup_latency
 * (from a task becoming runnable, by a wakeup or by being preempted, to
 * the switch that runs it, as perf sched latency counts it). A row cut
 * by a loss on its CPU ends there with dur NULL and lost 1; one over a
 * loss elsewhere on the machine keeps its dur and has lost 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "print/print-internal.h"
#include "sql-internal.h"
#include "trace/tm-trace.h"

/* The kernel's letters for prev_state's bits since 4.14, when the format's are unknown. */
#define STATE_LETTERS	"SDTtXZPI"
#define STATE_MAX	16

struct sched_cpu {
	bool		on;
	int64_t		utid;
	int64_t		prio;
	uint64_t	ts;
};

struct sched_thr {
	bool		open, running, pending;
	uint64_t	st_ts;
	int		st_cpu;			/* -1: not on a CPU */
	char		state[STATE_MAX];
	int64_t		waker_utid;		/* SQL_NULL: none */
	uint64_t	wake_ts;
	int64_t		waker_tid, waker_cpu, target_cpu;	/* SQL_NULL: none */
	const char	*reason;
};

struct sql_sched {
	struct tm_sql		*s;
	const struct sql_loss	*l;
	int			machine, cpus;
	struct sched_cpu	*cpu;
	struct sched_thr	*t;		/* by utid */
	size_t			nt;
	sqlite3_stmt		*ins_slice, *ins_state, *ins_wake;
	char			letters[33];
	int			nletters;
	int64_t			slice_id, state_id;
};

struct sql_sched *tm_sql_sched_new(struct tm_sql *s, const struct sql_loss *l, int machine, int cpus)
{
	struct sql_sched *sc = calloc(1, sizeof(*sc));

	if (!sc || !(sc->cpu = calloc((size_t)cpus, sizeof(*sc->cpu)))) {
		free(sc);
		tm_fail(ENOMEM, "sql sched");
		return NULL;
	}
	sc->s = s;
	sc->l = l;
	sc->machine = machine;
	sc->cpus = cpus;
	snprintf(sc->letters, sizeof(sc->letters), "%s", STATE_LETTERS);
	sc->nletters = (int)strlen(sc->letters);
	if ((s->derived & SQL_D_SLICE && !(sc->ins_slice = tm_sql_insert(s, "sched_slice", 9))) ||
	    (s->derived & SQL_D_STATE && !(sc->ins_state = tm_sql_insert(s, "thread_state", 13))) ||
	    (s->derived & SQL_D_WAKEUP && !(sc->ins_wake = tm_sql_insert(s, "wakeup_latency", 10)))) {
		tm_sql_sched_free(sc);
		return NULL;
	}
	return sc;
}

void tm_sql_sched_free(struct sql_sched *sc)
{
	if (!sc)
		return;
	sqlite3_finalize(sc->ins_slice);
	sqlite3_finalize(sc->ins_state);
	sqlite3_finalize(sc->ins_wake);
	free(sc->cpu);
	free(sc->t);
	free(sc);
}

/* The state of utid u, grown as utids are made. */
static struct sched_thr *thr(struct sql_sched *sc, int64_t u)
{
	struct sched_thr *t;

	if (u < 0)
		return NULL;
	if ((size_t)u >= sc->nt) {
		t = tm_sql_grow(sc->t, &sc->nt, sizeof(*t), (size_t)u, "sql sched");
		if (!t)
			return NULL;
		sc->t = t;
	}
	return &sc->t[u];
}

/* The letters of the switch's first prev_state (the format's own table when plugins read it). */
static void learn_letters(struct sql_sched *sc, const struct tep_event *ev)
{
	char *l = tm_sched_states(ev);

	if (l) {
		snprintf(sc->letters, sizeof(sc->letters), "%s", l);
		sc->nletters = (int)strlen(sc->letters);
		free(l);
	}
}

/* prev_state as Perfetto writes end_state: "R", "R+" (preempted), else its letters. */
static void state_text(const struct sql_sched *sc, int64_t v, char *out)
{
	uint64_t known = (1ULL << sc->nletters) - 1;
	int bit, n = 0;

	if ((uint64_t)v & (1ULL << sc->nletters)) {
		strcpy(out, "R+");
		return;
	}
	if (!((uint64_t)v & known)) {
		strcpy(out, "R");
		return;
	}
	for (bit = 0; bit < sc->nletters && n < STATE_MAX - 1; bit++)
		if ((uint64_t)v & (1ULL << bit))
			out[n++] = sc->letters[bit];
	out[n] = '\0';
}

static int ucpu(const struct sql_sched *sc, int cpu)
{
	return sc->s->ucpu_base + cpu;
}

static int slice_row(struct sql_sched *sc, int cpu, uint64_t end, const char *end_state,
		     bool cut)
{
	struct sched_cpu *c = &sc->cpu[cpu];

	c->on = false;
	if (!sc->ins_slice)
		return 0;
	return tm_sql_row(sc->s, sc->ins_slice, sc->machine, "iiIiitiii", sc->slice_id++,
			  (int64_t)c->ts, cut ? SQL_NULL : (int64_t)(end - c->ts), (int64_t)cpu,
			  c->utid, end_state, c->prio, (int64_t)ucpu(sc, cpu), (int64_t)cut);
}

/* Close u's open thread_state at end (cut: by a loss on its CPU). */
static int state_close(struct sql_sched *sc, int64_t u, uint64_t end, bool cut)
{
	struct sched_thr *t = &sc->t[u];
	bool lost = cut || tm_sql_spans_loss(sc->l, -1, t->st_ts);

	if (!t->open)
		return 0;
	t->open = false;
	if (!sc->ins_state)
		return 0;
	return tm_sql_row(sc->s, sc->ins_state, sc->machine, "iiIIitnnInnIi", sc->state_id++,
			  (int64_t)t->st_ts, cut ? SQL_NULL : (int64_t)(end - t->st_ts),
			  t->st_cpu >= 0 ? (int64_t)t->st_cpu : SQL_NULL, u, t->state,
			  t->waker_utid,
			  t->st_cpu >= 0 ? (int64_t)ucpu(sc, t->st_cpu) : SQL_NULL, (int64_t)lost);
}

static void state_open(struct sched_thr *t, uint64_t ts, int cpu, const char *state,
		       int64_t waker)
{
	t->open = true;
	t->st_ts = ts;
	t->st_cpu = cpu;
	t->waker_utid = waker;
	snprintf(t->state, sizeof(t->state), "%s", state);
}

static int wake_row(struct sql_sched *sc, int64_t u, int64_t tid, uint64_t ts, int cpu)
{
	struct sched_thr *t = &sc->t[u];

	t->pending = false;
	if (!sc->ins_wake)
		return 0;
	return tm_sql_row(sc->s, sc->ins_wake, sc->machine, "iiiIIiIiti", (int64_t)t->wake_ts,
			  (int64_t)(ts - t->wake_ts), tid, t->waker_tid, t->waker_cpu, (int64_t)cpu,
			  t->target_cpu, u, t->reason,
			  (int64_t)tm_sql_spans_loss(sc->l, -1, t->wake_ts));
}

static int switch_out(struct sql_sched *sc, int64_t pu, uint64_t ts, const char *state)
{
	struct sched_thr *p = thr(sc, pu);

	if (!p)
		return -1;
	p->running = false;
	if (state_close(sc, pu, ts, false))
		return -1;
	state_open(p, ts, -1, state, SQL_NULL);
	if (state[0] == 'R') {
		/* preempted: runnable from now, as perf sched latency counts it */
		p->pending = true;
		p->wake_ts = ts;
		p->waker_tid = p->waker_cpu = p->target_cpu = SQL_NULL;
		p->reason = "preempt";
	}
	return 0;
}

static int switch_in(struct sql_sched *sc, int64_t nu, int64_t tid, uint64_t ts, int cpu)
{
	struct sched_thr *n = thr(sc, nu);

	if (!n || state_close(sc, nu, ts, false))
		return -1;
	n->running = true;
	state_open(n, ts, cpu, "Running", SQL_NULL);
	return n->pending ? wake_row(sc, nu, tid, ts, cpu) : 0;
}

static int on_switch(struct sql_sched *sc, const struct tep_event *ev, bool swap,
		     const struct tm_event_rec *rec)
{
	int64_t prev = tm_sql_num(ev, "prev_pid", swap, rec);
	int64_t next = tm_sql_num(ev, "next_pid", swap, rec);
	int64_t pu = tm_sql_utid(sc->s, sc->machine, prev, rec->ts);
	int64_t nu = tm_sql_utid(sc->s, sc->machine, next, rec->ts);
	struct sched_cpu *c = &sc->cpu[rec->cpu];
	char state[STATE_MAX];

	if (pu < 0 || nu < 0)
		return -1;
	if (!sc->slice_id && !sc->state_id)
		learn_letters(sc, ev);
	state_text(sc, tm_sql_num(ev, "prev_state", swap, rec), state);
	if (c->on && slice_row(sc, rec->cpu, rec->ts, state, false))
		return -1;
	*c = (struct sched_cpu){ .on = true, .utid = nu, .ts = rec->ts,
				 .prio = tm_sql_num(ev, "next_prio", swap, rec) };
	if (prev && switch_out(sc, pu, rec->ts, state))
		return -1;
	return next ? switch_in(sc, nu, next, rec->ts, rec->cpu) : 0;
}

static int on_wake(struct sql_sched *sc, const struct tep_event *ev, bool swap,
		   const struct tm_event_rec *rec, int64_t waker, const char *reason)
{
	int64_t tid = tm_sql_num(ev, "pid", swap, rec);
	int64_t u = tm_sql_utid(sc->s, sc->machine, tid, rec->ts);
	int64_t wu = tm_sql_utid(sc->s, sc->machine, waker, rec->ts);
	struct sched_thr *t = thr(sc, u);

	if (!t || wu < 0)
		return -1;
	/* a wakeup of a task that runs or is runnable changes nothing */
	if (t->running || (t->open && t->state[0] == 'R') || !tid)
		return 0;
	if (state_close(sc, u, rec->ts, false))
		return -1;
	state_open(t, rec->ts, -1, "R", wu);
	if (t->pending)
		return 0;
	t->pending = true;
	t->wake_ts = rec->ts;
	t->waker_tid = waker;
	t->waker_cpu = rec->cpu;
	t->target_cpu = tep_find_field((struct tep_event *)ev, "target_cpu") ?
			tm_sql_num(ev, "target_cpu", swap, rec) : SQL_NULL;
	t->reason = reason;
	return 0;
}

int tm_sql_sched_event(struct sql_sched *sc, const struct sql_event *e, bool swap,
		       const struct tm_event_rec *rec, int64_t tid)
{
	if (rec->cpu < 0 || rec->cpu >= sc->cpus)
		return 0;
	switch (e->role) {
	case SQL_R_SWITCH:
		return on_switch(sc, e->ev, swap, rec);
	case SQL_R_WAKING:
	case SQL_R_WAKEUP:
		return on_wake(sc, e->ev, swap, rec, tid, "wakeup");
	case SQL_R_WAKEUP_NEW:
		return on_wake(sc, e->ev, swap, rec, tid, "wakeup_new");
	default:
		return 0;
	}
}

int tm_sql_sched_lost(struct sql_sched *sc, int cpu, uint64_t start)
{
	struct sched_cpu *c;

	(void)start;
	if (cpu < 0 || cpu >= sc->cpus)
		return 0;
	c = &sc->cpu[cpu];
	if (!c->on)
		return 0;
	/* what ran there, and since when, is unknown until the next switch */
	if (c->utid && (size_t)c->utid < sc->nt && sc->t[c->utid].running) {
		sc->t[c->utid].running = false;
		if (state_close(sc, c->utid, 0, true))
			return -1;
	}
	return slice_row(sc, cpu, 0, NULL, true);
}

int tm_sql_sched_end(struct sql_sched *sc, uint64_t ts)
{
	size_t u;
	int cpu;

	for (cpu = 0; cpu < sc->cpus; cpu++)
		if (sc->cpu[cpu].on && slice_row(sc, cpu, ts, NULL, false))
			return -1;
	for (u = 0; u < sc->nt; u++)
		if (sc->t[u].open && state_close(sc, (int64_t)u, ts, false))
			return -1;
	return 0;
}
