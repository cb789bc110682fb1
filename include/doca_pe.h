/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_pe.h - the progress engine and generic tasks.
 *
 * Completion and error callbacks run only inside doca_pe_progress(), on the calling thread,
 * never inside doca_task_submit(). doca_pe_progress() returns 1 when it did something (a
 * callback ran or a context changed state) and 0 when there was nothing to do.
 *
 * Event-driven use: doca_pe_get_notification_handle() gives a file descriptor to put into
 * epoll; drain with doca_pe_progress() until it returns 0, arm with
 * doca_pe_request_notification(), wait, then doca_pe_clear_notification().
 */
#ifndef DOCA_PE_H_
#define DOCA_PE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <doca_compat.h>
#include <doca_ctx.h> /* contexts are connected to and progressed by a PE; see docs/headers.md */
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_pe;
struct doca_ctx;
struct doca_task;
struct doca_task_batch;

typedef void (*doca_task_completion_cb_t)(struct doca_task *task, union doca_data task_user_data,
					  union doca_data ctx_user_data);

enum doca_pe_event_mode {
	DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE = 0,
	DOCA_PE_EVENT_MODE_PROGRESS_ALL = 1,
};

enum doca_task_submit_flag {
	DOCA_TASK_SUBMIT_FLAG_NONE = 0,
	DOCA_TASK_SUBMIT_FLAG_FLUSH = (1 << 0),
	DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS = (1 << 1),
};

enum doca_task_batch_max_tasks_number {
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128,
};

enum doca_event_batch_events_number {
	DOCA_EVENT_BATCH_EVENTS_NUMBER_1,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_2,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_4,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_8,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_16,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_32,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_64,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_128,
};

DOCA_STABLE doca_error_t doca_pe_create(struct doca_pe **pe);
/** IN_USE while contexts are still connected. */
DOCA_STABLE doca_error_t doca_pe_destroy(struct doca_pe *pe);
/** Binds an IDLE context to @pe until the context is destroyed. */
DOCA_STABLE doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);
DOCA_STABLE uint8_t doca_pe_progress(struct doca_pe *pe);
DOCA_STABLE doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks);
DOCA_STABLE doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle);
DOCA_STABLE doca_error_t doca_pe_set_notification_handle(struct doca_pe *pe, doca_notification_handle_t handle,
							 union doca_data completion_key);
DOCA_STABLE doca_error_t doca_pe_request_notification(struct doca_pe *pe);
DOCA_STABLE doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle);
DOCA_EXPERIMENTAL doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode);

/** Hands @task to its context; the user owns it again when its callback starts. */
DOCA_STABLE doca_error_t doca_task_submit(struct doca_task *task);
/** Validates @task first; on failure nothing is submitted and the reason is returned. */
DOCA_STABLE doca_error_t doca_task_try_submit(struct doca_task *task);
DOCA_EXPERIMENTAL doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags);
/** Returns @task to its context's pool; legal in its own callback or while not submitted. */
DOCA_STABLE void doca_task_free(struct doca_task *task);
/** SUCCESS inside a completion callback, the failure inside an error callback. */
DOCA_STABLE doca_error_t doca_task_get_status(const struct doca_task *task);
DOCA_STABLE void doca_task_set_user_data(struct doca_task *task, union doca_data user_data);
DOCA_STABLE union doca_data doca_task_get_user_data(const struct doca_task *task);
DOCA_STABLE struct doca_ctx *doca_task_get_ctx(const struct doca_task *task);

/*
 * Task batches: N tasks of one context, allocated by that context's *_task_batch_*_allocate
 * call, submitted as one unit and completed through one callback run by doca_pe_progress()
 * with the batch's status (SUCCESS, or the first failure among its tasks).
 */
/** Hands @task_batch to its context; the user owns it again when its callback starts. */
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch);
/** Validates every task of @task_batch first; on failure nothing is submitted and the reason is returned. */
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch);
/** Returns @task_batch to its context's pool; legal in its own callback or while not submitted. */
DOCA_EXPERIMENTAL void doca_task_batch_free(struct doca_task_batch *task_batch);
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch);
DOCA_EXPERIMENTAL void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data);
DOCA_EXPERIMENTAL union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch);
DOCA_EXPERIMENTAL struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch);
DOCA_EXPERIMENTAL union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch);
/** Number of tasks in @task_batch (at most its context's configured maximum). */
DOCA_EXPERIMENTAL uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_PE_H_ */
