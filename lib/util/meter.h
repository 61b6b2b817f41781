/* SPDX-License-Identifier: GPL-2.0-only */
/* meter.h - how the library shows a meter's counters (tm-progress.h has the meter). */
#ifndef TM_METER_H
#define TM_METER_H

#include "util/tm-progress.h"

/* Hand a meter's counters to its hook, if there is one. */
static inline void tm_meter_show(struct tm_meter *m)
{
	if (m && m->fn)
		m->fn(m->ctx, &m->p);
}

#endif /* TM_METER_H */
