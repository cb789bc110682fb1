/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio_dev_buf.cuh - GPU buf arrays, device side (doca_buf_arr_get_gpu_handle).
 *
 * Pure arithmetic on the table the host built in GPU memory; as in DOCA, no argument checks.
 */
#ifndef DOCA_GPUNETIO_DEV_BUF_CUH_
#define DOCA_GPUNETIO_DEV_BUF_CUH_

#include <stdint.h>

#include <doca_buf_array.h>
#include <doca_error.h>
#include <doca_gpunetio_hd.h>

/** Element @doca_gpu_buf_idx (< the array's size) of @buf_arr_gpu. */
DOCA_GPUNETIO_DEV void doca_gpu_dev_buf_get_buf(const struct doca_gpu_buf_arr *buf_arr_gpu,
						const uint64_t doca_gpu_buf_idx, struct doca_gpu_buf **buf)
{
	*buf = &buf_arr_gpu->bufs[doca_gpu_buf_idx];
}

/** The element's memory address (as the GPU sees it). */
DOCA_GPUNETIO_DEV void doca_gpu_dev_buf_get_addr(const struct doca_gpu_buf *buf, uintptr_t *addr)
{
	*addr = (uintptr_t)buf->addr;
}

/** The mkey of the element's mmap, in network byte order (as send functions take it). */
DOCA_GPUNETIO_DEV void doca_gpu_dev_buf_get_mkey(const struct doca_gpu_buf *buf, uint32_t *mkey)
{
	*mkey = buf->mkey;
}

#endif /* DOCA_GPUNETIO_DEV_BUF_CUH_ */
