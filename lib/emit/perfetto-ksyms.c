// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfetto-ksyms.c - kernel function addresses of the Perfetto output as
 * interned symbols. trace_processor names a funcgraph slice (and the
 * workqueue / blocked-reason functions in its args) by looking the field's
 * value up as an iid of InternedData.kernel_symbols on the packet's sequence
 * (ftrace_parser.cc: InternedKernelSymbolOrFallback, kKernelFunctionFields);
 * traced_probes writes them in the bundle packet that first uses them and
 * flags the sequence's first such packet SEQ_INCREMENTAL_STATE_CLEARED
 * (cpu_reader.cc). The names are libtraceevent's, from the file's kallsyms:
 * the ones `tracemap report` prints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "perfetto.h"
#include "pb-write.h"

/* TracePacket, InternedData and InternedString field numbers (trace.proto). */
enum { TP_INTERNED_DATA = 12, TP_SEQUENCE_FLAGS = 13, ID_KERNEL_SYMBOLS = 26,
       IS_IID = 1, IS_STR = 2, SEQ_INCREMENTAL_STATE_CLEARED = 1 };

/* Sequences whose written state fits a mask; later ones get every symbol again. */
#define KS_SEQS	64

struct ksym {
	uint64_t	addr;		/* 0: free slot */
	uint64_t	iid;		/* 0: no name, the address goes out as it is */
	const char	*name;
	uint64_t	written;	/* bit seq-1: the sequence has it */
	uint32_t	mark;		/* serial of the last bundle that listed it */
};

struct tm_pf_ksyms {
	struct tep_handle	*tep;
	struct ksym		*slots;
	size_t			cap, used;	/* cap a power of two */
	uint64_t		next_iid;
	uint64_t		cleared;	/* bit seq-1: its state-cleared packet went out */
	uint32_t		serial;
};

struct tm_pf_ksyms *tm_pf_ksyms_new(struct tep_handle *tep)
{
	struct tm_pf_ksyms *k = calloc(1, sizeof(*k));

	if (!k) {
		tm_fail(ENOMEM, "Perfetto kernel symbols");
		return NULL;
	}
	k->tep = tep;
	k->next_iid = 1;
	return k;
}

void tm_pf_ksyms_free(struct tm_pf_ksyms *k)
{
	if (!k)
		return;
	free(k->slots);
	free(k);
}

static size_t slot_of(const struct tm_pf_ksyms *k, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 20) & (k->cap - 1);

	while (k->slots[i].addr && k->slots[i].addr != addr)
		i = (i + 1) & (k->cap - 1);
	return i;
}

static int grow(struct tm_pf_ksyms *k)
{
	struct ksym *old = k->slots;
	size_t i, n = k->cap;

	k->cap = n ? n * 2 : 256;
	k->slots = calloc(k->cap, sizeof(*k->slots));
	if (!k->slots) {
		k->slots = old;
		k->cap = n;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (old[i].addr)
			k->slots[slot_of(k, old[i].addr)] = old[i];
	free(old);
	return 0;
}

uint32_t tm_pf_ksyms_serial(struct tm_pf_ksyms *k)
{
	return ++k->serial;
}

int tm_pf_ksyms_ref(struct tm_pf_ksyms *k, uint64_t addr, uint32_t serial, struct tm_buf *refs,
		    uint64_t *value)
{
	struct ksym *s;

	*value = addr;
	if (!addr)
		return 0;
	if ((k->used + 1) * 2 > k->cap && grow(k))
		return tm_fail(ENOMEM, "Perfetto kernel symbols");
	s = &k->slots[slot_of(k, addr)];
	if (!s->addr) {
		s->addr = addr;
		s->name = tep_find_function(k->tep, addr);
		s->iid = s->name ? k->next_iid++ : 0;
		k->used++;
	}
	if (!s->iid)
		return 0;
	*value = s->iid;
	if (s->mark != serial) {
		s->mark = serial;
		tm_buf_put(refs, &addr, sizeof(addr));
		if (refs->err)
			return tm_fail(ENOMEM, "Perfetto kernel symbols");
	}
	return 0;
}

void tm_pf_ksyms_put(struct tm_pf_ksyms *k, uint32_t seq, const struct tm_buf *refs,
		     struct tm_buf *b)
{
	uint64_t bit = seq >= 1 && seq <= KS_SEQS ? 1ULL << (seq - 1) : 0;
	size_t i, n = refs->len / sizeof(uint64_t), at = 0, sym;
	bool open = false;
	uint64_t addr;

	for (i = 0; i < n; i++) {
		struct ksym *s;

		memcpy(&addr, refs->data + i * sizeof(addr), sizeof(addr));
		s = &k->slots[slot_of(k, addr)];
		if (bit && (s->written & bit))
			continue;
		s->written |= bit;
		if (!open) {
			if (!bit || !(k->cleared & bit))
				pb_uint(b, TP_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
			k->cleared |= bit;
			at = pb_open(b, TP_INTERNED_DATA);
			open = true;
		}
		sym = pb_open(b, ID_KERNEL_SYMBOLS);
		pb_uint(b, IS_IID, s->iid);
		pb_str(b, IS_STR, s->name);
		pb_close(b, sym);
	}
	if (open)
		pb_close(b, at);
}
