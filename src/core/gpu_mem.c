/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_mem.c - which ranges of this process's address space are GPU-only memory.
 *
 * libdoca_gpunetio registers every DOCA_GPU_MEM_TYPE_GPU allocation (cudaMalloc) here and
 * removes it when freed. doca_mmap_start() looks its range up: a map over such memory gets a
 * memory domain of kind GPU, so DMA copies to and from it go through a transport that asks the
 * GPU to move the bytes (src/engines/cuda) instead of CPU loads and stores, which fault on
 * device memory with a real driver. Control path only; a mutex is enough.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core.h"

struct gpu_range {
	struct gpu_range *next;
	struct doca_gpu *gpu;
	uintptr_t lo, hi;
};

static pthread_mutex_t ranges_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gpu_range *ranges;

SD_PRIV doca_error_t priv_doca_gpu_mem_add(struct doca_gpu *gpu, void *addr, size_t len)
{
	struct gpu_range *r = malloc(sizeof(*r));

	if (r == NULL)
		return DOCA_ERROR_NO_MEMORY;
	r->gpu = gpu;
	r->lo = (uintptr_t)addr;
	r->hi = r->lo + len;
	pthread_mutex_lock(&ranges_lock);
	r->next = ranges;
	ranges = r;
	pthread_mutex_unlock(&ranges_lock);
	return DOCA_SUCCESS;
}

SD_PRIV void priv_doca_gpu_mem_del(void *addr)
{
	pthread_mutex_lock(&ranges_lock);
	for (struct gpu_range **pp = &ranges; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->lo == (uintptr_t)addr) {
			struct gpu_range *r = *pp;

			*pp = r->next;
			free(r);
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
}

SD_PRIV int priv_doca_gpu_mem_find(const void *addr, size_t len, struct doca_gpu **gpu)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	int found = 0;

	pthread_mutex_lock(&ranges_lock);
	for (const struct gpu_range *r = ranges; r != NULL && found == 0; r = r->next) {
		if (lo >= r->lo && hi <= r->hi) {
			*gpu = r->gpu;
			found = 1;
		} else if (lo < r->hi && r->lo < hi) {
			found = -1;
		}
	}
	pthread_mutex_unlock(&ranges_lock);
	return found;
}
