/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_checksum.c - doca_dma_copy's end-to-end checksum (apps/dma-copy/checksum.c): folded in
 * pieces of any size it equals the one-shot value (both sides fold chunks as they come), the
 * vector code (where the CPU has it) gives the portable code's result, and it changes with a
 * flipped bit anywhere, two flips in the same lane, swapped stripes or blocks, a truncated or
 * extended file.
 */
#include <stdlib.h>
#include <string.h>

#include "../../apps/dma-copy/dma_copy.h"
#include "../common/sd_test.h"

#define LEN ((1u << 20) + 37)

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Whether swapping @n bytes at @x and @y of @b changes the checksum (@b is left as it was). */
static bool swapped_differs(unsigned char *b, size_t x, size_t y, size_t n, uint64_t whole)
{
	unsigned char t[256];
	bool differs;

	memcpy(t, b + x, n);
	memcpy(b + x, b + y, n);
	memcpy(b + y, t, n);
	differs = dma_copy_checksum(b, LEN) != whole;
	memcpy(b + y, b + x, n);
	memcpy(b + x, t, n);
	return differs;
}

int main(void)
{
	unsigned char *b = malloc(LEN);
	uint64_t whole;

	CHECK(b != NULL);
	for (size_t i = 0; i < LEN; i++)
		b[i] = (unsigned char)next();
	whole = dma_copy_checksum(b, LEN);

	/* Pieces: random sizes (0 to 300 bytes, then up to 64 KiB), several times over. */
	for (int round = 0; round < 20; round++) {
		struct dc_sum s;
		size_t off = 0;

		dc_sum_init(&s);
		while (off < LEN) {
			size_t n = round < 10 ? next() % 301 : next() % 65537;

			if (n > LEN - off)
				n = LEN - off;
			dc_sum_update(&s, b + off, n);
			off += n;
		}
		CHECK_EQ(dc_sum_final(&s), whole);
	}

	/* The vector code against the portable code: every length up to a few blocks, at every
	 * alignment of a 64-byte line, then the whole buffer in one go. */
	for (int level = dc_sum_simd(DC_SIMD_AVX512); level > DC_SIMD_NONE; level--) {
		size_t checked = 0;

		for (size_t len = 0; len <= 1100; len += (len < 600 ? 1 : 37)) {
			for (size_t at = 0; at < 64; at += (len < 600 ? 9 : 1)) {
				uint64_t v;

				CHECK_EQ(dc_sum_simd(level), level);
				v = dma_copy_checksum(b + at, len);
				dc_sum_simd(DC_SIMD_NONE);
				CHECK_EQ(dma_copy_checksum(b + at, len), v);
				checked++;
			}
		}
		dc_sum_simd(level);
		CHECK_EQ(dma_copy_checksum(b, LEN), whole);
		printf("checksum: %s code gave the portable result %zu times\n",
		       level == DC_SIMD_AVX512 ? "the AVX-512" : "the AVX2", checked);
	}
	dc_sum_simd(DC_SIMD_NONE);
	CHECK_EQ(dma_copy_checksum(b, LEN), whole);
	dc_sum_simd(DC_SIMD_AVX512);

	/* One flipped bit, in a sample of positions over the whole range and in the tail. */
	for (size_t i = 0; i < LEN; i += (i < LEN - 64) ? 4093 : 1) {
		for (int bit = 0; bit < 8; bit++) {
			b[i] ^= (unsigned char)(1u << bit);
			CHECK(dma_copy_checksum(b, LEN) != whole);
			b[i] ^= (unsigned char)(1u << bit);
		}
	}
	/* Two flips of the top bit of words in the same lane (a block, 256 bytes, apart). */
	b[7] ^= 0x80;
	b[263] ^= 0x80;
	CHECK(dma_copy_checksum(b, LEN) != whole);
	b[7] ^= 0x80;
	b[263] ^= 0x80;
	/* Two whole blocks swapped: the same words reach the same lanes, in another order. */
	CHECK(swapped_differs(b, 512, 8192, 256, whole));
	/* Two 64-byte stripes swapped. */
	CHECK(swapped_differs(b, 128, 4096, 64, whole));
	CHECK_EQ(dma_copy_checksum(b, LEN), whole);
	/* Truncated, or one zero byte longer; an empty file and a single zero byte differ. */
	CHECK(dma_copy_checksum(b, LEN - 1) != whole);
	{
		unsigned char *c = calloc(1, LEN + 1);

		CHECK(c != NULL);
		memcpy(c, b, LEN);
		CHECK(dma_copy_checksum(c, LEN + 1) != whole);
		CHECK(dma_copy_checksum(c + LEN, 1) != dma_copy_checksum(NULL, 0));
		free(c);
	}
	free(b);
	printf("checksum: pieces match the whole, every tested change detected\n");
	return T_EXIT_PASS;
}
