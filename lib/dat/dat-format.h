/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dat-format.h - constants and byte-order helpers of the trace.dat
 * format (docs/trace-dat-format.md), shared by reader and writer.
 * Names follow the spec's section and option names.
 */
#ifndef TM_DAT_FORMAT_H
#define TM_DAT_FORMAT_H

#include <byteswap.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* §1 prologue */
#define TM_DAT_MAGIC		"\x17\x08\x44tracing"
#define TM_DAT_MAGIC_LEN	10
#define TM_DAT_PROLOGUE_LEN	18	/* magic, "6\0"/"7\0", endian, long size, page size */

/* §3 version 6 tags: 10 bytes each, NUL included */
#define TM_DAT_TAG_LEN		10
#define TM_DAT_TAG_OPTIONS	"options  "
#define TM_DAT_TAG_FLYRECORD	"flyrecord"
#define TM_DAT_TAG_LATENCY	"latency  "

/* §2.1 header info markers */
#define TM_DAT_HEADER_PAGE	"header_page"
#define TM_DAT_HEADER_EVENT	"header_event"

/* §4.2 section header: u16 id, u16 flags, u32 string id, u64 size */
#define TM_DAT_SECTION_HDR_LEN	16
#define TM_DAT_SEC_COMPRESSED	0x1
#define TM_DAT_NO_STRING	0xffffffffu

/* §6.2 compressed block header: u32 compressed, u32 uncompressed */
#define TM_DAT_BLOCK_HDR_LEN	8
/* §6.3 chunk stream: u32 count, then per chunk u32 compressed, u32 uncompressed */
#define TM_DAT_CHUNK_HDR_LEN	8

/* §5 option ids (v7 section ids share the number space) */
enum tm_dat_option {
	TM_OPT_DONE		= 0,
	TM_OPT_DATE		= 1,
	TM_OPT_CPUSTAT		= 2,
	TM_OPT_BUFFER		= 3,
	TM_OPT_TRACECLOCK	= 4,
	TM_OPT_UNAME		= 5,
	TM_OPT_HOOK		= 6,
	TM_OPT_OFFSET		= 7,
	TM_OPT_CPUCOUNT		= 8,
	TM_OPT_VERSION		= 9,
	TM_OPT_PROCMAPS		= 10,
	TM_OPT_TRACEID		= 11,
	TM_OPT_TIME_SHIFT	= 12,
	TM_OPT_GUEST		= 13,
	TM_OPT_TSC2NSEC		= 14,
	TM_OPT_STRINGS		= 15,
	TM_OPT_HEADER_INFO	= 16,
	TM_OPT_FTRACE_EVENTS	= 17,
	TM_OPT_EVENT_FORMATS	= 18,
	TM_OPT_KALLSYMS		= 19,
	TM_OPT_PRINTK		= 20,
	TM_OPT_CMDLINES		= 21,
	TM_OPT_BUFFER_TEXT	= 22,
	/* trace-cmd >= 3.4; neither 3.1.6 nor tracemap uses them to print events */
	TM_OPT_BTF_FILE		= 23,
	TM_OPT_LAST_BOOT_INFO	= 24,	/* "<instance>:" + last_boot_info (record -B) */
	TM_OPT_MODULES_FILE	= 25,
};

/* §7.1 page header commit word */
#define TM_PAGE_TS_LEN		8
#define TM_PAGE_COMMIT_LEN_MASK	0x07ffffffu	/* bits 0-26: data bytes */
#define TM_PAGE_MISSED_STORED	(1u << 30)	/* a lost count follows the data */
#define TM_PAGE_MISSED_EVENTS	(1u << 31)	/* events lost before this page */

/* §7.3 record types (type_len) */
#define TM_RB_TYPE_DATA_MAX	28
#define TM_RB_TYPE_PADDING	29
#define TM_RB_TYPE_TIME_EXTEND	30
#define TM_RB_TYPE_TIME_STAMP	31
#define TM_RB_TS_SHIFT		27
#define TM_RB_TS_TOP_MASK	(0xf8ull << 56)	/* bits an absolute stamp lacks */

/* Byte order: a reader of a foreign-endian file passes swap = true. */
static inline uint16_t tm_get16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static inline uint32_t tm_get32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static inline uint64_t tm_get64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

/* The writer always writes host byte order (what the kernel's pages use). */
static inline void tm_put16(void *p, uint16_t v) { memcpy(p, &v, sizeof(v)); }
static inline void tm_put32(void *p, uint32_t v) { memcpy(p, &v, sizeof(v)); }
static inline void tm_put64(void *p, uint64_t v) { memcpy(p, &v, sizeof(v)); }

static inline bool tm_host_is_big_endian(void)
{
	return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

/* An unsigned integer of size 1, 2, 4 or 8 bytes (a record's field). */
static inline uint64_t tm_get_uint(const void *p, unsigned int size, bool swap)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	unsigned int i;

	if (!swap) {
		/* fixed-size copies compile to one load each */
		switch (size) {
		case 1:
			return b[0];
		case 2:
			return tm_get16(b, false);
		case 4:
			return tm_get32(b, false);
		case 8:
			memcpy(&v, b, 8);
			return v;
		}
		memcpy((uint8_t *)&v + (tm_host_is_big_endian() ? 8 - size : 0), b, size);
		return v;
	}
	for (i = 0; i < size; i++)
		v = v << 8 | b[tm_host_is_big_endian() ? size - 1 - i : i];
	return v;
}

#endif /* TM_DAT_FORMAT_H */
