/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_datapath_gpu.c - contexts whose data path is not on a progress engine (GPUNetIO queues
 * run on the GPU): the core's state machine with no PE. A small module of the test's own plugs
 * in a set_datapath_on_gpu hook, the way a GPU-capable library will.
 *
 *   - a module without the hook refuses doca_ctx_set_datapath_on_gpu (NOT_SUPPORTED); DMA has
 *     one, which refuses what is not a GPU of libdoca_gpunetio (INVALID_VALUE; the GPU data path
 *     itself is tested in tests/gpunetio)
 *   - with the hook: no PE needed to start; RUNNING, then stop reaches IDLE inside
 *     doca_ctx_stop (nothing in flight on the CPU), with every state callback; start again
 *   - such a context cannot be connected to a PE, and a PE-connected one cannot move its data
 *     path to the GPU (NOT_PERMITTED); nor can a running one (BAD_STATE)
 *   - it has no CPU tasks: a task pool is refused at start (BAD_STATE)
 *   - a context with neither is refused at start (NOT_CONNECTED)
 */
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_pe.h>

#include "../common/sd_test.h"
#include "core.h"

static int gpu_hook_calls;
static bool want_pool;
static enum doca_ctx_states seen[8];
static int nseen;

static doca_error_t g_set_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	(void)ctx;
	CHECK(gpu != NULL);
	gpu_hook_calls++;
	return DOCA_SUCCESS;
}

static const struct ctx_dp_ops g_dp; /* never used: no pool */

static doca_error_t g_start(struct doca_ctx *ctx)
{
	if (want_pool)
		return priv_doca_ctx_pool_init(ctx, sizeof(struct doca_task), 4, 4, &g_dp);
	return DOCA_SUCCESS;
}

static doca_error_t g_prepare(struct doca_task *task)
{
	(void)task;
	return DOCA_ERROR_NOT_SUPPORTED;
}

static void g_deliver(struct doca_task *task, bool success)
{
	(void)task;
	(void)success;
}

static const struct ctx_ops cpu_only_ops = {
    .name = "cpu-test",
    .start = g_start,
    .prepare = g_prepare,
    .deliver = g_deliver,
};

static const struct ctx_ops gpu_ops = {
    .name = "gpu-test",
    .start = g_start,
    .prepare = g_prepare,
    .deliver = g_deliver,
    .set_datapath_on_gpu = g_set_gpu,
};

static void on_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	if (nseen < 8)
		seen[nseen++] = next;
}

int main(void)
{
	struct doca_dev *dev = sd_open_dev("03:00.0");
	struct doca_gpu *gpu = (struct doca_gpu *)&gpu_hook_calls; /* an opaque handle */
	struct doca_ctx a, b, c;
	struct doca_dma *dma;
	struct doca_pe *pe;
	enum doca_ctx_states st;
	struct doca_task *t;

	/* A module without the hook; DMA's hook wants a real GPU. */
	priv_doca_ctx_init(&c, &cpu_only_ops, dev);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(&c, gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(priv_doca_ctx_fini(&c));
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(dma), gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(dma), NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(NULL, gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dma_destroy(dma));

	/* Neither a PE nor a GPU: refused. */
	priv_doca_ctx_init(&a, &gpu_ops, dev);
	CHECK_ERR(doca_ctx_start(&a), DOCA_ERROR_NOT_CONNECTED);

	/* On the GPU: starts without a PE. */
	CHECK_OK(doca_ctx_set_state_changed_cb(&a, on_state));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(&a, gpu));
	CHECK(gpu_hook_calls == 1);
	CHECK_OK(doca_pe_create(&pe));
	CHECK_ERR(doca_pe_connect_ctx(pe, &a), DOCA_ERROR_NOT_PERMITTED);
	for (int round = 0; round < 2; round++) {
		nseen = 0;
		CHECK_OK(doca_ctx_start(&a));
		CHECK_OK(doca_ctx_get_state(&a, &st));
		CHECK(st == DOCA_CTX_STATE_RUNNING);
		CHECK_ERR(doca_ctx_set_datapath_on_gpu(&a, gpu), DOCA_ERROR_BAD_STATE);
		CHECK(gpu_hook_calls == 1);				       /* refused before the module was asked */
		CHECK_ERR(priv_doca_task_alloc(&a, &t), DOCA_ERROR_BAD_STATE); /* no CPU tasks */
		CHECK_OK(doca_ctx_stop(&a)); /* nothing in flight: IDLE at once, no progress needed */
		CHECK_OK(doca_ctx_get_state(&a, &st));
		CHECK(st == DOCA_CTX_STATE_IDLE);
		CHECK(nseen == 3 && seen[0] == DOCA_CTX_STATE_RUNNING && seen[1] == DOCA_CTX_STATE_STOPPING &&
		      seen[2] == DOCA_CTX_STATE_IDLE);
	}
	/* A task pool on a GPU data path is refused at start. */
	want_pool = true;
	CHECK_ERR(doca_ctx_start(&a), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_get_state(&a, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	want_pool = false;
	CHECK_OK(priv_doca_ctx_fini(&a));

	/* Connected to a PE first: the data path stays there. */
	priv_doca_ctx_init(&b, &gpu_ops, dev);
	CHECK_OK(doca_pe_connect_ctx(pe, &b));
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(&b, gpu), DOCA_ERROR_NOT_PERMITTED);
	CHECK(gpu_hook_calls == 1);
	CHECK_OK(doca_ctx_start(&b));
	CHECK_OK(doca_ctx_stop(&b));
	CHECK_OK(priv_doca_ctx_fini(&b));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
	printf("contexts with a GPU data path start, stop and refuse what does not fit\n");
	return T_EXIT_PASS;
}
