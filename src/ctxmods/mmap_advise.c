/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mmap_advise.c - DOCA mmap advise: the cache invalidate task on top of the core context.
 *
 * On a BlueField, invalidating lets the DPU's caches drop lines of memory nothing will read
 * again, saving their write-back. softdoca's memory is ordinary coherent host memory, shared
 * by every engine, so there is nothing to drop: the task's whole work is checking its rules.
 * It still travels the full task path (pool, submit, FIFO, delivery from doca_pe_progress),
 * through a data path of its own (advise_dp_ops below) that finishes each task at submit.
 *
 * Rules checked when a task is prepared (doca_task_submit reports a broken rule through the
 * error callback, doca_task_try_submit returns it; BAD_STATE is always returned at once):
 *   INVALID_VALUE  no buf; a buf inside a list (not its head); an empty data window; more
 *                  bytes than max_buf_size
 *   BAD_STATE      the buf was released or its mmap is stopped
 *   NOT_PERMITTED  an mmap without the context's device
 *   NOT_SUPPORTED  a from-export mmap: its memory lives in the exporter's caches, not this
 *                  device's
 *
 * The capability follows DOCA: mmap advise needs a BlueField in DPU mode, so DPU-side devices
 * support it and host-side devices do not.
 */
#include <errno.h>
#include <stdlib.h>

#include <doca_buf.h>
#include <doca_ctx.h>
#include <doca_mmap_advise.h>

#include "core.h"

#define COMP "mmap_advise"

struct doca_mmap_advise {
	struct doca_ctx ctx; /* first: doca_mmap_advise_as_ctx is a cast both ways */
	doca_mmap_advise_task_invalidate_cache_completion_cb_t comp_cb;
	doca_mmap_advise_task_invalidate_cache_completion_cb_t err_cb;
	uint32_t num_tasks;
};

struct doca_mmap_advise_task_invalidate_cache {
	struct doca_task base; /* first: the generic view */
	struct doca_buf *buf;
};

static inline struct doca_mmap_advise *advise_of(struct doca_ctx *ctx)
{
	return (struct doca_mmap_advise *)ctx;
}

/* ---- the data path: nothing to do on coherent memory ---- */

struct ctx_dp_queue {
	int unused;
};

static doca_error_t advise_queue_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q)
{
	(void)attr;
	*q = calloc(1, sizeof(**q));
	return *q != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
}

static void advise_queue_destroy(struct ctx_dp_queue *q)
{
	free(q);
}

/*
 * Coherent memory: nothing to invalidate, the advice is taken as given once prepare() checked
 * its rules. The task is finished here; the core delivers it at the next doca_pe_progress(), in
 * submission order, like any other.
 */
static int advise_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	(void)q;
	priv_doca_task_complete_pe(task, DOCA_SUCCESS);
	return 0;
}

static const struct ctx_dp_ops advise_dp_ops = {
    .name = "cache advice on coherent memory: checked, then completed",
    .queue_create = advise_queue_create,
    .queue_destroy = advise_queue_destroy,
    .submit = advise_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = priv_doca_dp_nop_pending,
    .cancel = priv_doca_dp_nop_cancel,
};

/* ---- capabilities ---- */

static bool dev_can_advise(const struct doca_devinfo *devinfo)
{
	return devinfo->tdev->side == TOPO_SIDE_DPU;
}

DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_advise_cap_task_cache_invalidate_is_supported: NULL devinfo");
	/* A capability answer, not a rejection: no error line (programs probe every device). */
	return dev_can_advise(devinfo) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *buf_size)
{
	if (devinfo == NULL || buf_size == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_advise_task_cache_invalidate_get_max_buf_size: NULL %s",
				 devinfo == NULL ? "devinfo" : "output");
	*buf_size = devinfo->profile->dma.max_buf_size;
	return DOCA_SUCCESS;
}

/* ---- context ops ---- */

static doca_error_t advise_start(struct doca_ctx *ctx)
{
	struct doca_mmap_advise *ma = advise_of(ctx);

	if (ma->comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s has no cache invalidate task configuration; call "
				 "doca_mmap_advise_task_invalidate_cache_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(ctx));
	return priv_doca_ctx_pool_init(ctx, sizeof(struct doca_mmap_advise_task_invalidate_cache), ma->num_tasks,
				       ma->num_tasks, &advise_dp_ops);
}

static doca_error_t advise_prepare(struct doca_task *task)
{
	struct doca_mmap_advise_task_invalidate_cache *t = (struct doca_mmap_advise_task_invalidate_cache *)task;
	struct doca_ctx *ctx = task->ctx;
	const struct doca_buf *head = t->buf;
	uint64_t max = ctx->dev->info.profile->dma.max_buf_size;
	uint64_t total = 0;

	if (head == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p has no buf; pass one to alloc_init or "
				 "doca_mmap_advise_task_invalidate_cache_set_buf()",
				 priv_doca_ctx_name(ctx), (void *)t);
	if (head->mmap == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: task %p: buf %p was released (refcount 0) before the task ran; keep a reference "
				 "until the task completes",
				 priv_doca_ctx_name(ctx), (void *)t, (const void *)head);
	if (!head->is_head)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: buf %p is inside a list; pass the list head", priv_doca_ctx_name(ctx),
				 (void *)t, (const void *)head);
	for (const struct doca_buf *b = head; b != NULL; b = b->next) {
		const struct doca_mmap *m = b->mmap;

		if (m->kind == MMAP_FROM_EXPORT)
			return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
					 "%s: task %p: buf %p lies in from-export mmap %p (memory of exporter pid %d); "
					 "only memory local to the device has cache lines to invalidate: invalidate "
					 "on the exporter's side",
					 priv_doca_ctx_name(ctx), (void *)t, (const void *)b, (const void *)m,
					 (int)m->pid);
		if (!m->started)
			return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: task %p: mmap %p is stopped; start it again",
					 priv_doca_ctx_name(ctx), (void *)t, (const void *)m);
		if (!priv_doca_mmap_has_dev(m, ctx->dev))
			return SD_REJECT(
			    DOCA_ERROR_NOT_PERMITTED, COMP,
			    "%s: task %p: mmap %p does not include device %s; call doca_mmap_add_dev(mmap, "
			    "dev) before doca_mmap_start()",
			    priv_doca_ctx_name(ctx), (void *)t, (const void *)m, priv_doca_dev_name(&ctx->dev->info));
		total += b->data_len;
	}
	if (total == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p: buf %p has no data (data_len 0), so nothing to invalidate; set the "
				 "window with doca_buf_set_data()",
				 priv_doca_ctx_name(ctx), (void *)t, (const void *)head);
	if (total > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: task %p covers %llu bytes but device %s allows %llu per task "
				 "(doca_mmap_advise_task_cache_invalidate_get_max_buf_size); split it into several "
				 "tasks",
				 priv_doca_ctx_name(ctx), (void *)t, (unsigned long long)total,
				 priv_doca_dev_name(&ctx->dev->info), (unsigned long long)max);
	task->bytes = total;
	return DOCA_SUCCESS;
}

static void advise_deliver(struct doca_task *task, bool success)
{
	struct doca_mmap_advise *ma = advise_of(task->ctx);
	doca_mmap_advise_task_invalidate_cache_completion_cb_t cb = success ? ma->comp_cb : ma->err_cb;

	cb((struct doca_mmap_advise_task_invalidate_cache *)task, task->user_data, task->ctx->user_data);
}

static const struct ctx_ops advise_ctx_ops = {
    .name = "mmap_advise",
    .start = advise_start,
    .prepare = advise_prepare,
    .deliver = advise_deliver,
};

/* ---- public API ---- */

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise)
{
	struct doca_mmap_advise *ma;

	if (dev == NULL || mmap_advise == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_advise_create: NULL %s",
				 dev == NULL ? "device" : "output argument");
	if (!dev_can_advise(&dev->info))
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_mmap_advise_create: device %s is a host-side device; mmap advise needs a "
				 "BlueField in DPU mode: open a DPU-side device (one for which "
				 "doca_mmap_advise_cap_task_cache_invalidate_is_supported() succeeds)",
				 priv_doca_dev_name(&dev->info));
	ma = calloc(1, sizeof(*ma));
	if (ma == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_mmap_advise_create: out of memory");
	priv_doca_ctx_init(&ma->ctx, &advise_ctx_ops, dev);
	*mmap_advise = ma;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise)
{
	doca_error_t ret;

	if (mmap_advise == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_advise_destroy: NULL context");
	ret = priv_doca_ctx_fini(&mmap_advise->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	free(mmap_advise);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise)
{
	return mmap_advise ? &mmap_advise->ctx : NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
    struct doca_mmap_advise *mmap_advise, doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
    doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks)
{
	uint32_t max;

	if (mmap_advise == NULL || completion_cb == NULL || error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_advise_task_invalidate_cache_set_conf: NULL %s; pass the context and "
				 "both callbacks",
				 mmap_advise == NULL ? "context" : "callback");
	max = mmap_advise->ctx.dev->info.profile->dma.max_tasks;
	if (num_tasks == 0 || num_tasks > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_advise_task_invalidate_cache_set_conf: %u tasks requested; device %s "
				 "allows 1..%u",
				 num_tasks, priv_doca_dev_name(&mmap_advise->ctx.dev->info), max);
	/* NOT_PERMITTED while not IDLE, as doca_mmap_advise.h says. */
	if (ctx_check_idle(&mmap_advise->ctx, "configure tasks before doca_ctx_start()") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_PERMITTED;
	mmap_advise->comp_cb = completion_cb;
	mmap_advise->err_cb = error_cb;
	mmap_advise->num_tasks = num_tasks;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(
    struct doca_mmap_advise *mmap_advise, struct doca_buf *buf, union doca_data user_data,
    struct doca_mmap_advise_task_invalidate_cache **task)
{
	struct doca_task *t = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(mmap_advise == NULL || task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_advise_task_invalidate_cache_alloc_init: NULL %s",
				 mmap_advise == NULL ? "context" : "output argument");
	ret = priv_doca_task_alloc(&mmap_advise->ctx, &t);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	t->user_data = user_data;
	((struct doca_mmap_advise_task_invalidate_cache *)t)->buf = buf;
	*task = (struct doca_mmap_advise_task_invalidate_cache *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_mmap_advise_task_invalidate_cache_as_doca_task(struct doca_mmap_advise_task_invalidate_cache *task)
{
	return task ? &task->base : NULL;
}

DOCA_EXPERIMENTAL void
doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
					       struct doca_buf *buf)
{
	if (task != NULL)
		task->buf = buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_mmap_advise_task_invalidate_cache_get_buf(const struct doca_mmap_advise_task_invalidate_cache *task)
{
	return task ? task->buf : NULL;
}
