/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio_internal.h - libdoca_gpunetio's private declarations.
 *
 *   application ──doca_gpu_*──> gpunetio.c (GPU handle, memory) ──> cuda_rt.c ──dlopen──> libcudart
 *                 doca_gpu_semaphore_* ──> sem.c ─────────────────────┘
 *   core (buf_array.c) ──priv_doca_gpu_ops (gpu_hook.h)──> gpunetio.c
 *   libdoca_eth (rxq_gpu.c) ──priv_doca_gpu_ops──> eth_hooks.c (mapped memory, CPU views)
 *
 * libcudart is never linked: cuda_rt.c loads it at the first doca_gpu_create() (or the library
 * SOFTDOCA_CUDART names) and resolves the few functions used into a table. CUDA's types are
 * not included (CI may lack the toolkit): errors are ints, enums are the documented values.
 * All of it runs on the control path, on the application's thread.
 */
#ifndef SD_GPUNETIO_INTERNAL_H_
#define SD_GPUNETIO_INTERNAL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include <doca_gpunetio.h>

#include "gpu_hook.h"
#include "sd_internal.h"

#define COMP "gpunetio"

/* CUDA runtime values used here (cuda_runtime_api.h / driver_types.h). */
enum {
	SD_CUDA_SUCCESS = 0,
	SD_CUDA_ERROR_MEMORY_ALLOCATION = 2,
	SD_CUDA_ERROR_STUB_LIBRARY = 34,
	SD_CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
	SD_CUDA_ERROR_DEVICES_UNAVAILABLE = 46,
	SD_CUDA_ERROR_NO_DEVICE = 100,
	SD_CUDA_ERROR_INVALID_DEVICE = 101,
	SD_CUDA_ERROR_NOT_READY = 600,
	SD_CUDA_ERROR_SYSTEM_NOT_READY = 802,
	SD_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	SD_CUDA_ERROR_COMPAT_NOT_SUPPORTED = 804,
	SD_CUDA_ERROR_UNKNOWN = 999,
	SD_CUDA_MEMCPY_HOST_TO_DEVICE = 1,
	SD_CUDA_MEMCPY_DEVICE_TO_HOST = 2,
	SD_CUDA_MEMCPY_DEFAULT = 4,
	SD_CUDA_HOST_ALLOC_PORTABLE = 1,
	SD_CUDA_HOST_ALLOC_MAPPED = 2,
	SD_CUDA_STREAM_NON_BLOCKING = 1,
	SD_CUDA_EVENT_DISABLE_TIMING = 2,
};

struct cuda_rt {
	int (*get_device_count)(int *count);
	int (*device_get_by_pci_bus_id)(int *device, const char *pci_bus_id);
	int (*set_device)(int device);
	int (*device_get_attribute)(int *value, int attr, int device);
	int (*dev_malloc)(void **ptr, size_t size);
	int (*dev_free)(void *ptr);
	int (*host_alloc)(void **ptr, size_t size, unsigned int flags);
	int (*free_host)(void *ptr);
	int (*host_get_device_pointer)(void **dptr, void *hptr, unsigned int flags);
	int (*copy)(void *dst, const void *src, size_t count, int kind);
	int (*fill)(void *ptr, int value, size_t count);
	const char *(*get_error_name)(int err);
	int (*get_device)(int *device);
	int (*stream_create_with_flags)(void **stream, unsigned int flags);
	int (*stream_destroy)(void *stream);
	int (*stream_synchronize)(void *stream);
	int (*copy_async)(void *dst, const void *src, size_t count, int kind, void *stream);
	int (*fill_async)(void *ptr, int value, size_t count, void *stream);
	int (*event_create_with_flags)(void **event, unsigned int flags);
	int (*event_record)(void *event, void *stream);
	int (*event_query)(void *event);
	int (*event_synchronize)(void *event);
	int (*event_destroy)(void *event);
	/* Optional (NULL when the runtime lacks them): only the tools' report uses them. */
	int (*device_get_pci_bus_id)(char *bus, int len, int device);
	int (*runtime_get_version)(int *version);
	int (*driver_get_version)(int *version);
};

/*
 * The loaded runtime, or NULL with *why set to one sentence (library not found, SOFTDOCA_CUDART
 * refused, a symbol missing). Loads once per process; thread-safe.
 */
const struct cuda_rt *cuda_rt_get(const char **why);
/*
 * Around every runtime call softdoca makes once the runtime is loaded (gpu_enter/gpu_leave):
 * false once the process is exiting (the runtime tears itself down): make no call then.
 */
bool cuda_rt_call_begin(void);
void cuda_rt_call_end(void);
/* "cudaErrorNoDevice (100)" for @err; a static buffer per thread. */
const char *cuda_rt_err(const struct cuda_rt *rt, int err);
/*
 * What to do about @err, one sentence, or NULL for errors without a standing cause; for an
 * insufficient driver it tells no driver from an old one (@rt's version calls). A static buffer
 * per thread.
 */
const char *cuda_rt_hint(const struct cuda_rt *rt, int err);
/* The runtime library loaded ("libcudart.so.12", or SOFTDOCA_CUDART's path). */
const char *cuda_rt_path(void);

struct gpu_alloc {
	struct gpu_alloc *next;
	void *gpu;   /* what the application got */
	void *base;  /* what CUDA returned (alignment padding before gpu) */
	size_t size; /* bytes from gpu on */
	enum doca_gpu_mem_type type;
	void *cpu; /* CPU address of gpu; NULL for GPU-only memory */
};

struct doca_gpu {
	struct priv_doca_gpu_base hdr; /* first: the core reads it (gpu_hook.h) */
	const struct cuda_rt *rt;
	int cuda_dev;
	/*
	 * softdoca's own stream on this GPU (non-blocking: it never waits for the application's
	 * kernels on the legacy or a blocking stream, nor they for it). Every copy and memset
	 * softdoca makes goes on it; set-up copies are synchronized before the call returns, the
	 * packet copies of GPU queues (copy_async) have an event behind them that the queue waits
	 * for, so what softdoca publishes (a completion, a status, a frame) is never ahead of the
	 * bytes. Any thread.
	 */
	void *stream;
	char bus_id[24]; /* "dddd:bb:dd.f" */
	/* Changed on the application's thread; also read by the DMA context's GPU thread. */
	pthread_mutex_t allocs_lock;
	struct gpu_alloc *allocs;
	/*
	 * Memory of softdoca's own that a kernel may still read (queue handles and rings, buf-array
	 * tables, semaphores, GPU DMA rings): retired when its object stops, freed when the GPU is
	 * destroyed. A cudaFree meanwhile would wait for a persistent kernel (an implicit device
	 * synchronization) or pull the memory from under it; the application ends its kernels
	 * before it destroys the GPU. Under allocs_lock.
	 */
	struct gpu_alloc *retired;
	size_t retired_bytes;
	unsigned int nb_sems;
};

/* Validates @gpu for @call (logs the rejection). */
doca_error_t gpunetio_check_gpu(const struct doca_gpu *gpu, const char *call);
/* doca_gpu_mem_alloc's body, logging under @call. */
doca_error_t gpunetio_mem_alloc(struct doca_gpu *gpu, size_t size, size_t align, enum doca_gpu_mem_type type,
				void **gpu_ptr, void **cpu_ptr, const char *call);
doca_error_t gpunetio_mem_free(struct doca_gpu *gpu, void *gpu_ptr, const char *call);
/* softdoca's own memory a kernel may still read: freed at doca_gpu_destroy() (see retired). */
void gpunetio_mem_retire(struct doca_gpu *gpu, void *gpu_ptr);
/*
 * A copy of @len bytes (@kind a CUDA_MEMCPY_* value) on the GPU's own stream, finished when it
 * returns; from any thread, whose current device is the application's again afterwards.
 */
doca_error_t gpunetio_memcpy(struct doca_gpu *gpu, void *dst, const void *src, size_t len, int kind, const char *call);
/* gpu_hook.h's cpu_view for GPU receive queues (eth_hooks.c); takes allocs_lock. */
doca_error_t gpunetio_cpu_view(struct doca_gpu *gpu, const void *gpu_ptr, size_t len, void **cpu_ptr);
doca_error_t gpunetio_memset(struct doca_gpu *gpu, void *gpu_ptr, size_t len, const char *call);

#endif /* SD_GPUNETIO_INTERNAL_H_ */
