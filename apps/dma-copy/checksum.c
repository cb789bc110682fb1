/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * checksum.c - the end-to-end checksum of DMA Copy: four 64-bit lanes of multiply-xor over
 * 32-byte blocks, a tail over 8-byte words and bytes, folded with the length. Not
 * cryptographic: it catches corruption, truncation and reordering of a copy, at memory speed.
 * It can be computed in pieces (chunks arrive in order), with the same result as in one go.
 */
#include <string.h>

#include "dma_copy.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t lane(uint64_t acc, uint64_t w)
{
	acc += w * P2;
	acc = rotl(acc, 31);
	return acc * P1;
}

void dc_sum_init(struct dc_sum *s)
{
	memset(s, 0, sizeof(*s));
	s->v[0] = P1;
	s->v[1] = P2;
	s->v[2] = 0;
	s->v[3] = P1 ^ P2;
}

static void blocks(struct dc_sum *s, const unsigned char *p, size_t n)
{
	uint64_t w[4];

	for (size_t i = 0; i + 32 <= n; i += 32) {
		memcpy(w, p + i, 32);
		s->v[0] = lane(s->v[0], w[0]);
		s->v[1] = lane(s->v[1], w[1]);
		s->v[2] = lane(s->v[2], w[2]);
		s->v[3] = lane(s->v[3], w[3]);
	}
}

void dc_sum_update(struct dc_sum *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->total += len;
	if (s->pending != 0) {
		size_t take = 32 - s->pending < len ? 32 - s->pending : len;

		memcpy(s->buf + s->pending, p, take);
		s->pending += take;
		p += take;
		len -= take;
		if (s->pending < 32)
			return;
		blocks(s, s->buf, 32);
		s->pending = 0;
	}
	blocks(s, p, len & ~(size_t)31);
	memcpy(s->buf, p + (len & ~(size_t)31), len & 31);
	s->pending = len & 31;
}

uint64_t dc_sum_final(const struct dc_sum *s)
{
	uint64_t h = rotl(s->v[0], 1) + rotl(s->v[1], 7) + rotl(s->v[2], 12) + rotl(s->v[3], 18), w;
	size_t i = 0;

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
