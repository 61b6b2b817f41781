// SPDX-License-Identifier: GPL-2.0-only
/*
 * print-funcgraph.c - the function_graph text trace-cmd prints for
 * ftrace:funcgraph_entry and funcgraph_exit (libtracecmd's handlers, which
 * report loads unless -N): an entry whose next record is its own return is a
 * leaf, "5.416 us   |    name();", and that return is not printed; any other
 * entry opens "name() {"; a return closes "}" with its duration. Durations
 * carry trace-cmd's markers (+ over 10 us, ! 100 us, # 1 ms, $ 1 s; it has no
 * @ or *), the name is indented two columns per depth.
 *
 * trace-cmd decides at the entry by peeking at the next record of the same
 * buffer, before any -F filter. The printer cannot peek (records come one at
 * a time, from a file or a live ring), so it prints the entry as "name() {"
 * and holds it; when the buffer's next record arrives and is the return, the
 * held line is rewritten in the output buffer as the leaf. Output leaves the
 * buffer only when nothing is held, or when the printer must flush (stream):
 * then a held entry stays "name() {", what trace-cmd prints when no next
 * record exists. 3.1.6 takes the next record from any CPU; current trace-cmd
 * only from the entry's CPU, and prints "(ret=...)" where returns have a
 * retval field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <traceevent/event-parse.h>

#include "util/internal.h"
#include "print-internal.h"
#include "trace/tm-trace.h"
#include "print-buf.h"

#define GRAPH_INDENT	2
#define INDENT_MAX	4096	/* a hostile depth does not make a line of gigabytes */
#define ERR_MAX		4095	/* the kernel's MAX_ERRNO: returns at or above -4095 are errors */

/* An entry printed as "name() {" whose buffer has had no record since. */
struct held {
	bool		on;
	int		pid, cpu;
	uint64_t	func;
	size_t		start, end;	/* its text in the output buffer, newline included */
	uint8_t		*data;		/* a copy of the record */
	uint32_t	size, cap;
};

struct tm_fgraph {
	struct tep_handle		*tep;
	int				entry_id, exit_id;
	const struct tep_format_field	*e_func, *e_depth;
	const struct tep_format_field	*x_func, *x_depth, *x_calltime, *x_rettime, *x_retval;
	unsigned int			flags;		/* TM_FGRAPH_* */
	bool				same_cpu;	/* current trace-cmd: the next record of the CPU */
	struct held			held[TM_FGRAPH_BUFFERS];
	int				nheld;
};

static const struct tep_format_field *num_field(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) || f->offset < 0 ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return NULL;
	return f;
}

struct tm_fgraph *tm_fgraph_new(struct tep_handle *tep, const struct tm_print_opts *o)
{
	struct tep_event *entry = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	struct tep_event *exit = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	struct tm_fgraph *g;

	if (!entry || !exit || o->raw || o->json || tep_test_flag(tep, TEP_DISABLE_PLUGINS)) {
		errno = 0;
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->tep = tep;
	g->entry_id = entry->id;
	g->exit_id = exit->id;
	g->e_func = num_field(entry, "func");
	g->e_depth = num_field(entry, "depth");
	g->x_func = num_field(exit, "func");
	g->x_depth = num_field(exit, "depth");
	g->x_calltime = num_field(exit, "calltime");
	g->x_rettime = num_field(exit, "rettime");
	if (o->compat == TM_TEXT_CURRENT)
		g->x_retval = num_field(exit, "retval");
	g->flags = o->fgraph;
	g->same_cpu = o->compat == TM_TEXT_CURRENT;
	if (!g->e_func || !g->e_depth || !g->x_func || !g->x_depth || !g->x_calltime ||
	    !g->x_rettime) {
		/* not the kernel's layout: libtraceevent prints the formats */
		free(g);
		errno = 0;
		return NULL;
	}
	return g;
}

void tm_fgraph_free(struct tm_fgraph *g)
{
	if (!g)
		return;
	for (int i = 0; i < TM_FGRAPH_BUFFERS; i++)
		free(g->held[i].data);
	free(g);
}

int tm_fgraph_kind(const struct tm_fgraph *g, int type)
{
	if (!g)
		return TM_FGRAPH_NONE;
	if (type == g->entry_id)
		return TM_FGRAPH_ENTRY;
	return type == g->exit_id ? TM_FGRAPH_EXIT : TM_FGRAPH_NONE;
}

/* Field f of a record: false when the record is too short for it. */
static bool get(const struct tm_fgraph *g, const struct tep_format_field *f, const uint8_t *data,
		uint32_t size, uint64_t *v)
{
	if ((uint32_t)f->offset + (uint32_t)f->size > size)
		return false;
	*v = tep_read_number(g->tep, data + f->offset, f->size);
	return true;
}

static int put_str(struct tm_buf *b, const char *s)
{
	return tm_buf_add(b, s, strlen(s));
}

static int put_spaces(struct tm_buf *b, size_t n)
{
	if (tm_buf_reserve(b, n))
		return -1;
	memset(b->text + b->len, ' ', n);
	b->len += n;
	return 0;
}

/* The marker of a duration: trace-cmd's thresholds, strictly above each. */
static const char *overhead(uint64_t ns)
{
	if (ns > 1000000000ULL)
		return "$ ";
	if (ns > 1000000ULL)
		return "# ";
	if (ns > 100000ULL)
		return "! ";
	return ns > 10000ULL ? "+ " : "  ";
}

/* "5.416 us   |  ": microseconds, three decimals while they fit 7 digits, padded. */
static int put_duration(struct tm_buf *b, uint64_t ns)
{
	char num[TM_NUM_MAX + 8], *e = tm_put_u64(num, ns / 1000);
	size_t len = (size_t)(e - num);

	if (len < 7) {
		*e++ = '.';
		memcpy(e, tm_digit_pair((unsigned int)(ns % 1000 / 10)), 2);
		e[2] = (char)('0' + ns % 10);
		e += 3;
		len += 4;
	}
	if (put_str(b, overhead(ns)) || tm_buf_add(b, num, (size_t)(e - num)) ||
	    tm_buf_lit(b, " us ") || put_spaces(b, len < 7 ? 7 - len : 0))
		return -1;
	return tm_buf_lit(b, "|  ");
}

/* Two columns per depth, as trace-cmd's (int)(depth * 2) loop: none when that is negative. */
static int put_indent(struct tm_buf *b, uint64_t depth)
{
	int n = (int)(depth * GRAPH_INDENT);

	return put_spaces(b, n > 0 ? (n < INDENT_MAX ? (size_t)n : INDENT_MAX) : 0);
}

static int put_num(struct tm_buf *b, const char *pre, uint64_t v, bool hex, const char *post)
{
	char num[TM_NUM_MAX + 2];
	char *e = hex ? tm_put_hex(num, v) : tm_put_s64(num, (int64_t)v);

	if (put_str(b, pre) || tm_buf_add(b, num, (size_t)(e - num)))
		return -1;
	return put_str(b, post);
}

/* " (depth)" when -O fgraph:depth is set. */
static int put_depth(const struct tm_fgraph *g, struct tm_buf *b, uint64_t depth)
{
	return g->flags & TM_FGRAPH_DEPTH ? put_num(b, " (", depth, false, ")") : 0;
}

/* " (ret=...)": current trace-cmd, where returns carry retval; errors in decimal. */
static int put_retval(const struct tm_fgraph *g, struct tm_buf *b, const uint8_t *data,
		      uint32_t size)
{
	uint64_t v;
	bool hex;

	if (!g->x_retval || (g->flags & TM_FGRAPH_RETVAL_SKIP))
		return 0;
	if (!get(g, g->x_retval, data, size, &v))
		return tm_buf_lit(b, "!");
	if (g->flags & TM_FGRAPH_RETVAL_DEC)
		hex = false;
	else if (g->flags & TM_FGRAPH_RETVAL_HEX)
		hex = true;
	else
		hex = v < (uint64_t)-ERR_MAX;
	return put_num(b, " (ret=", v, hex, ")");
}

/* "name" + tail, or the address in hex (+ tail_unknown) when no symbol has it. */
static int put_func(const struct tm_fgraph *g, struct tm_buf *b, uint64_t func,
		    const char *tail, const char *tail_unknown)
{
	const char *name = tep_find_function(g->tep, func);

	if (name)
		return put_str(b, name) || put_str(b, tail) ? -1 : 0;
	if (!tail_unknown)
		return put_str(b, tail);
	return tm_buf_hex(b, func) || put_str(b, tail_unknown) ? -1 : 0;
}

/*
 * The depth in field f of the record, as indentation: 0; 1 when the record
 * is too short for it (trace-cmd's "!" is written, the text ends); -1: ENOMEM.
 */
static int put_depth_indent(struct tm_buf *b, const struct tm_fgraph *g,
			    const struct tep_format_field *f, const uint8_t *data, uint32_t size,
			    uint64_t *depth)
{
	if (!get(g, f, data, size, depth))
		return tm_buf_lit(b, "!") ? -1 : 1;
	return put_indent(b, *depth);
}

/* An entry that is not a leaf: "           |    name() {". */
static int put_nested(const struct tm_fgraph *g, struct tm_buf *b, const uint8_t *data,
		      uint32_t size)
{
	uint64_t depth, func;
	int r;

	if (tm_buf_lit(b, "             |  "))
		return -1;
	r = put_depth_indent(b, g, g->e_depth, data, size, &depth);
	if (r)
		return r < 0 ? -1 : 0;
	if (!get(g, g->e_func, data, size, &func))
		return tm_buf_lit(b, "!");
	/* current trace-cmd prints only ") {" for an address without a symbol */
	if (put_func(g, b, func, "() {", g->same_cpu ? NULL : "() {"))
		return -1;
	return put_depth(g, b, depth);
}

/* The duration of a return record: its rettime - calltime. */
static bool duration(const struct tm_fgraph *g, const uint8_t *data, uint32_t size,
		     uint64_t *ns)
{
	uint64_t call, ret;

	if (!get(g, g->x_rettime, data, size, &ret) || !get(g, g->x_calltime, data, size, &call))
		return false;
	*ns = ret - call;
	return true;
}

/* A leaf: the entry with the duration of its return, "5.416 us   |    name();". */
static int put_leaf(const struct tm_fgraph *g, struct tm_buf *b, const uint8_t *entry,
		    uint32_t esize, const uint8_t *ret, uint32_t rsize)
{
	uint64_t ns, depth, func;
	int r;

	if (!duration(g, ret, rsize, &ns))
		return tm_buf_lit(b, "!");
	if (put_duration(b, ns))
		return -1;
	r = put_depth_indent(b, g, g->e_depth, entry, esize, &depth);
	if (r)
		return r < 0 ? -1 : 0;
	if (!get(g, g->e_func, entry, esize, &func))
		return tm_buf_lit(b, "!");
	if (put_func(g, b, func, "();", "();") || put_depth(g, b, depth))
		return -1;
	return put_retval(g, b, ret, rsize);
}

int tm_fgraph_exit_text(const struct tm_fgraph *g, struct tm_buf *b, const uint8_t *data,
			uint32_t size)
{
	uint64_t ns, depth, func;
	const char *name;
	int r;

	if (!duration(g, data, size, &ns))
		return tm_buf_lit(b, "!");
	if (put_duration(b, ns))
		return -1;
	r = put_depth_indent(b, g, g->x_depth, data, size, &depth);
	if (r)
		return r < 0 ? -1 : 0;
	if (tm_buf_lit(b, "}"))
		return -1;
	if (g->flags & TM_FGRAPH_TAIL) {
		/* trace-cmd stops here when the function has no name */
		if (!get(g, g->x_func, data, size, &func))
			return 0;
		name = tep_find_function(g->tep, func);
		if (!name)
			return 0;
		if (tm_buf_lit(b, " /* ") || put_str(b, name) || tm_buf_lit(b, " */"))
			return -1;
	}
	return put_depth(g, b, depth) || put_retval(g, b, data, size) ? -1 : 0;
}

int tm_fgraph_entry_text(struct tm_fgraph *g, struct tm_buf *b, const struct tm_event_rec *rec,
			 int pid)
{
	struct held *h;
	uint64_t func;
	size_t start = b->len;

	if (put_nested(g, b, rec->data, rec->size) || tm_buf_lit(b, "\n"))
		return -1;
	if (rec->buffer < 0 || rec->buffer >= TM_FGRAPH_BUFFERS ||
	    !get(g, g->e_func, rec->data, rec->size, &func))
		return 0;
	h = &g->held[rec->buffer];
	if (rec->size > h->cap) {
		uint8_t *d = realloc(h->data, rec->size);

		if (!d)
			return -1;
		h->data = d;
		h->cap = rec->size;
	}
	memcpy(h->data, rec->data, rec->size);
	h->size = rec->size;
	h->pid = pid;
	h->cpu = rec->cpu;
	h->func = func;
	h->start = start;
	h->end = b->len;
	if (!h->on)
		g->nheld++;
	h->on = true;
	return 0;
}

bool tm_fgraph_holding(const struct tm_fgraph *g)
{
	return g && g->nheld;
}

void tm_fgraph_release(struct tm_fgraph *g)
{
	if (!g)
		return;
	for (int i = 0; i < TM_FGRAPH_BUFFERS; i++)
		g->held[i].on = false;
	g->nheld = 0;
}

/* Replace b's bytes [h->start, h->end) with the n bytes of text; later held lines move. */
static int splice(struct tm_fgraph *g, struct tm_buf *b, const struct held *h,
		  const char *text, size_t n)
{
	size_t old = h->end - h->start, at = h->start;

	if (n > old && tm_buf_reserve(b, n - old))
		return -1;
	memmove(b->text + at + n, b->text + h->end, b->len - h->end);
	memcpy(b->text + at, text, n);
	b->len = b->len - old + n;
	for (int i = 0; i < TM_FGRAPH_BUFFERS; i++) {
		if (g->held[i].on && g->held[i].start > at) {
			g->held[i].start = g->held[i].start - old + n;
			g->held[i].end = g->held[i].end - old + n;
		}
	}
	return 0;
}

int tm_fgraph_next(struct tm_fgraph *g, struct tm_buf *b, const struct tm_event_rec *rec,
		   int type, int pid)
{
	struct tm_buf leaf = { 0 };
	struct held *h;
	uint64_t func;
	int ret;

	if (!g || rec->buffer < 0 || rec->buffer >= TM_FGRAPH_BUFFERS)
		return 0;
	h = &g->held[rec->buffer];
	if (!h->on)
		return 0;
	/* whatever the buffer's next record is, the entry is decided now */
	h->on = false;
	g->nheld--;
	if (type != g->exit_id || pid != h->pid || (g->same_cpu && rec->cpu != h->cpu) ||
	    !get(g, g->x_func, rec->data, rec->size, &func) || func != h->func)
		return 0;
	ret = put_leaf(g, &leaf, h->data, h->size, rec->data, rec->size) ||
	      tm_buf_lit(&leaf, "\n") || splice(g, b, h, leaf.text, leaf.len) ? -1 : 1;
	free(leaf.text);
	return ret;
}

/* ---- -O: plugin options ---- */

static const struct {
	const char	*name;
	unsigned int	bit;
} fgraph_options[] = {
	{ "tailprint", TM_FGRAPH_TAIL },
	{ "depth", TM_FGRAPH_DEPTH },
	{ "retval-skip", TM_FGRAPH_RETVAL_SKIP },
	{ "retval-dec", TM_FGRAPH_RETVAL_DEC },
	{ "retval-hex", TM_FGRAPH_RETVAL_HEX },
};

/* name (plugin part len bytes before it, 0: none) is one of function_graph's: its bit. */
static unsigned int fgraph_bit(const char *plugin, size_t len, const char *name, size_t nlen)
{
	if (len && !(len == 6 && !memcmp(plugin, "fgraph", 6)) &&
	    !(len == 6 && !memcmp(plugin, "ftrace", 6)))
		return 0;
	for (size_t i = 0; i < TM_ARRAY_SIZE(fgraph_options); i++)
		if (strlen(fgraph_options[i].name) == nlen &&
		    !memcmp(fgraph_options[i].name, name, nlen))
			return fgraph_options[i].bit;
	return 0;
}

int tm_print_plugin_option(struct tm_print_opts *o, const char *opt)
{
	const char *eq = strchr(opt, '='), *colon = strchr(opt, ':');
	const char *name, *val = eq ? eq + 1 : NULL;
	size_t len = eq ? (size_t)(eq - opt) : strlen(opt);
	unsigned int bit;
	char *key;
	int ret;

	if (colon && colon > opt + len)
		colon = NULL;
	name = colon ? colon + 1 : opt;
	bit = fgraph_bit(opt, colon ? (size_t)(colon - opt) : 0, name, len - (size_t)(name - opt));
	if (bit) {
		/* libtraceevent's reading of a value: none, 1 or true sets it */
		if (!val || !strcmp(val, "1") || !strcasecmp(val, "true"))
			o->fgraph |= bit;
		else
			o->fgraph &= ~bit;
		return 0;
	}
	key = strndup(opt, len);
	if (!key)
		return tm_fail(ENOMEM, "plugin option");
	ret = tep_plugin_add_option(key, val);
	free(key);
	return ret ? tm_fail(ENOMEM, "plugin option %s", opt) : 0;
}
