/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * task_batch.c - the generic task batch: pool, submission, delivery (see task_batch.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <doca_pe.h>

#include "core.h"
#include "task_batch.h"

#define COMP "task_batch"
/* As for single tasks (ctx.c): hardware reports a flushed work request as an I/O failure. */
#define BATCH_FLUSH_STATUS DOCA_ERROR_IO_FAILED

struct doca_task_batch {
	struct doca_ctx *ctx;
	union doca_data user_data;
	doca_error_t status;
	uint8_t state;		      /* enum task_state */
	uint16_t nb_tasks;	      /* members in use */
	uint16_t nb_submitted;	      /* members handed to the engine (or failed before it) */
	uint16_t nb_checked;	      /* members seen done, in order */
	struct doca_task_batch *next; /* free list / batch FIFO */
	uint8_t *tasks;		      /* max_tasks members of pool->task_size bytes */
};

struct task_batch_pool {
	struct ctx_ext ext; /* ctx->ext: progress drives the batch FIFO through it */
	const struct task_batch_ops *ops;
	size_t task_size;
	uint16_t max_tasks;
	uint32_t nb_batches;
	struct doca_task_batch *batches;
	uint8_t *tasks;
	struct doca_task_batch *free;
	struct doca_task_batch *fifo_head;
	struct doca_task_batch *fifo_tail;
};

static inline struct doca_task *member(const struct task_batch_pool *pool, const struct doca_task_batch *b, uint16_t i)
{
	return (struct doca_task *)(b->tasks + (size_t)i * pool->task_size);
}

SD_PRIV uint16_t priv_doca_task_batch_max_tasks(enum doca_task_batch_max_tasks_number n)
{
	switch (n) {
	case DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16:
		return 16;
	case DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32:
		return 32;
	case DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64:
		return 64;
	case DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128:
		return 128;
	}
	return 0;
}

static unsigned int batch_progress(struct doca_ctx *ctx, unsigned int budget);
static bool batch_has_work(const struct doca_ctx *ctx);
static void batch_pool_release(struct doca_ctx *ctx);

static const struct ctx_ext_ops batch_ext_ops = {
    .name = "task batches",
    .progress = batch_progress,
    .has_work = batch_has_work,
    .release = batch_pool_release,
};

/* @ctx's batch pool; NULL when it has none. */
static inline struct task_batch_pool *pool_of(const struct doca_ctx *ctx)
{
	if (ctx->ext == NULL || ctx->ext->ops != &batch_ext_ops)
		return NULL;
	return SD_CONTAINER_OF(ctx->ext, struct task_batch_pool, ext);
}

static void batch_pool_release(struct doca_ctx *ctx)
{
	struct task_batch_pool *pool = pool_of(ctx);

	if (pool == NULL)
		return;
	free(pool->tasks);
	free(pool->batches);
	free(pool);
	ctx->ext = NULL;
	ctx_progress_path(ctx);
}

SD_PRIV doca_error_t priv_doca_task_batch_pool_init(struct doca_ctx *ctx, const struct task_batch_ops *ops,
						    size_t task_size, uint32_t num_batches, uint16_t max_tasks)
{
	struct task_batch_pool *pool;
	size_t per_batch;

	if (ops == NULL || ops->deliver == NULL || task_size < sizeof(struct doca_task) || num_batches == 0 ||
	    max_tasks == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: batch pool of %u batches of %u tasks of %zu bytes: every count must be > 0 "
				 "and a task at least a struct doca_task",
				 priv_doca_ctx_name(ctx), num_batches, max_tasks, task_size);
	if (ctx->ext != NULL && ctx->ext->ops != &batch_ext_ops)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP, "%s already has an extension (%s); one per context",
				 priv_doca_ctx_name(ctx), ctx->ext->ops->name);
	batch_pool_release(ctx);
	/* Members on their own cache lines, as single tasks: engine threads write their completion words. */
	task_size = (task_size + SD_CACHELINE - 1) & ~(size_t)(SD_CACHELINE - 1);
	per_batch = task_size * max_tasks;
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL)
		goto nomem;
	pool->batches = calloc(num_batches, sizeof(*pool->batches));
	if (pool->batches == NULL || (pool->tasks = sd_calloc_lines(num_batches, per_batch)) == NULL)
		goto nomem_pool;
	pool->ext.ops = &batch_ext_ops;
	pool->ops = ops;
	pool->task_size = task_size;
	pool->max_tasks = max_tasks;
	pool->nb_batches = num_batches;
	for (uint32_t i = num_batches; i-- > 0;) {
		struct doca_task_batch *b = &pool->batches[i];

		b->ctx = ctx;
		b->state = TASK_FREE;
		b->tasks = pool->tasks + per_batch * i;
		for (uint16_t k = 0; k < max_tasks; k++) {
			struct doca_task *t = member(pool, b, k);

			t->ctx = ctx;
			t->state = TASK_ALLOCATED; /* owned by the batch, never by the context's pool */
			t->comp.notify = ctx->pe ? &ctx->pe->notify : NULL;
		}
		b->next = pool->free;
		pool->free = b;
	}
	ctx->ext = &pool->ext;
	ctx_progress_path(ctx);
	return DOCA_SUCCESS;

nomem_pool:
	free(pool->batches);
	free(pool);
nomem:
	return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: cannot allocate %u batches of %u tasks",
			 priv_doca_ctx_name(ctx), num_batches, max_tasks);
}

SD_PRIV doca_error_t priv_doca_task_batch_alloc(struct doca_ctx *ctx, uint16_t nb_tasks, union doca_data user_data,
						struct doca_task_batch **batch)
{
	struct task_batch_pool *pool = pool_of(ctx);
	struct doca_task_batch *b;

	if (SD_UNLIKELY(ctx->state != DOCA_CTX_STATE_RUNNING))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "task batch allocation on %s refused: context is %s; allocate batches after "
				 "doca_ctx_start()",
				 priv_doca_ctx_name(ctx), priv_doca_ctx_state_name(ctx->state));
	if (SD_UNLIKELY(pool == NULL))
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s has no task batch pool; configure batches (*_task_batch_*_set_conf) before "
				 "doca_ctx_start()",
				 priv_doca_ctx_name(ctx));
	if (SD_UNLIKELY(nb_tasks == 0 || nb_tasks > pool->max_tasks))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: a batch of %u tasks requested; batches of this context hold 1..%u tasks "
				 "(max_tasks_number of set_conf)",
				 priv_doca_ctx_name(ctx), nb_tasks, pool->max_tasks);
	b = pool->free;
	if (SD_UNLIKELY(b == NULL))
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP,
				 "%s: all %u task batches are allocated; free batches with doca_task_batch_free() "
				 "(e.g. in their callbacks) or configure more before doca_ctx_start()",
				 priv_doca_ctx_name(ctx), pool->nb_batches);
	pool->free = b->next;
	b->next = NULL;
	b->state = TASK_ALLOCATED;
	b->status = DOCA_SUCCESS;
	b->user_data = user_data;
	b->nb_tasks = nb_tasks;
	b->nb_submitted = b->nb_checked = 0;
	ctx->nb_allocated++;
	*batch = b;
	return DOCA_SUCCESS;
}

SD_PRIV struct doca_task *priv_doca_task_batch_task(struct doca_task_batch *batch, uint16_t i)
{
	return member(pool_of(batch->ctx), batch, i);
}

DOCA_EXPERIMENTAL void doca_task_batch_free(struct doca_task_batch *task_batch)
{
	struct doca_ctx *ctx;
	struct task_batch_pool *pool;

	if (task_batch == NULL)
		return;
	ctx = task_batch->ctx;
	pool = pool_of(ctx);
	if (task_batch->state != TASK_ALLOCATED || pool == NULL) {
		SD_ERR(COMP,
		       "doca_task_batch_free: batch %p of %s is %s; free a batch in its callback or before "
		       "submitting it",
		       (void *)task_batch, priv_doca_ctx_name(ctx),
		       task_batch->state == TASK_SUBMITTED ? "in flight" : "already free");
		return;
	}
	task_batch->state = TASK_FREE;
	task_batch->next = pool->free;
	pool->free = task_batch;
	ctx->nb_allocated--;
}

static void fifo_push(struct task_batch_pool *pool, struct doca_task_batch *b)
{
	b->next = NULL;
	if (pool->fifo_tail != NULL)
		pool->fifo_tail->next = b;
	else
		pool->fifo_head = b;
	pool->fifo_tail = b;
}

/*
 * Hands members [nb_submitted, nb_tasks) to the engine. Returns -EAGAIN when the engine queue
 * filled up (the rest waits for the next progress), 0 otherwise. A member the engine refuses
 * for another reason completes with DOCA_ERROR_DRIVER; once the context left RUNNING, members
 * not yet submitted complete flushed.
 */
static int submit_members(struct doca_ctx *ctx, struct task_batch_pool *pool, struct doca_task_batch *b)
{
	while (b->nb_submitted < b->nb_tasks) {
		struct doca_task *t = member(pool, b, b->nb_submitted);
		int rc = 0;

		t->status = DOCA_SUCCESS;
		atomic_store_explicit(&t->comp.done, 0, memory_order_relaxed);
		if (ctx->state == DOCA_CTX_STATE_RUNNING)
			rc = ctx_dp_submit(ctx, t);
		else
			rc = -ECANCELED;
		if (rc == -EAGAIN || rc == -ENOBUFS)
			return -EAGAIN;
		if (rc != 0) {
			t->in_engine = false;
			priv_doca_task_complete_pe(t, rc == -ECANCELED ? BATCH_FLUSH_STATUS : DOCA_ERROR_DRIVER);
		} else {
			t->in_engine = true;
		}
		b->nb_submitted++;
	}
	return 0;
}

static doca_error_t batch_submit(struct doca_task_batch *b, bool strict)
{
	const char *call = strict ? "doca_task_batch_try_submit" : "doca_task_batch_submit";
	struct task_batch_pool *pool;
	struct doca_ctx *ctx;
	doca_error_t ret = DOCA_SUCCESS;

	if (SD_UNLIKELY(b == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL task batch", call);
	ctx = b->ctx;
	pool = pool_of(ctx);
	if (SD_UNLIKELY(b->state != TASK_ALLOCATED || pool == NULL))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: batch %p of %s is %s; submit an allocated batch once, and again only from "
				 "its callback",
				 call, (void *)b, priv_doca_ctx_name(ctx),
				 b->state == TASK_SUBMITTED ? "already submitted" : "freed");
	if (SD_UNLIKELY(ctx->state != DOCA_CTX_STATE_RUNNING))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is %s; submit batches only while the context is RUNNING", call,
				 priv_doca_ctx_name(ctx), priv_doca_ctx_state_name(ctx->state));
	/* Every member is checked before any reaches the engine: a batch goes in whole or not at all. */
	for (uint16_t i = 0; i < b->nb_tasks; i++) {
		ret = ctx->ops->prepare(member(pool, b, i));
		if (SD_UNLIKELY(ret != DOCA_SUCCESS)) {
			if (strict || ret == DOCA_ERROR_BAD_STATE)
				return ret;
			break;
		}
	}
	b->nb_checked = 0;
	if (SD_UNLIKELY(ret != DOCA_SUCCESS)) {
		/* doca_task_batch_submit does not validate: the failure arrives as the batch's completion. */
		b->status = ret;
		b->nb_submitted = b->nb_checked = b->nb_tasks;
	} else {
		b->status = DOCA_SUCCESS;
		b->nb_submitted = 0;
		if (submit_members(ctx, pool, b) != 0 && b->nb_submitted == 0) {
			if (ctx->st_again++ == 0)
				SD_WARN(COMP,
					"%s: engine queue full; %s returns DOCA_ERROR_AGAIN: call doca_pe_progress() "
					"and resubmit (logged once per start)",
					priv_doca_ctx_name(ctx), call);
			return DOCA_ERROR_AGAIN;
		}
	}
	b->state = TASK_SUBMITTED;
	ctx->inflight += b->nb_tasks;
	if (ctx->inflight > ctx->st_inflight_hwm)
		ctx->st_inflight_hwm = ctx->inflight;
	fifo_push(pool, b);
	priv_doca_pe_kick(ctx->pe); /* an armed application may be asleep on the handle */
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch)
{
	return batch_submit(task_batch, false);
}

DOCA_EXPERIMENTAL doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch)
{
	return batch_submit(task_batch, true);
}

/* True when every member of @b has finished (advances b->nb_checked). */
static bool batch_done(const struct task_batch_pool *pool, struct doca_task_batch *b)
{
	while (b->nb_checked < b->nb_submitted) {
		struct doca_task *t = member(pool, b, b->nb_checked);

		if (!atomic_load_explicit(&t->comp.done, memory_order_acquire))
			return false;
		b->nb_checked++;
	}
	return b->nb_checked == b->nb_tasks;
}

static void deliver(struct doca_ctx *ctx, struct task_batch_pool *pool, struct doca_task_batch *b)
{
	doca_error_t status = b->status;
	bool prepared = status == DOCA_SUCCESS;
	uint64_t bytes = 0;

	for (uint16_t i = 0; i < b->nb_tasks; i++) {
		struct doca_task *t = member(pool, b, i);

		t->in_engine = false;
		t->status = prepared ? t->comp.status : status;
		if (status == DOCA_SUCCESS)
			status = t->status;
		bytes += t->bytes;
	}
	if (ctx->state != DOCA_CTX_STATE_RUNNING && status == DOCA_SUCCESS)
		status = BATCH_FLUSH_STATUS;
	b->status = status;
	b->state = TASK_ALLOCATED;
	ctx->inflight -= b->nb_tasks;
	if (SD_LIKELY(status == DOCA_SUCCESS)) {
		ctx->st_tasks += b->nb_tasks;
		ctx->st_bytes += bytes;
		for (uint16_t i = 0; i < b->nb_tasks; i++)
			ctx->ops->finish(member(pool, b, i));
		pool->ops->deliver(b, true);
		return;
	}
	ctx->st_errors++;
	if (ctx->state == DOCA_CTX_STATE_RUNNING && !ctx->ops->policy.keep_running_on_error) {
		SD_DBG(COMP, "%s: batch %p failed with %s; stopping the context", priv_doca_ctx_name(ctx), (void *)b,
		       doca_error_get_name(status));
		if (!priv_doca_ctx_fail(ctx))
			return;
	}
	pool->ops->deliver(b, false);
}

static unsigned int batch_progress(struct doca_ctx *ctx, unsigned int budget)
{
	struct task_batch_pool *pool = pool_of(ctx);
	const struct ctx_guard *g = ctx_guard_top(ctx); /* progress holds one */
	unsigned int n = 0;

	while (n < budget) {
		struct doca_task_batch *b = pool->fifo_head;

		if (b == NULL)
			break;
		if (b->nb_submitted < b->nb_tasks && submit_members(ctx, pool, b) != 0)
			break;
		if (!batch_done(pool, b))
			break;
		pool->fifo_head = b->next;
		if (pool->fifo_head == NULL)
			pool->fifo_tail = NULL;
		b->next = NULL;
		deliver(ctx, pool, b);
		n++;
		if (g->gone)
			break; /* the callback destroyed the context */
	}
	return n;
}

static bool batch_has_work(const struct doca_ctx *ctx)
{
	const struct task_batch_pool *pool = pool_of(ctx);
	const struct doca_task_batch *b = pool ? pool->fifo_head : NULL;

	if (b == NULL)
		return false;
	if (b->nb_submitted < b->nb_tasks || b->nb_checked == b->nb_tasks)
		return true;
	return atomic_load_explicit(&member(pool, b, b->nb_checked)->comp.done, memory_order_acquire) != 0;
}

DOCA_EXPERIMENTAL doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch)
{
	if (task_batch == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return task_batch->status;
}

DOCA_EXPERIMENTAL void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data)
{
	if (task_batch != NULL)
		task_batch->user_data = user_data;
}

DOCA_EXPERIMENTAL union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = {.u64 = 0};

	return task_batch ? task_batch->user_data : none;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch)
{
	return task_batch ? task_batch->ctx : NULL;
}

DOCA_EXPERIMENTAL union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = {.u64 = 0};

	return task_batch ? task_batch->ctx->user_data : none;
}

DOCA_EXPERIMENTAL uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch)
{
	return task_batch ? task_batch->nb_tasks : 0;
}
