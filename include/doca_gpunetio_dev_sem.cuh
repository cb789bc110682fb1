/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_dev_sem.cuh - GPUNetIO semaphores, device side.
 *
 * Header-only (no -rdc, no device library). A status is written with a system-scope release and
 * read with a system-scope acquire, so custom info written before set_status(READY) is visible
 * to whoever reads READY, on either side of the bus. Calls check the handle and the index.
 */
#ifndef DOCA_GPUNETIO_DEV_SEM_CUH_
#define DOCA_GPUNETIO_DEV_SEM_CUH_

#include <stdint.h>

#include <doca_error.h>
#include <doca_gpunetio.h>
#include <doca_gpunetio_hd.h>

/** Sets item @idx's status. INVALID_VALUE for a NULL handle or @idx out of range. */
DOCA_GPUNETIO_DEV doca_error_t doca_gpu_dev_semaphore_set_status(struct doca_gpu_semaphore_gpu *semaphore_gpu,
								 uint32_t idx, enum doca_gpu_semaphore_status status)
{
	if (semaphore_gpu == NULL || idx >= semaphore_gpu->num_items)
		return DOCA_ERROR_INVALID_VALUE;
	doca_gpunetio_hd_store_release_u32(&semaphore_gpu->status[idx], (uint32_t)status);
	return DOCA_SUCCESS;
}

/** Reads item @idx's status. INVALID_VALUE for NULL arguments or @idx out of range. */
DOCA_GPUNETIO_DEV doca_error_t doca_gpu_dev_semaphore_get_status(struct doca_gpu_semaphore_gpu *semaphore_gpu,
								 uint32_t idx, enum doca_gpu_semaphore_status *status)
{
	if (semaphore_gpu == NULL || status == NULL || idx >= semaphore_gpu->num_items)
		return DOCA_ERROR_INVALID_VALUE;
	*status = (enum doca_gpu_semaphore_status)doca_gpunetio_hd_load_acquire_u32(&semaphore_gpu->status[idx]);
	return DOCA_SUCCESS;
}

/** Address of item @idx's custom info. INVALID_VALUE also when the semaphore has no custom info. */
DOCA_GPUNETIO_DEV doca_error_t doca_gpu_dev_semaphore_get_custom_info_addr(struct doca_gpu_semaphore_gpu *semaphore_gpu,
									   uint32_t idx, void **custom_info)
{
	if (semaphore_gpu == NULL || custom_info == NULL || idx >= semaphore_gpu->num_items ||
	    semaphore_gpu->info == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*custom_info = semaphore_gpu->info + (uint64_t)idx * semaphore_gpu->info_size;
	return DOCA_SUCCESS;
}

#endif /* DOCA_GPUNETIO_DEV_SEM_CUH_ */
