/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_hooks.c - what libdoca_eth's GPU receive queues ask of a struct doca_gpu (gpu_hook.h)
 * besides memory: the CPU view of the packet buffer the application allocated.
 */
#include <pthread.h>
#include <string.h>

#include "gpunetio_internal.h"

doca_error_t gpunetio_cpu_view(struct doca_gpu *gpu, const void *gpu_ptr, size_t len, void **cpu_ptr)
{
	uintptr_t p = (uintptr_t)gpu_ptr;
	doca_error_t ret = DOCA_ERROR_NOT_FOUND;

	pthread_mutex_lock(&gpu->allocs_lock);
	for (const struct gpu_alloc *a = gpu->allocs; a != NULL; a = a->next) {
		uintptr_t g = (uintptr_t)a->gpu;

		if (p < g || p - g > a->size || len > a->size - (p - g))
			continue;
		*cpu_ptr = a->cpu != NULL ? (uint8_t *)a->cpu + (p - g) : NULL;
		ret = DOCA_SUCCESS;
		break;
	}
	pthread_mutex_unlock(&gpu->allocs_lock);
	return ret;
}
