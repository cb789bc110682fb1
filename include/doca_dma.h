/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma.h - DOCA DMA: asynchronous memcpy tasks between doca_mmap regions.
 *
 * A memcpy task reads the data window(s) of its source (a buf or a buf list) and writes from
 * the data pointer of its destination onwards, filling each destination element up to its
 * region end; on success each destination element's data_len is the number of bytes written
 * into it. A failed task completes through the error callback with its status, and the context
 * then stops by itself, flushing the remaining tasks.
 */
#ifndef DOCA_DMA_H_
#define DOCA_DMA_H_

#include <inttypes.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_task;
struct doca_dma;
struct doca_dma_task_memcpy;
struct doca_gpu_dma;

typedef void (*doca_dma_task_memcpy_completion_cb_t)(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
						     union doca_data ctx_user_data);

/** An IDLE DMA context on @dev; NOT_SUPPORTED when the device's profile has no DMA. */
DOCA_STABLE doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma);
/** IN_USE unless IDLE. */
DOCA_STABLE doca_error_t doca_dma_destroy(struct doca_dma *dma);
DOCA_STABLE struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma);

/** SUCCESS when the device can run memcpy tasks, NOT_SUPPORTED otherwise. */
DOCA_STABLE doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo);
/** Most elements a source or destination buf list may have. */
DOCA_STABLE doca_error_t doca_dma_cap_task_memcpy_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								       uint32_t *max_buf_list_len);
/** Most bytes one memcpy task may move. */
DOCA_STABLE doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo,
								   uint64_t *buf_size);
/** Most memcpy tasks one context may be configured with. */
DOCA_STABLE doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks);

/** Callbacks and pool size; IDLE only. */
DOCA_STABLE doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma,
						       doca_dma_task_memcpy_completion_cb_t task_completion_cb,
						       doca_dma_task_memcpy_completion_cb_t task_error_cb,
						       uint32_t num_memcpy_tasks);
/** Takes a task from the pool (NO_MEMORY when empty; BAD_STATE unless RUNNING). */
DOCA_STABLE doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma, const struct doca_buf *src,
							 struct doca_buf *dst, union doca_data user_data,
							 struct doca_dma_task_memcpy **task);
DOCA_STABLE struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task);
DOCA_STABLE void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src);
DOCA_STABLE const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task);
DOCA_STABLE void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst);
DOCA_STABLE struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task);

/**
 * The GPU handle kernels post copies to (doca_gpunetio_dev_dma.cuh) of a context given a GPU
 * with doca_ctx_set_datapath_on_gpu(); a thread of the context's own runs the copies.
 * BAD_STATE on a CPU context, before doca_ctx_start() and after doca_ctx_stop();
 * INVALID_VALUE for NULL.
 */
DOCA_EXPERIMENTAL doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **gpu_dma);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_DMA_H_ */
