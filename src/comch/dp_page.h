/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp_page.h - the comch fast path's shared ring page (see dp.c for the protocol) and the checks
 * each side makes of what the other wrote into it. Depends on libc only, so the checks are
 * fuzzed as they are (tests/comch/fuzz_dp_page.c).
 *
 *   struct dp_shm (header, one cache line per writer) | posts[ring] | comps[ring]
 *
 * The consumer writes the header's identity, posts[] and post_head; producers write comps[],
 * comp_head, post_tail (a copy: never read back), attached and bell. Everything a side reads of
 * the other's part is read once into a local and checked here before use.
 */
#ifndef DP_PAGE_H_
#define DP_PAGE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#define DP_MAGIC    0x50444453u /* "SDDP" */
#define DP_VERSION  2		/* 2: no producers' lock in the page */
#define DP_IMM_MAX  32
#define DP_RING_MAX 65536u /* largest ring a consumer may announce: its max tasks, rounded up */

struct dp_post {
	uint64_t addr; /* in the consumer's address space */
	uint64_t cap;
	uint64_t seq;
};

struct dp_comp {
	uint64_t seq;
	uint64_t len;
	uint32_t status; /* doca_error_t */
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[DP_IMM_MAX];
};

struct dp_shm {
	uint32_t magic;
	uint32_t version;
	uint32_t consumer_id;
	uint32_t ring; /* entries of posts[] and comps[], a power of two */
	uint32_t imm_max;
	uint32_t pad;
	atomic_uint attached; /* the peer mapped the ring: the consumer may run */
	atomic_uint gone;     /* the consumer stopped: take no more posts */
	/* One cache line each for what the two processes write at different times. */
	_Alignas(64) atomic_uint bell;	      /* a doorbell byte is on its way */
	_Alignas(64) atomic_ullong post_head; /* consumer */
	_Alignas(64) atomic_ullong post_tail; /* producers: published, never read back */
	_Alignas(64) atomic_ullong comp_head; /* producers: published, never read back */
					      /* struct dp_post posts[ring]; struct dp_comp comps[ring]; */
};

/* The identity fields: what the producer copies once at attach and checks. */
#define DP_HDR_ID_LEN offsetof(struct dp_shm, attached)

static inline size_t dp_page_size(uint32_t ring)
{
	return sizeof(struct dp_shm) + (size_t)ring * (sizeof(struct dp_post) + sizeof(struct dp_comp));
}

static inline struct dp_post *dp_page_posts(struct dp_shm *s)
{
	return (struct dp_post *)(s + 1);
}

/* @ring: the size this side checked or chose, never the page's own field (a peer may change it). */
static inline struct dp_comp *dp_page_comps(struct dp_shm *s, uint32_t ring)
{
	return (struct dp_comp *)(dp_page_posts(s) + ring);
}

/*
 * Producer, at attach: @hdr is a private copy of the page's first DP_HDR_ID_LEN bytes, @size the
 * page's size, @id the consumer the peer announced. NULL when it is a consumer ring of this
 * version, or the rule it breaks.
 */
const char *dp_page_check(const struct dp_shm *hdr, size_t size, uint32_t id);

enum dp_take { DP_TAKE_NONE, DP_TAKE_ONE, DP_TAKE_BROKEN };
/* Producer: having taken @tail posts, what the consumer's @head (read once) allows. */
enum dp_take dp_page_take(uint64_t tail, uint64_t head, uint32_t ring);

/* Consumer: a completion index @head (read once) at most a ring ahead of the @tail reaped. */
static inline bool dp_page_comps_ok(uint64_t tail, uint64_t head, uint32_t ring)
{
	return head - tail <= ring;
}

/*
 * Consumer: the status completion @c (a private copy) gives the post it names, where that post
 * is outstanding with sequence number @seq, a buffer of @cap bytes and room for @imm_max bytes of
 * immediate data; -1 when @c names no outstanding post (ignored). A success that does not fit
 * becomes IO_FAILED, a status that is no doca_error_t IO_FAILED too.
 */
int dp_comp_status(const struct dp_comp *c, bool outstanding, uint64_t seq, uint64_t cap, uint32_t imm_max);

#endif /* DP_PAGE_H_ */
