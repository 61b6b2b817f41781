/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-piece.h - the pieces of a compiled print format: built by
 * print-fast.c, printed and taught by print-fast-render.c. Private to them.
 */
#ifndef TM_PRINT_PIECE_H
#define TM_PRINT_PIECE_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.h"
#include "print-fast.h"
#include "print-learn.h"

enum piece_kind {
	PIECE_LIT,
	PIECE_NUM,		/* integer field */
	PIECE_STR_FIELD,	/* char array field, cut at its size */
	PIECE_STR_DYN,		/* __get_str(): NUL-terminated dynamic string */
	PIECE_PTR,		/* plain %p of a 64-bit field */
	PIECE_SYM,		/* %s of __print_symbolic(field, { n, "name" }...) */
	PIECE_FUNC,		/* %ps / %pS of a 64-bit field: its kallsyms name */
	PIECE_COND,		/* %s of field ? "yes" : "no" */
	PIECE_LEARN,		/* text of one field's value, learnt (print-learn.c) */
};

#define MAX_SYMS	64

struct sym {
	uint64_t	value;
	const char	*str;		/* owned by the tep event */
	unsigned int	len;
};

struct piece {
	enum piece_kind	kind;
	const char	*lit;		/* PIECE_LIT: points into the format */
	unsigned int	lit_len;
	char		spec[24];	/* printf spec, length modifier normalized */
	bool		plain;		/* bare %d/%u/%s: formatted without printf */
	bool		is_signed;	/* value printed as signed */
	unsigned int	cast;		/* 4: value cast to 32 bits, 8: 64 */
	unsigned int	offset, size;	/* field in the payload */
	bool		rel;		/* __rel_loc */
	struct sym	*syms;		/* PIECE_SYM */
	unsigned int	nsyms;
	bool		fn_off;		/* PIECE_FUNC: %pS / %pF, "+0x<offset>" too */
	const char	*alt[2];	/* PIECE_COND: the text when false, when true */
	unsigned int	alt_len[2];
	struct tm_learnt *learnt;	/* PIECE_LEARN: texts by value */
};

struct simplefmt {
	struct tm_fastfmt	base;
	int			n;
	struct piece		p[];
};

/* Append the text of the whole format for this record: 0, or -1 (libtraceevent's). */
TM_HIDDEN int tm_simple_render(struct tm_fastfmt *base, struct tm_fastbuf *b,
			       const uint8_t *data, uint32_t size);
/* Learn the texts of the record's unknown one-field values from libtraceevent's line. */
TM_HIDDEN void tm_simple_learn(struct tm_fastfmt *base, const uint8_t *data, uint32_t size,
			       const char *text, size_t len);

#endif /* TM_PRINT_PIECE_H */
