// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-spans.c - the tables of entry/exit pairs: syscalls (raw_syscalls
 * sys_enter/sys_exit, or the syscalls system's sys_enter_NAME and
 * sys_exit_NAME when raw_syscalls was not recorded; per thread), irq
 * (irq_handler_entry/exit) and softirq (softirq_entry/exit; per CPU). A
 * syscall's name is its event's, or one learnt from a sys_enter_NAME
 * record of the same number, or x86_64's table (from the build machine's
 * <asm/unistd_64.h>) when the trace's machine is x86_64. A pair over a
 * loss on the machine has lost 1; an irq or softirq whose CPU lost events
 * before its exit is written with dur NULL and lost 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sql-internal.h"
#include "syscall-names.h"	/* build/gen: sql_x86_64_syscalls[] */
#include "trace/tm-trace.h"

#define NAMES_MAX	1024	/* syscall numbers with a name */

struct open_syscall {
	bool		open;
	uint64_t	ts;
	int64_t		id;
	int		cpu;
};

struct open_irq {
	bool		open;
	uint64_t	ts;
	int64_t		irq;
	char		name[32];
};

struct sql_spans {
	struct tm_sql		*s;
	const struct sql_loss	*l;
	int			machine, cpus;
	struct open_syscall	*sys;		/* by utid */
	size_t			nsys;
	struct open_irq		*irq, *soft;	/* by CPU */
	sqlite3_stmt		*ins_sys, *ins_irq, *ins_soft;
	const char		*names[NAMES_MAX];	/* learnt, or x86_64's */
	char			*learnt[NAMES_MAX];
	enum { SYS_ANY, SYS_RAW, SYS_EVENTS } source;
};

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

struct sql_spans *tm_sql_spans_new(struct tm_sql *s, const struct sql_loss *l, int machine, int cpus,
				   const char *uname)
{
	struct sql_spans *sp = calloc(1, sizeof(*sp));
	size_t i, n = sizeof(sql_x86_64_syscalls) / sizeof(sql_x86_64_syscalls[0]);

	if (!sp || !(sp->irq = calloc((size_t)cpus, sizeof(*sp->irq))) ||
	    !(sp->soft = calloc((size_t)cpus, sizeof(*sp->soft)))) {
		tm_sql_spans_free(sp);
		tm_fail(ENOMEM, "sql spans");
		return NULL;
	}
	sp->s = s;
	sp->l = l;
	sp->machine = machine;
	sp->cpus = cpus;
	/* UNAME: "sysname node release machine" */
	if (uname && strlen(uname) > 7 && !strcmp(uname + strlen(uname) - 7, " x86_64"))
		for (i = 0; i < n && i < NAMES_MAX; i++)
			sp->names[i] = sql_x86_64_syscalls[i];
	if ((s->derived & SQL_D_SYSCALL && !(sp->ins_sys = tm_sql_insert(s, "syscalls", 9))) ||
	    (s->derived & SQL_D_IRQ && (!(sp->ins_irq = tm_sql_insert(s, "irq", 7)) ||
					!(sp->ins_soft = tm_sql_insert(s, "softirq", 6))))) {
		tm_sql_spans_free(sp);
		return NULL;
	}
	return sp;
}

void tm_sql_spans_free(struct sql_spans *sp)
{
	int i;

	if (!sp)
		return;
	sqlite3_finalize(sp->ins_sys);
	sqlite3_finalize(sp->ins_irq);
	sqlite3_finalize(sp->ins_soft);
	for (i = 0; i < NAMES_MAX; i++)
		free(sp->learnt[i]);
	free(sp->sys);
	free(sp->irq);
	free(sp->soft);
	free(sp);
}

static struct open_syscall *sys_of(struct sql_spans *sp, int64_t u)
{
	struct open_syscall *n;

	if (u < 0)
		return NULL;
	if ((size_t)u >= sp->nsys) {
		n = tm_sql_grow(sp->sys, &sp->nsys, sizeof(*n), (size_t)u, "sql syscalls");
		if (!n)
			return NULL;
		sp->sys = n;
	}
	return &sp->sys[u];
}

/* sys_enter_NAME's NAME for its number, kept for the raw events too. */
static int learn_name(struct sql_spans *sp, int64_t id, const char *event)
{
	const char *name = strchr(event + 4, '_');

	if (id < 0 || id >= NAMES_MAX || !name || sp->learnt[id])
		return 0;
	sp->learnt[id] = strdup(name + 1);
	if (!sp->learnt[id])
		return tm_fail(ENOMEM, "sql syscalls");
	sp->names[id] = sp->learnt[id];
	return 0;
}

static int sys_enter(struct sql_spans *sp, int64_t tid, int64_t id, const struct tm_event_rec *rec)
{
	int64_t u = tm_sql_utid(sp->s, sp->machine, tid, rec->ts);
	struct open_syscall *o = sys_of(sp, u);

	if (!o)
		return -1;
	*o = (struct open_syscall){ .open = true, .ts = rec->ts, .id = id, .cpu = rec->cpu };
	return 0;
}

static int sys_exit(struct sql_spans *sp, int64_t tid, int64_t id, int64_t ret,
		    const struct tm_event_rec *rec)
{
	int64_t u = tm_sql_utid(sp->s, sp->machine, tid, rec->ts);
	struct open_syscall *o = sys_of(sp, u);
	const char *name;

	if (!o)
		return -1;
	if (!o->open || o->id != id)
		return 0;
	o->open = false;
	if (!sp->ins_sys)
		return 0;
	name = id >= 0 && id < NAMES_MAX ? sp->names[id] : NULL;
	return tm_sql_row(sp->s, sp->ins_sys, sp->machine, "iiiitiiii", (int64_t)o->ts,
			  (int64_t)(rec->ts - o->ts), tid, id, name, ret, (int64_t)o->cpu, u,
			  (int64_t)tm_sql_spans_loss(sp->l, -1, o->ts));
}

/* raw_syscalls and the syscalls system both recorded: the first one seen is read. */
static bool source_is(struct sql_spans *sp, int which)
{
	if (sp->source == SYS_ANY)
		sp->source = which;
	return (int)sp->source == which;
}

static int on_syscall(struct sql_spans *sp, const struct sql_event *e, bool swap,
		      const struct tm_event_rec *rec, int64_t tid)
{
	const struct tep_event *ev = e->ev;
	int64_t nr;

	switch (e->role) {
	case SQL_R_SYS_ENTER:
		if (!source_is(sp, SYS_RAW))
			return 0;
		return sys_enter(sp, tid, tm_sql_num(ev, "id", swap, rec), rec);
	case SQL_R_SYS_EXIT:
		if (!source_is(sp, SYS_RAW))
			return 0;
		return sys_exit(sp, tid, tm_sql_num(ev, "id", swap, rec),
				tm_sql_num(ev, "ret", swap, rec), rec);
	case SQL_R_SYSCALL_ENTER:
		nr = tm_sql_num(ev, "__syscall_nr", swap, rec);
		if (learn_name(sp, nr, ev->name))
			return -1;
		return source_is(sp, SYS_EVENTS) ? sys_enter(sp, tid, nr, rec) : 0;
	default:	/* SQL_R_SYSCALL_EXIT */
		if (!source_is(sp, SYS_EVENTS))
			return 0;
		return sys_exit(sp, tid, tm_sql_num(ev, "__syscall_nr", swap, rec),
				tm_sql_num(ev, "ret", swap, rec), rec);
	}
}

static int irq_row(struct sql_spans *sp, struct open_irq *o, int cpu, uint64_t end, bool cut,
		   int64_t ret)
{
	o->open = false;
	if (!sp->ins_irq)
		return 0;
	return tm_sql_row(sp->s, sp->ins_irq, sp->machine, "iIiitIi", (int64_t)o->ts,
			  cut ? SQL_NULL : (int64_t)(end - o->ts), (int64_t)cpu, o->irq, o->name,
			  cut ? SQL_NULL : ret, (int64_t)cut);
}

static int soft_row(struct sql_spans *sp, struct open_irq *o, int cpu, uint64_t end, bool cut)
{
	size_t n = sizeof(softirq_names) / sizeof(softirq_names[0]);

	o->open = false;
	if (!sp->ins_soft)
		return 0;
	return tm_sql_row(sp->s, sp->ins_soft, sp->machine, "iIiiti", (int64_t)o->ts,
			  cut ? SQL_NULL : (int64_t)(end - o->ts), (int64_t)cpu, o->irq,
			  o->irq >= 0 && (size_t)o->irq < n ? softirq_names[o->irq] : NULL,
			  (int64_t)cut);
}

static int on_irq(struct sql_spans *sp, const struct sql_event *e, bool swap,
		  const struct tm_event_rec *rec)
{
	struct open_irq *i = &sp->irq[rec->cpu], *s = &sp->soft[rec->cpu];
	const struct tep_event *ev = e->ev;

	switch (e->role) {
	case SQL_R_IRQ_ENTRY:
		*i = (struct open_irq){ .open = true, .ts = rec->ts,
					.irq = tm_sql_num(ev, "irq", swap, rec) };
		tm_sql_str(ev, "name", rec, i->name, sizeof(i->name));
		return 0;
	case SQL_R_IRQ_EXIT:
		if (!i->open || i->irq != tm_sql_num(ev, "irq", swap, rec))
			return 0;
		return irq_row(sp, i, rec->cpu, rec->ts, false, tm_sql_num(ev, "ret", swap, rec));
	case SQL_R_SOFTIRQ_ENTRY:
		*s = (struct open_irq){ .open = true, .ts = rec->ts,
					.irq = tm_sql_num(ev, "vec", swap, rec) };
		return 0;
	default:	/* SQL_R_SOFTIRQ_EXIT */
		if (!s->open || s->irq != tm_sql_num(ev, "vec", swap, rec))
			return 0;
		return soft_row(sp, s, rec->cpu, rec->ts, false);
	}
}

int tm_sql_spans_event(struct sql_spans *sp, const struct sql_event *e, bool swap,
		       const struct tm_event_rec *rec, int64_t tid)
{
	if (rec->cpu < 0 || rec->cpu >= sp->cpus)
		return 0;
	if (e->role >= SQL_R_SYS_ENTER && e->role <= SQL_R_SYSCALL_EXIT)
		return on_syscall(sp, e, swap, rec, tid);
	if (e->role >= SQL_R_IRQ_ENTRY && e->role <= SQL_R_SOFTIRQ_EXIT)
		return on_irq(sp, e, swap, rec);
	return 0;
}

int tm_sql_spans_lost(struct sql_spans *sp, int cpu)
{
	if (cpu < 0 || cpu >= sp->cpus)
		return 0;
	if (sp->irq[cpu].open && irq_row(sp, &sp->irq[cpu], cpu, 0, true, 0))
		return -1;
	if (sp->soft[cpu].open && soft_row(sp, &sp->soft[cpu], cpu, 0, true))
		return -1;
	return 0;
}
