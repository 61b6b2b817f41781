/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tm-fit.h - fitting a line of fields to a width (fit.c): the least
 * important fields are dropped whole until the rest fits, so no field is
 * ever cut in the middle (the status line of cmd/status.c).
 */
#ifndef TM_FIT_H
#define TM_FIT_H

#include <stdbool.h>

#define TM_FIT_SEP	2	/* columns between two fields ("  ") */

struct tm_fit_field {
	const char	*text;		/* NULL: not on the line at all */
	/*
	 * 0: never dropped; otherwise the highest rank goes first (the
	 * rightmost of equal ranks first).
	 */
	int		rank;
	/*
	 * Joined to the field before by one space rather than TM_FIT_SEP, and
	 * dropped with it whatever its rank ("(2.7x)" after "... MB"); shown
	 * only after a field that is.
	 */
	bool		attached;
	bool		kept;		/* set by tm_fit_fields() */
};

/*
 * Set kept on the fields (in line order) that fit in width columns, dropping
 * whole fields by rank, and return the width of the kept ones joined. Above
 * width only when the rank-0 fields alone are wider (then they are all kept).
 */
int tm_fit_fields(struct tm_fit_field *f, int n, int width);

#endif /* TM_FIT_H */
