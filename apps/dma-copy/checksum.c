/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * checksum.c - the end-to-end checksum of DMA Copy: eight 64-bit lanes over 64-byte stripes,
 * each step v = rotl((v ^ w) * P1, 29) (a bijection in v and in w, so a change confined to one
 * word of a lane always reaches the result), a tail over 8-byte words and bytes, folded with the
 * length. One multiply per 8 bytes on eight independent chains: about twice the speed of two
 * multiplies per word on four, which matters because both sides fold every byte of the file.
 * Not cryptographic: it catches corruption, truncation and reordering of a copy. It can be
 * computed in pieces (chunks arrive in order), with the same result as in one go.
 */
#include <string.h>

#include "dma_copy.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full

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
	for (int i = 0; i < 8; i++)
		s->v[i] = (P1 * (uint64_t)(2 * i + 1)) ^ P2;
}

static void stripes(struct dc_sum *s, const unsigned char *p, size_t n)
{
	uint64_t v0 = s->v[0], v1 = s->v[1], v2 = s->v[2], v3 = s->v[3];
	uint64_t v4 = s->v[4], v5 = s->v[5], v6 = s->v[6], v7 = s->v[7];
	uint64_t w[8];

	for (size_t i = 0; i + 64 <= n; i += 64) {
		memcpy(w, p + i, 64);
		v0 = step(v0, w[0]);
		v1 = step(v1, w[1]);
		v2 = step(v2, w[2]);
		v3 = step(v3, w[3]);
		v4 = step(v4, w[4]);
		v5 = step(v5, w[5]);
		v6 = step(v6, w[6]);
		v7 = step(v7, w[7]);
	}
	s->v[0] = v0, s->v[1] = v1, s->v[2] = v2, s->v[3] = v3;
	s->v[4] = v4, s->v[5] = v5, s->v[6] = v6, s->v[7] = v7;
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
		stripes(s, s->buf, sizeof(s->buf));
		s->pending = 0;
	}
	stripes(s, p, len & ~(size_t)63);
	memcpy(s->buf, p + (len & ~(size_t)63), len & 63);
	s->pending = len & 63;
}

uint64_t dc_sum_final(const struct dc_sum *s)
{
	uint64_t h = 0, w;
	size_t i = 0;

	for (int l = 0; l < 8; l++)
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
