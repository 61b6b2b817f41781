// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-states.c - sched_switch as trace-cmd 3.2 and later print it: their
 * libtraceevent (>= 1.8) plugin takes the prev_state letters from the
 * event's own print format (the __print_flags table on prev_state), where
 * 1.7's plugin, which trace-cmd 3.1.6 uses, has a fixed table that predates
 * the kernel's renumbering of task states (a zombie shows as X, an idle
 * kernel thread as W). The rest of the text is the plugin's, unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "print-internal.h"

#define STATE_BITS	32	/* prev_state is a long: its flags fit 32-bit kernels too */

/* True when arg (a field, or arithmetic on one) reads the field called name. */
static bool reads_field(const struct tep_print_arg *arg, const char *name)
{
	if (!arg)
		return false;
	if (arg->type == TEP_PRINT_FIELD)
		return arg->field.name && !strcmp(arg->field.name, name);
	if (arg->type == TEP_PRINT_OP)
		return reads_field(arg->op.left, name) || reads_field(arg->op.right, name);
	return false;
}

/* The first __print_flags table over prev_state in arg, looking inside operators. */
static const struct tep_print_flag_sym *state_table(const struct tep_print_arg *arg)
{
	const struct tep_print_flag_sym *sym;

	if (!arg)
		return NULL;
	if (arg->type == TEP_PRINT_FLAGS)
		return reads_field(arg->flags.field, "prev_state") ? arg->flags.flags : NULL;
	if (arg->type != TEP_PRINT_OP)
		return NULL;
	sym = state_table(arg->op.left);
	return sym ? sym : state_table(arg->op.right);
}

char *tm_sched_states(const struct tep_event *ev)
{
	const struct tep_print_flag_sym *sym = NULL;
	const struct tep_print_arg *arg;
	char letters[STATE_BITS + 1] = { 0 };
	unsigned long long v;
	int bit;

	if (strcmp(ev->system, "sched") || strcmp(ev->name, "sched_switch") || !ev->handler)
		return NULL;
	for (arg = ev->print_fmt.args; arg && !sym; arg = arg->next)
		sym = state_table(arg);
	/* each flag's first letter at its bit number */
	for (; sym; sym = sym->next) {
		v = sym->value ? strtoull(sym->value, NULL, 0) : 0;
		if (!v || !sym->str || !sym->str[0])
			continue;
		bit = __builtin_ctzll(v);
		if (bit < STATE_BITS)
			letters[bit] = sym->str[0];
	}
	/* the plugin reads the letters as a string: a bit without a flag ends it */
	return letters[0] ? strdup(letters) : NULL;
}

/* "comm:pid" of one side of the switch, the comm registered for pid as the plugin does. */
static bool put_task(struct trace_seq *s, struct tep_event *ev, struct tep_record *r,
		     const char *comm_field, const char *pid_field)
{
	const struct tep_format_field *f;
	unsigned long long pid;
	char comm[256];
	int n;

	if (tep_get_field_val(s, ev, pid_field, r, &pid, 1))
		return false;
	f = tep_find_any_field(ev, comm_field);
	if (f) {
		n = f->size < (int)sizeof(comm) ? f->size : (int)sizeof(comm) - 1;
		n = (int)strnlen((const char *)r->data + f->offset, (size_t)n);
		memcpy(comm, (const char *)r->data + f->offset, (size_t)n);
		comm[n] = '\0';
		trace_seq_printf(s, "%s:", comm);
		tep_register_comm(ev->tep, comm, (int)pid);
	}
	trace_seq_printf(s, "%lld", pid);
	return true;
}

/* The set state bits as letters joined by '|', or R when none of them has a letter. */
static void put_state(struct trace_seq *s, struct tep_event *ev, struct tep_record *r,
		      const char *states)
{
	const struct tep_format_field *f = tep_find_any_field(ev, "prev_state");
	unsigned long long v;
	bool any = false;
	size_t i;

	if (!f || tep_read_number_field((struct tep_format_field *)f, r->data, &v))
		return;
	for (i = 0; states[i]; i++) {
		if (!(v & (1ULL << i)))
			continue;
		if (any)
			trace_seq_putc(s, '|');
		trace_seq_putc(s, states[i]);
		any = true;
	}
	if (!any)
		trace_seq_putc(s, 'R');
}

void tm_sched_switch_text(struct trace_seq *s, struct tep_event *ev, const char *states,
			  struct tep_record *r)
{
	unsigned long long prio;

	if (!put_task(s, ev, r, "prev_comm", "prev_pid")) {
		trace_seq_putc(s, '!');
		return;
	}
	trace_seq_putc(s, ' ');
	if (!tep_get_field_val(s, ev, "prev_prio", r, &prio, 1))
		trace_seq_printf(s, "[%d] ", (int)prio);
	put_state(s, ev, r, states);
	trace_seq_puts(s, " ==> ");
	if (!put_task(s, ev, r, "next_comm", "next_pid")) {
		trace_seq_putc(s, '!');
		return;
	}
	if (!tep_get_field_val(s, ev, "next_prio", r, &prio, 1))
		trace_seq_printf(s, " [%d]", (int)prio);
}
