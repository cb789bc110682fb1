/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * checksum.c - the end-to-end checksum of DMA Copy: 32 64-bit lanes over 256-byte blocks (lane
 * l takes word l of every block), each step v = rotl((v ^ w) * P1, 29) (a bijection in v and in
 * w, so a change confined to one word of a lane always reaches the result), a tail over 8-byte
 * words and bytes, folded with the length. One multiply per 8 bytes on 32 independent chains:
 * the chains' latency stays hidden, and with AVX-512 (chosen at run time) one block is four
 * vector steps, 4-5 times the speed of the portable code on data in the cache; with AVX2,
 * eight steps that build each 64-bit multiply from three 32-bit ones, 1.2-1.3 times. Both
 * sides fold every byte of the file, so this is on the copy's critical path. Not
 * cryptographic: it catches corruption, truncation and reordering of a copy. It can be
 * computed in pieces (chunks arrive in order), with the same result as in one go, and the
 * vector and portable code give the same result.
 */
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define DC_HAVE_X86_SIMD 1
#endif

#include "dma_copy.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full

#define LANES DC_SUM_LANES
#define BLOCK (LANES * 8)

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t step(uint64_t v, uint64_t w)
{
	return rotl((v ^ w) * P1, 29);
}

/* The final mix of a word into the result (two multiplies: it runs once per lane and tail word). */
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
		s->v[i] = (P1 * (uint64_t)(2 * i + 1)) ^ P2;
}

/* Whole blocks, portable: the lanes in registers eight at a time, block after block. */
static void blocks_portable(uint64_t *v, const unsigned char *p, size_t n)
{
	for (int g = 0; g < LANES; g += 8) {
		uint64_t v0 = v[g], v1 = v[g + 1], v2 = v[g + 2], v3 = v[g + 3];
		uint64_t v4 = v[g + 4], v5 = v[g + 5], v6 = v[g + 6], v7 = v[g + 7];
		uint64_t w[8];

		for (size_t i = 0; i + BLOCK <= n; i += BLOCK) {
			memcpy(w, p + i + (size_t)g * 8, 64);
			v0 = step(v0, w[0]);
			v1 = step(v1, w[1]);
			v2 = step(v2, w[2]);
			v3 = step(v3, w[3]);
			v4 = step(v4, w[4]);
			v5 = step(v5, w[5]);
			v6 = step(v6, w[6]);
			v7 = step(v7, w[7]);
		}
		v[g] = v0, v[g + 1] = v1, v[g + 2] = v2, v[g + 3] = v3;
		v[g + 4] = v4, v[g + 5] = v5, v[g + 6] = v6, v[g + 7] = v7;
	}
}

#ifdef DC_HAVE_X86_SIMD
/* Whole blocks, AVX-512: four vectors of eight lanes, one step each per block. */
__attribute__((target("avx512f,avx512dq"))) static void blocks_avx512(uint64_t *v, const unsigned char *p, size_t n)
{
	const __m512i k = _mm512_set1_epi64((long long)P1);
	__m512i a = _mm512_loadu_si512(v), b = _mm512_loadu_si512(v + 8);
	__m512i c = _mm512_loadu_si512(v + 16), d = _mm512_loadu_si512(v + 24);

	for (size_t i = 0; i + BLOCK <= n; i += BLOCK) {
		a = _mm512_rol_epi64(_mm512_mullo_epi64(_mm512_xor_si512(a, _mm512_loadu_si512(p + i)), k), 29);
		b = _mm512_rol_epi64(_mm512_mullo_epi64(_mm512_xor_si512(b, _mm512_loadu_si512(p + i + 64)), k), 29);
		c = _mm512_rol_epi64(_mm512_mullo_epi64(_mm512_xor_si512(c, _mm512_loadu_si512(p + i + 128)), k), 29);
		d = _mm512_rol_epi64(_mm512_mullo_epi64(_mm512_xor_si512(d, _mm512_loadu_si512(p + i + 192)), k), 29);
	}
	_mm512_storeu_si512(v, a);
	_mm512_storeu_si512(v + 8, b);
	_mm512_storeu_si512(v + 16, c);
	_mm512_storeu_si512(v + 24, d);
}

/* Whole blocks, AVX2: eight vectors of four lanes; the 64-bit multiply by P1 from three
 * 32 x 32 -> 64-bit ones (the product's low half: lo*lo + ((hi*lo + lo*hi) << 32)). */
__attribute__((target("avx2"))) static inline __m256i mul_p1_avx2(__m256i a)
{
	const __m256i lo = _mm256_set1_epi64x((long long)(P1 & 0xffffffffu));
	const __m256i hi = _mm256_set1_epi64x((long long)(P1 >> 32));
	__m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), lo), _mm256_mul_epu32(a, hi));

	return _mm256_add_epi64(_mm256_mul_epu32(a, lo), _mm256_slli_epi64(cross, 32));
}

__attribute__((target("avx2"))) static inline __m256i step_avx2(__m256i v, const unsigned char *p)
{
	__m256i x = mul_p1_avx2(_mm256_xor_si256(v, _mm256_loadu_si256((const __m256i *)(const void *)p)));

	return _mm256_or_si256(_mm256_slli_epi64(x, 29), _mm256_srli_epi64(x, 35));
}

__attribute__((target("avx2"))) static void blocks_avx2(uint64_t *v, const unsigned char *p, size_t n)
{
	__m256i r[8];

	for (int j = 0; j < 8; j++)
		r[j] = _mm256_loadu_si256((const __m256i *)(const void *)(v + 4 * j));
	for (size_t i = 0; i + BLOCK <= n; i += BLOCK) {
		r[0] = step_avx2(r[0], p + i);
		r[1] = step_avx2(r[1], p + i + 32);
		r[2] = step_avx2(r[2], p + i + 64);
		r[3] = step_avx2(r[3], p + i + 96);
		r[4] = step_avx2(r[4], p + i + 128);
		r[5] = step_avx2(r[5], p + i + 160);
		r[6] = step_avx2(r[6], p + i + 192);
		r[7] = step_avx2(r[7], p + i + 224);
	}
	for (int j = 0; j < 8; j++)
		_mm256_storeu_si256((__m256i *)(void *)(v + 4 * j), r[j]);
}
#endif

/* The best code this CPU runs, at most dc_sum_simd()'s level (tests compare them all). */
static int simd_max = DC_SIMD_AVX512;

static int simd_level(void)
{
#ifdef DC_HAVE_X86_SIMD
	if (simd_max >= DC_SIMD_AVX512 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
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

static void blocks(uint64_t *v, const unsigned char *p, size_t n)
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

	for (int l = 0; l < LANES; l++)
		h = lane(h, s->v[l]);
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
