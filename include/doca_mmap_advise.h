/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_mmap_advise.h - DOCA mmap advise: hints about how memory will be used.
 *
 * A doca_mmap_advise is a context (doca_mmap_advise_as_ctx) with one task type, cache
 * invalidate: the device's caches may drop the lines holding a buf's data window, because
 * nothing will read them again (e.g. DPU memory a DMA just copied out). A hint changes
 * performance, never what a program reads.
 *
 * The task's buf must be bound (not released), its mmap started and including the context's
 * device, and its data no longer than doca_mmap_advise_task_cache_invalidate_get_max_buf_size().
 * As for every context, doca_task_submit() reports a broken rule through the error callback and
 * doca_task_try_submit() returns it; completions arrive from doca_pe_progress().
 *
 * softdoca: CPU caches are coherent with every softdoca engine, so the invalidation itself is a
 * no-op; the rules are checked and the task completes as on a BlueField (DPU-side devices only).
 */
#ifndef DOCA_MMAP_ADVISE_H_
#define DOCA_MMAP_ADVISE_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_mmap_advise;
struct doca_buf;
struct doca_task;
struct doca_mmap_advise_task_invalidate_cache;

typedef void (*doca_mmap_advise_task_invalidate_cache_completion_cb_t)(
    struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_user_data, union doca_data ctx_user_data);

/** A context on @dev. INVALID_VALUE for NULL; NOT_SUPPORTED when @dev cannot invalidate caches. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise);
/** INVALID_VALUE for NULL; IN_USE unless the context is IDLE. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise);
DOCA_EXPERIMENTAL struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise);

/** SUCCESS when @devinfo supports cache invalidate tasks, else NOT_SUPPORTED. */
DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo);
/** Largest data window one cache invalidate task may cover, in bytes. */
DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *buf_size);

/** Callbacks and pool size; the context must be IDLE (NOT_PERMITTED otherwise). */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
    struct doca_mmap_advise *mmap_advise, doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
    doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks);
/** Takes a task from the pool (context RUNNING); NO_MEMORY when every task is allocated. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(
    struct doca_mmap_advise *mmap_advise, struct doca_buf *buf, union doca_data user_data,
    struct doca_mmap_advise_task_invalidate_cache **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_mmap_advise_task_invalidate_cache_as_doca_task(struct doca_mmap_advise_task_invalidate_cache *task);
DOCA_EXPERIMENTAL void
doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
					       struct doca_buf *buf);
DOCA_EXPERIMENTAL struct doca_buf *
doca_mmap_advise_task_invalidate_cache_get_buf(const struct doca_mmap_advise_task_invalidate_cache *task);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_MMAP_ADVISE_H_ */
