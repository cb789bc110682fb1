/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp_producer.c - doca_comch_producer: a send takes a buffer one of the peer's consumers posted,
 * copies into it (process_vm_writev; memcpy in one process) and pushes its completion, all
 * inside submit (protocol and trust rules: dp.c's top).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <doca_comch_producer.h>

#include "dp_internal.h"

#define COMP "comch"

#define DP_WRITEV_CHUNK (64u << 20) /* process_vm_writev moves at most this per call */

static atomic_uint next_producer_id = 1;

/* ---- producer ---- */

struct doca_comch_producer_task_send {
	struct doca_task base; /* first */
	const struct doca_buf *buf;
	uint32_t consumer_id;
	uint32_t imm_len;
	uint8_t imm[DP_IMM_MAX];
};

struct doca_comch_producer {
	struct doca_ctx ctx; /* first */
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	uint32_t id;
	doca_comch_producer_task_send_completion_cb_t comp_cb, err_cb;
	uint32_t num_tasks;
};

static bool remote_dead(const struct dp_remote *r)
{
	struct pollfd pfd = {.fd = r->pidfd, .events = POLLIN};

	if (r->local)
		return false;
	if (r->pidfd >= 0)
		return poll(&pfd, 1, 0) == 1;
	return kill(r->pid, 0) != 0 && errno == ESRCH;
}

static doca_error_t copy_to_peer(const struct dp_remote *r, uint64_t addr, const void *src, uint64_t len)
{
	uint64_t off = 0;

	if (r->local) {
		memcpy((void *)(uintptr_t)addr, src, len);
		return DOCA_SUCCESS;
	}
	while (off < len) {
		uint64_t n = len - off < DP_WRITEV_CHUNK ? len - off : DP_WRITEV_CHUNK;
		struct iovec l = {.iov_base = (uint8_t *)(uintptr_t)src + off, .iov_len = n};
		struct iovec rv = {.iov_base = (void *)(uintptr_t)(addr + off), .iov_len = n};
		ssize_t w = process_vm_writev(r->pid, &l, 1, &rv, 1, 0);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && errno == ESRCH)
				return DOCA_ERROR_NOT_CONNECTED;
			if (w < 0 && errno == EPERM)
				return DOCA_ERROR_NOT_PERMITTED;
			return DOCA_ERROR_IO_FAILED;
		}
		off += (uint64_t)w;
	}
	return DOCA_SUCCESS;
}

/*
 * The copy happens here, in submit: a buffer posted by the consumer is taken (AGAIN when
 * there is none, so the caller keeps the task), filled, and its completion pushed. The task's
 * own completion is delivered by the next doca_pe_progress().
 */
static int prod_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct doca_comch_producer *p = (struct doca_comch_producer *)t->base.ctx;
	uint64_t tail, head, len = t->buf->data_len;
	struct dp_remote *r;
	struct dp_shm *s;
	struct dp_post post;
	struct dp_comp *cp;
	doca_error_t st = DOCA_SUCCESS;
	int rc = -ENOBUFS; /* AGAIN for the application: the consumer posted no buffer yet */

	(void)q;
	/* Held to the end: the connection's thread cannot unmap the ring under the copy. */
	dp_rdlock();
	r = dp_remote_find(p->conn, t->consumer_id);
	if (SD_UNLIKELY(r == NULL || r->gone || atomic_load_explicit(&r->shm->gone, memory_order_acquire))) {
		dp_unlock();
		priv_doca_task_complete_pe(task, DOCA_ERROR_NOT_CONNECTED);
		return 0;
	}
	if (SD_UNLIKELY(atomic_load_explicit(&r->broken, memory_order_relaxed))) {
		dp_unlock();
		priv_doca_task_complete_pe(task, DOCA_ERROR_IO_FAILED);
		return 0;
	}
	s = r->shm;
	pthread_mutex_lock(&r->lock);
	tail = r->post_tail;
	head = atomic_load_explicit(&s->post_head, memory_order_acquire);
	if (tail == head) {
		pthread_mutex_unlock(&r->lock);
		/* Nothing posted: a dead consumer never will post (one system call, off the hot path). */
		if (remote_dead(r)) {
			st = DOCA_ERROR_NOT_CONNECTED;
			rc = 0;
		}
		goto out;
	}
	if (SD_UNLIKELY(dp_page_take(tail, head, r->ring) == DP_TAKE_BROKEN)) {
		pthread_mutex_unlock(&r->lock);
		if (!atomic_exchange(&r->broken, true))
			SD_ERR(
			    COMP,
			    "%s: consumer %u of pid %d broke the rule of its ring: %llu buffers posted past the %llu "
			    "taken, the ring holds %u; every send to it fails from now on (DOCA_ERROR_IO_FAILED)",
			    priv_doca_ctx_name(&p->ctx), r->id, (int)r->pid, (unsigned long long)(head - tail),
			    (unsigned long long)tail, r->ring);
		st = DOCA_ERROR_IO_FAILED;
		rc = 0;
		goto out;
	}
	post = dp_page_posts(s)[tail & (r->ring - 1)];
	r->post_tail = tail + 1;
	atomic_store_explicit(&s->post_tail, tail + 1, memory_order_relaxed);
	pthread_mutex_unlock(&r->lock);

	if (post.cap < len) {
		SD_ERR(COMP, "%s: consumer %u posted a buffer of %llu bytes, the send has %llu; both fail",
		       priv_doca_ctx_name(&p->ctx), r->id, (unsigned long long)post.cap, (unsigned long long)len);
		st = DOCA_ERROR_INVALID_VALUE;
	} else {
		st = copy_to_peer(r, post.addr, t->buf->data, len);
	}
	pthread_mutex_lock(&r->lock);
	tail = r->comp_head++;
	cp = &dp_page_comps(s, r->ring)[tail & (r->ring - 1)];
	cp->seq = post.seq;
	cp->len = st == DOCA_SUCCESS ? len : 0;
	cp->status = (uint32_t)st;
	cp->producer_id = p->id;
	cp->imm_len = t->imm_len;
	memcpy(cp->imm, t->imm, t->imm_len);
	atomic_store_explicit(&s->comp_head, tail + 1, memory_order_release);
	pthread_mutex_unlock(&r->lock);
	dp_ring_bell(s, r->bell_fd);
	rc = 0;
out:
	dp_unlock();
	if (rc == 0)
		priv_doca_task_complete_pe(task, st);
	return rc;
}

/* Nothing waits in the data path: every accepted task completed inside submit (no cancel). */
static const struct ctx_dp_ops producer_dp_ops = {
    .name = "comch producer: writes into buffers the peer's consumers posted",
    .queue_create = dp_queue_create,
    .queue_destroy = dp_queue_destroy,
    .submit = prod_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = priv_doca_dp_nop_pending,
    .cancel = priv_doca_dp_nop_cancel,
};

static doca_error_t prod_start(struct doca_ctx *ctx)
{
	struct doca_comch_producer *p = (struct doca_comch_producer *)ctx;

	if (p->comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s has no send configuration; call "
				 "doca_comch_producer_task_send_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(ctx));
	if (!conn_live(p->conn, p->conn_gen))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "doca_ctx_start: %s: its connection went away; create producers on a live connection",
				 priv_doca_ctx_name(ctx));
	return priv_doca_ctx_pool_init(ctx, sizeof(struct doca_comch_producer_task_send), p->num_tasks, p->num_tasks,
				       &producer_dp_ops);
}

static doca_error_t prod_prepare(struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct doca_comch_producer *p = (struct doca_comch_producer *)task->ctx;
	struct dp_remote *r;
	uint32_t imm_max;

	if (SD_UNLIKELY(!conn_live(p->conn, p->conn_gen)))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "%s: send task %p: the connection went away; the consumer is unreachable",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	if (SD_UNLIKELY(t->buf == NULL || t->buf->mmap == NULL || t->buf->mmap->kind != MMAP_LOCAL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: send task %p: its buffer was released or is not in this process's memory",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	if (SD_UNLIKELY(!priv_doca_mmap_has_dev(t->buf->mmap, task->ctx->dev)))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: send task %p: the buffer's mmap %p was not given device %s; call "
				 "doca_mmap_add_dev() before doca_mmap_start()",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)t->buf->mmap,
				 priv_doca_dev_name(&task->ctx->dev->info));
	if (SD_UNLIKELY(t->buf->data_len > task->ctx->dev->info.profile->comch.producer_max_buf_size))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: send task %p: %zu bytes exceed doca_comch_producer_cap_get_max_buf_size (%u)",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->buf->data_len,
				 task->ctx->dev->info.profile->comch.producer_max_buf_size);
	dp_rdlock();
	r = dp_remote_find(p->conn, t->consumer_id);
	if (SD_UNLIKELY(r == NULL)) {
		dp_unlock();
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "%s: send task %p: the peer has no consumer %u; use an id from the new-consumer event",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->consumer_id);
	}
	if (SD_UNLIKELY(r->gone)) {
		dp_unlock();
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "%s: send task %p: consumer %u of the peer expired (it stopped)",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->consumer_id);
	}
	imm_max = r->imm_max;
	dp_unlock();
	if (SD_UNLIKELY(t->imm_len > imm_max))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: send task %p: %u bytes of immediate data; consumer %u accepts %u",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->imm_len, t->consumer_id, imm_max);
	task->bytes = t->buf->data_len;
	return DOCA_SUCCESS;
}

static void prod_deliver(struct doca_task *task, bool success)
{
	struct doca_comch_producer *p = (struct doca_comch_producer *)task->ctx;

	(success ? p->comp_cb : p->err_cb)((struct doca_comch_producer_task_send *)task, task->user_data,
					   task->ctx->user_data);
}

static const struct ctx_ops producer_ops = {
    .name = "comch producer",
    .policy = {.keep_running_on_error = true, .keep_done_on_stop = true},
    .start = prod_start,
    .prepare = prod_prepare,
    .deliver = prod_deliver,
};

DOCA_STABLE doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
						    struct doca_comch_producer **producer)
{
	const char *call = "doca_comch_producer_create";
	struct doca_comch_producer *p;
	doca_error_t ret;

	if (comch_connection == NULL || producer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	ret = dp_check_conn(comch_connection, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	priv_doca_ctx_init(&p->ctx, &producer_ops, comch_connection->ep->ctx.dev);
	p->conn = comch_connection;
	p->conn_gen = conn_gen(comch_connection);
	p->id = atomic_fetch_add(&next_producer_id, 1);
	comch_connection->nb_dp++;
	*producer = p;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer)
{
	doca_error_t ret;

	if (producer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_producer_destroy: NULL producer");
	ret = priv_doca_ctx_fini(&producer->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (conn_gen(producer->conn) == producer->conn_gen)
		producer->conn->nb_dp--;
	free(producer);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id)
{
	if (producer == NULL || id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_producer_get_id: NULL argument");
	*id = producer->id;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer)
{
	return producer ? &producer->ctx : NULL;
}

DOCA_STABLE doca_error_t doca_comch_producer_task_send_set_conf(
    struct doca_comch_producer *producer, doca_comch_producer_task_send_completion_cb_t task_completion_cb,
    doca_comch_producer_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	const char *call = "doca_comch_producer_task_send_set_conf";
	doca_error_t ret;
	uint32_t max;

	if (producer == NULL || task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: NULL argument; pass the producer and both callbacks", call);
	ret = ctx_check_idle(&producer->ctx, NULL);
	if (ret != DOCA_SUCCESS)
		return ret;
	max = producer->ctx.dev->info.profile->comch.producer_max_num_tasks;
	if (num_send_tasks == 0 || num_send_tasks > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u tasks requested; device %s allows 1..%u "
				 "(doca_comch_producer_cap_get_max_num_tasks)",
				 call, num_send_tasks, priv_doca_dev_name(&producer->ctx.dev->info), max);
	producer->comp_cb = task_completion_cb;
	producer->err_cb = task_error_cb;
	producer->num_tasks = num_send_tasks;
	return DOCA_SUCCESS;
}

static bool set_imm(struct doca_comch_producer_task_send *t, const uint8_t *imm, uint32_t len)
{
	if (len > DP_IMM_MAX || (imm == NULL && len != 0))
		return false;
	t->imm_len = len;
	if (len != 0)
		memcpy(t->imm, imm, len);
	return true;
}

DOCA_STABLE doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer,
								  const struct doca_buf *buf, uint8_t *imm_data,
								  uint32_t imm_data_len, uint32_t consumer_id,
								  struct doca_comch_producer_task_send **task)
{
	const char *call = "doca_comch_producer_task_send_alloc_init";
	struct doca_comch_producer_task_send *t;
	struct doca_task *base = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(producer == NULL || buf == NULL || task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (SD_UNLIKELY(imm_data_len > DP_IMM_MAX || (imm_data == NULL && imm_data_len != 0)))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u bytes of immediate data at %p; at most %u "
				 "(doca_comch_consumer_cap_get_max_imm_data_len)",
				 call, imm_data_len, (void *)imm_data, DP_IMM_MAX);
	ret = priv_doca_task_alloc(&producer->ctx, &base);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	t = (struct doca_comch_producer_task_send *)base;
	t->buf = buf;
	t->consumer_id = consumer_id;
	(void)set_imm(t, imm_data, imm_data_len);
	base->user_data.u64 = 0;
	*task = t;
	return DOCA_SUCCESS;
}

DOCA_STABLE const struct doca_buf *
doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task)
{
	return task ? task->buf : NULL;
}

DOCA_STABLE void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task,
						       const struct doca_buf *buf)
{
	if (task == NULL || buf == NULL) {
		SD_ERR(COMP, "doca_comch_producer_task_send_set_buf: NULL argument; nothing changed");
		return;
	}
	task->buf = buf;
}

DOCA_STABLE uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task)
{
	return task ? task->consumer_id : 0;
}

DOCA_STABLE void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
							       const uint32_t consumer_id)
{
	if (task == NULL) {
		SD_ERR(COMP, "doca_comch_producer_task_send_set_consumer_id: NULL task; nothing changed");
		return;
	}
	task->consumer_id = consumer_id;
}

DOCA_STABLE const uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task)
{
	return task != NULL && task->imm_len != 0 ? task->imm : NULL;
}

DOCA_STABLE uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task)
{
	return task ? task->imm_len : 0;
}

DOCA_STABLE void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
							    uint8_t *imm_data, uint32_t imm_data_len)
{
	if (task == NULL || !set_imm(task, imm_data, imm_data_len))
		SD_ERR(COMP,
		       "doca_comch_producer_task_send_set_imm_data: task %p, %u bytes at %p: at most %u bytes "
		       "(doca_comch_consumer_cap_get_max_imm_data_len); nothing changed",
		       (void *)task, imm_data_len, (void *)imm_data, DP_IMM_MAX);
}

DOCA_STABLE struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task)
{
	return task ? &task->base : NULL;
}
