/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctx.c - the context state machine, task pools and completion delivery.
 *
 *   IDLE --doca_ctx_start--> RUNNING --doca_ctx_stop / a failed task--> STOPPING
 *     ^                                                                    |
 *     +---- progress: no task in flight and every task freed --------------+
 *
 * An asynchronous context (comch client) returns IN_PROGRESS from ops->start:
 *
 *   IDLE --doca_ctx_start: IN_PROGRESS--> STARTING --priv_doca_ctx_start_done(SUCCESS)--> RUNNING
 *                                            |  \--start_done(error), priv_doca_ctx_fail()--> IDLE
 *                                            +--doca_ctx_stop--> STOPPING
 *
 * Its module's events hook, run by doca_pe_progress(), finishes the start.
 *
 * Submitted tasks sit in a per-context FIFO in submission order. The module's data path marks a
 * task done (priv_doca_task_complete); doca_pe_progress() delivers from the FIFO head while it is
 * done, so callbacks always run in submission order, on the PE thread, never inside submit.
 * A module whose tasks finish in any order (sync event waits) declares policy.unordered: progress then
 * delivers every finished task, still on the PE thread.
 *
 * Flush: when the context leaves RUNNING, every task not yet delivered is marked flushed; it is
 * delivered (after its data path, if it took it, has finished it) through the error callback with
 * CTX_FLUSH_STATUS. The task whose failure stopped the context keeps its own status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_pe.h>

#include "core.h"

#define COMP "ctx"
/* Status of flushed tasks. DOCA does not document it; hardware reports a flushed work request
 * as an I/O failure, so softdoca uses DOCA_ERROR_IO_FAILED. */
#define CTX_FLUSH_STATUS DOCA_ERROR_IO_FAILED
/* Most callbacks one context runs per doca_pe_progress() call. */
#define CTX_PROGRESS_BUDGET 256

/* ---- the core's defaults for the optional ctx_ops ---- */

static void ctx_nop(struct doca_ctx *ctx)
{
	(void)ctx;
}

static void ctx_nop_finish(struct doca_task *task)
{
	(void)task;
}

static unsigned int ctx_no_events(struct doca_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static bool ctx_no_events_pending(const struct doca_ctx *ctx)
{
	(void)ctx;
	return false;
}

static doca_error_t ctx_no_gpu_datapath(struct doca_ctx *ctx, struct doca_gpu *gpu)
{
	(void)gpu;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "doca_ctx_set_datapath_on_gpu: %s: a %s context has no GPU data path; connect it "
			 "to a progress engine instead",
			 priv_doca_ctx_name(ctx), ctx->ops->name);
}

SD_PRIV void priv_doca_ctx_init(struct doca_ctx *ctx, const struct ctx_ops *ops, struct doca_dev *dev)
{
	struct ctx_ops *o = &ctx->ops_filled;

	memset(ctx, 0, sizeof(*ctx));
	*o = *ops;
	ctx->has_events = o->events != NULL;
	if (o->stopped == NULL)
		o->stopped = ctx_nop;
	if (o->finish == NULL)
		o->finish = ctx_nop_finish;
	if (o->events == NULL)
		o->events = ctx_no_events;
	if (o->stopping == NULL)
		o->stopping = ctx_nop;
	if (o->set_datapath_on_gpu == NULL)
		o->set_datapath_on_gpu = ctx_no_gpu_datapath;
	if (o->events_pending == NULL)
		o->events_pending = ctx_no_events_pending;
	ctx->ops = o;
	ctx->dev = dev;
	ctx->state = DOCA_CTX_STATE_IDLE;
	ctx_progress_path(ctx);
}

/* false: the state callback destroyed @ctx (touch nothing of it). */
static bool set_state(struct doca_ctx *ctx, enum doca_ctx_states next)
{
	enum doca_ctx_states prev = ctx->state;
	struct ctx_guard g;

	ctx->state = next;
	priv_doca_log_flush_repeats(); /* held-back repeated lines: summarised, news again */
	SD_DBG(COMP, "%s: %s -> %s", priv_doca_ctx_name(ctx), priv_doca_ctx_state_name(prev),
	       priv_doca_ctx_state_name(next));
	if (ctx->state_cb == NULL)
		return true;
	ctx_guard_enter(ctx, &g);
	ctx->state_cb(ctx->user_data, ctx, prev, next);
	return ctx_guard_leave(ctx, &g);
}

/* "dma data path (engine cpu)" style name of the context's data path, for log lines. */
static const char *ctx_dp_describe(const struct doca_ctx *ctx)
{
	static _Thread_local char desc[48];

	if (ctx->exec != NULL) {
		snprintf(desc, sizeof(desc), "engine %s", ctx->exec->name);
		return desc;
	}
	if (ctx->dp->describe != NULL && ctx->queue != NULL)
		return ctx->dp->describe(ctx->queue);
	return ctx->dp->name;
}

static void pool_release(struct doca_ctx *ctx)
{
	if (ctx->queue != NULL) {
		ctx->dp->queue_destroy(ctx->queue);
		ctx->queue = NULL;
	}
	if (ctx->eq != NULL) {
		ctx->exec->queue_destroy(ctx->eq);
		ctx->eq = NULL;
	}
	ctx->exec = NULL; /* ctx_dp_*() go by it */
	free(ctx->pool);
	ctx->pool = NULL;
	ctx->free_tasks = NULL;
	ctx->pool_size = 0;
	if (ctx->ext != NULL)
		ctx->ext->ops->release(ctx);
}

static void log_stats(struct doca_ctx *ctx)
{
	SD_DBG(COMP, "%s stopped: tasks=%llu bytes=%llu errors=%llu again=%llu inflight_hwm=%zu data path=%s",
	       priv_doca_ctx_name(ctx), (unsigned long long)ctx->st_tasks, (unsigned long long)ctx->st_bytes,
	       (unsigned long long)ctx->st_errors, (unsigned long long)ctx->st_again, ctx->st_inflight_hwm,
	       ctx->dp != NULL || ctx->exec != NULL ? ctx_dp_describe(ctx) : "-");
}

/* The last thing done to @ctx: its IDLE callback may destroy it. false when it did. */
static bool to_idle(struct doca_ctx *ctx)
{
	log_stats(ctx);
	pool_release(ctx);
	ctx->ops->stopped(ctx);
	return set_state(ctx, DOCA_CTX_STATE_IDLE);
}

SD_PRIV doca_error_t priv_doca_ctx_fini(struct doca_ctx *ctx)
{
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "%s is %s; stop it with doca_ctx_stop() and progress until it is IDLE before "
				 "destroying it",
				 priv_doca_ctx_name(ctx), priv_doca_ctx_state_name(ctx->state));
	if (ctx->pe != NULL) {
		struct doca_ctx **pp = &ctx->pe->ctxs;

		while (*pp != NULL && *pp != ctx)
			pp = &(*pp)->pe_next;
		if (*pp == ctx)
			*pp = ctx->pe_next;
		/* Destroyed from a callback of its PE's progress: the loop goes on past it. */
		if (ctx->pe->iter_next == ctx)
			ctx->pe->iter_next = ctx->pe_next;
		ctx->pe->nb_ctxs--;
		ctx->pe = NULL;
	}
	/* Destroyed from one of its callbacks: every call on the stack learns it (struct ctx_guard). */
	for (struct ctx_guard *g = ctx->guards; g != NULL; g = g->up)
		g->gone = true;
	ctx->guards = NULL;
	pool_release(ctx);
	return DOCA_SUCCESS;
}

/* The pool, and the data path's queue: @dp's, or (@dp NULL) the selected executor's. */
static doca_error_t pool_init(struct doca_ctx *ctx, size_t task_size, uint32_t n, uint32_t depth,
			      const struct ctx_dp_ops *dp)
{
	struct ctx_dp_attr attr;
	doca_error_t ret;
	uint64_t said;
	char owner[64];

	trace_init(); /* before the data path exists, so its threads see tracing on */
	{
		/* A SOFTDOCA_* value that cannot be used is refused, never ignored. */
		const char *bad = fault_config_error();

		if (bad == NULL)
			bad = trace_config_error();
		if (bad == NULL)
			bad = engine_env_error();
		if (bad != NULL)
			return SD_REJECT(DOCA_ERROR_BAD_CONFIG, COMP,
					 "doca_ctx_start: %s: %s; fix the value or unset the variable",
					 priv_doca_ctx_name(ctx), bad);
	}

	/* Keep every task on its own cache lines: engine threads write its completion word. */
	task_size = (task_size + SD_CACHELINE - 1) & ~(size_t)(SD_CACHELINE - 1);
	if (ctx->datapath_external)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s: its data path is on the GPU, where its work is posted; it has no "
				 "CPU tasks",
				 priv_doca_ctx_name(ctx));
	ctx->pool = sd_calloc_lines(n, task_size);
	if (ctx->pool == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: cannot allocate %u tasks of %zu bytes",
				 priv_doca_ctx_name(ctx), n, task_size);
	ctx->task_size = task_size;
	ctx->pool_size = n;
	ctx->free_tasks = NULL;
	for (uint32_t i = n; i-- > 0;) {
		struct doca_task *t = (struct doca_task *)(ctx->pool + (size_t)i * task_size);

		t->ctx = ctx;
		t->state = TASK_FREE;
		t->on_done = ctx->ops->deliver;
		t->comp.notify = ctx->pe ? &ctx->pe->notify : NULL;
		t->next = ctx->free_tasks;
		ctx->free_tasks = t;
	}
	ctx->nb_allocated = 0;
	ctx->fifo_head = ctx->fifo_tail = NULL;
	ctx->inflight = 0;

	snprintf(owner, sizeof(owner), "%s %p", ctx->ops->name, (void *)ctx);
	attr = (struct ctx_dp_attr){
	    .ctx = ctx,
	    .depth = depth,
	    .notify = ctx->pe ? &ctx->pe->notify : NULL,
	    .owner = owner,
	};
	said = priv_doca_errors_said();
	ctx->dp = NULL;
	ctx->exec = NULL;
	if (dp != NULL)
		ret = dp->queue_create(&attr, &ctx->queue);
	else
		ret = priv_doca_dp_executor_create(&attr, &ctx->exec, &ctx->eq);
	if (ret != DOCA_SUCCESS) {
		ctx->queue = NULL;
		ctx->eq = NULL;
		ctx->exec = NULL;
		pool_release(ctx);
		if (priv_doca_errors_said() != said)
			return ret; /* the data path said why, in one line */
		return SD_REJECT(ret, COMP, "%s: the %s data path could not create its queue (%s)",
				 priv_doca_ctx_name(ctx), dp != NULL ? dp->name : ctx->ops->name,
				 doca_error_get_name(ret));
	}
	ctx->dp = dp;
	ctx->fault = fault_enabled();
	ctx->traced = priv_doca_trace_on;
	ctx->instrumented = ctx->fault || ctx->traced;
	ctx_progress_path(ctx);
	ctx->st_tasks = ctx->st_bytes = ctx->st_errors = ctx->st_again = ctx->st_late_free = 0;
	ctx->st_inflight_hwm = 0;
	SD_DBG(COMP, "%s: %u tasks, data path %s, queue depth %u", priv_doca_ctx_name(ctx), n, ctx_dp_describe(ctx),
	       depth);
	return DOCA_SUCCESS;
}

SD_PRIV doca_error_t priv_doca_ctx_pool_init(struct doca_ctx *ctx, size_t task_size, uint32_t n, uint32_t depth,
					     const struct ctx_dp_ops *dp)
{
	return pool_init(ctx, task_size, n, depth, dp);
}

SD_PRIV doca_error_t priv_doca_ctx_pool_init_executor(struct doca_ctx *ctx, size_t task_size, uint32_t n,
						      uint32_t depth)
{
	if (task_size < sizeof(struct ctx_exec_task))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: a %zu-byte task cannot begin with a struct ctx_exec_task (%zu bytes)",
				 priv_doca_ctx_name(ctx), task_size, sizeof(struct ctx_exec_task));
	return pool_init(ctx, task_size, n, depth, NULL);
}

DOCA_STABLE doca_error_t doca_ctx_start(struct doca_ctx *ctx)
{
	doca_error_t ret;

	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_start: NULL context");
	ret = ctx_check_idle(ctx, "a context starts only from IDLE (stop it first)");
	if (ret != DOCA_SUCCESS)
		return ret;
	if (ctx->pe == NULL && !ctx->datapath_external)
		return SD_REJECT(
		    DOCA_ERROR_NOT_CONNECTED, COMP,
		    "doca_ctx_start: %s is not connected to a progress engine; call "
		    "doca_pe_connect_ctx(pe, ctx) before doca_ctx_start()%s",
		    priv_doca_ctx_name(ctx),
		    ctx->ops->set_datapath_on_gpu != ctx_no_gpu_datapath ? " (or doca_ctx_set_datapath_on_gpu())" : "");
	ret = ctx->ops->start(ctx);
	if (ret == DOCA_ERROR_IN_PROGRESS) {
		(void)set_state(ctx, DOCA_CTX_STATE_STARTING); /* the last touch: its callback may stop it */
		return DOCA_ERROR_IN_PROGRESS;
	}
	if (ret != DOCA_SUCCESS)
		return ret;
	(void)set_state(ctx, DOCA_CTX_STATE_RUNNING); /* the last touch: its callback may stop and destroy it */
	return DOCA_SUCCESS;
}

/*
 * RUNNING or STARTING -> STOPPING: everything not yet delivered will be flushed. false when the
 * context is gone (a STOPPING context cannot be destroyed, but its callback may have started
 * something that did: checked, not assumed).
 */
static bool begin_stop(struct doca_ctx *ctx)
{
	if (!set_state(ctx, DOCA_CTX_STATE_STOPPING))
		return false;
	if (ctx->state != DOCA_CTX_STATE_STOPPING)
		return true; /* stopped and started again from the callback: nothing left to cancel */
	ctx_dp_cancel(ctx, CTX_FLUSH_STATUS);
	ctx->ops->stopping(ctx);
	return true;
}

DOCA_STABLE doca_error_t doca_ctx_stop(struct doca_ctx *ctx)
{
	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_stop: NULL context");
	switch (ctx->state) {
	case DOCA_CTX_STATE_IDLE:
		/* Stopping a stopped context is harmless: samples do it in every cleanup path. */
		return DOCA_SUCCESS;
	case DOCA_CTX_STATE_STOPPING:
		return DOCA_ERROR_IN_PROGRESS;
	case DOCA_CTX_STATE_STARTING:
	case DOCA_CTX_STATE_RUNNING:
		break;
	}
	if (!begin_stop(ctx))
		return DOCA_SUCCESS;
	if (ctx->state == DOCA_CTX_STATE_STOPPING && ctx_can_finish_stop(ctx)) {
		(void)to_idle(ctx); /* the last touch: its IDLE callback may destroy it */
		return DOCA_SUCCESS;
	}
	/* Flushed tasks are deliverable now. */
	priv_doca_pe_kick(ctx->pe);
	return DOCA_ERROR_IN_PROGRESS;
}

SD_PRIV bool priv_doca_ctx_start_done(struct doca_ctx *ctx, doca_error_t status)
{
	if (ctx->state != DOCA_CTX_STATE_STARTING)
		return true;
	if (status == DOCA_SUCCESS)
		return set_state(ctx, DOCA_CTX_STATE_RUNNING);
	SD_DBG(COMP, "%s: start failed with %s", priv_doca_ctx_name(ctx), doca_error_get_name(status));
	ctx->ops->stopping(ctx);
	return to_idle(ctx);
}

SD_PRIV bool priv_doca_ctx_fail(struct doca_ctx *ctx)
{
	switch (ctx->state) {
	case DOCA_CTX_STATE_STARTING:
		return priv_doca_ctx_start_done(ctx, DOCA_ERROR_NOT_CONNECTED);
	case DOCA_CTX_STATE_RUNNING:
		ctx->stop_requested_by_error = true;
		return begin_stop(ctx);
	case DOCA_CTX_STATE_IDLE:
	case DOCA_CTX_STATE_STOPPING:
		break;
	}
	return true;
}

DOCA_STABLE doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state)
{
	if (ctx == NULL || state == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_get_state: NULL argument");
	*state = ctx->state;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb)
{
	doca_error_t ret;

	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_set_state_changed_cb: NULL context");
	ret = ctx_check_idle(ctx, "set callbacks while IDLE");
	if (ret != DOCA_SUCCESS)
		return ret;
	ctx->state_cb = cb;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data)
{
	doca_error_t ret;

	if (ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_set_user_data: NULL context");
	ret = ctx_check_idle(ctx, "set user data while IDLE");
	if (ret != DOCA_SUCCESS)
		return ret;
	ctx->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data)
{
	if (ctx == NULL || user_data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_get_user_data: NULL argument");
	*user_data = ctx->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks)
{
	if (ctx == NULL || num_inflight_tasks == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_get_num_inflight_tasks: NULL argument");
	*num_inflight_tasks = ctx->inflight;
	return DOCA_SUCCESS;
}

SD_PRIV doca_error_t priv_doca_ctx_check_idle(const struct doca_ctx *ctx, const char *call, const char *fix)
{
	if (ctx->state == DOCA_CTX_STATE_IDLE)
		return DOCA_SUCCESS;
	return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: %s is %s; %s", call, priv_doca_ctx_name(ctx),
			 priv_doca_ctx_state_name(ctx->state),
			 fix != NULL ? fix
				     : "configure it before doca_ctx_start(), or stop it (doca_ctx_stop) and "
				       "progress until it is IDLE");
}

SD_PRIV doca_error_t priv_doca_ctx_set_datapath_external(struct doca_ctx *ctx, const char *call)
{
	doca_error_t ret = priv_doca_ctx_check_idle(ctx, call, "choose where its data path runs while IDLE");

	if (ret != DOCA_SUCCESS)
		return ret;
	if (ctx->pe != NULL && !ctx->ops->policy.pe_with_gpu)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s is connected to progress engine %p; a context's data path is either on a "
				 "progress engine or on the GPU: create a new context for the other",
				 call, priv_doca_ctx_name(ctx), (void *)ctx->pe);
	ctx->datapath_external = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev)
{
	doca_error_t ret;

	if (ctx == NULL || gpu_dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_set_datapath_on_gpu: NULL %s",
				 ctx == NULL ? "context" : "GPU device");
	if (ctx->ops->set_datapath_on_gpu == ctx_no_gpu_datapath)
		return ctx_no_gpu_datapath(ctx, gpu_dev);
	if (ctx->state != DOCA_CTX_STATE_IDLE || (ctx->pe != NULL && !ctx->ops->policy.pe_with_gpu))
		return priv_doca_ctx_set_datapath_external(ctx, "doca_ctx_set_datapath_on_gpu");
	ret = ctx->ops->set_datapath_on_gpu(ctx, gpu_dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	return priv_doca_ctx_set_datapath_external(ctx, "doca_ctx_set_datapath_on_gpu");
}

DOCA_EXPERIMENTAL void doca_ctx_flush_tasks(struct doca_ctx *ctx)
{
	/* Every submit reaches the engine immediately; nothing is held back. */
	(void)ctx;
}

/* ---- tasks ---- */

SD_PRIV doca_error_t priv_doca_task_alloc_traced(struct doca_ctx *ctx, struct doca_task *task)
{
	priv_doca_trace(TR_ALLOC, ctx, (uint64_t)(uintptr_t)task, 0, 0);
	return DOCA_SUCCESS;
}

SD_PRIV doca_error_t priv_doca_task_alloc_fail(struct doca_ctx *ctx)
{
	if (ctx->datapath_external)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "task allocation on %s refused: its data path is on the GPU "
				 "(doca_ctx_set_datapath_on_gpu), where its work is posted; CPU tasks need a context "
				 "connected to a progress engine",
				 priv_doca_ctx_name(ctx));
	if (ctx->state != DOCA_CTX_STATE_RUNNING)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "task allocation on %s refused: context is %s; allocate tasks after doca_ctx_start()",
				 priv_doca_ctx_name(ctx), priv_doca_ctx_state_name(ctx->state));
	return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP,
			 "%s: all %u tasks are allocated; free tasks with doca_task_free() (e.g. in their "
			 "callbacks) or configure a larger pool before doca_ctx_start()",
			 priv_doca_ctx_name(ctx), ctx->pool_size);
}

/* doca_task_free() of a task that is not ALLOCATED: in flight, or freed already. */
static __attribute__((noinline, cold)) void task_free_unallocated(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;

	if (task->state == TASK_SUBMITTED) {
		/*
		 * Applications free the tasks they left posted once they are done (secure_channel's
		 * consumer does, right before doca_ctx_stop()). The engine still owns the task: it is
		 * released once its completion or flush callback returns, so the stop can finish.
		 */
		task->free_after = true;
		if (ctx->st_late_free++ == 0)
			SD_WARN(COMP,
				"doca_task_free: task %p of %s is in flight; it is freed after its completion callback "
				"returns (free a task in its callback or before submitting it; logged once per start)",
				(void *)task, priv_doca_ctx_name(ctx));
		return;
	}
	SD_ERR(COMP, "doca_task_free: task %p of %s is already free; free a task once", (void *)task,
	       priv_doca_ctx_name(ctx));
}

/* After a free: SOFTDOCA_TRACE's record, and a stopping context's last free lets it reach IDLE. */
static __attribute__((noinline)) void task_freed_hooks(struct doca_ctx *ctx, struct doca_task *task)
{
	if (ctx->traced)
		priv_doca_trace(TR_FREE, ctx, (uint64_t)(uintptr_t)task, 0, 0);
	if (ctx->state == DOCA_CTX_STATE_STOPPING)
		priv_doca_pe_kick(ctx->pe);
}

DOCA_STABLE void doca_task_free(struct doca_task *task)
{
	struct doca_ctx *ctx;

	if (task == NULL)
		return;
	if (SD_UNLIKELY(task->state != TASK_ALLOCATED)) {
		task_free_unallocated(task);
		return;
	}
	ctx = task->ctx;
	task->state = TASK_FREE;
	task->next = ctx->free_tasks;
	ctx->free_tasks = task;
	ctx->nb_allocated--;
	if (SD_UNLIKELY(ctx->traced || ctx->state == DOCA_CTX_STATE_STOPPING))
		task_freed_hooks(ctx, task);
}

static atomic_uint_least64_t trace_seq;

/* SOFTDOCA_FAULT latency and SOFTDOCA_TRACE at submit: off the common path. */
static __attribute__((noinline)) void instrument_submit(struct doca_ctx *ctx, struct doca_task *task)
{
	task->fault_due_ns = ctx->fault ? fault_delay_ns() : 0;
	if (ctx->traced) {
		if (!task->in_engine) /* refused at submit: never numbered by trace_number() */
			task->comp.trace_id = atomic_fetch_add_explicit(&trace_seq, 1, memory_order_relaxed) + 1;
		priv_doca_trace(TR_SUBMIT, ctx, task->comp.trace_id, task->bytes, ctx->inflight);
	}
}

/* SOFTDOCA_TRACE: numbers the submission before the data path sees it (engine threads read it). */
static __attribute__((noinline)) void trace_number(struct doca_task *task)
{
	task->comp.trace_id = atomic_fetch_add_explicit(&trace_seq, 1, memory_order_relaxed) + 1;
}

/* The data path did not take a task: AGAIN (logged once per start) or DRIVER. Out of line, so
 * that the common submission keeps few registers. */
static __attribute__((noinline, cold)) doca_error_t submit_refused(struct doca_ctx *ctx, int rc, const char *call)
{
	if (rc == -EAGAIN || rc == -ENOBUFS) {
		/* No buffer posted by the consumer yet is the normal wait of a producer. */
		if (ctx->st_again++ == 0)
			priv_doca_log(rc == -ENOBUFS ? DOCA_LOG_LEVEL_DEBUG : DOCA_LOG_LEVEL_WARNING, COMP,
				      "%s: %s (%zu tasks in flight); %s returns DOCA_ERROR_AGAIN: call "
				      "doca_pe_progress() and resubmit (logged once per start)",
				      priv_doca_ctx_name(ctx),
				      rc == -ENOBUFS ? "the receiving side has no buffer posted yet"
						     : "data path queue full",
				      ctx->inflight, call);
		return DOCA_ERROR_AGAIN;
	}
	return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: %s refused the task (%s)", priv_doca_ctx_name(ctx),
			 ctx_dp_describe(ctx), strerror(-rc));
}

static inline __attribute__((always_inline)) void fifo_push(struct doca_ctx *ctx, struct doca_task *task, bool instr)
{
	task->next = NULL;
	if (ctx->fifo_tail != NULL)
		ctx->fifo_tail->next = task;
	else
		ctx->fifo_head = task;
	ctx->fifo_tail = task;
	task->state = TASK_SUBMITTED;
	if (++ctx->inflight > ctx->st_inflight_hwm)
		ctx->st_inflight_hwm = ctx->inflight;
	if (instr)
		instrument_submit(ctx, task);
}

/*
 * A validated task of a RUNNING context into the data path. @instr: SOFTDOCA_FAULT or
 * SOFTDOCA_TRACE is on for the context (ctx->instrumented), a constant in each copy of this body,
 * so that the common copy checks neither.
 */
static inline __attribute__((always_inline)) doca_error_t submit_body(struct doca_ctx *ctx, struct doca_task *task,
								      bool strict, bool instr)
{
	const char *call = strict ? "doca_task_try_submit" : "doca_task_submit";
	doca_error_t ret;
	int rc;

	if (instr && ctx->fault && fault_submit_again()) {
		ctx->st_again++;
		return DOCA_ERROR_AGAIN;
	}
	ret = ctx->ops->prepare(task);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS)) {
		if (strict || ret == DOCA_ERROR_BAD_STATE)
			return ret;
		/* doca_task_submit does not validate: the failure arrives as a completion. */
		task->status = ret;
		task->in_engine = false;
		atomic_store_explicit(&task->comp.done, 1, memory_order_relaxed);
		fifo_push(ctx, task, instr);
		priv_doca_pe_kick(ctx->pe);
		return DOCA_SUCCESS;
	}
	task->status = DOCA_SUCCESS;
	task->in_engine = true;
	atomic_store_explicit(&task->comp.done, 0, memory_order_relaxed);
	if (instr && ctx->traced)
		trace_number(task);
	rc = ctx_dp_submit(ctx, task);
	if (SD_UNLIKELY(rc != 0)) {
		task->in_engine = false;
		return submit_refused(ctx, rc, call);
	}
	fifo_push(ctx, task, instr);
	/* An engine that copies inside progress writes no handle: wake an armed application. */
	if (SD_UNLIKELY(atomic_load_explicit(&ctx->pe->notify.armed, memory_order_relaxed)))
		priv_doca_pe_kick(ctx->pe);
	return DOCA_SUCCESS;
}

/* Submission with SOFTDOCA_FAULT and/or SOFTDOCA_TRACE on: off the common path. */
static __attribute__((noinline)) doca_error_t submit_instrumented(struct doca_ctx *ctx, struct doca_task *task,
								  bool strict)
{
	return submit_body(ctx, task, strict, true);
}

static inline __attribute__((always_inline)) doca_error_t submit_common(struct doca_task *task, bool strict)
{
	const char *call = strict ? "doca_task_try_submit" : "doca_task_submit";
	struct doca_ctx *ctx;

	if (SD_UNLIKELY(task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL task", call);
	ctx = task->ctx;
	if (SD_UNLIKELY(task->state != TASK_ALLOCATED))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: task %p of %s is %s; submit an allocated task once, and again "
				 "only from its callback",
				 call, (void *)task, priv_doca_ctx_name(ctx),
				 task->state == TASK_FREE ? "freed" : "already submitted");
	if (SD_UNLIKELY(ctx->state != DOCA_CTX_STATE_RUNNING))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is %s; submit tasks only while the context is RUNNING "
				 "(after doca_ctx_start, before doca_ctx_stop)",
				 call, priv_doca_ctx_name(ctx), priv_doca_ctx_state_name(ctx->state));
	if (SD_UNLIKELY(ctx->instrumented))
		return submit_instrumented(ctx, task, strict);
	return submit_body(ctx, task, strict, false);
}

DOCA_STABLE doca_error_t doca_task_submit(struct doca_task *task)
{
	return submit_common(task, false);
}

DOCA_STABLE doca_error_t doca_task_try_submit(struct doca_task *task)
{
	return submit_common(task, true);
}

DOCA_EXPERIMENTAL doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags)
{
	if (flags & ~(uint32_t)(DOCA_TASK_SUBMIT_FLAG_FLUSH | DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_task_submit_ex: unknown flags 0x%x", flags);
	return submit_common(task, false);
}

DOCA_STABLE doca_error_t doca_task_get_status(const struct doca_task *task)
{
	if (task == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return task->status;
}

DOCA_STABLE void doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	if (task != NULL)
		task->user_data = user_data;
}

DOCA_STABLE union doca_data doca_task_get_user_data(const struct doca_task *task)
{
	union doca_data none = {.u64 = 0};

	return task ? task->user_data : none;
}

DOCA_STABLE struct doca_ctx *doca_task_get_ctx(const struct doca_task *task)
{
	return task ? task->ctx : NULL;
}

/* ---- progress ---- */

static void run_callback_then_free(struct doca_ctx *ctx, struct doca_task *task, doca_error_t status);

static inline void run_callback(struct doca_ctx *ctx, struct doca_task *task, doca_error_t status)
{
	if (SD_UNLIKELY(task->free_after)) {
		run_callback_then_free(ctx, task, status);
		return;
	}
	task->status = status;
	task->state = TASK_ALLOCATED;
	ctx->inflight--;
	if (SD_LIKELY(status == DOCA_SUCCESS)) {
		ctx->st_tasks++;
		ctx->st_bytes += task->bytes;
		ctx->ops->finish(task);
		task->on_done(task, true);
		return;
	}
	ctx->st_errors++;
	if (ctx->state == DOCA_CTX_STATE_RUNNING && !ctx->ops->policy.keep_running_on_error) {
		/* A failed task stops the context; the remaining ones are flushed. */
		SD_DBG(COMP, "%s: task %p failed with %s; stopping the context", priv_doca_ctx_name(ctx), (void *)task,
		       doca_error_get_name(status));
		ctx->stop_requested_by_error = true;
		if (!begin_stop(ctx))
			return;
	}
	task->on_done(task, false);
}

/* A task the application freed while in flight: its callback runs, then it goes back to the pool
 * unless the callback freed or resubmitted it (or destroyed the context, and the task with it). */
static __attribute__((noinline)) void run_callback_then_free(struct doca_ctx *ctx, struct doca_task *task,
							     doca_error_t status)
{
	struct ctx_guard *g = ctx_guard_top(ctx);

	task->free_after = false;
	run_callback(ctx, task, status);
	if ((g == NULL || !g->gone) && task->state == TASK_ALLOCATED)
		doca_task_free(task);
}

/* Delivery with SOFTDOCA_FAULT and/or SOFTDOCA_TRACE on. */
static __attribute__((noinline)) void deliver_instrumented(struct doca_ctx *ctx, struct doca_task *task,
							   doca_error_t status)
{
	uint64_t tid = task->comp.trace_id;
	struct ctx_guard *g = ctx_guard_top(ctx);
	bool traced = ctx->traced;

	if (ctx->fault && status == DOCA_SUCCESS)
		status = fault_complete_status();
	if (traced)
		priv_doca_trace(TR_CB_START, ctx, tid, status, 0);
	run_callback(ctx, task, status);
	if (traced && (g == NULL || !g->gone))
		priv_doca_trace(TR_CB_END, ctx, tid, 0, 0);
}

/* What a finished task's callback is told: its own status, the engine's, or flushed. */
static inline doca_error_t deliver_status(const struct doca_ctx *ctx, const struct doca_task *task)
{
	doca_error_t status = task->status;

	if (status == DOCA_SUCCESS)
		status = task->comp.status;
	if (ctx->state != DOCA_CTX_STATE_RUNNING && status == DOCA_SUCCESS && !ctx->ops->policy.keep_done_on_stop)
		status = CTX_FLUSH_STATUS;
	return status;
}

static void deliver_one(struct doca_ctx *ctx, struct doca_task *task)
{
	doca_error_t status = deliver_status(ctx, task);

	if (SD_UNLIKELY(ctx->instrumented))
		deliver_instrumented(ctx, task, status);
	else
		run_callback(ctx, task, status);
}

/*
 * Unordered contexts: deliver every finished task wherever it sits in the FIFO. A callback may
 * submit (appends at the tail, behind @pp) or stop the context; neither unlinks other tasks.
 */
static unsigned int deliver_unordered(struct doca_ctx *ctx, const struct ctx_guard *g)
{
	struct doca_task **pp = &ctx->fifo_head, *prev = NULL;
	unsigned int n = 0;

	while (*pp != NULL && n < CTX_PROGRESS_BUDGET) {
		struct doca_task *task = *pp;

		if (!atomic_load_explicit(&task->comp.done, memory_order_acquire) ||
		    (SD_UNLIKELY(ctx->instrumented) && task->fault_due_ns != 0 &&
		     fault_now_ns() < task->fault_due_ns)) {
			prev = task;
			pp = &task->next;
			continue;
		}
		if (SD_UNLIKELY(ctx->traced))
			priv_doca_trace(TR_ENGINE_DONE, ctx, task->comp.trace_id, 0, ctx->inflight - 1);
		*pp = task->next;
		if (ctx->fifo_tail == task)
			ctx->fifo_tail = prev;
		task->next = NULL;
		task->in_engine = false;
		deliver_one(ctx, task);
		n++;
		if (SD_UNLIKELY(g->gone))
			break; /* the callback destroyed the context */
	}
	return n;
}

/*
 * Delivers the finished tasks at the FIFO head, in submission order. @instr (a constant at each
 * call, as in fifo_push()): the context may be instrumented (injected latency, traces).
 */
static inline __attribute__((always_inline)) unsigned int deliver_fifo(struct doca_ctx *ctx, bool instr,
								       const struct ctx_guard *g)
{
	unsigned int n = 0;

	while (n < CTX_PROGRESS_BUDGET) {
		struct doca_task *task = ctx->fifo_head;

		if (task == NULL || !atomic_load_explicit(&task->comp.done, memory_order_acquire))
			break;
		if (instr && SD_UNLIKELY(ctx->instrumented)) {
			if (task->fault_due_ns != 0 && fault_now_ns() < task->fault_due_ns)
				break; /* injected latency: keeps the FIFO order */
			if (ctx->traced)
				priv_doca_trace(TR_ENGINE_DONE, ctx, task->comp.trace_id, 0, ctx->inflight - 1);
		}
		ctx->fifo_head = task->next;
		if (ctx->fifo_head == NULL)
			ctx->fifo_tail = NULL;
		task->next = NULL;
		task->in_engine = false;
		if (instr)
			deliver_one(ctx, task);
		else
			run_callback(ctx, task, deliver_status(ctx, task));
		n++;
		if (SD_UNLIKELY(g->gone))
			break; /* the callback destroyed the context */
	}
	return n;
}

/*
 * A stopping context whose last task is back goes to IDLE: 1 when it did (counts as progress).
 * The last touch of @ctx in a progress call: its IDLE callback may destroy it.
 */
static inline unsigned int idle_if_stopped(struct doca_ctx *ctx, struct ctx_guard *g)
{
	if (SD_LIKELY(!ctx_can_finish_stop(ctx))) {
		(void)ctx_guard_leave(ctx, g);
		return 0;
	}
	if (ctx_guard_leave(ctx, g))
		(void)to_idle(ctx);
	return 1;
}

/*
 * ctx_progress() with events, unordered delivery, batches or instrumentation. Each step that
 * calls into the application is followed by a look at @g: a callback that destroyed the context
 * ends the visit (see struct ctx_guard).
 */
static __attribute__((noinline)) unsigned int ctx_progress_slow(struct doca_ctx *ctx)
{
	unsigned int n = 0, ev = 0;
	struct ctx_guard g;

	ctx_guard_enter(ctx, &g);
	if (SD_UNLIKELY(ctx->has_events)) {
		ev = ctx->ops->events(ctx);
		if (SD_UNLIKELY(g.gone))
			return ev;
	}
	ctx_dp_poll(ctx, CTX_PROGRESS_BUDGET);
	if (SD_UNLIKELY(ctx->ops->policy.unordered)) {
		n = deliver_unordered(ctx, &g);
	} else {
		n = deliver_fifo(ctx, true, &g);
		if (!g.gone && SD_UNLIKELY(ctx->ext != NULL))
			n += ctx->ext->ops->progress(ctx, CTX_PROGRESS_BUDGET);
	}
	if (SD_UNLIKELY(g.gone))
		return n + ev;
	/* after delivery: the callbacks may have freed the last tasks */
	n += idle_if_stopped(ctx, &g);
	return n + ev;
}

unsigned int ctx_progress(struct doca_ctx *ctx)
{
	struct ctx_guard g;
	unsigned int n;

	if (SD_UNLIKELY(ctx->progress_slow))
		return ctx_progress_slow(ctx);
	ctx_dp_poll(ctx, CTX_PROGRESS_BUDGET);
	ctx_guard_enter(ctx, &g);
	n = deliver_fifo(ctx, false, &g);
	if (SD_UNLIKELY(g.gone))
		return n;
	return n + idle_if_stopped(ctx, &g); /* after delivery: the callbacks may have freed the last tasks */
}
