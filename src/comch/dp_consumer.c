/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp_consumer.c - doca_comch_consumer: the ring in a memfd of this process, the buffers posted
 * into it, the completions the peer's producers push, checked against this side's own table
 * before a task is touched (protocol and trust rules: dp.c's top).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <doca_comch_consumer.h>

#include "dp_internal.h"

#define COMP "comch"

static atomic_uint next_consumer_id = 1;

/* ---- consumer ---- */

struct doca_comch_consumer_task_post_recv {
	struct doca_task base; /* first */
	struct doca_buf *buf;
	uint64_t seq;
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[DP_IMM_MAX];
};

struct doca_comch_consumer {
	struct doca_ctx ctx; /* first: as_ctx is a cast */
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	struct doca_mmap *mmap;
	uint32_t id;
	uint32_t imm_len;
	doca_comch_consumer_task_post_recv_completion_cb_t comp_cb, err_cb;
	uint32_t num_tasks;
	/* While STARTING/RUNNING/STOPPING: */
	struct dp_shm *shm;
	size_t size;
	int shm_fd, bell_r, bell_w;
	uint32_t mask;
	struct doca_comch_consumer_task_post_recv **slots; /* by seq & mask: posted, not completed */
	uint64_t next_seq;
	uint64_t comp_tail;
	uint32_t bell_owed; /* doorbell bytes of rings this side reset and has not read yet */
	bool announced;
};

static doca_error_t cons_queue_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q)
{
	doca_error_t ret = dp_queue_create(attr, q);

	if (ret == DOCA_SUCCESS)
		(*q)->cons = (struct doca_comch_consumer *)attr->ctx; /* the context is its first member */
	return ret;
}

/* Posting a buffer: one ring entry, no system call. The ring holds the whole task pool. */
static int cons_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	struct doca_comch_consumer *cs = q->cons;
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	uint64_t seq = cs->next_seq++;
	struct dp_post *p = &dp_page_posts(cs->shm)[seq & cs->mask];

	t->seq = seq;
	t->producer_id = 0;
	t->imm_len = 0;
	p->addr = (uint64_t)(uintptr_t)t->buf->head;
	p->cap = t->buf->len;
	p->seq = seq;
	cs->slots[seq & cs->mask] = t;
	atomic_store_explicit(&cs->shm->post_head, seq + 1, memory_order_release);
	return 0;
}

static void cons_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	struct doca_comch_consumer *cs = q->cons;

	if (cs == NULL || cs->shm == NULL)
		return;
	atomic_store(&cs->shm->gone, 1);
	for (uint32_t i = 0; i <= cs->mask; i++) {
		if (cs->slots[i] != NULL) {
			priv_doca_task_complete_pe(&cs->slots[i]->base, status);
			cs->slots[i] = NULL;
		}
	}
}

static const struct ctx_dp_ops consumer_dp_ops = {
    .name = "comch consumer: buffers posted to the peer's producers",
    .queue_create = cons_queue_create,
    .queue_destroy = dp_queue_destroy,
    .submit = cons_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = priv_doca_dp_nop_pending,
    .cancel = cons_cancel,
};

static void cons_close(struct doca_comch_consumer *cs)
{
	if (cs->bell_r >= 0) {
		priv_doca_pe_unwatch_fd(cs->ctx.pe, cs->bell_r);
		close(cs->bell_r);
	}
	if (cs->bell_w >= 0)
		close(cs->bell_w);
	if (cs->shm_fd >= 0)
		close(cs->shm_fd);
	if (cs->shm != NULL)
		munmap(cs->shm, cs->size);
	free(cs->slots);
	cs->slots = NULL;
	cs->shm = NULL;
	cs->shm_fd = cs->bell_r = cs->bell_w = -1;
	cs->announced = false;
}

static doca_error_t cons_start(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)ctx;
	uint8_t pkt[COMCH_WIRE_HDR_LEN + 16];
	uint32_t ring = 1;
	int pfd[2], rc;
	doca_error_t ret;

	if (cs->comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s has no post-receive configuration; call "
				 "doca_comch_consumer_task_post_recv_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(ctx));
	if (!conn_live(cs->conn, cs->conn_gen))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "doca_ctx_start: %s: its connection went away; create consumers on a live connection",
				 priv_doca_ctx_name(ctx));
	while (ring < cs->num_tasks)
		ring <<= 1;
	cs->size = dp_page_size(ring);
	cs->mask = ring - 1;
	cs->shm_fd = (int)syscall(SYS_memfd_create, "softdoca-comch-consumer", MFD_CLOEXEC);
	if (cs->shm_fd < 0 || ftruncate(cs->shm_fd, (off_t)cs->size) != 0) {
		ret = SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: memfd for %u posts: %s",
				priv_doca_ctx_name(ctx), ring, strerror(errno));
		goto fail;
	}
	cs->shm = mmap(NULL, cs->size, PROT_READ | PROT_WRITE, MAP_SHARED, cs->shm_fd, 0);
	if (cs->shm == MAP_FAILED) {
		cs->shm = NULL;
		ret = SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: mmap: %s", priv_doca_ctx_name(ctx),
				strerror(errno));
		goto fail;
	}
	cs->slots = calloc(ring, sizeof(*cs->slots));
	if (cs->slots == NULL || pipe2(pfd, O_NONBLOCK | O_CLOEXEC) != 0) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto fail;
	}
	cs->bell_r = pfd[0];
	cs->bell_w = pfd[1];
	ret = priv_doca_pe_watch_fd(ctx->pe, cs->bell_r);
	if (ret != DOCA_SUCCESS) {
		close(cs->bell_r);
		cs->bell_r = -1;
		goto fail;
	}
	cs->shm->magic = DP_MAGIC;
	cs->shm->version = DP_VERSION;
	cs->shm->consumer_id = cs->id;
	cs->shm->ring = ring;
	cs->shm->imm_max = cs->imm_len;
	cs->next_seq = cs->comp_tail = 0;
	cs->bell_owed = 0;
	rc = dp_send_ctrl(
	    cs->conn, cs->conn_gen, pkt,
	    comch_wire_consumer(pkt, COMCH_CONSUMER_NEW, cs->id, (uint32_t)cs->shm_fd, (uint32_t)cs->bell_w));
	if (rc != 0) {
		ret =
		    SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP, "doca_ctx_start: %s: cannot announce it to the peer: %s",
			      priv_doca_ctx_name(ctx), strerror(-rc));
		goto fail;
	}
	cs->announced = true;
	/* Last: a start that fails must not leave the core's pool behind. */
	ret = priv_doca_ctx_pool_init(ctx, sizeof(struct doca_comch_consumer_task_post_recv), cs->num_tasks,
				      cs->num_tasks, &consumer_dp_ops);
	if (ret != DOCA_SUCCESS) {
		(void)dp_send_ctrl(cs->conn, cs->conn_gen, pkt,
				   comch_wire_consumer(pkt, COMCH_CONSUMER_GONE, cs->id, 0, 0));
		goto fail;
	}
	SD_DBG(COMP, "%s: consumer %u announced to pid %u (%u posts)", priv_doca_ctx_name(ctx), cs->id,
	       cs->conn->peer_pid, ring);
	return DOCA_ERROR_IN_PROGRESS;
fail:
	cons_close(cs);
	return ret;
}

/* Completions the producers pushed: each checked against our own table before use. */
static unsigned int cons_reap(struct doca_comch_consumer *cs)
{
	uint64_t head = atomic_load_explicit(&cs->shm->comp_head, memory_order_acquire);
	unsigned int n = 0;

	if (!dp_page_comps_ok(cs->comp_tail, head, cs->mask + 1)) {
		SD_ERR(COMP,
		       "%s: the peer (pid %u) moved the completion index %llu entries past the %u its ring holds; "
		       "stopping the consumer",
		       priv_doca_ctx_name(&cs->ctx), cs->conn->peer_pid, (unsigned long long)(head - cs->comp_tail),
		       cs->mask + 1);
		(void)priv_doca_ctx_fail(&cs->ctx); /* RUNNING -> STOPPING: the context stays */
		return 1;
	}
	for (; cs->comp_tail != head; cs->comp_tail++, n++) {
		const struct dp_comp *cp = &dp_page_comps(cs->shm, cs->mask + 1)[cs->comp_tail & cs->mask];
		struct dp_comp c = *cp;
		struct doca_comch_consumer_task_post_recv *t = cs->slots[c.seq & cs->mask];
		int st =
		    dp_comp_status(&c, t != NULL, t != NULL ? t->seq : 0, t != NULL ? t->buf->len : 0, cs->imm_len);

		if (st < 0) {
			SD_WARN(COMP, "%s: the peer (pid %u) completed post %llu, which is not outstanding; ignored",
				priv_doca_ctx_name(&cs->ctx), cs->conn->peer_pid, (unsigned long long)c.seq);
			continue;
		}
		if (st == DOCA_ERROR_IO_FAILED && c.status == DOCA_SUCCESS)
			SD_WARN(COMP,
				"%s: the peer (pid %u) completed post %llu with more than its buffer or immediate data "
				"holds; the post fails",
				priv_doca_ctx_name(&cs->ctx), cs->conn->peer_pid, (unsigned long long)c.seq);
		cs->slots[c.seq & cs->mask] = NULL;
		t->producer_id = c.producer_id;
		if (st == DOCA_SUCCESS) {
			t->buf->data = t->buf->head;
			t->buf->data_len = c.len;
			t->imm_len = c.imm_len;
			memcpy(t->imm, c.imm, c.imm_len);
		}
		priv_doca_task_complete_pe(&t->base, (doca_error_t)st);
	}
	return n;
}

/*
 * Re-arms the doorbell. Each ring that finds the bell clear writes exactly one byte, so the
 * consumer reads one byte per ring it reset and never more: a byte rung after the reset (for a
 * completion this side may already have reaped, or one it has not) stays in the pipe and wakes
 * the next sleep. Draining the pipe whole would eat that byte and leave the bell set with the
 * pipe empty, so no later completion would wake a sleeping application.
 */
static void cons_bell_rearm(struct doca_comch_consumer *cs)
{
	char drain[64];
	ssize_t k;

	if (atomic_load_explicit(&cs->shm->bell, memory_order_relaxed) != 0 && atomic_exchange(&cs->shm->bell, 0))
		cs->bell_owed++;
	while (cs->bell_owed != 0) {
		k = read(cs->bell_r, drain, cs->bell_owed < sizeof(drain) ? cs->bell_owed : sizeof(drain));
		if (k <= 0)
			break; /* the ringer has not written yet: read on the next idle look */
		cs->bell_owed -= (uint32_t)k;
	}
}

static unsigned int cons_events(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)ctx;
	unsigned int n = 0;

	if (cs->shm == NULL || (ctx->state != DOCA_CTX_STATE_STARTING && ctx->state != DOCA_CTX_STATE_RUNNING))
		return 0;
	if (!conn_live(cs->conn, cs->conn_gen)) {
		SD_INFO(COMP, "%s: its connection went away; stopping the consumer", priv_doca_ctx_name(ctx));
		cs->announced = false;
		if (ctx->state == DOCA_CTX_STATE_STARTING)
			(void)priv_doca_ctx_start_done(ctx, DOCA_ERROR_NOT_CONNECTED); /* last touch */
		else
			(void)priv_doca_ctx_fail(ctx); /* last touch */
		return 1;
	}
	if (ctx->state == DOCA_CTX_STATE_STARTING) {
		if (!atomic_load(&cs->shm->attached)) {
			cons_bell_rearm(cs);
			return atomic_load(&cs->shm->attached) ? cons_events(ctx) : 0;
		}
		/* Its RUNNING callback may stop the consumer and its IDLE callback destroy it. */
		if (!priv_doca_ctx_start_done(ctx, DOCA_SUCCESS))
			return 1;
		n++;
		if (ctx->state != DOCA_CTX_STATE_RUNNING)
			return n;
	}
	n += cons_reap(cs);
	if (n != 0)
		return n;
	/*
	 * Idle: only now re-arm the doorbell, so a busy stream costs producers no write(). A
	 * completion pushed before a producer saw the bell armed is caught by the second look.
	 */
	cons_bell_rearm(cs);
	return cons_reap(cs);
}

/* Leaving STARTING/RUNNING: producers must stop taking posts; the peer hears it expired. */
static void cons_stopping(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)ctx;
	uint8_t pkt[COMCH_WIRE_HDR_LEN + 16];

	if (cs->shm != NULL)
		atomic_store(&cs->shm->gone, 1);
	if (cs->announced && conn_live(cs->conn, cs->conn_gen))
		(void)dp_send_ctrl(cs->conn, cs->conn_gen, pkt,
				   comch_wire_consumer(pkt, COMCH_CONSUMER_GONE, cs->id, 0, 0));
	cs->announced = false;
}

static void cons_stopped(struct doca_ctx *ctx)
{
	cons_close((struct doca_comch_consumer *)ctx);
}

static doca_error_t cons_prepare(struct doca_task *task)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)task->ctx;

	if (SD_UNLIKELY(t->buf == NULL || t->buf->mmap != cs->mmap || t->buf->len == 0))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: post-receive task %p: its buffer is not a buffer of the consumer's mmap %p (or "
				 "was released); post buffers of the mmap given to doca_comch_consumer_create()",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)cs->mmap);
	task->bytes = 0;
	return DOCA_SUCCESS;
}

static void cons_deliver(struct doca_task *task, bool success)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)task->ctx;

	(success ? cs->comp_cb : cs->err_cb)((struct doca_comch_consumer_task_post_recv *)task, task->user_data,
					     task->ctx->user_data);
}

static const struct ctx_ops consumer_ops = {
    .name = "comch consumer",
    .policy = {.keep_running_on_error = true, .keep_done_on_stop = true},
    .start = cons_start,
    .stopped = cons_stopped,
    .prepare = cons_prepare,
    .deliver = cons_deliver,
    .events = cons_events,
    .stopping = cons_stopping,
};

DOCA_STABLE doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
						    struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer)
{
	const char *call = "doca_comch_consumer_create";
	struct doca_comch_consumer *cs;
	doca_error_t ret;

	if (comch_connection == NULL || buf_mmap == NULL || consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	ret = dp_check_conn(comch_connection, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (!buf_mmap->started || buf_mmap->kind != MMAP_LOCAL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: mmap %p is %s; pass a started mmap of this process's memory", call,
				 (void *)buf_mmap, buf_mmap->started ? "an imported mmap" : "not started");
	if (!priv_doca_mmap_has_dev(buf_mmap, comch_connection->ep->ctx.dev))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: mmap %p was not given device %s of the connection; call doca_mmap_add_dev() "
				 "before doca_mmap_start()",
				 call, (void *)buf_mmap, priv_doca_dev_name(&comch_connection->ep->ctx.dev->info));
	if (!(buf_mmap->access & DOCA_ACCESS_FLAG_PCI_READ_WRITE))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: mmap %p does not let the peer write; pass DOCA_ACCESS_FLAG_PCI_READ_WRITE to "
				 "doca_mmap_set_permissions() before doca_mmap_start()",
				 call, (void *)buf_mmap);
	cs = calloc(1, sizeof(*cs));
	if (cs == NULL)
		return DOCA_ERROR_NO_MEMORY;
	priv_doca_ctx_init(&cs->ctx, &consumer_ops, comch_connection->ep->ctx.dev);
	cs->conn = comch_connection;
	cs->conn_gen = conn_gen(comch_connection);
	cs->mmap = buf_mmap;
	cs->id = atomic_fetch_add(&next_consumer_id, 1);
	cs->imm_len = DP_IMM_MAX;
	cs->shm_fd = cs->bell_r = cs->bell_w = -1;
	comch_connection->nb_dp++;
	*consumer = cs;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer)
{
	doca_error_t ret;

	if (consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_destroy: NULL consumer");
	ret = priv_doca_ctx_fini(&consumer->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	cons_close(consumer);
	if (conn_gen(consumer->conn) == consumer->conn_gen)
		consumer->conn->nb_dp--;
	free(consumer);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id)
{
	if (consumer == NULL || id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_get_id: NULL argument");
	*id = consumer->id;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer,
							      uint32_t *imm_data_len)
{
	if (consumer == NULL || imm_data_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_get_imm_data_len: NULL argument");
	*imm_data_len = consumer->imm_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer,
							      uint32_t imm_data_len)
{
	const char *call = "doca_comch_consumer_set_imm_data_len";
	doca_error_t ret;

	if (consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL consumer", call);
	ret = ctx_check_idle(&consumer->ctx, NULL);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (imm_data_len > DP_IMM_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u bytes; at most %u (doca_comch_consumer_cap_get_max_imm_data_len)", call,
				 imm_data_len, DP_IMM_MAX);
	consumer->imm_len = imm_data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer)
{
	return consumer ? &consumer->ctx : NULL;
}

DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_set_conf(
    struct doca_comch_consumer *consumer, doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
    doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb, uint32_t num_post_recv_tasks)
{
	const char *call = "doca_comch_consumer_task_post_recv_set_conf";
	doca_error_t ret;
	uint32_t max;

	if (consumer == NULL || task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: NULL argument; pass the consumer and both callbacks", call);
	ret = ctx_check_idle(&consumer->ctx, NULL);
	if (ret != DOCA_SUCCESS)
		return ret;
	max = consumer->ctx.dev->info.profile->comch.consumer_max_num_tasks;
	if (num_post_recv_tasks == 0 || num_post_recv_tasks > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u tasks requested; device %s allows 1..%u "
				 "(doca_comch_consumer_cap_get_max_num_tasks)",
				 call, num_post_recv_tasks, priv_doca_dev_name(&consumer->ctx.dev->info), max);
	consumer->comp_cb = task_completion_cb;
	consumer->err_cb = task_error_cb;
	consumer->num_tasks = num_post_recv_tasks;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer,
								       struct doca_buf *buf,
								       struct doca_comch_consumer_task_post_recv **task)
{
	const char *call = "doca_comch_consumer_task_post_recv_alloc_init";
	struct doca_task *base = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(consumer == NULL || buf == NULL || task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (SD_UNLIKELY(buf->mmap != consumer->mmap))
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "%s: %s: the buffer belongs to mmap %p, not to the consumer's mmap %p; take it from the "
		    "mmap given to doca_comch_consumer_create()",
		    call, priv_doca_ctx_name(&consumer->ctx), (void *)buf->mmap, (void *)consumer->mmap);
	ret = priv_doca_task_alloc(&consumer->ctx, &base);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	((struct doca_comch_consumer_task_post_recv *)base)->buf = buf;
	((struct doca_comch_consumer_task_post_recv *)base)->producer_id = 0;
	((struct doca_comch_consumer_task_post_recv *)base)->imm_len = 0;
	base->user_data.u64 = 0;
	*task = (struct doca_comch_consumer_task_post_recv *)base;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_buf *
doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task)
{
	return task ? task->buf : NULL;
}

DOCA_STABLE void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task,
							    struct doca_buf *buf)
{
	if (task == NULL || buf == NULL) {
		SD_ERR(COMP, "doca_comch_consumer_task_post_recv_set_buf: NULL argument; nothing changed");
		return;
	}
	task->buf = buf;
}

DOCA_STABLE uint32_t
doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task)
{
	return task ? task->producer_id : 0;
}

DOCA_STABLE const uint8_t *
doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL && task->imm_len != 0 ? task->imm : NULL;
}

DOCA_STABLE uint32_t
doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task)
{
	return task ? task->imm_len : 0;
}

DOCA_STABLE struct doca_task *
doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task)
{
	return task ? &task->base : NULL;
}
