/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpunetio.h - DOCA GPUNetIO host API: a CUDA GPU, its memory, and semaphores shared by
 * CPU and GPU.
 *
 * softdoca reaches CUDA through libcudart, loaded at the first doca_gpu_create() (never linked).
 * Without a CUDA driver or device doca_gpu_create() fails (NOT_FOUND, one line naming the CUDA
 * error), and since every other call needs a struct doca_gpu, nothing else here is reachable.
 *
 * Semaphore life cycle: doca_gpu_semaphore_create -> set_memory_type / set_items_num /
 * set_custom_info -> start -> get_gpu_handle (pass it to kernels) / get_status / set_status /
 * get_custom_info_addr -> stop (may reconfigure and start again) -> destroy.
 */
#ifndef DOCA_GPUNETIO_H_
#define DOCA_GPUNETIO_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu;
struct doca_gpu_semaphore;
struct doca_gpu_semaphore_gpu;

/** Status of one semaphore item; both sides read and write it. */
enum doca_gpu_semaphore_status {
	DOCA_GPU_SEMAPHORE_STATUS_FREE = 0,  /**< item unused */
	DOCA_GPU_SEMAPHORE_STATUS_READY = 1, /**< item filled, for the other side to take */
	DOCA_GPU_SEMAPHORE_STATUS_HOLD = 2,  /**< item taken, being worked on */
	DOCA_GPU_SEMAPHORE_STATUS_DONE = 3,  /**< item worked on */
	DOCA_GPU_SEMAPHORE_STATUS_ERROR = 4, /**< item in error */
	DOCA_GPU_SEMAPHORE_STATUS_EXIT = 5,  /**< the producer is done */
};

/**
 * Opens the GPU at PCIe address @gpu_bus_id ("BB:DD.F" or "DDDD:BB:DD.F") and makes it the
 * calling thread's current CUDA device. INVALID_VALUE for NULL or a malformed address;
 * NOT_FOUND when CUDA (library, driver, device) is not there or no GPU has that address;
 * NO_MEMORY.
 */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_create(const char *gpu_bus_id, struct doca_gpu **gpu_dev);
/** Frees @gpu_dev. INVALID_VALUE for NULL; BAD_STATE while allocations or semaphores remain. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_destroy(struct doca_gpu *gpu_dev);
/**
 * @size (> 0) bytes aligned to @alignment (0 = default, else a power of two) of type @mtype:
 * GPU (device memory; @memptr_cpu may be NULL and is set to NULL), GPU_CPU and CPU_GPU (both
 * pointers set; see README for where softdoca places each type). INVALID_VALUE; NO_MEMORY.
 */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_mem_alloc(struct doca_gpu *gpu_dev, size_t size, size_t alignment,
						  enum doca_gpu_mem_type mtype, void **memptr_gpu, void **memptr_cpu);
/** Frees an allocation by its GPU pointer. INVALID_VALUE for NULL or a pointer it did not return. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_mem_free(struct doca_gpu *gpu_dev, void *memptr_gpu);
/** A dmabuf fd for a GPU allocation. softdoca: NOT_SUPPORTED (register the memory with doca_mmap_set_memrange). */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size,
						  int *dmabuf_fd);

/** A stopped semaphore on @gpu (CPU_GPU memory, no items yet). INVALID_VALUE; NO_MEMORY. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_create(struct doca_gpu *gpu, struct doca_gpu_semaphore **semaphore);
/** Stops (if needed) and frees. INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_destroy(struct doca_gpu_semaphore *semaphore);
/** Memory of the status words. INVALID_VALUE; BAD_STATE once started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_memory_type(struct doca_gpu_semaphore *semaphore,
								  enum doca_gpu_mem_type type);
/** Number of items (> 0). INVALID_VALUE; BAD_STATE once started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_items_num(struct doca_gpu_semaphore *semaphore,
								uint32_t num_items);
/** @nbytes (> 0) of custom info per item, in memory of @type. INVALID_VALUE; BAD_STATE once started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_custom_info(struct doca_gpu_semaphore *semaphore, uint32_t nbytes,
								  enum doca_gpu_mem_type type);
/** Allocates the items, all FREE. INVALID_VALUE; BAD_STATE when started or without items; NO_MEMORY. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_start(struct doca_gpu_semaphore *semaphore);
/** Frees the items (the GPU handle becomes invalid). INVALID_VALUE; BAD_STATE unless started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_stop(struct doca_gpu_semaphore *semaphore);
/** The handle to pass to kernels (in GPU memory). INVALID_VALUE; BAD_STATE unless started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_gpu_handle(struct doca_gpu_semaphore *semaphore_cpu,
								 struct doca_gpu_semaphore_gpu **semaphore_gpu);
/** Sets item @idx's status (release). INVALID_VALUE (also @idx out of range); BAD_STATE unless started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_status(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx,
							     enum doca_gpu_semaphore_status status);
/** Reads item @idx's status (acquire). INVALID_VALUE; BAD_STATE unless started. */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_status(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx,
							     enum doca_gpu_semaphore_status *status);
/**
 * CPU address of item @idx's custom info. INVALID_VALUE (also: no custom info, or custom info
 * in GPU-only memory, which the CPU cannot address); BAD_STATE unless started.
 */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_custom_info_addr(struct doca_gpu_semaphore *semaphore_cpu,
								       uint32_t idx, void **custom_info);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_GPUNETIO_H_ */
