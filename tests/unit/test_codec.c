// SPDX-License-Identifier: GPL-2.0-only
/* test_codec.c - zstd/none frames round-trip and corrupt frames are refused. */
#include <stdlib.h>

#include "internal.h"
#include "tm_test.h"

static void roundtrip(struct tm_test *t, enum tm_compression kind)
{
	size_t len;
	char *raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len);
	struct tm_codec *codec = tm_codec_new(kind, 1);
	size_t cap;
	char *frame, *back;
	ssize_t n;

	TM_REQUIRE(raw && codec);
	cap = tm_codec_bound(codec, len);
	frame = malloc(cap);
	back = malloc(len);
	TM_REQUIRE(frame && back);
	n = tm_codec_compress(codec, frame, cap, raw, len);
	TM_CHECK(n > 0);
	if (kind == TM_COMPRESS_ZSTD) {
		TM_CHECK(n < (ssize_t)len / 2);	/* ftrace pages compress well */
		TM_CHECK(!memcmp(frame, "\x28\xb5\x2f\xfd", 4));
	}
	TM_CHECK_INT(tm_codec_decompress(codec, back, len, frame, n), (long long)len);
	TM_CHECK(!memcmp(raw, back, len));
	/* a wrong expected size is an error, not a silent short read */
	TM_CHECK_INT(tm_codec_decompress(codec, back, len - 1, frame, n), -1);
	free(frame);
	free(back);
	free(raw);
	tm_codec_free(codec);
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
	size_t len;
	char *raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len);
	struct tm_codec *codec = tm_codec_new(TM_COMPRESS_ZSTD, 9);
	struct steps st = { 0 };
	char *one, *stepped, *back;
	ssize_t n1, n2;
	size_t cap;

	TM_REQUIRE(raw && codec && len == 5 * 4096);
	cap = tm_codec_bound(codec, len);
	one = malloc(cap);
	stepped = malloc(cap);
	back = malloc(len);
	TM_REQUIRE(one && stepped && back);
	n1 = tm_codec_compress(codec, one, cap, raw, len);
	n2 = tm_codec_compress_steps(codec, stepped, cap, raw, len, 4096, steps_go_on, &st);
	TM_CHECK_INT(st.calls, 4);		/* after each step but the last */
	TM_CHECK_INT(st.last_done, 4 * 4096);
	TM_CHECK_INT(n2, n1);
	TM_CHECK(n1 > 0 && !memcmp(one, stepped, n1));
	TM_CHECK_INT(tm_codec_decompress(codec, back, len, stepped, n2), (long long)len);
	TM_CHECK(!memcmp(raw, back, len));
	free(one);
	free(stepped);
	free(back);
	free(raw);
	tm_codec_free(codec);
}

/* Stopped after the second step: no frame, no message, and the codec goes on working. */
TM_TEST(codec_steps_stop_when_told)
{
	size_t len;
	char *raw = tm_read_file(tm_fixture("raw/A.cpu0.raw"), &len);
	struct tm_codec *codec = tm_codec_new(TM_COMPRESS_ZSTD, 9);
	struct steps st = { .stop_at = 2 };
	char *frame, *back;
	ssize_t n;
	size_t cap;

	TM_REQUIRE(raw && codec);
	cap = tm_codec_bound(codec, len);
	frame = malloc(cap);
	back = malloc(len);
	TM_REQUIRE(frame && back);
	n = tm_codec_compress_steps(codec, frame, cap, raw, len, 4096, steps_go_on, &st);
	TM_CHECK_INT(n, TM_CODEC_STOPPED);
	TM_CHECK_INT(st.calls, 2);
	TM_CHECK_INT(st.last_done, 2 * 4096);
	tm_codec_set_level(codec, tm_codec_min_level());
	n = tm_codec_compress(codec, frame, cap, raw, len);
	TM_REQUIRE(n > 0);
	TM_CHECK_INT(tm_codec_decompress(codec, back, len, frame, n), (long long)len);
	TM_CHECK(!memcmp(raw, back, len));
	/* a step as large as the input: one go, go_on never asked */
	st = (struct steps){ .stop_at = 1 };
	TM_CHECK(tm_codec_compress_steps(codec, frame, cap, raw, len, len, steps_go_on, &st) > 0);
	TM_CHECK_INT(st.calls, 0);
	free(frame);
	free(back);
	free(raw);
	tm_codec_free(codec);
}
