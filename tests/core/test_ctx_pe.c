/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_ctx_pe.c - the context state machine, the progress engine and generic tasks, with a DMA
 * context as the concrete context, on the inline engine (copies run inside doca_pe_progress,
 * so every step is deterministic).
 *
 * The state-changed callback appends each transition to a log; task callbacks append the
 * task's user data and status. Each phase compares those logs with what doca_ctx.h and
 * doca_pe.h promise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../common/sd_test.h"

#define NB_TASKS 128 /* pool size */
#define NB_BUFS	 128
#define SEG	 16
#define MAX_LOG	 1024

/* ---- recorded events ---- */

struct transition {
	enum doca_ctx_states prev, next;
};

static struct transition trans[MAX_LOG];
static int nb_trans;

static uint64_t done_ud[MAX_LOG];
static doca_error_t done_status[MAX_LOG];
static bool done_ok[MAX_LOG]; /* completion (true) or error (false) callback */
static int nb_done;

/* What the task callbacks do besides recording. */
static struct {
	bool free_task;		    /* doca_task_free() the task (default) */
	int stop_at;		    /* > 0: doca_ctx_stop() from the callback that makes nb_done == stop_at */
	doca_error_t stop_ret;	    /* what that stop returned */
	enum doca_ctx_states after; /* state right after that stop */
	int trans_after;	    /* nb_trans right after that stop */
	bool nested;		    /* call doca_pe_progress() from the first callback */
	uint8_t nested_ret;
	int nested_done_before, nested_done_after;
	uint64_t expect_ctx_ud;
	bool ctx_ud_ok;
} act;

static struct doca_pe *pe;
static struct doca_dma *dma;
static struct doca_ctx *ctx;

static uint8_t src_mem[NB_BUFS * SEG];
static uint8_t dst_mem[NB_BUFS * SEG];
static struct doca_buf *src_buf[NB_BUFS], *dst_buf[NB_BUFS];

static void state_cb(const union doca_data user_data, struct doca_ctx *c, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	CHECK(c == ctx);
	CHECK(user_data.u64 == 0xc0ffee); /* the context's user data */
	CHECK(nb_trans < MAX_LOG);
	trans[nb_trans].prev = prev;
	trans[nb_trans].next = next;
	nb_trans++;
}

static void record(struct doca_dma_task_memcpy *t, union doca_data task_ud, union doca_data ctx_ud, bool ok)
{
	struct doca_task *task = doca_dma_task_memcpy_as_task(t);

	CHECK(nb_done < MAX_LOG);
	CHECK(doca_task_get_ctx(task) == ctx);
	CHECK(doca_task_get_user_data(task).u64 == task_ud.u64);
	if (ctx_ud.u64 != act.expect_ctx_ud)
		act.ctx_ud_ok = false;
	done_ud[nb_done] = task_ud.u64;
	done_status[nb_done] = doca_task_get_status(task);
	done_ok[nb_done] = ok;
	nb_done++;

	if (act.nested && nb_done == 1) {
		act.nested_done_before = nb_done;
		act.nested_ret = doca_pe_progress(pe);
		act.nested_done_after = nb_done;
	}
	if (act.free_task)
		doca_task_free(task);
	if (act.stop_at > 0 && nb_done == act.stop_at) {
		act.stop_ret = doca_ctx_stop(ctx);
		CHECK_OK(doca_ctx_get_state(ctx, &act.after));
		act.trans_after = nb_trans;
	}
}

static void comp_cb(struct doca_dma_task_memcpy *t, union doca_data task_ud, union doca_data ctx_ud)
{
	record(t, task_ud, ctx_ud, true);
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data task_ud, union doca_data ctx_ud)
{
	record(t, task_ud, ctx_ud, false);
}

static void reset_log(void)
{
	nb_trans = 0;
	nb_done = 0;
	memset(&act, 0, sizeof(act));
	act.free_task = true;
	act.ctx_ud_ok = true;
	act.expect_ctx_ud = 0xc0ffee;
}

static enum doca_ctx_states state(void)
{
	enum doca_ctx_states s;

	CHECK_OK(doca_ctx_get_state(ctx, &s));
	return s;
}

static size_t ctx_inflight(void)
{
	size_t n = SIZE_MAX;

	CHECK_OK(doca_ctx_get_num_inflight_tasks(ctx, &n));
	return n;
}

static size_t pe_inflight(void)
{
	size_t n = SIZE_MAX;

	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	return n;
}

static void check_trans(int i, enum doca_ctx_states prev, enum doca_ctx_states next)
{
	CHECK(i < nb_trans);
	if (trans[i].prev != prev || trans[i].next != next) {
		fprintf(stderr, "transition %d is %d->%d, expected %d->%d\n", i, trans[i].prev, trans[i].next, prev,
			next);
		exit(T_EXIT_FAIL);
	}
}

static struct doca_task *alloc_task(int i, uint64_t ud)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data d = {.u64 = ud};

	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src_buf[i], dst_buf[i], d, &t));
	CHECK(t != NULL);
	CHECK(doca_dma_task_memcpy_get_src(t) == src_buf[i]);
	CHECK(doca_dma_task_memcpy_get_dst(t) == dst_buf[i]);
	return doca_dma_task_memcpy_as_task(t);
}

static void submit_range(int first, int n)
{
	for (int i = first; i < first + n; i++)
		CHECK_OK(doca_task_submit(alloc_task(i, (uint64_t)i)));
}

/* Progress until @n callbacks were recorded; fails after an unreasonable number of calls. */
static void progress_until(int n)
{
	for (int k = 0; nb_done < n; k++) {
		CHECK(k < 100000);
		doca_pe_progress(pe);
	}
}

/* ---- phases ---- */

static void test_config_rules(struct doca_dev *dev)
{
	struct doca_pe *pe2;
	struct doca_dma *dma2;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0xc0ffee};

	CHECK_OK(doca_dma_create(dev, &dma));
	ctx = doca_dma_as_ctx(dma);
	CHECK(ctx != NULL);
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_set_state_changed_cb(ctx, state_cb));
	CHECK_OK(doca_ctx_set_user_data(ctx, ud));
	ud.u64 = 0;
	CHECK_OK(doca_ctx_get_user_data(ctx, &ud));
	CHECK(ud.u64 == 0xc0ffee);
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, comp_cb, err_cb, NB_TASKS));

	/* No progress engine yet. */
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_NOT_CONNECTED);
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK(nb_trans == 0);

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_create(&pe2));
	CHECK_ERR(doca_pe_connect_ctx(NULL, ctx), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_connect_ctx(pe, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_ERR(doca_pe_connect_ctx(pe, ctx), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_pe_connect_ctx(pe2, ctx), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_pe_destroy(pe2));

	/* A context without a task configuration starts, as on hardware (more in
	 * test_start_without_task_conf), and stops again at once. */
	CHECK_OK(doca_dma_create(dev, &dma2));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma2)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma2)));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma2)));
	{
		enum doca_ctx_states s;

		CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(dma2), &s));
		CHECK(s == DOCA_CTX_STATE_IDLE);
	}
	CHECK_ERR(doca_pe_destroy(pe), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_dma_destroy(dma2));

	/* Tasks only while RUNNING. */
	ud.u64 = 1;
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, src_buf[0], dst_buf[0], ud, &t), DOCA_ERROR_BAD_STATE);

	/* Stopping an IDLE context is a no-op. */
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK(nb_trans == 0);
	CHECK(doca_pe_progress(pe) == 0);

	CHECK_ERR(doca_ctx_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_get_state(ctx, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_start_stop_idle(void)
{
	union doca_data ud = {.u64 = 5};

	reset_log();
	CHECK_OK(doca_ctx_start(ctx));
	/* The transition made inside start is reported inside start. */
	CHECK(nb_trans == 1);
	check_trans(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING);
	CHECK(state() == DOCA_CTX_STATE_RUNNING);

	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_set_user_data(ctx, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_set_state_changed_cb(ctx, state_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(dma, comp_cb, err_cb, 4), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_get_user_data(ctx, &ud));
	CHECK(ud.u64 == 0xc0ffee);
	CHECK_ERR(doca_dma_destroy(dma), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_pe_destroy(pe), DOCA_ERROR_IN_USE);
	CHECK(nb_trans == 1);

	/* Nothing to do: progress says so. */
	CHECK(doca_pe_progress(pe) == 0);
	CHECK(ctx_inflight() == 0);
	CHECK(pe_inflight() == 0);

	/* Stop with nothing in flight: IDLE on return, both transitions already reported. */
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK(nb_trans == 3);
	check_trans(1, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING);
	check_trans(2, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE);
	CHECK(doca_pe_progress(pe) == 0);
	CHECK(nb_trans == 3);
	CHECK(nb_done == 0);
}

static void test_one_task(void)
{
	struct doca_task *task;
	union doca_data ud;

	reset_log();
	CHECK_OK(doca_ctx_start(ctx)); /* restart after a stop */
	CHECK(nb_trans == 1);
	check_trans(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING);

	memset(dst_mem, 0, sizeof(dst_mem));
	task = alloc_task(0, 42);
	CHECK(doca_task_get_ctx(task) == ctx);
	CHECK(doca_task_get_user_data(task).u64 == 42);
	ud.u64 = 43;
	doca_task_set_user_data(task, ud);
	CHECK(doca_task_get_user_data(task).u64 == 43);
	/* Allocated, not submitted: not in flight. */
	CHECK(ctx_inflight() == 0);

	CHECK_OK(doca_task_submit(task));
	/* Never inside submit, even though the inline engine could copy right away. */
	CHECK(nb_done == 0);
	CHECK(ctx_inflight() == 1);
	CHECK(pe_inflight() == 1);
	/* A submitted task cannot be submitted again (doca_pe.h names no code for it). */
	CHECK(doca_task_submit(task) != DOCA_SUCCESS);
	CHECK(ctx_inflight() == 1);

	CHECK(doca_pe_progress(pe) == 1);
	CHECK(nb_done == 1);
	CHECK(done_ok[0]);
	CHECK(done_ud[0] == 43);
	CHECK(done_status[0] == DOCA_SUCCESS);
	CHECK(act.ctx_ud_ok);
	CHECK(ctx_inflight() == 0);
	CHECK(pe_inflight() == 0);
	CHECK_MEM(dst_mem, src_mem, SEG);
	{
		size_t len = 0;

		CHECK_OK(doca_buf_get_data_len(dst_buf[0], &len));
		CHECK(len == SEG);
	}
	CHECK(doca_pe_progress(pe) == 0);
	CHECK(nb_done == 1);
	CHECK(state() == DOCA_CTX_STATE_RUNNING);
}

static void test_order(void)
{
	struct doca_task *all[NB_TASKS], *extra = NULL;
	int calls = 0;

	reset_log();
	memset(dst_mem, 0, sizeof(dst_mem));
	submit_range(0, 100);
	CHECK(nb_done == 0);
	CHECK(ctx_inflight() == 100);
	CHECK(pe_inflight() == 100);
	while (nb_done < 100) {
		CHECK(calls++ < 1000);
		CHECK(doca_pe_progress(pe) == 1);
	}
	CHECK(nb_done == 100);
	for (int i = 0; i < 100; i++) {
		CHECK(done_ud[i] == (uint64_t)i);
		CHECK(done_ok[i]);
		CHECK(done_status[i] == DOCA_SUCCESS);
	}
	CHECK_MEM(dst_mem, src_mem, 100 * SEG);
	CHECK(ctx_inflight() == 0);
	CHECK(doca_pe_progress(pe) == 0);

	/* The pool holds exactly NB_TASKS; freeing an unsubmitted task returns it. */
	for (int i = 0; i < NB_TASKS; i++)
		all[i] = alloc_task(i, (uint64_t)i);
	{
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = 0};

		CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, src_buf[0], dst_buf[0], ud, &t), DOCA_ERROR_NO_MEMORY);
		doca_task_free(all[7]);
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src_buf[0], dst_buf[0], ud, &t));
		extra = doca_dma_task_memcpy_as_task(t);
	}
	for (int i = 0; i < NB_TASKS; i++)
		if (i != 7)
			doca_task_free(all[i]);
	doca_task_free(extra);
	CHECK(ctx_inflight() == 0);
	CHECK(doca_pe_progress(pe) == 0);
	CHECK(nb_done == 100);
}

static void test_nested_progress(void)
{
	reset_log();
	act.nested = true;
	submit_range(0, 3);
	CHECK(doca_pe_progress(pe) == 1);
	CHECK(nb_done == 3);
	/* The nested call returned 0 and ran nothing. */
	CHECK(act.nested_ret == 0);
	CHECK(act.nested_done_before == 1);
	CHECK(act.nested_done_after == 1);
	for (int i = 0; i < 3; i++)
		CHECK(done_ud[i] == (uint64_t)i && done_ok[i]);
	CHECK(doca_pe_progress(pe) == 0);
}

static void test_stop_with_tasks(void)
{
	struct doca_task *kept;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};

	reset_log();
	kept = alloc_task(10, 1000); /* allocated, never submitted */
	submit_range(0, 5);
	CHECK(ctx_inflight() == 5);

	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(state() == DOCA_CTX_STATE_STOPPING);
	CHECK(nb_trans == 1);
	check_trans(0, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING);
	/* Flushed tasks are delivered from progress, not from stop. */
	CHECK(nb_done == 0);
	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(nb_trans == 1);
	/* No new work while stopping. */
	CHECK_ERR(doca_task_submit(kept), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, src_buf[0], dst_buf[0], ud, &t), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_dma_destroy(dma), DOCA_ERROR_IN_USE);

	CHECK(doca_pe_progress(pe) == 1);
	CHECK(nb_done == 5);
	for (int i = 0; i < 5; i++) {
		CHECK(!done_ok[i]);
		CHECK(done_ud[i] == (uint64_t)i);
		CHECK(done_status[i] == DOCA_ERROR_IO_FAILED);
	}
	CHECK(ctx_inflight() == 0);
	CHECK(pe_inflight() == 0);

	/* One task is still allocated: the context may not reach IDLE. */
	for (int i = 0; i < 5; i++)
		CHECK(doca_pe_progress(pe) == 0);
	CHECK(state() == DOCA_CTX_STATE_STOPPING);
	CHECK(nb_trans == 1);
	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);

	doca_task_free(kept);
	for (int i = 0; i < 10 && state() != DOCA_CTX_STATE_IDLE; i++)
		doca_pe_progress(pe);
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK(nb_trans == 2);
	check_trans(1, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE);
	CHECK(doca_pe_progress(pe) == 0);
	CHECK(nb_done == 5);

	/* Restart: the context works again after a flush. */
	reset_log();
	CHECK_OK(doca_ctx_start(ctx));
	check_trans(0, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING);
	memset(dst_mem, 0, sizeof(dst_mem));
	submit_range(0, 8);
	progress_until(8);
	for (int i = 0; i < 8; i++)
		CHECK(done_ok[i] && done_status[i] == DOCA_SUCCESS && done_ud[i] == (uint64_t)i);
	CHECK_MEM(dst_mem, src_mem, 8 * SEG);
	/* The pool was fully returned by the flush: every task can be allocated again. */
	{
		struct doca_task *all[NB_TASKS];

		for (int i = 0; i < NB_TASKS; i++)
			all[i] = alloc_task(i, 0);
		for (int i = 0; i < NB_TASKS; i++)
			doca_task_free(all[i]);
	}
}

static void test_stop_in_callback(void)
{
	reset_log();
	CHECK(state() == DOCA_CTX_STATE_RUNNING);
	act.stop_at = 3;
	submit_range(0, 3);
	CHECK(doca_pe_progress(pe) == 1);
	CHECK(nb_done == 3);
	for (int i = 0; i < 3; i++)
		CHECK(done_ok[i] && done_ud[i] == (uint64_t)i);
	/* The last task was freed before stop: nothing is left, so stop finishes synchronously. */
	CHECK_OK(act.stop_ret);
	CHECK(act.after == DOCA_CTX_STATE_IDLE);
	CHECK(act.trans_after == 2);
	check_trans(0, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING);
	check_trans(1, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE);
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK(doca_pe_progress(pe) == 0);
	CHECK(nb_trans == 2);
}

/* pe_async_stop: stop from a callback while later tasks are still queued. */
static void test_stop_in_callback_with_queue(void)
{
	reset_log();
	CHECK_OK(doca_ctx_start(ctx));
	act.stop_at = 2;
	submit_range(0, 5);
	progress_until(5);
	CHECK_ERR(act.stop_ret, DOCA_ERROR_IN_PROGRESS);
	CHECK(act.after == DOCA_CTX_STATE_STOPPING);
	CHECK(act.trans_after == 2);
	check_trans(1, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING);
	for (int i = 0; i < 5; i++)
		CHECK(done_ud[i] == (uint64_t)i);
	CHECK(done_ok[0] && done_ok[1]);
	for (int i = 2; i < 5; i++)
		CHECK(!done_ok[i] && done_status[i] == DOCA_ERROR_IO_FAILED);
	for (int i = 0; i < 10 && state() != DOCA_CTX_STATE_IDLE; i++)
		doca_pe_progress(pe);
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK(nb_trans == 3);
	check_trans(2, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE);
	CHECK(nb_done == 5);
}

static void test_failed_task(void)
{
	struct doca_task *task;

	reset_log();
	CHECK_OK(doca_ctx_start(ctx));
	/* An empty source is invalid: try_submit says so and keeps the context running. */
	CHECK_OK(doca_buf_reset_data_len(src_buf[20]));
	task = alloc_task(20, 77);
	CHECK_ERR(doca_task_try_submit(task), DOCA_ERROR_INVALID_VALUE);
	CHECK(state() == DOCA_CTX_STATE_RUNNING);
	CHECK(ctx_inflight() == 0);
	CHECK(nb_done == 0);

	/* Plain submit reports it through the error callback, and the context stops itself,
	 * flushing the task submitted after it. */
	submit_range(0, 2);
	CHECK_OK(doca_task_submit(task));
	submit_range(2, 2);
	CHECK(nb_done == 0);
	progress_until(5);
	CHECK(done_ok[0] && done_ok[1]);
	CHECK(!done_ok[2] && done_ud[2] == 77 && done_status[2] == DOCA_ERROR_INVALID_VALUE);
	CHECK(!done_ok[3] && done_status[3] == DOCA_ERROR_IO_FAILED);
	CHECK(!done_ok[4] && done_status[4] == DOCA_ERROR_IO_FAILED);
	for (int i = 0; i < 10 && state() != DOCA_CTX_STATE_IDLE; i++)
		doca_pe_progress(pe);
	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK(nb_trans == 3);
	check_trans(1, DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_STOPPING);
	check_trans(2, DOCA_CTX_STATE_STOPPING, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_buf_set_data(src_buf[20], src_mem + 20 * SEG, SEG));
}

/*
 * A DMA context with no task type configured starts, as on hardware (DOCA does not forbid it);
 * allocating a memcpy task is then refused with NOT_PERMITTED, and it stops to IDLE at once.
 */
static void test_start_without_task_conf(struct doca_dev *dev)
{
	struct doca_pe *p;
	struct doca_dma *d;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = {.u64 = 0};
	enum doca_ctx_states st;

	CHECK_OK(doca_pe_create(&p));
	CHECK_OK(doca_dma_create(dev, &d));
	CHECK_OK(doca_pe_connect_ctx(p, doca_dma_as_ctx(d)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(d)));
	CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(d), &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(d, src_buf[0], dst_buf[0], ud, &t), DOCA_ERROR_NOT_PERMITTED);
	CHECK(doca_pe_progress(p) == 0);
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(d)));
	CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(d), &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_dma_destroy(d));
	CHECK_OK(doca_pe_destroy(p));
}

int main(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *src_map, *dst_map;
	struct doca_dev *dev;

	/* The engine is chosen once per process: make it the deterministic one. */
	sd_setenv("SOFTDOCA_ENGINE", "inline");
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);

	dev = sd_open_dev("03:00.0");
	for (size_t i = 0; i < sizeof(src_mem); i++)
		src_mem[i] = (uint8_t)(i * 7 + 1);
	src_map = sd_mmap_local(dev, src_mem, sizeof(src_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	dst_map = sd_mmap_local(dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(2 * NB_BUFS);
	for (int i = 0; i < NB_BUFS; i++) {
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_map, src_mem + i * SEG, SEG, &src_buf[i]));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dst_map, dst_mem + i * SEG, SEG, &dst_buf[i]));
	}

	reset_log();
	test_config_rules(dev);
	test_start_without_task_conf(dev);
	test_start_stop_idle();
	test_one_task();
	test_order();
	test_nested_progress();
	test_stop_with_tasks();
	test_stop_in_callback();
	test_stop_in_callback_with_queue();
	test_failed_task();

	CHECK(state() == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_pe_destroy(pe));
	for (int i = 0; i < NB_BUFS; i++) {
		CHECK_OK(doca_buf_dec_refcount(src_buf[i], NULL));
		CHECK_OK(doca_buf_dec_refcount(dst_buf[i], NULL));
	}
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(src_map));
	CHECK_OK(doca_mmap_destroy(dst_map));
	CHECK_OK(doca_dev_close(dev));
	printf("test_ctx_pe: ok\n");
	return T_EXIT_PASS;
}
