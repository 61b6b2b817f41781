// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-event.c - one ftrace record as a Perfetto FtraceEvent. The events
 * Perfetto models natively get their typed message, filled by matching the
 * message's field names (from the protoc-c descriptors) with the event's
 * format fields, so no event needs code of its own; every other event goes
 * out as a GenericFtraceEvent carrying each field by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "print/field.h"
#include "perfetto.h"
#include "print/tm-events.h"

#define PF_EVENT_IDS	65536	/* common_type is 16 bits */

/* The events Perfetto has a typed FtraceEvent member for (same name). */
static const char *const typed_events[][2] = {
	{ "sched", "sched_switch" },		{ "sched", "sched_waking" },
	{ "sched", "sched_wakeup" },		{ "sched", "sched_wakeup_new" },
	{ "sched", "sched_process_fork" },	{ "sched", "sched_process_exit" },
	{ "sched", "sched_process_free" },	{ "task", "task_newtask" },
	{ "task", "task_rename" },		{ "ftrace", "print" },
	{ "irq", "irq_handler_entry" },		{ "irq", "irq_handler_exit" },
	{ "irq", "softirq_entry" },		{ "irq", "softirq_exit" },
	{ "power", "cpu_frequency" },		{ "power", "cpu_idle" },
};

/* A proto field and the format field it is filled from. */
struct pf_field {
	const ProtobufCFieldDescriptor	*pd;
	const struct tep_format_field	*tf;
};

/* How records of one event id become a message. */
struct pf_plan {
	struct tep_event		*ev;		/* NULL: unknown id */
	const ProtobufCFieldDescriptor	*member;	/* FtraceEvent oneof member */
	const ProtobufCMessageDescriptor *md;		/* typed message, NULL: generic */
	struct pf_field			*fields;
	unsigned int			nfields;
};

struct tm_pf_events {
	struct tep_handle	*tep;
	struct pf_plan		**plans;	/* PF_EVENT_IDS, built on first use */
	const ProtobufCFieldDescriptor *generic;
};

struct tm_pf_events *tm_pf_events_new(struct tep_handle *tep)
{
	struct tm_pf_events *m = calloc(1, sizeof(*m));

	if (m)
		m->plans = calloc(PF_EVENT_IDS, sizeof(*m->plans));
	if (!m || !m->plans) {
		free(m);
		tm_fail(ENOMEM, "Perfetto event table");
		return NULL;
	}
	m->tep = tep;
	m->generic = protobuf_c_message_descriptor_get_field_by_name(
		&perfetto__protos__ftrace_event__descriptor, "generic");
	return m;
}

void tm_pf_events_free(struct tm_pf_events *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < PF_EVENT_IDS; i++)
		if (m->plans[i]) {
			free(m->plans[i]->fields);
			free(m->plans[i]);
		}
	free(m->plans);
	free(m);
}

static bool is_typed(const struct tep_event *ev)
{
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(typed_events); i++)
		if (!strcmp(ev->system, typed_events[i][0]) && !strcmp(ev->name, typed_events[i][1]))
			return true;
	return false;
}

/* A proto field can take a format field: strings from strings, numbers from scalars. */
static bool field_fits(const ProtobufCFieldDescriptor *pd, const struct tep_format_field *tf)
{
	if (pd->type == PROTOBUF_C_TYPE_STRING)
		return tm_field_is_string(tf);
	if (tm_field_is_string(tf) || (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	return tf->size == 1 || tf->size == 2 || tf->size == 4 || tf->size == 8;
}

static int plan_typed(struct pf_plan *pl, const ProtobufCFieldDescriptor *member)
{
	const ProtobufCMessageDescriptor *md = member->descriptor;
	const struct tep_format_field *tf;
	unsigned int i;

	pl->member = member;
	pl->md = md;
	pl->fields = calloc(md->n_fields ?: 1, sizeof(*pl->fields));
	if (!pl->fields)
		return -1;
	for (i = 0; i < md->n_fields; i++) {
		tf = tep_find_field(pl->ev, md->fields[i].name);
		if (tf && field_fits(&md->fields[i], tf)) {
			pl->fields[pl->nfields].pd = &md->fields[i];
			pl->fields[pl->nfields++].tf = tf;
		}
	}
	return 0;
}

static struct pf_plan *plan_for(struct tm_pf_events *m, int id)
{
	struct pf_plan **slot = &m->plans[id & (PF_EVENT_IDS - 1)], *pl;
	const ProtobufCFieldDescriptor *member = NULL;

	if (*slot)
		return *slot;
	pl = calloc(1, sizeof(*pl));
	if (!pl) {
		tm_fail(ENOMEM, "Perfetto event table");
		return NULL;
	}
	pl->ev = tep_find_event(m->tep, id);
	pl->member = m->generic;
	if (pl->ev && is_typed(pl->ev))
		member = protobuf_c_message_descriptor_get_field_by_name(
			&perfetto__protos__ftrace_event__descriptor, pl->ev->name);
	if (member && member->type == PROTOBUF_C_TYPE_MESSAGE && plan_typed(pl, member)) {
		free(pl);
		tm_fail(ENOMEM, "Perfetto event table");
		return NULL;
	}
	*slot = pl;
	return pl;
}

static char *field_str(struct tm_pf_events *m, struct tm_arena *a, const struct tep_format_field *tf,
		       const struct tm_event_rec *rec)
{
	const uint8_t *p;
	uint32_t len;

	if (!tm_field_bytes(m->tep, tf, rec->data, rec->size, &p, &len))
		return NULL;
	return tm_arena_strndup(a, p, tm_field_strlen(p, len));
}

/* Store one scalar through the descriptor: the member at offset, its has_ flag set. */
static void set_scalar(void *msg, const ProtobufCFieldDescriptor *pd, uint64_t v)
{
	char *at = (char *)msg + pd->offset;

	switch (pd->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		*(uint32_t *)at = (uint32_t)v;
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		*(uint64_t *)at = v;
		break;
	case PROTOBUF_C_TYPE_BOOL:
		*(protobuf_c_boolean *)at = v != 0;
		break;
	default:
		return;
	}
	if (pd->label == PROTOBUF_C_LABEL_OPTIONAL && pd->quantifier_offset)
		*(protobuf_c_boolean *)((char *)msg + pd->quantifier_offset) = 1;
}

static void *typed_msg(struct tm_pf_events *m, struct tm_arena *a, const struct pf_plan *pl,
		       const struct tm_event_rec *rec)
{
	void *msg = tm_arena_alloc(a, pl->md->sizeof_message);
	unsigned int i;
	uint64_t v;

	if (!msg)
		return NULL;
	protobuf_c_message_init(pl->md, msg);
	for (i = 0; i < pl->nfields; i++) {
		const struct pf_field *f = &pl->fields[i];

		if (f->pd->type == PROTOBUF_C_TYPE_STRING) {
			char *s = field_str(m, a, f->tf, rec);

			*(char **)((char *)msg + f->pd->offset) = s;
		} else if (tm_field_num(m->tep, f->tf, rec->data, rec->size, &v)) {
			set_scalar(msg, f->pd, v);
		}
	}
	return msg;
}

/* A non-string array as "[1,2,3]" (the --json rendering), elements by elementsize. */
static char *array_str(struct tm_pf_events *m, struct tm_arena *a, const struct tep_format_field *tf,
		       const uint8_t *p, uint32_t len)
{
	unsigned int es = tf->elementsize == 2 || tf->elementsize == 4 || tf->elementsize == 8 ?
			  (unsigned int)tf->elementsize : 1;
	size_t cap = (size_t)(len / es) * 22 + 3, o = 0;
	char *s = tm_arena_alloc(a, cap);
	uint32_t i;

	if (!s)
		return NULL;
	s[o++] = '[';
	for (i = 0; i + es <= len; i += es)
		o += (size_t)snprintf(s + o, cap - o, "%s%llu", i ? "," : "",
				      tep_read_number(m->tep, p + i, (int)es));
	s[o++] = ']';
	return s;
}

static int generic_field(struct tm_pf_events *m, struct tm_arena *a,
			 Perfetto__Protos__GenericFtraceEvent__Field *gf,
			 const struct tep_format_field *tf, const struct tm_event_rec *rec)
{
	const uint8_t *p;
	uint32_t len;
	uint64_t v;

	perfetto__protos__generic_ftrace_event__field__init(gf);
	gf->name = tf->name;
	if (tm_field_is_string(tf) || (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    !tm_field_num(m->tep, tf, rec->data, rec->size, &v)) {
		if (!tm_field_bytes(m->tep, tf, rec->data, rec->size, &p, &len))
			return 0;	/* out of the record: the field stays without a value */
		gf->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
		gf->str_value = tm_field_is_string(tf) ?
				tm_arena_strndup(a, p, tm_field_strlen(p, len)) :
				array_str(m, a, tf, p, len);
		return gf->str_value ? 0 : -1;
	}
	if (tm_field_is_signed(tf)) {
		gf->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE;
		gf->int_value = (int64_t)v;
	} else {
		gf->value_case = PERFETTO__PROTOS__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE;
		gf->uint_value = v;
	}
	return 0;
}

static void *generic_msg(struct tm_pf_events *m, struct tm_arena *a, const struct pf_plan *pl,
			 const struct tm_event_rec *rec)
{
	Perfetto__Protos__GenericFtraceEvent *g = tm_arena_alloc(a, sizeof(*g));
	Perfetto__Protos__GenericFtraceEvent__Field *gf;
	const struct tep_format_field *tf;
	size_t n = 0, i = 0;

	if (!g)
		return NULL;
	perfetto__protos__generic_ftrace_event__init(g);
	g->event_name = pl->ev ? pl->ev->name : "unknown";
	for (tf = pl->ev ? pl->ev->format.fields : NULL; tf; tf = tf->next)
		n++;
	gf = tm_arena_alloc(a, n * sizeof(*gf) + 1);
	g->field = tm_arena_alloc(a, n * sizeof(*g->field) + 1);
	if (!gf || !g->field)
		return NULL;
	for (tf = pl->ev ? pl->ev->format.fields : NULL; tf; tf = tf->next, i++) {
		if (generic_field(m, a, &gf[i], tf, rec))
			return NULL;
		g->field[i] = &gf[i];
	}
	g->n_field = n;
	return g;
}

/*
 * Some kernels' task_rename has no pid field: the task renames itself, the
 * common pid. trace_processor renames the thread TaskRenameFtraceEvent.pid
 * names (ftrace_parser.cc, ParseTaskRename), so without it tid 0 took the
 * name: the common pid fills it then.
 */
static void fill_rename_pid(Perfetto__Protos__FtraceEvent *fe)
{
	Perfetto__Protos__TaskRenameFtraceEvent *tr;

	if (fe->event_case != PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME)
		return;
	tr = fe->task_rename;
	if (!tr->has_pid) {
		tr->has_pid = 1;
		tr->pid = (int32_t)fe->pid;
	}
}

Perfetto__Protos__FtraceEvent *tm_pf_event(struct tm_pf_events *m, struct tm_arena *a,
					    const struct tm_event_rec *rec)
{
	struct tep_record r = { .data = (void *)rec->data, .size = (int)rec->size };
	Perfetto__Protos__FtraceEvent *fe = tm_arena_alloc(a, sizeof(*fe));
	struct pf_plan *pl = plan_for(m, tep_data_type(m->tep, &r));
	void *payload;

	if (!pl)
		return NULL;
	if (!fe)
		goto nomem;
	perfetto__protos__ftrace_event__init(fe);
	fe->has_timestamp = 1;
	fe->timestamp = rec->ts;
	fe->has_pid = 1;
	fe->pid = (uint32_t)tep_data_pid(m->tep, &r);
	payload = pl->md ? typed_msg(m, a, pl, rec) : generic_msg(m, a, pl, rec);
	if (!payload)
		goto nomem;
	/* the oneof: its case is the member's number, the union holds the message */
	*(uint32_t *)((char *)fe + pl->member->quantifier_offset) = pl->member->id;
	*(void **)((char *)fe + pl->member->offset) = payload;
	fill_rename_pid(fe);
	return fe;
nomem:
	tm_fail(ENOMEM, "Perfetto event");
	return NULL;
}
