// SPDX-License-Identifier: GPL-2.0-only
/* test_codec.c - zstd/none frames round-trip and corrupt frames are refused. */
#include <stdlib.h>

#include "util/internal.h"
#include "tm_test.h"
#include "dat/codec.h"
#include "util/tm-error.h"

/* The fixture's raw pages, a codec, and room for their frame and their decoded copy. */
struct pages {
	char		*raw, *frame, *back;
	size_t		len, cap;
	struct tm_codec	*codec;
};

/* False when something could not be made. */
static bool pages_new(struct pages *p, enum tm_compression kind, int level)
{
	memset(p, 0, sizeof(*p));
	p->raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &p->len);
	p->codec = tm_codec_new(kind, level);
	if (!p->raw || !p->codec)
		return false;
	p->cap = tm_codec_bound(p->codec, p->len);
	p->frame = malloc(p->cap);
	p->back = malloc(p->len);
	return p->frame && p->back;
}

static void pages_free(struct pages *p)
{
	free(p->frame);
	free(p->back);
	free(p->raw);
	tm_codec_free(p->codec);
}

static void roundtrip(struct tm_test *t, enum tm_compression kind)
{
	struct pages p;
	ssize_t n;

	TM_REQUIRE(pages_new(&p, kind, 1));
	n = tm_codec_compress(p.codec, p.frame, p.cap, p.raw, p.len);
	TM_CHECK(n > 0);
	if (kind == TM_COMPRESS_ZSTD) {
		TM_CHECK(n < (ssize_t)p.len / 2);	/* ftrace pages compress well */
		TM_CHECK(!memcmp(p.frame, "\x28\xb5\x2f\xfd", 4));
	}
	TM_CHECK_INT(tm_codec_decompress(p.codec, p.back, p.len, p.frame, n), (long long)p.len);
	TM_CHECK(!memcmp(p.raw, p.back, p.len));
	/* a wrong expected size is an error, not a silent short read */
	TM_CHECK_INT(tm_codec_decompress(p.codec, p.back, p.len - 1, p.frame, n), -1);
	pages_free(&p);
}

TM_TEST(codec_zstd_roundtrip_of_real_pages)
{
	roundtrip(t, TM_COMPRESS_ZSTD);
}

TM_TEST(codec_none_roundtrip)
{
	roundtrip(t, TM_COMPRESS_NONE);
}

TM_TEST(codec_rejects_corrupt_zstd_frame)
{
	struct tm_codec *codec = tm_codec_new(TM_COMPRESS_ZSTD, 3);
	char src[8192], frame[9000], back[8192];
	ssize_t n;

	TM_REQUIRE(codec);
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (char)(i * 7 % 251);
	n = tm_codec_compress(codec, frame, sizeof(frame), src, sizeof(src));
	TM_REQUIRE(n > 8);
	/* our frames carry a checksum, so damage anywhere is detected */
	frame[n / 2] ^= 0x5a;
	frame[n / 2 + 1] ^= 0xa5;
	TM_CHECK_INT(tm_codec_decompress(codec, back, sizeof(back), frame, n), -1);
	TM_CHECK_INT(tm_codec_decompress(codec, back, sizeof(back), frame, 3), -1);
	tm_codec_free(codec);
}

TM_TEST(codec_names_parse)
{
	enum tm_compression c;

	TM_CHECK_INT(tm_compression_parse("zstd", &c), 0);
	TM_CHECK_INT(c, TM_COMPRESS_ZSTD);
	TM_CHECK_INT(tm_compression_parse("none", &c), 0);
	TM_CHECK_INT(c, TM_COMPRESS_NONE);
	TM_CHECK_INT(tm_compression_parse("zlib", &c), -1);
	TM_CHECK(strstr(tm_last_error(), "zlib") != NULL);
}

/* go_on for the stepped tests: counts its calls, says stop at call stop_at (0: never). */
struct steps {
	int	calls;
	int	stop_at;
	size_t	last_done;
};

static bool steps_go_on(void *ctx, size_t done)
{
	struct steps *st = ctx;

	st->calls++;
	st->last_done = done;
	return st->calls != st->stop_at;
}

/* A frame made in steps is the frame made in one go, and decodes to the pages. */
TM_TEST(codec_steps_make_the_same_frame)
{
	struct steps st = { 0 };
	struct pages p;
	char *stepped;
	ssize_t n1, n2;

	TM_REQUIRE(pages_new(&p, TM_COMPRESS_ZSTD, 9) && p.len == 5 * 4096);
	stepped = malloc(p.cap);
	TM_REQUIRE(stepped);
	n1 = tm_codec_compress(p.codec, p.frame, p.cap, p.raw, p.len);
	n2 = tm_codec_compress_steps(p.codec, stepped, p.cap, p.raw, p.len, 4096, steps_go_on,
				     &st);
	TM_CHECK_INT(st.calls, 4);		/* after each step but the last */
	TM_CHECK_INT(st.last_done, 4 * 4096);
	TM_CHECK_INT(n2, n1);
	TM_CHECK(n1 > 0 && !memcmp(p.frame, stepped, n1));
	TM_CHECK_INT(tm_codec_decompress(p.codec, p.back, p.len, stepped, n2), (long long)p.len);
	TM_CHECK(!memcmp(p.raw, p.back, p.len));
	free(stepped);
	pages_free(&p);
}

/* Stopped after the second step: no frame, no message, and the codec goes on working. */
TM_TEST(codec_steps_stop_when_told)
{
	struct steps st = { .stop_at = 2 };
	struct pages p;
	ssize_t n;

	TM_REQUIRE(pages_new(&p, TM_COMPRESS_ZSTD, 9));
	n = tm_codec_compress_steps(p.codec, p.frame, p.cap, p.raw, p.len, 4096, steps_go_on,
				    &st);
	TM_CHECK_INT(n, TM_CODEC_STOPPED);
	TM_CHECK_INT(st.calls, 2);
	TM_CHECK_INT(st.last_done, 2 * 4096);
	tm_codec_set_level(p.codec, tm_codec_min_level());
	n = tm_codec_compress(p.codec, p.frame, p.cap, p.raw, p.len);
	TM_REQUIRE(n > 0);
	TM_CHECK_INT(tm_codec_decompress(p.codec, p.back, p.len, p.frame, n), (long long)p.len);
	TM_CHECK(!memcmp(p.raw, p.back, p.len));
	/* a step as large as the input: one go, go_on never asked */
	st = (struct steps){ .stop_at = 1 };
	TM_CHECK(tm_codec_compress_steps(p.codec, p.frame, p.cap, p.raw, p.len, p.len,
					 steps_go_on, &st) > 0);
	TM_CHECK_INT(st.calls, 0);
	pages_free(&p);
}
