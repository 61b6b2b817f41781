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
