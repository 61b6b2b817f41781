// SPDX-License-Identifier: GPL-2.0-only
/* dat-io.c - bounded reads of trace.dat bytes (file or section body), the reader's messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat-internal.h"
#include "dat-format.h"

int tm_dat_err(const struct tm_dat *dat, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tm_failx(EINVAL, "%s: %s", dat->name, msg);
}

int tm_dat_rd_err(const struct dat_rd *rd, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->mem)
		return tm_dat_err(rd->dat, "%s section at offset %llu: %s (body byte %llu)",
				  rd->what, (unsigned long long)rd->sec, msg,
				  (unsigned long long)rd->pos);
	return tm_dat_err(rd->dat, "%s at offset %llu: %s", rd->what,
			  (unsigned long long)rd->pos, msg);
}

bool tm_dat_in_file(const struct tm_dat *dat, uint64_t off, uint64_t len)
{
	return off <= dat->size && len <= dat->size - off;
}

int tm_dat_pread(struct tm_dat *dat, void *buf, uint64_t len, uint64_t off, const char *what)
{
	if (!tm_dat_in_file(dat, off, len))
		return tm_dat_err(dat, "%s at offset %llu: %llu bytes run past the end of the file "
				  "(%llu bytes)", what, (unsigned long long)off,
				  (unsigned long long)len, (unsigned long long)dat->size);
	if (tm_pread_all(dat->fd, buf, len, off)) {
		int err = errno == EIO ? EIO : errno;

		tm_fail(err, "%s: read %s at offset %llu", dat->name, what,
			(unsigned long long)off);
		return -1;
	}
	return 0;
}

void tm_dat_rd_file(struct dat_rd *rd, struct tm_dat *dat, uint64_t pos, uint64_t end,
		    const char *what)
{
	*rd = (struct dat_rd){ .dat = dat, .pos = pos, .end = end < dat->size ? end : dat->size,
			       .what = what };
}

void tm_dat_rd_mem(struct dat_rd *rd, struct tm_dat *dat, const void *mem, uint64_t len,
		   uint64_t sec, const char *what)
{
	*rd = (struct dat_rd){ .dat = dat, .mem = mem, .end = len, .sec = sec, .what = what };
}

uint64_t tm_dat_rd_left(const struct dat_rd *rd)
{
	return rd->pos < rd->end ? rd->end - rd->pos : 0;
}

int tm_dat_rd_bytes(struct dat_rd *rd, void *out, uint64_t len)
{
	if (len > tm_dat_rd_left(rd))
		return tm_dat_rd_err(rd, "truncated: %llu bytes needed, %llu left",
				     (unsigned long long)len,
				     (unsigned long long)tm_dat_rd_left(rd));
	if (rd->mem)
		memcpy(out, rd->mem + rd->pos, len);
	else if (tm_dat_pread(rd->dat, out, len, rd->pos, rd->what))
		return -1;
	rd->pos += len;
	return 0;
}

/* A number of size bytes in the file's byte order into the uintN_t at out. */
static int dat_rd_num(struct dat_rd *rd, void *out, unsigned int size)
{
	uint8_t b[8];
	uint64_t v;

	if (tm_dat_rd_bytes(rd, b, size))
		return -1;
	v = tm_get_uint(b, size, rd->dat->swap);
	/* the low size bytes of v are the value as a uintN_t holds it */
	memcpy(out, (uint8_t *)&v + (tm_host_is_big_endian() ? 8 - size : 0), size);
	return 0;
}

int tm_dat_rd_u16(struct dat_rd *rd, uint16_t *v) { return dat_rd_num(rd, v, sizeof(*v)); }
int tm_dat_rd_u32(struct dat_rd *rd, uint32_t *v) { return dat_rd_num(rd, v, sizeof(*v)); }
int tm_dat_rd_u64(struct dat_rd *rd, uint64_t *v) { return dat_rd_num(rd, v, sizeof(*v)); }

/*
 * The section's own buffer for a text that ends it (kallsyms: 5 MB), moved
 * to the buffer's start: the length read before it leaves room for the NUL.
 */
static char *rd_take_text(struct dat_rd *rd, uint64_t len)
{
	char *p = (char *)rd->own;

	memmove(p, p + rd->pos, len);
	rd->own = NULL;
	rd->pos += len;
	return p;
}

int tm_dat_rd_text(struct dat_rd *rd, uint64_t len, struct tm_text *out)
{
	char *p;

	if (len > tm_dat_rd_left(rd))
		return tm_dat_rd_err(rd, "length %llu runs past the end (%llu bytes left)",
				     (unsigned long long)len,
				     (unsigned long long)tm_dat_rd_left(rd));
	if (rd->own && rd->pos && len == tm_dat_rd_left(rd)) {
		p = rd_take_text(rd, len);
	} else {
		p = tm_alloc_big(len + 1);
		if (!p)
			return tm_fail(ENOMEM, "%s: %s", rd->dat->name, rd->what);
		if (tm_dat_rd_bytes(rd, p, len)) {
			free(p);
			return -1;
		}
	}
	p[len] = '\0';
	tm_text_free(out);
	out->data = p;
	out->len = len;
	out->sec = rd->mem ? rd->sec : 0;
	out->off = rd->pos - len;
	return 0;
}

/* In the file, scan forward in small reads for the NUL; never past rd->end. */
int tm_dat_rd_str(struct dat_rd *rd, char **out)
{
	uint64_t start = rd->pos, len;
	const uint8_t *nul;
	char buf[256];

	if (rd->mem) {
		nul = memchr(rd->mem + rd->pos, '\0', tm_dat_rd_left(rd));
		if (!nul)
			return tm_dat_rd_err(rd, "string without a terminating NUL");
		len = nul - (rd->mem + rd->pos);
	} else {
		for (len = 0;;) {
			uint64_t n = tm_dat_rd_left(rd) - len;
			char *z;

			if (!n)
				return tm_dat_rd_err(rd, "string without a terminating NUL");
			if (n > sizeof(buf))
				n = sizeof(buf);
			if (tm_dat_pread(rd->dat, buf, n, rd->pos + len, rd->what))
				return -1;
			z = memchr(buf, '\0', n);
			if (z) {
				len += z - buf;
				break;
			}
			len += n;
		}
	}
	*out = malloc(len + 1);
	if (!*out)
		return tm_fail(ENOMEM, "%s: %s", rd->dat->name, rd->what);
	if (tm_dat_rd_bytes(rd, *out, len + 1)) {
		free(*out);
		*out = NULL;
		rd->pos = start;
		return -1;
	}
	return 0;
}

int tm_dat_set_str(struct tm_dat *dat, char **dst, const uint8_t *p, uint32_t len)
{
	char *s = malloc((size_t)len + 1);

	if (!s)
		return tm_fail(ENOMEM, "%s: options", dat->name);
	memcpy(s, p, len);
	s[len] = '\0';
	free(*dst);
	*dst = s;
	return 0;
}

const char *tm_dat_buf_label(const struct dat_buffer *b, char *buf, size_t size)
{
	if (!b->name || !b->name[0])
		snprintf(buf, size, "top buffer");
	else
		snprintf(buf, size, "buffer '%.60s'", b->name);
	return buf;
}
