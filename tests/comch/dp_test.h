/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp_test.h - helpers of the comch fast-path tests: a consumer or producer with its own PE
 * and memory, callbacks that check order, content and immediate data.
 *
 * Message @seq carries @seq (8 bytes, little-endian) as immediate data and dp_len(seq) bytes,
 * byte i being dp_byte(seq, i); the consumer checks both, so a lost, reordered, truncated or
 * corrupted transfer is seen.
 */
#ifndef DP_TEST_H_
#define DP_TEST_H_

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_mmap.h>

#include "comch_test.h"

static inline uint8_t dp_byte(uint64_t seq, size_t i)
{
	return (uint8_t)(seq * 31u + i * 7u + 1u);
}

static const uint32_t dp_sizes[] = {64, 1, 4096, 65536, 100000, 7};

static inline uint32_t dp_len(uint64_t seq, uint32_t max)
{
	uint32_t n = dp_sizes[seq % (sizeof(dp_sizes) / sizeof(dp_sizes[0]))];

	return n < max ? n : max;
}

struct dp {
	struct doca_dev *dev; /* not owned */
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	struct doca_comch_consumer *cons;
	struct doca_comch_producer *prod;
	uint8_t *mem;
	size_t bufsz;
	uint32_t nbufs;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	enum doca_ctx_states state;
	bool want_handle; /* take the PE's notification handle before the start */
	doca_notification_handle_t handle;
	/* consumer */
	bool repost;	   /* post each buffer again from its callback */
	bool check;	   /* check sequence, content, immediate data */
	uint64_t expect;   /* next sequence number */
	int recv_ok, recv_err, bad;
	doca_error_t last_recv_err;
	uint32_t last_producer;
	/* producer */
	int send_ok, send_err;
	doca_error_t last_send_err;
};

static inline struct dp *dp_of(struct doca_ctx *ctx)
{
	union doca_data ud;

	CHECK_OK(doca_ctx_get_user_data(ctx, &ud));
	return ud.ptr;
}

static inline void dp_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			       enum doca_ctx_states next)
{
	(void)ctx;
	(void)prev;
	((struct dp *)ud.ptr)->state = next;
}

static inline void dp_recv_done(struct doca_comch_consumer_task_post_recv *t, union doca_data tud,
				union doca_data cud)
{
	struct dp *d = cud.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(t);
	void *data;
	size_t len;

	(void)tud;
	d->recv_ok++;
	d->last_producer = doca_comch_consumer_task_post_recv_get_producer_id(t);
	CHECK_OK(doca_buf_get_data(buf, &data));
	CHECK_OK(doca_buf_get_data_len(buf, &len));
	if (d->check) {
		uint64_t seq = 0;
		const uint8_t *imm = doca_comch_consumer_task_post_recv_get_imm_data(t);

		if (imm == NULL || doca_comch_consumer_task_post_recv_get_imm_data_len(t) != sizeof(seq)) {
			d->bad++;
		} else {
			memcpy(&seq, imm, sizeof(seq));
			if (seq != d->expect || len != dp_len(seq, (uint32_t)d->bufsz))
				d->bad++;
			for (size_t i = 0; i < len; i++)
				if (((uint8_t *)data)[i] != dp_byte(seq, i)) {
					d->bad++;
					break;
				}
		}
		d->expect++;
	}
	if (d->repost && d->state == DOCA_CTX_STATE_RUNNING) {
		void *head;

		CHECK_OK(doca_buf_get_head(buf, &head));
		CHECK_OK(doca_buf_set_data(buf, head, 0));
		if (doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)) == DOCA_SUCCESS)
			return;
	}
	(void)doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static inline void dp_recv_err(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	struct dp *d = cud.ptr;

	(void)tud;
	d->recv_err++;
	d->last_recv_err = doca_task_get_status(doca_comch_consumer_task_post_recv_as_task(t));
	(void)doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static inline void dp_send_done(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	((struct dp *)cud.ptr)->send_ok++;
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static inline void dp_send_err(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	struct dp *d = cud.ptr;

	(void)tud;
	d->send_err++;
	d->last_send_err = doca_task_get_status(doca_comch_producer_task_send_as_task(t));
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

/* @nbufs buffers of @bufsz bytes in a started mmap on @dev. */
static inline void dp_mem(struct dp *d, struct doca_dev *dev, uint32_t nbufs, size_t bufsz)
{
	d->dev = dev;
	d->nbufs = nbufs;
	d->bufsz = bufsz;
	d->mem = calloc(nbufs, bufsz);
	CHECK(d->mem != NULL);
	d->mmap = sd_mmap_local(dev, d->mem, (size_t)nbufs * bufsz, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	d->inv = sd_inventory(nbufs * 2);
}

static inline void dp_common(struct dp *d)
{
	union doca_data ud = {.ptr = d};

	CHECK_OK(doca_pe_connect_ctx(d->pe, d->ctx));
	CHECK_OK(doca_ctx_set_state_changed_cb(d->ctx, dp_state_cb));
	CHECK_OK(doca_ctx_set_user_data(d->ctx, ud));
}

/* A consumer on @c, started (STARTING until the peer attached). */
static inline void dp_consumer(struct dp *d, struct doca_comch_connection *c, uint32_t ntasks)
{
	d->pe = sd_pe();
	if (d->want_handle)
		CHECK_OK(doca_pe_get_notification_handle(d->pe, &d->handle));
	CHECK_OK(doca_comch_consumer_create(c, d->mmap, &d->cons));
	d->ctx = doca_comch_consumer_as_ctx(d->cons);
	dp_common(d);
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(d->cons, dp_recv_done, dp_recv_err, ntasks));
	CHECK_ERR(doca_ctx_start(d->ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(d->state == DOCA_CTX_STATE_STARTING);
}

/* A producer on @c, RUNNING. */
static inline void dp_producer(struct dp *d, struct doca_comch_connection *c, uint32_t ntasks)
{
	d->pe = sd_pe();
	CHECK_OK(doca_comch_producer_create(c, &d->prod));
	d->ctx = doca_comch_producer_as_ctx(d->prod);
	dp_common(d);
	CHECK_OK(doca_comch_producer_task_send_set_conf(d->prod, dp_send_done, dp_send_err, ntasks));
	CHECK_OK(doca_ctx_start(d->ctx));
	CHECK(d->state == DOCA_CTX_STATE_RUNNING);
}

/* Posts buffer @i of the consumer's memory (@len bytes of it; 0 = the whole buffer). */
static inline doca_error_t dp_post(struct dp *d, uint32_t i, size_t len)
{
	struct doca_comch_consumer_task_post_recv *t;
	struct doca_buf *buf;
	doca_error_t ret;

	CHECK_OK(doca_buf_inventory_buf_get_by_addr(d->inv, d->mmap, d->mem + (size_t)i * d->bufsz,
						    len ? len : d->bufsz, &buf));
	CHECK_OK(doca_comch_consumer_task_post_recv_alloc_init(d->cons, buf, &t));
	ret = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t));
	if (ret != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(buf, NULL);
		doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	}
	return ret;
}

/*
 * Sends message @seq from the producer's memory to @consumer_id. Returns what submit said;
 * the source buffer is the producer's first buffer, free again once submit returned SUCCESS
 * (softdoca copies inside submit) - the tests rely on that to reuse it.
 */
static inline doca_error_t dp_send_seq(struct dp *d, uint32_t consumer_id, uint64_t seq, bool try_submit)
{
	struct doca_comch_producer_task_send *t;
	struct doca_buf *buf;
	uint32_t len = dp_len(seq, (uint32_t)d->bufsz);
	doca_error_t ret;

	for (uint32_t i = 0; i < len; i++)
		d->mem[i] = dp_byte(seq, i);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(d->inv, d->mmap, d->mem, len, &buf));
	CHECK_OK(doca_comch_producer_task_send_alloc_init(d->prod, buf, (uint8_t *)&seq, sizeof(seq), consumer_id, &t));
	ret = try_submit ? doca_task_try_submit(doca_comch_producer_task_send_as_task(t))
			 : doca_task_submit(doca_comch_producer_task_send_as_task(t));
	if (ret != DOCA_SUCCESS)
		doca_task_free(doca_comch_producer_task_send_as_task(t));
	(void)doca_buf_dec_refcount(buf, NULL);
	return ret;
}

/* Stops (progressing @other's PE too) and destroys @d. */
static inline void dp_free(struct dp *d, struct side *other)
{
	sd_ctx_stop_idle(d->ctx, d->pe, other != NULL ? other->pe : NULL, 5000);
	if (d->cons != NULL)
		CHECK_OK(doca_comch_consumer_destroy(d->cons));
	if (d->prod != NULL)
		CHECK_OK(doca_comch_producer_destroy(d->prod));
	CHECK_OK(doca_pe_destroy(d->pe));
	d->cons = NULL;
	d->prod = NULL;
	d->pe = NULL;
}

static inline void dp_mem_free(struct dp *d)
{
	CHECK_OK(doca_buf_inventory_destroy(d->inv));
	CHECK_OK(doca_mmap_destroy(d->mmap));
	free(d->mem);
}

#endif /* DP_TEST_H_ */
