/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * print-json.h - what the three parts of report --json share: the pieces
 * of an event type (print-json-event.c), the fields object written from
 * them (print-json-fields.c) and the record's object (print-json.c).
 * Private to those files.
 */
#ifndef TM_PRINT_JSON_H
#define TM_PRINT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_kind {
	JSON_NUM,	/* a 1, 2, 4 or 8 byte integer */
	JSON_STR,	/* char array or __data_loc string */
	JSON_ARRAY,	/* numbers of esize bytes (odd-sized scalars: bytes) */
	JSON_STACK,	/* ftrace kernel_stack / user_stack "caller" */
};

/* One field: its key, escaped, and where and how its value is read. */
struct json_field {
	const char	*key;		/* "\"name\":", ",\"name\":" after the first */
	unsigned int	key_len;
	enum json_kind	kind;
	bool		is_signed;
	bool		dynamic;	/* __data_loc / __rel_loc */
	bool		relative;	/* __rel_loc */
	bool		flexible;	/* "char buf[]": the rest of the record */
	uint32_t	offset, size;	/* as the format says */
	unsigned int	esize;		/* JSON_NUM, JSON_ARRAY: bytes per number */
};

struct tm_jsonfmt {
	struct tep_handle	*tep;
	bool			swap;		/* file byte order differs from ours */
	unsigned int		long_size;	/* stack entries: 4 or 8 */
	bool			latency;	/* common_flags and common_preempt_count exist */
	int			flags_off, pc_off;	/* common_flags, _preempt_count or -1 */
	char			*head;		/* ",\"event\":\"name\",\"system\":\"sys\"" */
	size_t			head_len;
	char			*keys;		/* the fields' keys */
	int			nfields;
	struct json_field	f[];
};

/* Copy a piece tm_jsonfmt_new() made (padded) in whole words: o has 7 bytes to spare. */
static inline char *put_piece(char *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 8)
		__builtin_memcpy(o + i, s + i, 8);
	return o + n;
}

#endif /* TM_PRINT_JSON_H */
