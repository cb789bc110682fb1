/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * steer.c - the receive side of DOCA Flow: the steering function a started port registers
 * with the software NIC, pipe lookups, RSS (Toeplitz), and the slot epochs that let control
 * calls free what a receiver may still be reading (model in flow_internal.h).
 */
#include <sched.h>
#include <string.h>

#include "flow_internal.h"

struct flow_slot flow_slots[TOPO_MAX_DEVICES];

/* ---- slot epochs ---- */

/*
 * Receiver side: count ourselves in the current epoch's counter, and retry when the epoch
 * moved meanwhile (the writer may already have checked that counter). seq_cst throughout:
 * the writer's epoch store and our increment must be ordered against each other's loads.
 */
static inline unsigned int slot_enter(struct flow_slot *s)
{
	for (;;) {
		unsigned int e = atomic_load(&s->epoch);

		atomic_fetch_add(&s->active[e & 1], 1);
		if (atomic_load(&s->epoch) == e)
			return e & 1;
		atomic_fetch_sub(&s->active[e & 1], 1);
	}
}

static inline void slot_leave(struct flow_slot *s, unsigned int e)
{
	atomic_fetch_sub_explicit(&s->active[e], 1, memory_order_release);
}

/* Writer side, under flow_lock (one writer at a time). */
void flow_slot_sync(struct flow_slot *s)
{
	unsigned int e = atomic_load(&s->epoch);

	atomic_store(&s->epoch, e + 1);
	while (atomic_load(&s->active[e & 1]) != 0)
		sched_yield();
}

/* ---- RSS ---- */

/* The Microsoft RSS verification key, the default of every NIC. */
static const uint8_t rss_default_key[FLOW_RSS_KEY_LEN] = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
    0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
    0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/* rss_table[i][v]: what input byte i with value v contributes (XOR of the key windows of its bits). */
static uint32_t rss_table[FLOW_RSS_INPUT_MAX][256];

void flow_rss_set_key(const uint8_t key[FLOW_RSS_KEY_LEN])
{
	for (unsigned int i = 0; i < FLOW_RSS_INPUT_MAX; i++) {
		uint32_t win[8];
		uint64_t x = (uint64_t)key[i] << 32 | (uint64_t)key[i + 1] << 24 | (uint64_t)key[i + 2] << 16 |
			     (uint64_t)key[i + 3] << 8 | key[i + 4];

		for (unsigned int b = 0; b < 8; b++)
			win[b] = (uint32_t)(x >> (8 - b)); /* the window starting at bit 8i + b */
		for (unsigned int v = 0; v < 256; v++) {
			uint32_t h = 0;

			for (unsigned int b = 0; b < 8; b++)
				if (v & (0x80u >> b))
					h ^= win[b];
			rss_table[i][v] = h;
		}
	}
}

void flow_rss_default_key(void)
{
	flow_rss_set_key(rss_default_key);
}

uint32_t flow_toeplitz(const uint8_t *in, unsigned int len)
{
	uint32_t h = 0;

	for (unsigned int i = 0; i < len && i < FLOW_RSS_INPUT_MAX; i++)
		h ^= rss_table[i][in[i]];
	return h;
}

static inline void sort_pair(uint8_t *a, uint8_t *b, unsigned int n)
{
	if (memcmp(a, b, n) > 0) {
		uint8_t t[16];

		memcpy(t, a, n);
		memcpy(a, b, n);
		memcpy(b, t, n);
	}
}

uint32_t flow_rss_hash(const struct nic_frame_info *info, uint32_t flags, bool symmetric)
{
	uint8_t in[FLOW_RSS_INPUT_MAX], *src = NULL, *dst = NULL;
	unsigned int n = 0, alen = 0;

	if (flags & DOCA_FLOW_RSS_AUTO)
		flags |= DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_TCP | DOCA_FLOW_RSS_UDP;
	if (info->l3 == NIC_L3_IPV4) {
		alen = 4;
		if (flags & (DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV4_SRC)) {
			src = &in[n];
			memcpy(&in[n], &info->ip4_src, 4), n += 4;
		}
		if (flags & (DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV4_DST)) {
			dst = &in[n];
			memcpy(&in[n], &info->ip4_dst, 4), n += 4;
		}
	} else if (info->l3 == NIC_L3_IPV6) {
		alen = 16;
		if (flags & (DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_IPV6_SRC)) {
			src = &in[n];
			memcpy(&in[n], info->ip6_src, 16), n += 16;
		}
		if (flags & (DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_IPV6_DST)) {
			dst = &in[n];
			memcpy(&in[n], info->ip6_dst, 16), n += 16;
		}
	}
	if (symmetric && src != NULL && dst != NULL)
		sort_pair(src, dst, alen);
	src = dst = NULL;
	if ((info->l4 == NIC_L4_TCP && (flags & (DOCA_FLOW_RSS_TCP | DOCA_FLOW_RSS_TCP_SRC))) ||
	    (info->l4 == NIC_L4_UDP && (flags & (DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_UDP_SRC)))) {
		src = &in[n];
		memcpy(&in[n], &info->l4_src, 2), n += 2;
	}
	if ((info->l4 == NIC_L4_TCP && (flags & (DOCA_FLOW_RSS_TCP | DOCA_FLOW_RSS_TCP_DST))) ||
	    (info->l4 == NIC_L4_UDP && (flags & (DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_UDP_DST)))) {
		dst = &in[n];
		memcpy(&in[n], &info->l4_dst, 2), n += 2;
	}
	if (symmetric && src != NULL && dst != NULL)
		sort_pair(src, dst, 2);
	return n == 0 ? 0 : flow_toeplitz(in, n);
}

/* ---- lookups ---- */

uint64_t flow_key_hash(const struct flow_key *k, const uint8_t *words, unsigned int nb_words)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;

	for (unsigned int i = 0; i < nb_words; i++) {
		h ^= k->w[words[i]];
		h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
	}
	/* murmur3's finaliser: the bucket index takes the low bits. */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static struct doca_flow_pipe_entry *ctl_lookup(const struct ctl_index *ix, const struct flow_key *key)
{
	const struct ctl_slot *best = NULL;
	uint32_t best_rank = UINT32_MAX;

	for (uint32_t g = 0; g < ix->nb_groups; g++) {
		const struct ctl_group *gr = &ix->groups[g];
		struct flow_key k;
		uint64_t h;

		if (gr->min_rank >= best_rank)
			break; /* groups come by their best rank: none further can win */
		for (unsigned int i = 0; i < gr->nb_words; i++) {
			unsigned int w = gr->words[i];

			k.w[w] = key->w[w] & gr->mask.w[w];
		}
		h = flow_key_hash(&k, gr->words, gr->nb_words);
		for (uint32_t s = gr->buckets[h & (gr->nb_buckets - 1)]; s != UINT32_MAX; s = ix->slots[s].next) {
			const struct ctl_slot *sl = &ix->slots[s];
			unsigned int i;

			if (sl->hash != h || sl->rank >= best_rank)
				continue;
			for (i = 0; i < gr->nb_words; i++)
				if (sl->key.w[gr->words[i]] != k.w[gr->words[i]])
					break;
			if (i == gr->nb_words) {
				best = sl; /* chains are in rank order: the first equal key is the group's best */
				best_rank = sl->rank;
				break;
			}
		}
	}
	return best != NULL ? best->entry : NULL;
}

struct doca_flow_pipe_entry *flow_pipe_lookup(const struct doca_flow_pipe *pipe, const struct flow_key *key)
{
	struct doca_flow_pipe_entry *e;

	if (pipe->type == DOCA_FLOW_PIPE_BASIC) {
		struct flow_key k;
		uint64_t h;

		for (unsigned int i = 0; i < pipe->nb_words; i++) {
			unsigned int w = pipe->words[i];

			k.w[w] = key->w[w] & pipe->tmpl.mask.w[w];
		}
		h = flow_key_hash(&k, pipe->words, pipe->nb_words);
		e = atomic_load_explicit(&pipe->buckets[h & (pipe->nb_buckets - 1)], memory_order_acquire);
		for (; e != NULL; e = atomic_load_explicit(&e->next, memory_order_acquire)) {
			unsigned int i;

			if (e->hash != h)
				continue;
			for (i = 0; i < pipe->nb_words; i++)
				if (e->key.w[pipe->words[i]] != k.w[pipe->words[i]])
					break;
			if (i == pipe->nb_words)
				return e;
		}
		return NULL;
	}
	{
		const struct ctl_index *ix = atomic_load_explicit(&pipe->index, memory_order_acquire);

		if (ix != NULL)
			return ctl_lookup(ix, key);
	}
	e = atomic_load_explicit(&pipe->head, memory_order_acquire);
	for (; e != NULL; e = atomic_load_explicit(&e->next, memory_order_acquire)) {
		unsigned int i;

		for (i = 0; i < e->nb_words; i++) {
			unsigned int w = e->words[i];

			if ((key->w[w] & e->mask.w[w]) != e->key.w[w])
				break;
		}
		if (i == e->nb_words)
			return e;
	}
	return NULL;
}

#define FLOW_MAX_HOPS 16

void flow_steer(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out)
{
	struct flow_slot *slot = arg;
	unsigned int ep = slot_enter(slot);
	struct doca_flow_port *port = atomic_load_explicit(&slot->port, memory_order_acquire);
	struct doca_flow_pipe *pipe;
	struct flow_key key;
	uint32_t meta = 0;

	out->kind = NIC_NO_MATCH;
	out->queue = 0;
	out->pkt_meta = 0;
	out->rss_hash = 0;
	if (port == NULL)
		goto done;
	pipe = atomic_load_explicit(&port->root, memory_order_acquire);
	if (pipe == NULL)
		goto done;
	flow_key_from_frame(info, frame, port->port_id, &key);
	for (unsigned int hop = 0; hop < FLOW_MAX_HOPS; hop++) {
		struct doca_flow_pipe_entry *e;
		const struct flow_fwd *fwd;

		if (atomic_load_explicit(&pipe->dead, memory_order_acquire)) {
			out->kind = NIC_DROP;
			goto done;
		}
		e = flow_pipe_lookup(pipe, &key);
		if (e != NULL) {
			const struct flow_meta_action *ma = &e->meta;

			if (e->counted) {
				atomic_fetch_add_explicit(&e->pkts, 1, memory_order_relaxed);
				atomic_fetch_add_explicit(&e->bytes, info->len, memory_order_relaxed);
			}
			if (ma->set) {
				uint32_t be;

				meta = (meta & ~ma->mask) | (ma->val & ma->mask);
				be = __builtin_bswap32(meta);
				memcpy(&key.b[K_META], &be, 4);
			}
			fwd = e->fwd.kind != FWD_NONE ? &e->fwd : &pipe->fwd;
		} else {
			if (pipe->miss_counted) {
				atomic_fetch_add_explicit(&pipe->miss_pkts, 1, memory_order_relaxed);
				atomic_fetch_add_explicit(&pipe->miss_bytes, info->len, memory_order_relaxed);
			}
			fwd = &pipe->miss;
		}
		switch (fwd->kind) {
		case FWD_RSS: {
			uint32_t h = flow_rss_hash(info, fwd->rss_flags, fwd->symmetric);

			out->kind = NIC_TO_QUEUE;
			out->queue = fwd->queues[h % fwd->nr_queues];
			out->rss_hash = h;
			out->pkt_meta = meta;
			goto done;
		}
		case FWD_DROP:
			out->kind = NIC_DROP;
			goto done;
		case FWD_PIPE:
			pipe = fwd->next;
			continue;
		default:
			out->kind = NIC_NO_MATCH;
			goto done;
		}
	}
	out->kind = NIC_DROP; /* a forwarding loop */
done:
	slot_leave(slot, ep);
}
