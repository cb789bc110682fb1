/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp_internal.h - what the three files of the comch fast data path share: dp.c (the peer's
 * consumers as this side's producers see them, the lock over them, capabilities), dp_consumer.c
 * and dp_producer.c. The protocol, the trust rules and the threading are drawn at dp.c's top.
 */
#ifndef SD_COMCH_DP_INTERNAL_H
#define SD_COMCH_DP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "comch_internal.h"
#include "dp_page.h"

/* A consumer of the peer, as this side's producers see it. */
struct dp_remote {
	struct dp_remote *next;
	uint32_t id;
	bool gone;
	bool local; /* the consumer lives in this process: memcpy */
	pid_t pid;
	struct dp_shm *shm;
	size_t size;
	uint32_t ring, imm_max; /* checked at attach; the page's fields are not read again */
	int bell_fd;
	int pidfd; /* -1 when pidfd_open is unavailable */
	/*
	 * This process's producers of this consumer take posts and push completions under lock;
	 * post_tail and comp_head are the truth, the page gets a copy. broken: the consumer broke a
	 * rule of the ring (said once); every later send to it fails.
	 */
	pthread_mutex_t lock;
	uint64_t post_tail, comp_head;
	atomic_bool broken;
};

/* Any thread: @c is still the connection of generation @gen and up. */
static inline bool conn_live(const struct doca_comch_connection *c, uint32_t gen)
{
	return atomic_load_explicit(&c->dp_word, memory_order_acquire) == (((uint64_t)gen << 1) | 1);
}

static inline uint32_t conn_gen(const struct doca_comch_connection *c)
{
	return (uint32_t)(atomic_load_explicit(&c->dp_word, memory_order_acquire) >> 1);
}

/* A context's data-path queue: consumers keep themselves there, producers nothing. */
struct ctx_dp_queue {
	struct doca_comch_consumer *cons; /* NULL in a producer's queue */
};

/* dp.c */
/* Guards every connection's remotes list (see Threading at dp.c's top); writers are rare. */
void dp_rdlock(void);
void dp_unlock(void);
/* Under dp_lock, or on the connection's thread: the peer's consumer @id on @c, or NULL. */
struct dp_remote *dp_remote_find(struct doca_comch_connection *c, uint32_t id);
/* One doorbell byte per quiet period of the consumer's ring @s (its pipe @fd). */
void dp_ring_bell(struct dp_shm *s, int fd);
/* One control packet on @c of generation @gen from a consumer's thread: 0 or -errno. */
int dp_send_ctrl(struct doca_comch_connection *c, uint32_t gen, const void *pkt, size_t len);
/* BAD_STATE (logged, naming @call) unless @c is established. */
doca_error_t dp_check_conn(struct doca_comch_connection *c, const char *call);
doca_error_t dp_queue_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q);
void dp_queue_destroy(struct ctx_dp_queue *q);

#endif
