/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_hooks.c - what libdoca_eth's GPU receive queues ask of a struct doca_gpu (gpu_hook.h):
 * memory both sides address for the queue's handle and completion ring, and the CPU view of
 * the packet buffer the application allocated. Control path, the application's thread.
 */
#include <string.h>

#include "gpunetio_internal.h"

doca_error_t gpunetio_mem_alloc_mapped(struct doca_gpu *gpu, size_t size, void **gpu_ptr, void **cpu_ptr)
{
	doca_error_t ret =
	    gpunetio_mem_alloc(gpu, size, 64, DOCA_GPU_MEM_TYPE_CPU_GPU, gpu_ptr, cpu_ptr, "doca_ctx_start");

	if (ret == DOCA_SUCCESS)
		memset(*cpu_ptr, 0, size);
	return ret;
}

doca_error_t gpunetio_cpu_view(struct doca_gpu *gpu, const void *gpu_ptr, size_t len, void **cpu_ptr)
{
	uintptr_t p = (uintptr_t)gpu_ptr;

	for (const struct gpu_alloc *a = gpu->allocs; a != NULL; a = a->next) {
		uintptr_t g = (uintptr_t)a->gpu;

		if (p < g || p - g > a->size || len > a->size - (p - g))
			continue;
		*cpu_ptr = a->cpu != NULL ? (uint8_t *)a->cpu + (p - g) : NULL;
		return DOCA_SUCCESS;
	}
	return DOCA_ERROR_NOT_FOUND;
}
