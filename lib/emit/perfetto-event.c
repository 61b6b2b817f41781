// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-event.c - one ftrace record as the bytes of a Perfetto FtraceEvent,
 * written straight into the bundle's buffer (pb-write.h). Three encodings:
 *
 *  - the events Perfetto models natively get their typed message, filled by
 *    matching the message's field names (from the protoc-c descriptors of
 *    trace.proto, which give the numbers and types) with the event's format
 *    fields, so no event needs code of its own;
 *  - other events of at most 31 fields are "described" generic events:
 *    FtraceEvent field 65536 + k holds the fields by number, and the
 *    bundle carries once a DescriptorProto naming the event and its fields
 *    (FtraceEventBundle.generic_event_descriptors = 11; upstream's
 *    generic_ftrace_tracker.h: ids from kGenericEvtProtoMinPbFieldId = 65536,
 *    fewer than 32 fields, types up to sint64; ftrace_tokenizer.cc registers
 *    the descriptors of every bundle, the parser reads the payload into the
 *    ftrace_event table by them). Half the bytes of the named fields below;
 *  - the rest as a GenericFtraceEvent carrying each field by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "events/field.h"
#include "print/print-buf.h"
#include "events/printk-map.h"
#include "perfetto.h"
#include "pb-write.h"
#include "trace/tm-trace.h"

#define PF_EVENT_IDS		65536	/* common_type is 16 bits */
#define PF_GENERIC_MIN_ID	65536	/* kGenericEvtProtoMinPbFieldId */
#define PF_DESC_MAX_FIELDS	31	/* field numbers below kMaxAllowedFields (32) */

/* FtraceEvent and GenericFtraceEvent field numbers (trace.proto). */
enum {
	FE_TIMESTAMP = 1, FE_PID = 2, FE_GENERIC = 327,
	GE_NAME = 1, GE_FIELD = 2, GF_NAME = 1, GF_STR = 3, GF_INT = 4, GF_UINT = 5,
};

/* google/protobuf/descriptor.proto numbers for the generic event descriptors. */
enum {
	DP_NAME = 1, DP_FIELD = 2, FDP_NAME = 1, FDP_NUMBER = 3, FDP_TYPE = 5,
	TYPE_INT64 = 3, TYPE_UINT64 = 4, TYPE_STRING = 9,
	GED_FIELD_ID = 1, GED_DESCRIPTOR = 2,
};

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
	{ "ftrace", "funcgraph_entry" },	{ "ftrace", "funcgraph_exit" },
	{ "raw_syscalls", "sys_enter" },	{ "raw_syscalls", "sys_exit" },
	{ "workqueue", "workqueue_execute_start" }, { "workqueue", "workqueue_execute_end" },
	{ "signal", "signal_generate" },	{ "signal", "signal_deliver" },
	{ "sched", "sched_blocked_reason" },	{ "sched", "sched_process_exec" },
	{ "sched", "sched_process_wait" },	{ "sched", "sched_migrate_task" },
	{ "timer", "hrtimer_expire_entry" },	{ "timer", "hrtimer_expire_exit" },
	{ "power", "suspend_resume" },
};

/*
 * The typed fields trace_processor reads as a kernel symbol's iid
 * (ftrace_parser.cc: kKernelFunctionFields, ParseFuncgraphEntry/Exit).
 */
static const char *const ksym_fields[][2] = {
	{ "funcgraph_entry", "func" },		{ "funcgraph_exit", "func" },
	{ "workqueue_execute_start", "function" }, { "sched_blocked_reason", "caller" },
	{ "hrtimer_expire_entry", "function" },
};

/* The task names typed events carry: event, pid field, comm field. */
static const char *const task_fields[][3] = {
	{ "sched_switch", "prev_pid", "prev_comm" },	{ "sched_switch", "next_pid", "next_comm" },
	{ "sched_wakeup", "pid", "comm" },		{ "sched_waking", "pid", "comm" },
	{ "sched_wakeup_new", "pid", "comm" },		{ "task_newtask", "pid", "comm" },
	{ "task_rename", "pid", "newcomm" },
	{ "sched_process_fork", "child_pid", "child_comm" },
};

enum pf_kind { PF_TYPED, PF_DESCRIBED, PF_GENERIC };

/* A proto field (number, type) and the format field it is filled from. */
struct pf_field {
	uint32_t			id;
	ProtobufCType			type;
	bool				repeated;	/* an array's elements, one field each */
	bool				ksym;		/* a kernel function: its symbol's iid */
	bool				kstr;		/* a kernel string's address: its text */
	const struct tep_format_field	*tf;
};

/* How records of one event id become a message. */
struct pf_plan {
	struct tep_event		*ev;		/* NULL: unknown id */
	enum pf_kind			kind;
	uint32_t			member;		/* FtraceEvent field number */
	struct pf_field			*fields;
	unsigned int			nfields;
	uint32_t			fill_pid;	/* task_rename's pid, when missing */
	const struct tep_format_field	*names[2][2];	/* task pid/comm fields */
	struct tm_pf_desc		desc;		/* PF_DESCRIBED */
};

/* sched_switch / sched_waking fields for compact_sched. */
struct pf_sched_fields {
	int				id;
	const struct tep_format_field	*f[7];
};

struct tm_pf_events {
	struct tep_handle	*tep;
	struct tm_pf_tasks	*tasks;
	struct pf_plan		**plans;	/* PF_EVENT_IDS, built on first use */
	uint32_t		next_generic;	/* next described event's field number */
	struct pf_sched_fields	sw, wk;
	struct tm_buf		scratch;
	struct tm_pf_ksyms	*ksyms;
	struct tm_blob		printk;		/* the file's printk formats, */
	struct tm_printk_map	*kstrs;		/* as a table once an event needs it */
	struct tm_common	common;		/* common_type, common_pid; the byte order */
};

static void sched_fields(struct tep_handle *tep, struct pf_sched_fields *s, const char *name,
			 const char *const *fields)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "sched", name);
	int i;

	s->id = -1;
	if (!ev)
		return;
	for (i = 0; i < 7 && fields[i]; i++) {
		s->f[i] = tep_find_field(ev, fields[i]);
		if (!s->f[i])
			return;
	}
	s->id = ev->id;
}

struct tm_pf_events *tm_pf_events_new(struct tep_handle *tep, struct tm_pf_tasks *tasks,
				      struct tm_blob printk)
{
	static const char *const sw[] = { "prev_pid", "prev_prio", "prev_state", "next_comm",
					  "next_pid", "next_prio", "prev_comm" };
	static const char *const wk[] = { "comm", "pid", "prio", "target_cpu", NULL, NULL, NULL };
	struct tm_pf_events *m = calloc(1, sizeof(*m));

	if (m) {
		m->plans = calloc(PF_EVENT_IDS, sizeof(*m->plans));
		m->ksyms = tm_pf_ksyms_new(tep);
	}
	if (!m || !m->plans || !m->ksyms) {
		if (m) {
			free(m->plans);
			tm_pf_ksyms_free(m->ksyms);
		}
		free(m);
		tm_fail(ENOMEM, "Perfetto event table");
		return NULL;
	}
	m->tep = tep;
	m->tasks = tasks;
	m->printk = printk;
	m->next_generic = PF_GENERIC_MIN_ID;
	tm_common_init(&m->common, tep);
	sched_fields(tep, &m->sw, "sched_switch", sw);
	sched_fields(tep, &m->wk, "sched_waking", wk);
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
			tm_buf_free(&m->plans[i]->desc.bytes);
			free(m->plans[i]);
		}
	free(m->plans);
	tm_buf_free(&m->scratch);
	tm_pf_ksyms_free(m->ksyms);
	tm_printk_map_free(m->kstrs);
	free(m);
}

struct tm_pf_ksyms *tm_pf_events_ksyms(struct tm_pf_events *m)
{
	return m->ksyms;
}

static bool is_typed(const struct tep_event *ev)
{
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(typed_events); i++)
		if (!strcmp(ev->system, typed_events[i][0]) && !strcmp(ev->name, typed_events[i][1]))
			return true;
	return false;
}

static bool is_scalar(const struct tep_format_field *tf)
{
	if (tm_field_is_string(tf) || (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
		return false;
	return tf->size == 1 || tf->size == 2 || tf->size == 4 || tf->size == 8;
}

/* A fixed array of numbers (sys_enter's args). */
static bool is_num_array(const struct tep_format_field *tf)
{
	if (tm_field_is_string(tf) || !(tf->flags & TEP_FIELD_IS_ARRAY) ||
	    (tf->flags & TEP_FIELD_IS_DYNAMIC))
		return false;
	return tf->elementsize == 1 || tf->elementsize == 2 || tf->elementsize == 4 ||
	       tf->elementsize == 8;
}

/*
 * A proto field can take a format field: strings from strings or kernel
 * strings, numbers from scalars, a repeated number from an array of numbers.
 */
static bool field_fits(const ProtobufCFieldDescriptor *pd, const struct tep_format_field *tf)
{
	if (pd->type == PROTOBUF_C_TYPE_STRING)
		return pd->label != PROTOBUF_C_LABEL_REPEATED &&
		       (tm_field_is_string(tf) || tm_field_is_kernel_string(tf));
	if (pd->label == PROTOBUF_C_LABEL_REPEATED)
		return is_num_array(tf);
	return is_scalar(tf);
}

static bool is_ksym(const struct tep_event *ev, const char *field)
{
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(ksym_fields); i++)
		if (!strcmp(ev->name, ksym_fields[i][0]) && !strcmp(field, ksym_fields[i][1]))
			return true;
	return false;
}

static void plan_names(struct pf_plan *pl)
{
	size_t i, n = 0;

	for (i = 0; i < TM_ARRAY_SIZE(task_fields) && n < 2; i++) {
		if (strcmp(pl->ev->name, task_fields[i][0]))
			continue;
		pl->names[n][0] = tep_find_field(pl->ev, task_fields[i][1]);
		pl->names[n][1] = tep_find_field(pl->ev, task_fields[i][2]);
		n++;
	}
}

static int plan_typed(struct pf_plan *pl, const ProtobufCFieldDescriptor *member)
{
	const ProtobufCMessageDescriptor *md = member->descriptor;
	const struct tep_format_field *tf;
	unsigned int i;

	pl->kind = PF_TYPED;
	pl->member = member->id;
	pl->fields = calloc(md->n_fields ?: 1, sizeof(*pl->fields));
	if (!pl->fields)
		return -1;
	for (i = 0; i < md->n_fields; i++) {
		tf = tep_find_field(pl->ev, md->fields[i].name);
		if (tf && field_fits(&md->fields[i], tf)) {
			struct pf_field *f = &pl->fields[pl->nfields++];

			f->id = md->fields[i].id;
			f->type = md->fields[i].type;
			f->repeated = md->fields[i].label == PROTOBUF_C_LABEL_REPEATED;
			f->ksym = f->type == PROTOBUF_C_TYPE_UINT64 && is_ksym(pl->ev, tf->name);
			f->kstr = f->type == PROTOBUF_C_TYPE_STRING &&
				  tm_field_is_kernel_string(tf);
			f->tf = tf;
		} else if (!tf && !strcmp(pl->ev->name, "task_rename") &&
			   !strcmp(md->fields[i].name, "pid")) {
			pl->fill_pid = md->fields[i].id;
		}
	}
	plan_names(pl);
	return 0;
}

/* The GenericEventDescriptor of a described event: its field number and DescriptorProto. */
static void describe(struct pf_plan *pl)
{
	struct tm_buf *b = &pl->desc.bytes;
	size_t dp, fd;
	unsigned int i;

	pb_uint(b, GED_FIELD_ID, pl->member);
	dp = pb_open(b, GED_DESCRIPTOR);
	pb_str(b, DP_NAME, pl->ev->name);
	for (i = 0; i < pl->nfields; i++) {
		fd = pb_open(b, DP_FIELD);
		pb_str(b, FDP_NAME, pl->fields[i].tf->name);
		pb_uint(b, FDP_NUMBER, pl->fields[i].id);
		pb_uint(b, FDP_TYPE, pl->fields[i].type == PROTOBUF_C_TYPE_STRING ? TYPE_STRING :
				     pl->fields[i].type == PROTOBUF_C_TYPE_INT64 ? TYPE_INT64 :
										   TYPE_UINT64);
		pb_close(b, fd);
	}
	pb_close(b, dp);
}

/*
 * Each format field of an untyped event, numbered from 1, with the type it
 * goes out as: a string (text, arrays, kernel strings), a signed or an
 * unsigned number. Described events declare these types; generic ones pick
 * their value field by them.
 */
static int plan_fields(struct pf_plan *pl)
{
	const struct tep_format_field *tf;
	unsigned int n = 0;

	for (tf = pl->ev->format.fields; tf; tf = tf->next)
		n++;
	pl->fields = calloc(n ?: 1, sizeof(*pl->fields));
	if (!pl->fields)
		return -1;
	for (tf = pl->ev->format.fields; tf; tf = tf->next) {
		struct pf_field *f = &pl->fields[pl->nfields++];

		f->id = pl->nfields;
		f->tf = tf;
		f->kstr = tm_field_is_kernel_string(tf);
		f->type = !is_scalar(tf) || f->kstr ? PROTOBUF_C_TYPE_STRING :
			  tm_field_is_signed(tf) ? PROTOBUF_C_TYPE_INT64 : PROTOBUF_C_TYPE_UINT64;
	}
	return 0;
}

/*
 * An untyped event with few enough fields gets a field number of its own and
 * a descriptor; one with more stays a GenericFtraceEvent, each field by name.
 */
static int plan_described(struct tm_pf_events *m, struct pf_plan *pl)
{
	if (pl->nfields > PF_DESC_MAX_FIELDS || m->next_generic == UINT32_MAX)
		return 0;	/* stays PF_GENERIC */
	pl->kind = PF_DESCRIBED;
	pl->member = m->next_generic++;
	describe(pl);
	return pl->desc.bytes.err ? -1 : 0;
}

/* The printk table, made when the first event with a kernel string field is planned. */
static int plan_kstrs(struct tm_pf_events *m, const struct pf_plan *pl)
{
	for (unsigned int i = 0; i < pl->nfields && !m->kstrs; i++)
		if (pl->fields[i].kstr && !(m->kstrs = tm_printk_map_new(m->printk)))
			return -1;
	return 0;
}

static struct pf_plan *plan_for(struct tm_pf_events *m, int id)
{
	struct pf_plan **slot = &m->plans[id & (PF_EVENT_IDS - 1)], *pl;
	const ProtobufCFieldDescriptor *member = NULL;
	int ret = 0;

	if (*slot)
		return *slot;
	pl = calloc(1, sizeof(*pl));
	if (!pl) {
		tm_fail(ENOMEM, "Perfetto event table");
		return NULL;
	}
	pl->ev = tep_find_event(m->tep, id);
	pl->kind = PF_GENERIC;
	pl->member = FE_GENERIC;
	if (pl->ev && is_typed(pl->ev))
		member = protobuf_c_message_descriptor_get_field_by_name(
			&perfetto__protos__ftrace_event__descriptor, pl->ev->name);
	if (member && member->type == PROTOBUF_C_TYPE_MESSAGE)
		ret = plan_typed(pl, member);
	else if (pl->ev)
		ret = plan_fields(pl) ?: plan_described(m, pl);
	if (!ret)
		ret = plan_kstrs(m, pl);
	if (ret) {
		free(pl->fields);
		tm_buf_free(&pl->desc.bytes);
		free(pl);
		tm_fail(ENOMEM, "Perfetto event table");
		return NULL;
	}
	*slot = pl;
	return pl;
}

/* A non-string array as "[1,2,3]" (the --json rendering), elements by elementsize. */
static void put_array(struct tm_pf_events *m, struct tm_buf *b, uint32_t id,
		      const struct tep_format_field *tf, const uint8_t *p, uint32_t len)
{
	unsigned int es = tf->elementsize == 2 || tf->elementsize == 4 || tf->elementsize == 8 ?
			  (unsigned int)tf->elementsize : 1;
	struct tm_buf *s = &m->scratch;
	char num[TM_NUM_MAX + 1];
	uint32_t i;

	s->len = 0;
	tm_buf_put(s, "[", 1);
	for (i = 0; i + es <= len; i += es) {
		char *e = tm_put_u64(num + 1, tm_get_uint(p + i, es, m->common.swap));

		num[0] = ',';
		tm_buf_put(s, i ? num : num + 1, (size_t)(e - num) - !i);
	}
	tm_buf_put(s, "]", 1);
	if (!s->err)
		pb_bytes(b, id, s->data, s->len);
	else
		b->err = s->err;
}

/* A repeated number: one field per array element (proto2's unpacked encoding). */
static void put_repeated(struct tm_pf_events *m, struct tm_buf *b, const struct pf_field *f,
			 const struct tm_event_rec *rec)
{
	int es = f->tf->elementsize;
	const uint8_t *p;
	uint32_t len, i;

	if (!tm_field_bytes(m->tep, f->tf, rec->data, rec->size, &p, &len))
		return;
	for (i = 0; i + (uint32_t)es <= len; i += (uint32_t)es)
		pb_uint(b, f->id, tm_get_uint(p + i, (unsigned int)es, m->common.swap));
}

/*
 * A kernel string field: the text at its address, or the address in hex
 * as report prints one the printk formats do not have.
 */
static void put_kstr(struct tm_pf_events *m, struct tm_buf *b, const struct pf_field *f,
		     const struct tm_event_rec *rec)
{
	const char *text;
	char hex[20];
	uint64_t v;

	if (!tm_field_get(f->tf, rec->data, rec->size, m->common.swap, &v))
		return;
	text = tm_printk_map_find(m->kstrs, v);
	if (!text) {
		snprintf(hex, sizeof(hex), "%" PRIx64, v);
		text = hex;
	}
	pb_bytes(b, f->id, text, strlen(text));
}

/* One format field as proto field id of the given type. */
static int put_field(struct tm_pf_events *m, struct tm_buf *b, const struct pf_field *f,
		     const struct tm_event_rec *rec, struct tm_pf_refs *refs)
{
	const uint8_t *p;
	uint32_t len;
	uint64_t v;

	if (f->repeated) {
		put_repeated(m, b, f, rec);
		return 0;
	}
	if (f->kstr) {
		put_kstr(m, b, f, rec);
		return 0;
	}
	if (f->type == PROTOBUF_C_TYPE_STRING) {
		if (!tm_field_bytes(m->tep, f->tf, rec->data, rec->size, &p, &len))
			return 0;
		if (tm_field_is_string(f->tf))
			pb_bytes(b, f->id, p, tm_field_strlen(p, len));
		else
			put_array(m, b, f->id, f->tf, p, len);
		return 0;
	}
	if (!tm_field_get(f->tf, rec->data, rec->size, m->common.swap, &v))
		return 0;
	if (f->ksym && refs && tm_pf_ksyms_ref(m->ksyms, v, refs->serial, &refs->addrs, &v))
		return -1;
	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_ENUM:
		v = (uint64_t)(int64_t)(int32_t)v;
		break;
	case PROTOBUF_C_TYPE_UINT32:
		v = (uint32_t)v;
		break;
	case PROTOBUF_C_TYPE_BOOL:
		v = v != 0;
		break;
	default:
		break;
	}
	pb_uint(b, f->id, v);
	return 0;
}

/* A GenericFtraceEvent field: name and a string, signed or unsigned value. */
static void put_generic_field(struct tm_pf_events *m, struct tm_buf *b,
			      const struct pf_field *pf, const struct tm_event_rec *rec)
{
	size_t at = pb_open(b, GE_FIELD);
	uint64_t v;

	pb_str(b, GF_NAME, pf->tf->name);
	if (pf->type != PROTOBUF_C_TYPE_STRING &&
	    tm_field_get(pf->tf, rec->data, rec->size, m->common.swap, &v)) {
		pb_uint(b, pf->type == PROTOBUF_C_TYPE_INT64 ? GF_INT : GF_UINT, v);
	} else {
		struct pf_field f = *pf;

		f.id = GF_STR;
		f.type = PROTOBUF_C_TYPE_STRING;
		put_field(m, b, &f, rec, NULL);
	}
	pb_close(b, at);
}

static bool read_comm(struct tm_pf_events *m, const struct tep_format_field *f,
		      const struct tm_event_rec *rec, char comm[TM_COMM_LEN])
{
	const uint8_t *p;
	uint32_t len;

	if (!tm_field_bytes(m->tep, f, rec->data, rec->size, &p, &len))
		return false;
	len = tm_field_strlen(p, len);
	if (len > TM_COMM_LEN - 1)
		len = TM_COMM_LEN - 1;
	memcpy(comm, p, len);
	comm[len] = '\0';
	return true;
}

/* The pids and names the event carries, for the ProcessTree. */
static int see_tasks(struct tm_pf_events *m, const struct pf_plan *pl, int32_t common_pid,
		     const struct tm_event_rec *rec)
{
	char comm[TM_COMM_LEN];
	uint64_t v;
	int i;

	if (tm_pf_tasks_see(m->tasks, common_pid, NULL))
		return -1;
	for (i = 0; i < 2 && pl->names[i][0]; i++) {
		if (!tm_field_get(pl->names[i][0], rec->data, rec->size, m->common.swap, &v))
			continue;
		comm[0] = '\0';
		if (pl->names[i][1])
			read_comm(m, pl->names[i][1], rec, comm);
		if (tm_pf_tasks_see(m->tasks, (int32_t)v, comm))
			return -1;
	}
	/* task_rename without a pid field: the task renamed itself */
	if (pl->fill_pid && !pl->names[0][0] && pl->names[0][1] &&
	    read_comm(m, pl->names[0][1], rec, comm))
		return tm_pf_tasks_see(m->tasks, common_pid, comm);
	return 0;
}

int tm_pf_event_put(struct tm_pf_events *m, const struct tm_event_rec *rec, uint64_t ts,
		    struct tm_buf *b, struct tm_pf_desc **desc, struct tm_pf_refs *refs)
{
	struct pf_plan *pl = plan_for(m, tm_common_type(m->tep, &m->common, rec->data, rec->size));
	int32_t pid = tm_common_pid(m->tep, &m->common, rec->data, rec->size);
	size_t ev, msg;
	unsigned int i;

	if (!pl)
		return -1;
	*desc = pl->kind == PF_DESCRIBED ? &pl->desc : NULL;
	ev = pb_open(b, 2);	/* FtraceEventBundle.event */
	pb_uint(b, FE_PID, (uint32_t)pid);
	msg = pb_open(b, pl->member);
	if (pl->kind == PF_GENERIC) {
		pb_str(b, GE_NAME, pl->ev ? pl->ev->name : "unknown");
		for (i = 0; i < pl->nfields; i++)
			put_generic_field(m, b, &pl->fields[i], rec);
	} else {
		for (i = 0; i < pl->nfields; i++)
			if (put_field(m, b, &pl->fields[i], rec, refs))
				return -1;
		/*
		 * Some kernels' task_rename has no pid field: the task renames
		 * itself. trace_processor renames the thread
		 * TaskRenameFtraceEvent.pid names (ftrace_parser.cc,
		 * ParseTaskRename), so without it tid 0 took the name.
		 */
		if (pl->fill_pid)
			pb_uint(b, pl->fill_pid, (uint32_t)pid);
	}
	pb_close(b, msg);
	/*
	 * The timestamp goes last. Its low bytes are the only ones that
	 * differ from one event to the next; after the body they sit next
	 * to the next event's unchanging tag, pid and body start, so zstd
	 * or gzip finds one long match an event instead of two: sched-pipe
	 * compresses 12% smaller (docs/PERFORMANCE.md). The field order is
	 * free in protobuf; trace_processor takes the timestamp from any
	 * place (ftrace_tokenizer.cc TokenizeFtraceEvent: a fast path when
	 * it comes first, else FindField).
	 */
	pb_uint(b, FE_TIMESTAMP, ts);
	pb_close(b, ev);
	if (b->err)
		return tm_fail(b->err, "Perfetto event");
	return see_tasks(m, pl, pid, rec);
}

static bool read_num(struct tm_pf_events *m, const struct tep_format_field *f,
		     const struct tm_event_rec *rec, int64_t *v)
{
	return tm_field_get(f, rec->data, rec->size, m->common.swap, (uint64_t *)v);
}

bool tm_pf_sched_get(struct tm_pf_events *m, const struct tm_event_rec *rec,
		     struct tm_pf_sched *s)
{
	const struct pf_sched_fields *sw = &m->sw, *wk = &m->wk;
	int id = tm_common_type(m->tep, &m->common, rec->data, rec->size);
	int64_t v[4];
	uint8_t flags;

	if (id < 0 || (id != sw->id && id != wk->id))
		return false;
	s->common_pid = tm_common_pid(m->tep, &m->common, rec->data, rec->size);
	if (id == sw->id) {
		s->waking = false;
		if (!read_num(m, sw->f[0], rec, &v[0]) || !read_num(m, sw->f[1], rec, &v[1]) ||
		    !read_num(m, sw->f[2], rec, &s->prev_state) ||
		    !read_comm(m, sw->f[3], rec, s->comm) || !read_num(m, sw->f[4], rec, &v[2]) ||
		    !read_num(m, sw->f[5], rec, &v[3]) || !read_comm(m, sw->f[6], rec, s->prev_comm))
			return false;
		s->prev_pid = (int32_t)v[0];
		s->prev_prio = (int32_t)v[1];
		s->pid = (int32_t)v[2];
		s->prio = (int32_t)v[3];
		return true;
	}
	s->waking = true;
	if (!read_comm(m, wk->f[0], rec, s->comm) || !read_num(m, wk->f[1], rec, &v[0]) ||
	    !read_num(m, wk->f[2], rec, &v[1]) || !read_num(m, wk->f[3], rec, &v[2]) ||
	    rec->size < 3)
		return false;
	memcpy(&flags, (const uint8_t *)rec->data + 2, 1);	/* common_flags */
	s->pid = (int32_t)v[0];
	s->prio = (int32_t)v[1];
	s->target_cpu = (int32_t)v[2];
	s->common_flags = flags;
	return true;
}
