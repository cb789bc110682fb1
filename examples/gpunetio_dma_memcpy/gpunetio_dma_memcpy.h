/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_dma_memcpy.h - what the host part and the CUDA part of the example share.
 */
#ifndef GPUNETIO_DMA_MEMCPY_H_
#define GPUNETIO_DMA_MEMCPY_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_buf_array.h>
#include <doca_dma.h>
#include <doca_error.h>

#define EXAMPLE_COPY_SIZE 1024

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs one kernel thread that prints the text at @gpu_text (GPU memory filled by the CPU data
 * path) and copies element 0 of @src to element 0 of @dst through @dma (doca_gpu_dev_dma_memcpy,
 * then doca_gpu_dev_dma_commit); waits for the kernel. DOCA_ERROR_DRIVER on a CUDA error.
 */
doca_error_t example_launch_dma_kernel(uintptr_t gpu_text, struct doca_gpu_dma *dma, struct doca_gpu_buf_arr *src,
				       struct doca_gpu_buf_arr *dst, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* GPUNETIO_DMA_MEMCPY_H_ */
