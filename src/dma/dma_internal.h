/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_internal.h - libdoca_dma's private declarations: the GPU data path (dma_gpu.c).
 *
 *   kernel ──doca_gpu_dev_dma_memcpy/commit──▶ ring (doca_gpunetio_hd.h, GPU-visible memory)
 *                                                 │ doorbell, descriptors
 *                                                 ▼
 *   service thread (one per started GPU context): check mkey and range ─▶ engine job
 *        (executor queue, as CPU tasks) ─▶ completions in order ─▶ cqe, cons ─▶ kernel
 *
 * A DMA context with doca_ctx_set_datapath_on_gpu() has no PE, and DOCA programs wait for the
 * copied bytes without calling DOCA (the sample spins on its destination buffer), so the
 * descriptors are executed by a thread of the context's own, not inside doca_pe_progress().
 * The ring is allocated at the first start through the GPU's hook (gpu_hook.h) and freed at
 * doca_dma_destroy(): a kernel still running after doca_ctx_stop() writes into live memory.
 * Control calls run on the application's thread; only the service thread touches the engine
 * queue and the CPU's ring words.
 */
#ifndef SD_DMA_INTERNAL_H_
#define SD_DMA_INTERNAL_H_

#include <doca_dma.h>

#include "core.h"

/* Descriptors in a context's GPU ring. */
#define DMA_GPU_RING_SLOTS 1024u

struct dma_gpu;

/*
 * Starts the GPU data path of @ctx on @gpu: allocates the ring on first use (*svc NULL), resets
 * it, starts the service thread. Logs its own rejections.
 */
doca_error_t dma_gpu_start(struct doca_ctx *ctx, struct doca_gpu *gpu, const struct topo_profile *profile,
			   struct dma_gpu **svc);
/*
 * Stops the service thread: descriptors already taken finish (or are cancelled by the engine)
 * and get their completions; those not yet taken stay in the ring, never run.
 */
void dma_gpu_stop(struct dma_gpu *svc);
/* Frees the ring and @svc (stopped). */
void dma_gpu_destroy(struct dma_gpu *svc);
/* The GPU pointer of the handle kernels get. */
struct doca_gpu_dma *dma_gpu_handle(const struct dma_gpu *svc);

#endif /* SD_DMA_INTERNAL_H_ */
