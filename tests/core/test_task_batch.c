/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_task_batch.c - the generic task batch (doca_pe.h, src/ctxmods/task_batch.h).
 *
 * No DOCA 3.3 library besides Eth (not in softdoca yet) allocates batches, so this test plugs a
 * small context module of its own into the core, the way a library module does: its tasks copy
 * a source array into a destination array through a data path of its own on the configured
 * engine (as DOCA DMA's), its batch allocation
 * call is priv_doca_task_batch_alloc(), and its batch callback records what it sees. Bytes
 * really move, so a batch that "completes" without its tasks having run fails the test.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>

#include "../common/sd_test.h"
#include "core.h"
#include "task_batch.h"

#define MAX_TASKS  16
#define NB_BATCHES 2
#define CHUNK	   64

struct tb_task {
	struct doca_task base;
	struct engine_job job;
	struct engine_seg seg[2];
	const uint8_t *src;
	uint8_t *dst;
	size_t len;
	bool bad; /* prepare refuses it */
	bool finished;
};

struct tb_ctx {
	struct doca_ctx ctx;
};

/* What the batch callback saw. */
static struct {
	int ok, err;
	doca_error_t status;
	uint16_t tasks;
	uint64_t ud, ctx_ud;
	struct doca_ctx *ctx;
	bool all_finished;
	bool free_in_cb;
	bool resubmit_in_cb;
	doca_error_t resubmit_ret;
} seen;

static void tb_deliver(struct doca_task_batch *b, bool success)
{
	uint16_t n = doca_task_batch_get_tasks_num(b);

	if (success)
		seen.ok++;
	else
		seen.err++;
	seen.status = doca_task_batch_get_status(b);
	seen.tasks = n;
	seen.ud = doca_task_batch_get_user_data(b).u64;
	seen.ctx_ud = doca_task_batch_get_ctx_user_data(b).u64;
	seen.ctx = doca_task_batch_get_ctx(b);
	seen.all_finished = true;
	for (uint16_t i = 0; i < n; i++)
		seen.all_finished &= ((struct tb_task *)priv_doca_task_batch_task(b, i))->finished;
	if (seen.resubmit_in_cb) {
		seen.resubmit_in_cb = false;
		seen.resubmit_ret = doca_task_batch_submit(b);
		return;
	}
	if (seen.free_in_cb)
		doca_task_batch_free(b);
}

static const struct task_batch_ops tb_batch_ops = {.deliver = tb_deliver};
/* Engine queue depth of the next start; a module sizes it for all its batches' tasks. */
static uint32_t tb_depth = 1 + NB_BATCHES * MAX_TASKS;

/* The module's data path: one executor queue; a task's job is its own. */
struct ctx_dp_queue {
	const struct engine_ops *exec;
	struct engine_queue *q;
};

static doca_error_t tb_dp_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **out)
{
	static struct ctx_dp_queue dq; /* one context at a time in this test */

	*out = &dq;
	return priv_doca_dp_executor_create(attr, &dq.exec, &dq.q);
}

static void tb_dp_destroy(struct ctx_dp_queue *q)
{
	q->exec->queue_destroy(q->q);
}

static int tb_dp_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	return q->exec->submit(q->q, &((struct tb_task *)task)->job);
}

static unsigned int tb_dp_poll(struct ctx_dp_queue *q, unsigned int budget)
{
	return q->exec->poll(q->q, budget);
}

static bool tb_dp_pending(const struct ctx_dp_queue *q)
{
	return q->exec->pending(q->q);
}

static void tb_dp_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	q->exec->cancel(q->q, status);
}

static const struct ctx_dp_ops tb_dp_ops = {
    .name = "batch-test copies",
    .queue_create = tb_dp_create,
    .queue_destroy = tb_dp_destroy,
    .submit = tb_dp_submit,
    .poll = tb_dp_poll,
    .pending = tb_dp_pending,
    .cancel = tb_dp_cancel,
};

static doca_error_t tb_start(struct doca_ctx *ctx)
{
	doca_error_t ret = priv_doca_ctx_pool_init(ctx, sizeof(struct tb_task), 1, tb_depth, &tb_dp_ops);

	if (ret != DOCA_SUCCESS)
		return ret;
	return priv_doca_task_batch_pool_init(ctx, &tb_batch_ops, sizeof(struct tb_task), NB_BATCHES,
					      priv_doca_task_batch_max_tasks(DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16));
}

static doca_error_t tb_prepare(struct doca_task *task)
{
	struct tb_task *t = (struct tb_task *)task;

	if (t->bad)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "test", "task %p is marked bad", (void *)t);
	t->finished = false;
	t->seg[0] = (struct engine_seg){.addr = (void *)t->src, .len = t->len};
	t->seg[1] = (struct engine_seg){.addr = t->dst, .len = t->len};
	t->job.src = &t->seg[0];
	t->job.dst = &t->seg[1];
	t->job.nsrc = t->job.ndst = 1;
	t->job.len = t->len;
	t->job.src_dom = t->job.dst_dom = NULL;
	t->job.xfer = NULL;
	t->job.comp = &task->comp;
	task->bytes = t->len;
	return DOCA_SUCCESS;
}

static void tb_finish(struct doca_task *task)
{
	((struct tb_task *)task)->finished = true;
}

static void tb_deliver_task(struct doca_task *task, bool success)
{
	(void)task;
	(void)success;
	CHECK(!"the module's single tasks are never used here");
}

static const struct ctx_ops tb_ops = {
    .name = "batch-test",
    .start = tb_start,
    .prepare = tb_prepare,
    .deliver = tb_deliver_task,
    .finish = tb_finish,
};

static uint8_t src[MAX_TASKS * CHUNK], dst[MAX_TASKS * CHUNK];

/* The module's "allocate": a batch of @n copies of CHUNK bytes, task i at offset i * CHUNK. */
static struct doca_task_batch *tb_alloc(struct doca_ctx *ctx, uint16_t n, uint64_t ud)
{
	struct doca_task_batch *b = NULL;

	CHECK_OK(priv_doca_task_batch_alloc(ctx, n, (union doca_data){.u64 = ud}, &b));
	for (uint16_t i = 0; i < n; i++) {
		struct tb_task *t = (struct tb_task *)priv_doca_task_batch_task(b, i);

		t->src = src + (size_t)i * CHUNK;
		t->dst = dst + (size_t)i * CHUNK;
		t->len = CHUNK;
		t->bad = false;
	}
	return b;
}

static void progress_until(struct doca_pe *pe, int *counter, int want)
{
	for (long i = 0; *counter < want; i++) {
		(void)doca_pe_progress(pe);
		CHECK(i < 100000000);
	}
}

static void fill(uint8_t seed)
{
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(seed + i * 7);
	memset(dst, 0, sizeof(dst));
}

static enum doca_ctx_states state_of(struct doca_ctx *ctx)
{
	enum doca_ctx_states st;

	CHECK_OK(doca_ctx_get_state(ctx, &st));
	return st;
}

int main(void)
{
	struct doca_dev *dev = sd_open_dev("03:00.0");
	struct doca_pe *pe = NULL;
	struct tb_ctx *m = calloc(1, sizeof(*m));
	struct doca_ctx *ctx = &m->ctx;
	struct doca_task_batch *b, *b2, *b3 = NULL;
	size_t inflight = 0;

	CHECK(m != NULL);
	CHECK(priv_doca_task_batch_max_tasks(DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128) == 128);
	CHECK(priv_doca_task_batch_max_tasks((enum doca_task_batch_max_tasks_number)9) == 0);

	pe = sd_pe();
	priv_doca_ctx_init(ctx, &tb_ops, dev);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_ctx_set_user_data(ctx, (union doca_data){.u64 = 5}));
	CHECK_ERR(priv_doca_task_batch_alloc(ctx, 1, (union doca_data){.u64 = 0}, &b3), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_start(ctx));

	/* NULL arguments */
	CHECK_ERR(doca_task_batch_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_batch_try_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_batch_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_task_batch_get_ctx(NULL) == NULL && doca_task_batch_get_tasks_num(NULL) == 0);
	CHECK(doca_task_batch_get_user_data(NULL).u64 == 0 && doca_task_batch_get_ctx_user_data(NULL).u64 == 0);
	doca_task_batch_free(NULL);
	doca_task_batch_set_user_data(NULL, (union doca_data){.u64 = 1});

	/* counts and pool size */
	CHECK_ERR(priv_doca_task_batch_alloc(ctx, 0, (union doca_data){.u64 = 0}, &b3), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(priv_doca_task_batch_alloc(ctx, MAX_TASKS + 1, (union doca_data){.u64 = 0}, &b3),
		  DOCA_ERROR_INVALID_VALUE);
	b = tb_alloc(ctx, MAX_TASKS, 11);
	b2 = tb_alloc(ctx, 3, 22);
	CHECK_ERR(priv_doca_task_batch_alloc(ctx, 1, (union doca_data){.u64 = 0}, &b3), DOCA_ERROR_NO_MEMORY);
	CHECK(doca_task_batch_get_tasks_num(b) == MAX_TASKS && doca_task_batch_get_ctx(b) == ctx);
	doca_task_batch_set_user_data(b, (union doca_data){.u64 = 12});
	CHECK(doca_task_batch_get_user_data(b).u64 == 12);

	/* 1. A full batch: one callback, every task copied, only from progress. */
	fill(1);
	CHECK_OK(doca_task_batch_submit(b));
	CHECK_ERR(doca_task_batch_submit(b), DOCA_ERROR_BAD_STATE); /* already submitted */
	doca_task_batch_free(b);				    /* refused: in flight (logged) */
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &inflight));
	CHECK(inflight == MAX_TASKS);
	CHECK(seen.ok == 0);
	progress_until(pe, &seen.ok, 1);
	CHECK(seen.err == 0 && seen.status == DOCA_SUCCESS && seen.tasks == MAX_TASKS);
	CHECK(seen.ud == 12 && seen.ctx_ud == 5 && seen.ctx == ctx && seen.all_finished);
	CHECK_MEM(src, dst, sizeof(src));
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &inflight));
	CHECK(inflight == 0);

	/* 2. Resubmitted from its own callback; a smaller batch in flight at the same time. */
	fill(2);
	seen.resubmit_in_cb = true;
	CHECK_OK(doca_task_batch_submit(b));
	CHECK_OK(doca_task_batch_submit(b2));
	progress_until(pe, &seen.ok, 3);
	CHECK(seen.resubmit_ret == DOCA_SUCCESS);
	progress_until(pe, &seen.ok, 4);
	CHECK(seen.err == 0 && memcmp(src, dst, sizeof(src)) == 0);

	/* 3. try_submit with one bad task: nothing submitted, the batch is still the caller's. */
	fill(3);
	((struct tb_task *)priv_doca_task_batch_task(b2, 2))->bad = true;
	CHECK_ERR(doca_task_batch_try_submit(b2), DOCA_ERROR_INVALID_VALUE);
	for (int i = 0; i < 100; i++)
		(void)doca_pe_progress(pe);
	CHECK(seen.ok == 4 && seen.err == 0);
	CHECK(dst[0] == 0); /* not even the good tasks ran */
	doca_task_batch_free(b2);
	CHECK_OK(priv_doca_task_batch_alloc(ctx, 1, (union doca_data){.u64 = 0}, &b3)); /* the slot is back */
	doca_task_batch_free(b3);

	/* 4. Plain submit with a bad task: the error callback, then the context stops itself. */
	((struct tb_task *)priv_doca_task_batch_task(b, 5))->bad = true;
	CHECK_OK(doca_task_batch_submit(b));
	progress_until(pe, &seen.err, 1);
	CHECK(seen.status == DOCA_ERROR_INVALID_VALUE && seen.tasks == MAX_TASKS);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_STOPPING);
	/* An allocated batch keeps the context from reaching IDLE, like a task would. */
	for (int i = 0; i < 100; i++)
		(void)doca_pe_progress(pe);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_STOPPING);
	CHECK_ERR(doca_task_batch_submit(b), DOCA_ERROR_BAD_STATE); /* not RUNNING */
	doca_task_batch_free(b);
	(void)doca_pe_progress(pe);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_IDLE);

	/* 5. Stop with a batch in flight: it is delivered (flushed or done), then IDLE once freed. */
	CHECK_OK(doca_ctx_start(ctx));
	fill(5);
	b = tb_alloc(ctx, 8, 55);
	seen.free_in_cb = true;
	int ok0 = seen.ok, err0 = seen.err;

	CHECK_OK(doca_task_batch_submit(b));
	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	while (seen.ok + seen.err == ok0 + err0)
		(void)doca_pe_progress(pe);
	/* Delivered after the stop: the batch is flushed. */
	CHECK(seen.err == err0 + 1 && seen.status == DOCA_ERROR_IO_FAILED && seen.ud == 55);
	(void)doca_pe_progress(pe);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_IDLE);

	/*
	 * 6. An engine queue shorter than a batch (a module that sized it too small): the tasks
	 * that did not fit follow from progress, the batch still completes once, whole; a second
	 * batch meeting a full queue is refused with AGAIN and stays the caller's.
	 */
	tb_depth = 4;
	seen.free_in_cb = false;
	CHECK_OK(doca_ctx_start(ctx));
	fill(6);
	b = tb_alloc(ctx, MAX_TASKS, 66);
	b2 = tb_alloc(ctx, 2, 67);
	ok0 = seen.ok;
	CHECK_OK(doca_task_batch_submit(b));
	CHECK_ERR(doca_task_batch_submit(b2), DOCA_ERROR_AGAIN);
	progress_until(pe, &seen.ok, ok0 + 1);
	CHECK(seen.ud == 66 && seen.status == DOCA_SUCCESS && seen.all_finished);
	CHECK_MEM(src, dst, sizeof(src));
	CHECK_OK(doca_task_batch_submit(b2));
	progress_until(pe, &seen.ok, ok0 + 2);
	CHECK(seen.ud == 67 && seen.tasks == 2);
	doca_task_batch_free(b);
	doca_task_batch_free(b2);
	CHECK_OK(doca_ctx_stop(ctx));

	CHECK_ERR(priv_doca_ctx_fini(ctx), DOCA_SUCCESS);
	free(m);
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
	printf("task_batch: ok\n");
	return T_EXIT_PASS;
}
