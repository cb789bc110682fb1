/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sem.c - GPUNetIO semaphores: items with a status word and optional custom info, shared by
 * CPU and GPU.
 *
 *   create --set_memory_type/items_num/custom_info--> configured --start--> started
 *                                                          ^                   |
 *                                                          +------ stop -------+
 *
 * A started semaphore owns three allocations on its GPU: the status words (of the memory type
 * set, CPU_GPU by default), the custom info (if set) and the GPU handle (GPU memory, layout in
 * doca_gpunetio_hd.h). The CPU reads and writes statuses through the CPU pointer with acquire/
 * release (the same helpers the device side uses); status words in GPU-only memory are reached
 * with cudaMemcpy instead.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_gpunetio.h>
#include <doca_gpunetio_hd.h>

#include "gpunetio_internal.h"

struct doca_gpu_semaphore {
	struct doca_gpu *gpu;
	enum doca_gpu_mem_type status_type;
	enum doca_gpu_mem_type info_type;
	uint32_t num_items;
	uint32_t info_size; /* 0: no custom info */
	bool started;
	uint32_t *status_gpu;
	uint32_t *status_cpu; /* NULL for GPU-only memory */
	uint8_t *info_gpu;
	uint8_t *info_cpu;
	struct doca_gpu_semaphore_gpu *handle_gpu;
};

static bool valid_mem_type(enum doca_gpu_mem_type t)
{
	return t == DOCA_GPU_MEM_TYPE_GPU || t == DOCA_GPU_MEM_TYPE_GPU_CPU || t == DOCA_GPU_MEM_TYPE_CPU_GPU;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_create(struct doca_gpu *gpu, struct doca_gpu_semaphore **semaphore)
{
	const char *call = "doca_gpu_semaphore_create";
	doca_error_t ret = gpunetio_check_gpu(gpu, call);
	struct doca_gpu_semaphore *s;

	if (ret != DOCA_SUCCESS)
		return ret;
	if (semaphore == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL output argument", call);
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: out of memory", call);
	s->gpu = gpu;
	s->status_type = DOCA_GPU_MEM_TYPE_CPU_GPU;
	gpu->nb_sems++;
	*semaphore = s;
	return DOCA_SUCCESS;
}

static doca_error_t check_configurable(const struct doca_gpu_semaphore *s, const char *call)
{
	if (s == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL semaphore", call);
	if (s->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: semaphore %p is started; call doca_gpu_semaphore_stop() before reconfiguring it",
				 call, (const void *)s);
	return DOCA_SUCCESS;
}

static doca_error_t check_started(const struct doca_gpu_semaphore *s, const void *out, const char *call)
{
	if (s == NULL || out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 s == NULL ? "semaphore" : "output");
	if (!s->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: semaphore %p is not started; call doca_gpu_semaphore_start() first", call,
				 (const void *)s);
	return DOCA_SUCCESS;
}

static doca_error_t check_item(const struct doca_gpu_semaphore *s, const void *out, uint32_t idx, const char *call)
{
	doca_error_t ret = check_started(s, out, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (idx >= s->num_items)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: semaphore %p: item %u does not exist; it has %u (0..%u)", call, (const void *)s,
				 idx, s->num_items, s->num_items - 1);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_memory_type(struct doca_gpu_semaphore *semaphore,
								  enum doca_gpu_mem_type type)
{
	const char *call = "doca_gpu_semaphore_set_memory_type";
	doca_error_t ret = check_configurable(semaphore, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (!valid_mem_type(type))
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "%s: semaphore %p: memory type %d is none of DOCA_GPU_MEM_TYPE_GPU, _GPU_CPU, _CPU_GPU", call,
		    (void *)semaphore, (int)type);
	semaphore->status_type = type;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_items_num(struct doca_gpu_semaphore *semaphore,
								uint32_t num_items)
{
	const char *call = "doca_gpu_semaphore_set_items_num";
	doca_error_t ret = check_configurable(semaphore, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (num_items == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: semaphore %p: 0 items; a semaphore holds at least one", call, (void *)semaphore);
	semaphore->num_items = num_items;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_custom_info(struct doca_gpu_semaphore *semaphore, uint32_t nbytes,
								  enum doca_gpu_mem_type type)
{
	const char *call = "doca_gpu_semaphore_set_custom_info";
	doca_error_t ret = check_configurable(semaphore, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (nbytes == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: semaphore %p: 0 bytes of custom info; pass the size of one item's info", call,
				 (void *)semaphore);
	if (!valid_mem_type(type))
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "%s: semaphore %p: memory type %d is none of DOCA_GPU_MEM_TYPE_GPU, _GPU_CPU, _CPU_GPU", call,
		    (void *)semaphore, (int)type);
	semaphore->info_size = nbytes;
	semaphore->info_type = type;
	return DOCA_SUCCESS;
}

static void release(struct doca_gpu_semaphore *s)
{
	const char *call = "doca_gpu_semaphore_stop";

	/* A kernel may still read them: freed with the GPU (gpunetio_mem_retire). */
	(void)call;
	if (s->handle_gpu != NULL)
		gpunetio_mem_retire(s->gpu, s->handle_gpu);
	if (s->info_gpu != NULL)
		gpunetio_mem_retire(s->gpu, s->info_gpu);
	if (s->status_gpu != NULL)
		gpunetio_mem_retire(s->gpu, s->status_gpu);
	s->handle_gpu = NULL;
	s->info_gpu = s->info_cpu = NULL;
	s->status_gpu = s->status_cpu = NULL;
	s->started = false;
}

/* One zeroed region of @type: through the CPU pointer when there is one, else cudaMemset. */
static doca_error_t alloc_zeroed(struct doca_gpu_semaphore *s, size_t size, enum doca_gpu_mem_type type, void **gpu_ptr,
				 void **cpu_ptr, const char *call)
{
	doca_error_t ret = gpunetio_mem_alloc(s->gpu, size, 64, type, gpu_ptr, cpu_ptr, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (*cpu_ptr != NULL) {
		memset(*cpu_ptr, 0, size);
		return DOCA_SUCCESS;
	}
	return gpunetio_memset(s->gpu, *gpu_ptr, size, call);
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_start(struct doca_gpu_semaphore *semaphore)
{
	const char *call = "doca_gpu_semaphore_start";
	struct doca_gpu_semaphore_gpu h;
	doca_error_t ret = check_configurable(semaphore, call);
	void *g = NULL;
	void *c = NULL;

	if (ret != DOCA_SUCCESS)
		return ret;
	if (semaphore->num_items == 0)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: semaphore %p has no items; call doca_gpu_semaphore_set_items_num() first", call,
				 (void *)semaphore);
	ret = alloc_zeroed(semaphore, (size_t)semaphore->num_items * sizeof(uint32_t), semaphore->status_type, &g, &c,
			   call);
	if (ret != DOCA_SUCCESS)
		goto fail;
	semaphore->status_gpu = g;
	semaphore->status_cpu = c;
	if (semaphore->info_size > 0) {
		ret = alloc_zeroed(semaphore, (size_t)semaphore->num_items * semaphore->info_size, semaphore->info_type,
				   &g, &c, call);
		if (ret != DOCA_SUCCESS)
			goto fail;
		semaphore->info_gpu = g;
		semaphore->info_cpu = c;
	}
	ret = gpunetio_mem_alloc(semaphore->gpu, sizeof(h), 0, DOCA_GPU_MEM_TYPE_GPU, &g, NULL, call);
	if (ret != DOCA_SUCCESS)
		goto fail;
	semaphore->handle_gpu = g;
	h.status = semaphore->status_gpu;
	h.info = semaphore->info_gpu;
	h.num_items = semaphore->num_items;
	h.info_size = semaphore->info_size;
	ret =
	    gpunetio_memcpy(semaphore->gpu, semaphore->handle_gpu, &h, sizeof(h), SD_CUDA_MEMCPY_HOST_TO_DEVICE, call);
	if (ret != DOCA_SUCCESS)
		goto fail;
	semaphore->started = true;
	return DOCA_SUCCESS;
fail:
	release(semaphore);
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_stop(struct doca_gpu_semaphore *semaphore)
{
	if (semaphore == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_gpu_semaphore_stop: NULL semaphore");
	if (!semaphore->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_gpu_semaphore_stop: semaphore %p is not started",
				 (void *)semaphore);
	release(semaphore);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_destroy(struct doca_gpu_semaphore *semaphore)
{
	if (semaphore == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_gpu_semaphore_destroy: NULL semaphore");
	if (semaphore->started)
		release(semaphore);
	semaphore->gpu->nb_sems--;
	free(semaphore);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_gpu_handle(struct doca_gpu_semaphore *semaphore_cpu,
								 struct doca_gpu_semaphore_gpu **semaphore_gpu)
{
	doca_error_t ret = check_started(semaphore_cpu, semaphore_gpu, "doca_gpu_semaphore_get_gpu_handle");

	if (ret != DOCA_SUCCESS)
		return ret;
	*semaphore_gpu = semaphore_cpu->handle_gpu;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_status(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx,
							     enum doca_gpu_semaphore_status status)
{
	const char *call = "doca_gpu_semaphore_set_status";
	doca_error_t ret = check_item(semaphore_cpu, semaphore_cpu, idx, call);
	uint32_t v = (uint32_t)status;

	if (ret != DOCA_SUCCESS)
		return ret;
	if (v > DOCA_GPU_SEMAPHORE_STATUS_EXIT)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: semaphore %p: status %u is not a doca_gpu_semaphore_status (FREE..EXIT)", call,
				 (void *)semaphore_cpu, v);
	if (semaphore_cpu->status_cpu != NULL) {
		doca_gpunetio_hd_store_release_u32(&semaphore_cpu->status_cpu[idx], v);
		return DOCA_SUCCESS;
	}
	return gpunetio_memcpy(semaphore_cpu->gpu, &semaphore_cpu->status_gpu[idx], &v, sizeof(v),
			       SD_CUDA_MEMCPY_HOST_TO_DEVICE, call);
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_status(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx,
							     enum doca_gpu_semaphore_status *status)
{
	const char *call = "doca_gpu_semaphore_get_status";
	doca_error_t ret = check_item(semaphore_cpu, status, idx, call);
	uint32_t v;

	if (ret != DOCA_SUCCESS)
		return ret;
	if (semaphore_cpu->status_cpu != NULL) {
		v = doca_gpunetio_hd_load_acquire_u32(&semaphore_cpu->status_cpu[idx]);
	} else {
		ret = gpunetio_memcpy(semaphore_cpu->gpu, &v, &semaphore_cpu->status_gpu[idx], sizeof(v),
				      SD_CUDA_MEMCPY_DEVICE_TO_HOST, call);
		if (ret != DOCA_SUCCESS)
			return ret;
	}
	*status = (enum doca_gpu_semaphore_status)v;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_custom_info_addr(struct doca_gpu_semaphore *semaphore_cpu,
								       uint32_t idx, void **custom_info)
{
	const char *call = "doca_gpu_semaphore_get_custom_info_addr";
	doca_error_t ret = check_item(semaphore_cpu, custom_info, idx, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (semaphore_cpu->info_size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: semaphore %p has no custom info; call doca_gpu_semaphore_set_custom_info() "
				 "before starting it",
				 call, (void *)semaphore_cpu);
	if (semaphore_cpu->info_cpu == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: semaphore %p keeps its custom info in GPU-only memory, which the CPU cannot "
				 "address; set it with DOCA_GPU_MEM_TYPE_CPU_GPU or _GPU_CPU",
				 call, (void *)semaphore_cpu);
	*custom_info = semaphore_cpu->info_cpu + (size_t)idx * semaphore_cpu->info_size;
	return DOCA_SUCCESS;
}
