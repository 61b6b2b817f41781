/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-piece.h - the pieces of a compiled print format: built by
 * print-fast.c from the event's format, printed and taught by
 * print-fast-render.c. Private to them.
 */
#ifndef TM_PRINT_PIECE_H
#define TM_PRINT_PIECE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/internal.h"
#include "print-fast.h"

enum piece_kind {
	PIECE_LIT,
	PIECE_NUM,		/* integer field, or REC->array[N] of one */
	PIECE_STR_FIELD,	/* char array field, cut at its size */
	PIECE_STR_DYN,		/* __get_str(): NUL-terminated dynamic string */
	PIECE_PTR,		/* plain %p of a 64-bit field */
	PIECE_SYM,		/* %s of __print_symbolic(field, { n, "name" }...) */
	PIECE_COND,		/* %s of field ? "yes" : "no" */
	PIECE_FUNC,		/* %ps / %pS of a 64-bit field: libtraceevent's function name */
	PIECE_LEARN,		/* text of one field's value, learnt from libtraceevent's line */
};

struct sym {
	uint64_t	value;
	const char	*str;		/* owned by the tep event */
	unsigned int	len;
};

struct piece {
	enum piece_kind	kind;
	const char	*lit;		/* PIECE_LIT: points into the format */
	unsigned int	lit_len;
	char		spec[24];	/* printf spec, length modifier normalized to ll */
	char		conv;		/* d i u x X s p, f for %ps / %pS */
	bool		plain;		/* no flags, width or precision */
	bool		simple;		/* at most '-', '0' and a width: formatted without printf */
	bool		left;		/* '-' */
	bool		zero;		/* '0' */
	unsigned int	width;
	bool		is_signed;	/* value printed as signed */
	unsigned int	cast;		/* 4: value cast to 32 bits, 8: 64 */
	unsigned int	offset, size;	/* field (or array element) in the payload */
	bool		rel;		/* __rel_loc */
	struct sym	*syms;		/* PIECE_SYM */
	unsigned int	nsyms;
	bool		fn_off;		/* PIECE_FUNC: %pS, "+0x<offset>" too */
	const char	*alt[2];	/* PIECE_COND: the text when zero, when not */
	unsigned int	alt_len[2];
	struct tm_learnt *learnt;	/* PIECE_LEARN: texts by value */
};

struct simplefmt {
	struct tm_fastfmt	base;
	int			n;
	struct piece		p[];
};

/* Append the text of the whole format for this record: 0, or -1 (libtraceevent's). */
TM_HIDDEN int tm_simple_render(struct tm_fastfmt *base, struct tm_buf *b,
			       const uint8_t *data, uint32_t size);
/* Learn the text of the record's one unknown learnt value from libtraceevent's line. */
TM_HIDDEN void tm_simple_learn(struct tm_fastfmt *base, const uint8_t *data, uint32_t size,
			       const char *text, size_t len);
/* The record, printed with learnt texts, matched libtraceevent's line: confirm them. */
TM_HIDDEN void tm_simple_confirm(struct tm_fastfmt *base, const uint8_t *data, uint32_t size);

#endif /* TM_PRINT_PIECE_H */
