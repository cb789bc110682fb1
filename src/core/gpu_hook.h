/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_hook.h - what the core (buf arrays) may ask of a struct doca_gpu, which libdoca_gpunetio
 * owns: libdoca_common cannot link against the library above it, so a GPU object starts with
 * this header and its ops. Control path, on the application's thread (device_only: any). Users: buf arrays
 * (GPU tables) and the DMA context's GPU data path (its ring, src/dma/dma_gpu.c).
 */
#ifndef SD_GPU_HOOK_H_
#define SD_GPU_HOOK_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

struct doca_gpu;

struct priv_doca_gpu_ops {
	/* @size bytes of GPU-only memory (DOCA_GPU_MEM_TYPE_GPU); logs its own rejection under @call. */
	doca_error_t (*mem_alloc)(struct doca_gpu *gpu, size_t size, void **gpu_ptr, const char *call);
	/* Copies @len host bytes to GPU memory from mem_alloc; logs its own rejection under @call. */
	doca_error_t (*copy_to_gpu)(struct doca_gpu *gpu, void *gpu_dst, const void *src, size_t len, const char *call);
	void (*mem_free)(struct doca_gpu *gpu, void *gpu_ptr);
	/*
	 * Copies @len bytes between any two of host memory and this GPU's memory (the GPU tells
	 * the direction from the addresses). Any thread: the copy engines of DMA contexts whose
	 * buffers are GPU-only memory (src/engines/cuda). Logs its own failure under @owner.
	 */
	doca_error_t (*copy)(struct doca_gpu *gpu, void *dst, const void *src, size_t len, const char *owner);
	/*
	 * @size bytes both sides reach (DOCA_GPU_MEM_TYPE_CPU_GPU): the GPU through *gpu_ptr, the
	 * CPU through *cpu_ptr; freed with mem_free(gpu_ptr). Logs its own rejection under @call.
	 */
	doca_error_t (*mem_alloc_mapped)(struct doca_gpu *gpu, size_t size, void **gpu_ptr, void **cpu_ptr,
					 const char *call);
	/* The GPU's PCI address, for log lines. */
	const char *(*name)(const struct doca_gpu *gpu);
	/*
	 * True when [addr, addr + len) overlaps DOCA_GPU_MEM_TYPE_GPU memory of @gpu, which CPU code
	 * cannot reach with a real driver. Any thread.
	 */
	bool (*device_only)(struct doca_gpu *gpu, const void *addr, size_t len);
	/*
	 * GPU receive queues (libdoca_eth, rxq_gpu.c): the CPU address of [@gpu_ptr, +@len) when it
	 * lies inside one allocation of @gpu that the CPU can address (*cpu_ptr), inside a GPU-only
	 * one (*cpu_ptr = NULL: reach it with copy_to_gpu), or DOCA_ERROR_NOT_FOUND when no
	 * allocation of @gpu holds it. Any thread.
	 */
	doca_error_t (*cpu_view)(struct doca_gpu *gpu, const void *gpu_ptr, size_t len, void **cpu_ptr);
	/*
	 * Batched copies between pinned host memory (mem_alloc_mapped's CPU side) and GPU-only
	 * memory, either way (GPU receive queues' frames in, send queues' frames out): copy_async
	 * queues @len bytes on the GPU's own non-blocking stream and returns before they land; the
	 * source must stay untouched and the destination unread until an event recorded after it
	 * is done. event_record marks the stream's current end; event_done says DOCA_SUCCESS once
	 * everything queued before that mark has landed, DOCA_ERROR_AGAIN before (@wait: blocks
	 * until then instead). Any thread: each call makes the GPU current for itself and gives the
	 * caller's device back. Failures are logged under @call.
	 */
	doca_error_t (*copy_async)(struct doca_gpu *gpu, void *dst, const void *src, size_t len, const char *call);
	doca_error_t (*event_create)(struct doca_gpu *gpu, void **event, const char *call);
	void (*event_destroy)(struct doca_gpu *gpu, void *event);
	doca_error_t (*event_record)(struct doca_gpu *gpu, void *event, const char *call);
	doca_error_t (*event_done)(struct doca_gpu *gpu, void *event, bool wait, const char *call);
};

#define PRIV_DOCA_GPU_MAGIC 0x53444750u /* "SDGP" */

/* The first member of struct doca_gpu. */
struct priv_doca_gpu_base {
	uint32_t magic;
	const struct priv_doca_gpu_ops *ops;
};

static inline const struct priv_doca_gpu_base *priv_doca_gpu_base(const struct doca_gpu *gpu)
{
	const struct priv_doca_gpu_base *b = (const struct priv_doca_gpu_base *)(const void *)gpu;

	return b->magic == PRIV_DOCA_GPU_MAGIC ? b : NULL;
}

#endif /* SD_GPU_HOOK_H_ */
