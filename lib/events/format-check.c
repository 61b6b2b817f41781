// SPDX-License-Identifier: GPL-2.0-only
/*
 * format-check.c - an event format checked before tep_parse_event() reads
 * it: libtraceevent 1.7.1 crashes on some malformed formats (NULL
 * dereferences, a division by zero, unbounded recursion), which a format
 * the kernel writes never is. See docs/hostile-input.md for each bug.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "meta-check.h"
#include "trace/tm-trace.h"

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Does the format declare a field called name (len bytes)? "field:TYPE NAME[N];" lines. */
static bool format_has_field(const char *fmt, size_t flen, const char *name, size_t len)
{
	const char *p = fmt, *end = fmt + flen;

	while ((p = memmem(p, (size_t)(end - p), "field:", 6))) {
		const char *semi = memchr(p, ';', (size_t)(end - p)), *e;

		if (!semi)
			return false;
		/* the name is the last identifier before ';', array brackets aside */
		for (e = semi; e > p && (e[-1] == ']' || e[-1] == ' ' || e[-1] == '\t'); e--)
			if (e[-1] == ']')
				while (e > p && e[-1] != '[')
					e--;
		if ((size_t)(e - p) >= len && !memcmp(e - len, name, len) &&
		    (e - len == p || !is_ident(e[-(ptrdiff_t)len - 1])))
			return true;
		p = semi;
	}
	return false;
}

/*
 * Also: libtraceevent 1.7.1 marks the first REC->field after __print_flags( or
 * __print_symbolic( as a flag/symbol field without checking that the field
 * exists (process_entry(): tep_find_any_field() may return NULL, then
 * ->flags |= ...): a NULL dereference while parsing the format. The mark
 * is a global flag: without any REC-> after the call it would hit the
 * first field of a later format, so such a format is refused too.
 */
/* After '(' and type names, does p start a cast "TYPE [TYPE...] [*])"? Returns its end or NULL. */
static const char *skip_cast(const char *p, const char *end)
{
	const char *q = p;

	if (p == end || !(isalpha((unsigned char)*p) || *p == '_'))
		return NULL;
	while (q < end && (is_ident(*q) || *q == ' ' || *q == '\t' || *q == '*'))
		q++;
	return q < end && *q == ')' ? q + 1 : NULL;
}

/*
 * The value libtraceevent gives the number token at p: its tokenizer takes
 * the run of [A-Za-z0-9_] as one token and reads it with strtoull(tok, NULL,
 * 0), so "008" is 0 (octal "00", then a stray '8') and "0x" is 0 too.
 */
static unsigned long long number_token_value(const char *p, const char *end)
{
	char tok[32];
	size_t len = 0;

	while (p + len < end && is_ident(p[len]))
		len++;
	if (len >= sizeof(tok))
		return 0;	/* no divisor of a kernel format is that long */
	memcpy(tok, p, len);
	tok[len] = '\0';
	return strtoull(tok, NULL, 0);
}

/*
 * Is the divisor at p (right after a '/' or '%') a constant libtraceevent
 * cannot evaluate to zero: a nonzero number or a sizeof(), maybe in
 * parentheses or behind casts? An identifier evaluates to 0 when no kernel
 * symbol has its name, a field may hold 0. A number above INT64_MAX is
 * refused as well: as a signed divisor it is negative, and INT64_MIN / -1
 * traps like a division by zero.
 */
static bool nonzero_divisor(const char *p, const char *end)
{
	const char *cast;
	unsigned long long value;

	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && *p == '(') {
			cast = skip_cast(p + 1, end);
			p = cast ? cast : p + 1;
			continue;
		}
		break;
	}
	if ((size_t)(end - p) >= 6 && !memcmp(p, "sizeof", 6))
		return true;
	if (p == end || !isdigit((unsigned char)*p))
		return false;
	value = number_token_value(p, end);
	return value != 0 && value <= INT64_MAX;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* p past "REC->name" (not a longer name), or NULL. */
static const char *skip_field(const char *p, const char *end, const char *name, size_t len)
{
	if ((size_t)(end - p) < 5 + len || memcmp(p, "REC->", 5) || memcmp(p + 5, name, len))
		return NULL;
	p += 5 + len;
	return p < end && is_ident(*p) ? NULL : p;
}

/* The field a divisor at p names ("REC->name", behind parentheses): its length, or 0. */
static size_t divisor_field(const char *p, const char *end, const char **name)
{
	size_t len = 0;

	while ((p = skip_blanks(p, end)) < end && *p == '(')
		p++;
	if ((size_t)(end - p) <= 5 || memcmp(p, "REC->", 5))
		return 0;
	*name = p += 5;
	while (p + len < end && is_ident(p[len]))
		len++;
	return len;
}

/*
 * Does the argument at a read "REC->name == 0 ? X :" with that ':' before
 * the division at q? libtraceevent evaluates one branch of a ?: only, so
 * the division runs only where the field is not 0: 6.1's thermal and
 * devfreq formats guard "(100 * REC->busy_time) / REC->total_time" so.
 */
static bool zero_guarded(const char *a, const char *q, const char *name, size_t len)
{
	const char *p = a;
	int open = 0, d;

	while ((p = skip_blanks(p, q)) < q && *p == '(') {
		open++;
		p++;
	}
	p = skip_field(p, q, name, len);
	if (!p)
		return false;
	p = skip_blanks(p, q);
	while (p < q && *p == ')') {
		open--;
		p = skip_blanks(p + 1, q);
	}
	if (q - p < 2 || memcmp(p, "==", 2))
		return false;
	p = skip_blanks(p + 2, q);
	if (p >= q || *p != '0' || (p + 1 < q && is_ident(p[1])))
		return false;
	p = skip_blanks(p + 1, q);
	while (p < q && *p == ')') {
		open--;
		p = skip_blanks(p + 1, q);
	}
	if (open < 0 || p >= q || *p != '?')
		return false;
	/*
	 * The first branch without a ?: or string of its own, then the division
	 * in the second, inside the parentheses the ?: is in (d: depth below them).
	 */
	for (d = 0, p++; p < q && *p != '?' && *p != '"' && !(*p == ':' && !d); p++) {
		d += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (d < 0)
			return false;
	}
	if (p >= q || *p != ':')
		return false;
	for (d = 0, p++; p < q; p++) {
		d += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (d < 0)
			return false;	/* the ?: ended before the division */
	}
	return true;
}

/* The division at q (divisor after it) is safe: a constant, or a field guarded by arg a. */
static bool safe_divisor(const char *a, const char *q, const char *end)
{
	const char *name;
	size_t len;

	if (nonzero_divisor(q + 1, end))
		return true;
	len = divisor_field(q + 1, end, &name);
	return len && zero_guarded(a, q, name, len);
}

/*
 * libtraceevent evaluates "left / right" and "left % right" without a zero
 * check (eval_num_arg(), consolidate_op_arg()): SIGFPE when an event whose
 * print fmt divides by zero is printed. Kernel formats divide by constants
 * (2,323 formats of 6.18: sizeof() and numbers), or by a field in the
 * second branch of "REC->f == 0 ? ... :" (6.1); anything else in a '/' or
 * '%' operator outside the format's strings is refused.
 */
static bool divides_by_nonconstant(const char *p, const char *end)
{
	const char *arg = p;	/* the print argument p is in */
	bool in_str = false;
	int depth = 0;

	for (; p < end; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"')
			in_str = true;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == ',' && depth == 0)
			arg = p + 1;
		else if ((*p == '/' || *p == '%') && !safe_divisor(arg, p, end))
			return true;
	}
	return false;
}

/*
 * Kernel formats are printable ASCII, tabs and newlines. libtraceevent's
 * tokenizer turns any other byte into TEP_EVENT_NONE with a NULL token, and
 * some of its callers strcmp() that token unchecked (event_read_fields() on
 * "char[\x7f": a NULL dereference) or leak the one before it.
 */
static bool unreadable_byte(const char *p, const char *end)
{
	for (; p < end; p++)
		if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p >= 0x7f || *p < 0)
			return true;
	return false;
}

/* ---- the print fmt as libtraceevent's tokenizer and parser see it ---- */

/*
 * libtraceevent's parser (process_arg(), process_op()) recurses once per
 * operator, parenthesis and cast: 200,000 of them overflow the stack. Kernel
 * formats (2,323 of 6.18) have at most 866 and nest at most 13 parentheses
 * deep; these limits keep that far away and bound the scans below.
 */
#define FMT_MAX_OPS	8192
#define FMT_MAX_DEPTH	64

enum tok_type { TOK_END, TOK_ITEM, TOK_STR, TOK_DELIM, TOK_OP };

struct tok {
	enum tok_type	type;
	const char	*s;
	size_t		len;
};

struct lexer {
	const char	*p, *end;
};

static bool tok_is(struct tok t, const char *s)
{
	return t.len == strlen(s) && !memcmp(t.s, s, t.len);
}

/*
 * Past the quoted string or character constant at p. As in libtraceevent, a
 * quote right after a backslash never closes it, and "strings" separated by
 * white space are one token.
 */
static const char *quoted_end(const char *p, const char *end)
{
	const char q = *p, *n;

	for (;;) {
		for (p++; p < end && !(*p == q && p[-1] != '\\'); p++)
			;
		if (p < end)
			p++;
		if (q != '"')
			return p;
		for (n = p; n < end && isspace((unsigned char)*n); n++)
			;
		if (n == end || *n != '"')
			return p;
		p = n;
	}
}

/*
 * Past the operator at p: libtraceevent's tokenizer makes "->", doubled
 * + - | & < >, and any of + - | & < > ! = << >> followed by '=' one token;
 * any other character is an operator of its own.
 */
static const char *op_end(const char *p, const char *end)
{
	const char c = *p++;

	if (c == '-' && p < end && *p == '>')
		return p + 1;
	if (memchr("+-|&<>", c, 6) && p < end && *p == c) {
		p++;
		if (c != '<' && c != '>')
			return p;
	} else if (!memchr("+-|&<>!=", c, 8)) {
		return p;
	}
	return p < end && *p == '=' ? p + 1 : p;
}

/* The next token; white space (newlines too) separates them. */
static struct tok next_tok(struct lexer *lx)
{
	const char *p = lx->p;
	struct tok t = { .type = TOK_END };

	while (p < lx->end && isspace((unsigned char)*p))
		p++;
	t.s = p;
	if (p == lx->end) {
		t.type = TOK_END;
	} else if (is_ident(*p)) {
		t.type = TOK_ITEM;
		while (p < lx->end && is_ident(*p))
			p++;
	} else if (*p == '"' || *p == '\'') {
		t.type = TOK_STR;
		p = quoted_end(p, lx->end);
	} else if (*p == '(' || *p == ')' || *p == ',') {
		t.type = TOK_DELIM;
		p++;
	} else {
		t.type = TOK_OP;
		p = op_end(p, lx->end);
	}
	t.len = (size_t)(p - t.s);
	lx->p = p;
	return t;
}

/* Operators get_op_prio() knows; for any other it returns -1. */
static bool op_has_prio(struct tok t)
{
	static const char *const ops[] = {
		"~", "!", "*", "/", "%", "+", "-", "<", ">", "&", "^", "|", "?",
		"++", "--", ">>", "<<", ">=", "<=", "==", "!=", "&&", "||",
	};
	size_t i;

	for (i = 0; i < TM_ARRAY_SIZE(ops); i++)
		if (tok_is(t, ops[i]))
			return true;
	return false;
}

/* Operators and parentheses (the parser's recursion), and the deepest nesting. */
static void fmt_size(const char *p, const char *end, size_t *ops, size_t *depth)
{
	struct lexer lx = { p, end };
	size_t d = 0;
	struct tok t;

	*ops = *depth = 0;
	while ((t = next_tok(&lx)).type != TOK_END) {
		if (tok_is(t, "(")) {
			(*ops)++;
			if (++d > *depth)
				*depth = d;
		} else if (tok_is(t, ")")) {
			d -= d > 0;
		} else if (t.type == TOK_OP && !tok_is(t, "{") && !tok_is(t, "}")) {
			(*ops)++;
		}
	}
}

/* Past the ')' that closes the '(' just read. */
static void skip_group(struct lexer *lx)
{
	size_t depth = 1;
	struct tok t;

	while (depth && (t = next_tok(lx)).type != TOK_END) {
		if (tok_is(t, "("))
			depth++;
		else if (tok_is(t, ")"))
			depth--;
	}
}

/*
 * The token after the operand that starts at lx, as libtraceevent's
 * process_arg() reads it: "REC->field", NAME(...), words ("unsigned
 * long"), a string, or a parenthesis with the operand of a cast after it.
 * TOK_END when the operand is a unary operator (which checks what follows
 * itself) or there is none.
 */
static struct tok after_operand(struct lexer *lx)
{
	struct tok t = next_tok(lx), n;

	for (;;) {
		if (t.type == TOK_STR)
			return next_tok(lx);
		if (t.type == TOK_ITEM && tok_is(t, "REC")) {
			n = next_tok(lx);
			if (!tok_is(n, "->"))
				return n;
			next_tok(lx);
			return next_tok(lx);
		}
		if (t.type == TOK_ITEM) {
			n = next_tok(lx);
			if (tok_is(n, "(")) {
				skip_group(lx);
				return next_tok(lx);
			}
			while (n.type == TOK_ITEM)
				n = next_tok(lx);
			return n;
		}
		if (!tok_is(t, "("))
			return (struct tok){ .type = TOK_END };
		skip_group(lx);
		t = next_tok(lx);
		if (t.type != TOK_ITEM && t.type != TOK_STR && !tok_is(t, "("))
			return t;
	}
}

/*
 * libtraceevent 1.7.1, process_op(): after the operand that ends a "?:"
 * (the one after ':') or an index ("[" operand "]"), an operator it has no
 * precedence for (e.g. '.', '=', ';', '[', '->') makes it recurse into the
 * right-hand operand, which those two branches never set: a NULL
 * dereference (read at 0x8) while parsing the format. Every ':' and every
 * '[' is checked that way (one that is not a ternary's or an index fails
 * to parse anyway). The nesting limit keeps the rescans linear.
 */
static bool op_without_prio_after_cond(const char *p, const char *end)
{
	struct lexer lx = { p, end };
	struct tok t, n;

	while ((t = next_tok(&lx)).type != TOK_END) {
		struct lexer at = lx;

		if (tok_is(t, ":")) {
			n = after_operand(&at);
		} else if (tok_is(t, "[")) {
			n = after_operand(&at);
			if (!tok_is(n, "]"))
				continue;
			n = next_tok(&at);
		} else {
			continue;
		}
		if (n.type == TOK_OP && !tok_is(n, ":") && !op_has_prio(n))
			return true;
	}
	return false;
}

/* Why libtraceevent cannot parse this print fmt (the text after "print fmt:") safely, or NULL. */
static const char *print_fmt_check(const char *p, const char *end)
{
	size_t ops, depth;

	fmt_size(p, end, &ops, &depth);
	if (ops > FMT_MAX_OPS || depth > FMT_MAX_DEPTH)
		return "its print fmt has more operators or deeper parentheses than libtraceevent "
		       "parses safely";
	if (op_without_prio_after_cond(p, end))
		return "its print fmt has an operator libtraceevent does not know after a ?: or "
		       "an index";
	if (divides_by_nonconstant(p, end))
		return "its print fmt divides by something that may be zero";
	return NULL;
}

const char *tm_meta_format_check(struct tm_blob b)
{
	static const char *const fns[] = { "__print_flags", "__print_symbolic" };
	const char *end = b.data + b.len, *pf = memmem(b.data, b.len, "print fmt:", 10), *why;
	size_t i;

	if (unreadable_byte(b.data, end))
		return "a byte that is not printable ASCII";
	if (pf && (why = print_fmt_check(pf + 10, end)))
		return why;
	for (i = 0; pf && i < TM_ARRAY_SIZE(fns); i++) {
		const char *p = pf;

		while ((p = memmem(p, (size_t)(end - p), fns[i], strlen(fns[i])))) {
			const char *rec = memmem(p, (size_t)(end - p), "REC->", 5), *n;

			if (!rec)
				return "a __print_flags/__print_symbolic without a REC-> field";
			for (n = rec + 5; n < end && is_ident(*n); n++)
				;
			if (!format_has_field(b.data, (size_t)(pf - b.data), rec + 5,
					      (size_t)(n - rec - 5)))
				return "a __print_flags/__print_symbolic argument names no field of "
				       "the event";
			p = n;
		}
	}
	return NULL;
}
