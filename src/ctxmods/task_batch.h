/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * task_batch.h - task batches: N tasks of one context submitted as one unit.
 *
 *   module set_conf ──> ops->start: priv_doca_ctx_pool_init(..., depth >= num_tasks + B * M)
 *                                   priv_doca_task_batch_pool_init(ctx, ops, task_size, B, M)
 *   module *_task_batch_*_allocate ──> priv_doca_task_batch_alloc(ctx, n, ...) (+ fills tasks)
 *   doca_task_batch_submit ──> ctx->ops->prepare() on every member, then every member job to the
 *                              context's engine queue; the batch joins the context's batch FIFO
 *   doca_pe_progress ──> ctx->ext (struct ctx_ext, core.h) ──> batch_progress(): the FIFO head is delivered once all
 * its member jobs are done, through task_batch_ops.deliver (one callback)
 *
 * A batch owns its member tasks (struct doca_task first, module task size), preallocated with
 * the pool: nothing is allocated on the submit or delivery path. Members never pass through the
 * context's task pool or task FIFO; batches are delivered in submission order among
 * themselves, independently of the context's single tasks.
 *
 * Accounting reuses the context's counters, so the state machine in ctx.c needs no batch
 * knowledge to stop: an allocated batch counts once in ctx->nb_allocated (a context does not
 * reach IDLE while a batch is allocated), a submitted batch counts its tasks in ctx->inflight.
 *
 * A failed batch (status = the first failed member's, or the prepare error) stops the context
 * like a failed task (unless the policy keeps it running); batches delivered after the context left
 * RUNNING carry DOCA_ERROR_IO_FAILED. All of this runs on the PE thread.
 */
#ifndef SD_TASK_BATCH_H_
#define SD_TASK_BATCH_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_pe.h>

#include "sd_internal.h"

struct doca_ctx;
struct doca_task;

struct task_batch_ops {
	/* Runs the batch's completion (@success) or error callback; status in the batch already. */
	void (*deliver)(struct doca_task_batch *batch, bool success);
};

/*
 * Library modules, from ops->start after priv_doca_ctx_pool_init: a pool of @num_batches
 * batches of up to @max_tasks member tasks of @task_size bytes (a module task struct that
 * begins with struct doca_task). Freed by the core when the context returns to IDLE.
 */
SD_PRIV doca_error_t priv_doca_task_batch_pool_init(struct doca_ctx *ctx, const struct task_batch_ops *ops,
						    size_t task_size, uint32_t num_batches, uint16_t max_tasks);
/*
 * Library modules: takes a batch of @nb_tasks (1..max_tasks) member tasks from the pool.
 * BAD_STATE unless RUNNING, NO_MEMORY when every batch is allocated, INVALID_VALUE for a bad
 * count, NOT_SUPPORTED when the context has no batch pool (each logged).
 */
SD_PRIV doca_error_t priv_doca_task_batch_alloc(struct doca_ctx *ctx, uint16_t nb_tasks, union doca_data user_data,
						struct doca_task_batch **batch);
/* Library modules: member @i (< the batch's task count) of @batch. */
SD_PRIV struct doca_task *priv_doca_task_batch_task(struct doca_task_batch *batch, uint16_t i);
/* 16, 32, 64 or 128 for a valid enum value, 0 otherwise. */
SD_PRIV uint16_t priv_doca_task_batch_max_tasks(enum doca_task_batch_max_tasks_number n);

#endif /* SD_TASK_BATCH_H_ */
