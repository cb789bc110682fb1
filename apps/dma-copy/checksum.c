/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * checksum.c - the end-to-end checksum of DMA Copy: 64 32-bit lanes over 256-byte blocks (lane
 * l takes 32-bit word l of every block), each step v = rotl32((v ^ w) * Q1, 13) (a bijection in
 * v and in w, so a change confined to one word of a lane always reaches the result), a tail
 * over 8-byte words and bytes, folded with the length into 64 bits. One 32-bit multiply per 4
 * bytes on 64 independent chains: x86's vector units multiply 32-bit lanes natively (AVX2
 * eight at a time, AVX-512 sixteen; a 64-bit multiply takes three 32-bit ones on AVX2), so one
 * block is eight AVX2 steps or four AVX-512 steps, chosen at run time. Both sides fold every
 * byte of the file, so this is on the copy's critical path. Not cryptographic: it catches
 * corruption, truncation and reordering of a copy. It can be computed in pieces (chunks arrive
 * in order), with the same result as in one go, and the vector and portable code give the
 * same result.
 */
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define DC_HAVE_X86_SIMD 1
#endif

#include "dma_copy.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define Q1 0x9E3779B1u /* odd: multiplying by it is a bijection of 32-bit words */
#define R  13

#define LANES DC_SUM_LANES
#define BLOCK DC_SUM_BLOCK

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint32_t step(uint32_t v, uint32_t w)
{
	uint32_t x = (v ^ w) * Q1;

	return (x << R) | (x >> (32 - R));
}

/* The final mix of a word into the result (two multiplies: it runs once per lane pair and tail word). */
static inline uint64_t lane(uint64_t acc, uint64_t w)
{
	acc += w * P2;
	acc = rotl(acc, 31);
	return acc * P1;
}

void dc_sum_init(struct dc_sum *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < LANES; i++)
		s->v[i] = (uint32_t)(((P1 * (uint64_t)(2 * i + 1)) ^ P2) >> 32);
}

/* Whole blocks, portable: one pass over the lanes per block, a loop compilers vectorize where
 * the CPU multiplies 32-bit lanes (NEON, SSE4.1). */
static void blocks_portable(uint32_t *v, const unsigned char *p, size_t n)
{
	uint32_t r[LANES], w[LANES];

	memcpy(r, v, sizeof(r));
	for (size_t i = 0; i + BLOCK <= n; i += BLOCK) {
		memcpy(w, p + i, BLOCK);
		for (int l = 0; l < LANES; l++)
			r[l] = step(r[l], w[l]);
	}
	memcpy(v, r, sizeof(r));
}

#ifdef DC_HAVE_X86_SIMD
/* Whole blocks, AVX-512: four vectors of sixteen lanes, one step each per block. */
__attribute__((target("avx512f"))) static inline __m512i step_avx512(__m512i v, const unsigned char *p)
{
	const __m512i k = _mm512_set1_epi32((int)Q1);

	return _mm512_rol_epi32(_mm512_mullo_epi32(_mm512_xor_si512(v, _mm512_loadu_si512(p)), k), R);
}

__attribute__((target("avx512f"))) static void blocks_avx512(uint32_t *v, const unsigned char *p, size_t n)
{
	__m512i a = _mm512_loadu_si512(v), b = _mm512_loadu_si512(v + 16);
	__m512i c = _mm512_loadu_si512(v + 32), d = _mm512_loadu_si512(v + 48);

	for (size_t i = 0; i + BLOCK <= n; i += BLOCK) {
		a = step_avx512(a, p + i);
		b = step_avx512(b, p + i + 64);
		c = step_avx512(c, p + i + 128);
		d = step_avx512(d, p + i + 192);
	}
	_mm512_storeu_si512(v, a);
	_mm512_storeu_si512(v + 16, b);
	_mm512_storeu_si512(v + 32, c);
	_mm512_storeu_si512(v + 48, d);
}

/* Whole blocks, AVX2: eight vectors of eight lanes. */
__attribute__((target("avx2"))) static inline __m256i step_avx2(__m256i v, const unsigned char *p)
{
	const __m256i k = _mm256_set1_epi32((int)Q1);
	__m256i x = _mm256_mullo_epi32(_mm256_xor_si256(v, _mm256_loadu_si256((const __m256i *)(const void *)p)), k);

	return _mm256_or_si256(_mm256_slli_epi32(x, R), _mm256_srli_epi32(x, 32 - R));
}

__attribute__((target("avx2"))) static void blocks_avx2(uint32_t *v, const unsigned char *p, size_t n)
{
	/* Eight named vectors, not an array: gcc kept an array of them on the stack, a load and a
	 * store around every step. */
	__m256i r0 = _mm256_loadu_si256((const __m256i *)(const void *)v);
	__m256i r1 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 8));
	__m256i r2 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 16));
	__m256i r3 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 24));
	__m256i r4 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 32));
	__m256i r5 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 40));
	__m256i r6 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 48));
	__m256i r7 = _mm256_loadu_si256((const __m256i *)(const void *)(v + 56));

	for (size_t i = 0; i + BLOCK <= n; i += BLOCK) {
		r0 = step_avx2(r0, p + i);
		r1 = step_avx2(r1, p + i + 32);
		r2 = step_avx2(r2, p + i + 64);
		r3 = step_avx2(r3, p + i + 96);
		r4 = step_avx2(r4, p + i + 128);
		r5 = step_avx2(r5, p + i + 160);
		r6 = step_avx2(r6, p + i + 192);
		r7 = step_avx2(r7, p + i + 224);
	}
	_mm256_storeu_si256((__m256i *)(void *)v, r0);
	_mm256_storeu_si256((__m256i *)(void *)(v + 8), r1);
	_mm256_storeu_si256((__m256i *)(void *)(v + 16), r2);
	_mm256_storeu_si256((__m256i *)(void *)(v + 24), r3);
	_mm256_storeu_si256((__m256i *)(void *)(v + 32), r4);
	_mm256_storeu_si256((__m256i *)(void *)(v + 40), r5);
	_mm256_storeu_si256((__m256i *)(void *)(v + 48), r6);
	_mm256_storeu_si256((__m256i *)(void *)(v + 56), r7);
}
#endif

/* The best code this CPU runs, at most dc_sum_simd()'s level (tests compare them all). */
static int simd_max = DC_SIMD_AVX512;

static int simd_level(void)
{
#ifdef DC_HAVE_X86_SIMD
	if (simd_max >= DC_SIMD_AVX512 && __builtin_cpu_supports("avx512f"))
		return DC_SIMD_AVX512;
	if (simd_max >= DC_SIMD_AVX2 && __builtin_cpu_supports("avx2"))
		return DC_SIMD_AVX2;
#endif
	return DC_SIMD_NONE;
}

int dc_sum_simd(int max_level)
{
	simd_max = max_level;
	return simd_level();
}

static void blocks(uint32_t *v, const unsigned char *p, size_t n)
{
	switch (simd_level()) {
#ifdef DC_HAVE_X86_SIMD
	case DC_SIMD_AVX512:
		blocks_avx512(v, p, n);
		return;
	case DC_SIMD_AVX2:
		blocks_avx2(v, p, n);
		return;
#endif
	default:
		blocks_portable(v, p, n);
	}
}

void dc_sum_update(struct dc_sum *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->total += len;
	if (s->pending != 0) {
		size_t take = sizeof(s->buf) - s->pending < len ? sizeof(s->buf) - s->pending : len;

		memcpy(s->buf + s->pending, p, take);
		s->pending += take;
		p += take;
		len -= take;
		if (s->pending < sizeof(s->buf))
			return;
		blocks(s->v, s->buf, sizeof(s->buf));
		s->pending = 0;
	}
	if (len >= BLOCK)
		blocks(s->v, p, len & ~(size_t)(BLOCK - 1));
	memcpy(s->buf, p + (len & ~(size_t)(BLOCK - 1)), len & (BLOCK - 1));
	s->pending = len & (BLOCK - 1);
}

uint64_t dc_sum_final(const struct dc_sum *s)
{
	uint64_t h = 0, w;
	size_t i = 0;

	for (int l = 0; l < LANES; l += 2)
		h = lane(h, (uint64_t)s->v[l] | (uint64_t)s->v[l + 1] << 32);
	for (; i + 8 <= s->pending; i += 8) {
		memcpy(&w, s->buf + i, 8);
		h = lane(h, w);
	}
	for (; i < s->pending; i++)
		h = lane(h, s->buf[i]);
	h ^= s->total * P1;
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	return h;
}

uint64_t dma_copy_checksum(const void *data, size_t len)
{
	struct dc_sum s;

	dc_sum_init(&s);
	if (len > 0)
		dc_sum_update(&s, data, len);
	return dc_sum_final(&s);
}
