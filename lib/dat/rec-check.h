/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rec-check.h - is a record safe to hand to libtraceevent? (rec-check.c)
 */
#ifndef TM_REC_CHECK_H
#define TM_REC_CHECK_H

#include <stdint.h>

#include "util/internal.h"

struct tep_handle;
struct tm_reccheck;

/*
 * Zero bytes the file reader keeps after every buffer of records (dat-cursor.c):
 * a read that runs past a record's end by up to this much stays in memory.
 */
#define TM_RECORD_SLACK	64u

/* A checker for records decoded with tep (its formats must all be parsed). */
TM_HIDDEN struct tm_reccheck *tm_reccheck_new(struct tep_handle *tep);
/*
 * NULL when every field libtraceevent may read of the record (common fields,
 * the event's fixed fields, __data_loc / __rel_loc data) lies inside its size
 * bytes (an ftrace event's trailing array, sized by the kernel at run time,
 * may end up to TM_RECORD_SLACK bytes past it); else why not, as "EVENT: field F (...) runs past the record's N
 * bytes" (valid until the next call).
 */
TM_HIDDEN const char *tm_reccheck(struct tm_reccheck *c, const void *data, uint32_t size);
TM_HIDDEN void tm_reccheck_free(struct tm_reccheck *c);

#endif /* TM_REC_CHECK_H */
