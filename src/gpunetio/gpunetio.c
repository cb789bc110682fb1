/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpunetio.c - struct doca_gpu and its memory.
 *
 * Where each memory type lives (docs/gpunetio.md):
 *   GPU      cudaMalloc: device memory, no CPU pointer;
 *   CPU_GPU  cudaHostAlloc(Mapped|Portable): pinned host memory, GPU pointer from
 *            cudaHostGetDevicePointer;
 *   GPU_CPU  the same as CPU_GPU: exposing device memory to the CPU needs GDRCopy-style BAR
 *            mappings softdoca does not use; both sides still reach it through their pointers.
 * Each allocation is recorded on its GPU so mem_free finds it by GPU pointer and destroy can
 * refuse while memory is live.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_gpunetio.h>

#include "core.h"
#include "gpunetio_internal.h"

#define CUDA_MIN_ALIGN 256 /* what cudaMalloc guarantees */

static doca_error_t cuda_to_doca(int err)
{
	switch (err) {
	case SD_CUDA_ERROR_MEMORY_ALLOCATION:
		return DOCA_ERROR_NO_MEMORY;
	case SD_CUDA_ERROR_STUB_LIBRARY:
	case SD_CUDA_ERROR_INSUFFICIENT_DRIVER:
	case SD_CUDA_ERROR_NO_DEVICE:
	case SD_CUDA_ERROR_INVALID_DEVICE:
		return DOCA_ERROR_NOT_FOUND;
	default:
		return DOCA_ERROR_DRIVER;
	}
}

doca_error_t gpunetio_check_gpu(const struct doca_gpu *gpu, const char *call)
{
	if (gpu == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL GPU", call);
	if (priv_doca_gpu_base(gpu) == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %p is not a GPU from doca_gpu_create() (destroyed, or another object)", call,
				 (const void *)gpu);
	return DOCA_SUCCESS;
}

/*
 * "BB:DD.F", "DDDD:BB:DD.F" or "DDDDDDDD:BB:DD.F" (the form nvidia-smi --query-gpu=pci.bus_id
 * prints), hex digits of either case, function 0..7. Writes the address as "dddd:bb:dd.f" (the
 * domain with more digits only when it needs them) into @out; false when @s is none of these.
 */
static bool parse_bus_id(const char *s, char *out, size_t out_len)
{
	static const char *const shapes[] = {"xx:xx.f", "xxxx:xx:xx.f", "xxxxxxxx:xx:xx.f"};

	for (size_t i = 0; i < SD_ARRAY_SIZE(shapes); i++) {
		const char *p = shapes[i];
		const char *q = s;

		for (; *p != '\0' && *q != '\0'; p++, q++) {
			if (*p == 'x' && !isxdigit((unsigned char)*q))
				break;
			if (*p == 'f' && !(*q >= '0' && *q <= '7'))
				break;
			if ((*p == ':' || *p == '.') && *q != *p)
				break;
		}
		if (*p == '\0' && *q == '\0') {
			unsigned long domain = 0;
			const char *rest = s;

			if (i > 0) {
				domain = strtoul(s, NULL, 16);
				rest = strchr(s, ':') + 1;
			}
			snprintf(out, out_len, "%04lx:%c%c:%c%c.%c", domain, tolower((unsigned char)rest[0]),
				 tolower((unsigned char)rest[1]), tolower((unsigned char)rest[3]),
				 tolower((unsigned char)rest[4]), rest[6]);
			return true;
		}
	}
	return false;
}

static doca_error_t hook_mem_alloc(struct doca_gpu *gpu, size_t size, void **gpu_ptr, const char *call)
{
	return gpunetio_mem_alloc(gpu, size, 0, DOCA_GPU_MEM_TYPE_GPU, gpu_ptr, NULL, call);
}

static doca_error_t hook_copy_to_gpu(struct doca_gpu *gpu, void *gpu_dst, const void *src, size_t len, const char *call)
{
	return gpunetio_memcpy(gpu, gpu_dst, src, len, SD_CUDA_MEMCPY_HOST_TO_DEVICE, call);
}

static void hook_mem_free(struct doca_gpu *gpu, void *gpu_ptr)
{
	gpunetio_mem_retire(gpu, gpu_ptr);
}

static doca_error_t hook_mem_alloc_mapped(struct doca_gpu *gpu, size_t size, void **gpu_ptr, void **cpu_ptr,
					  const char *call)
{
	return gpunetio_mem_alloc(gpu, size, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, gpu_ptr, cpu_ptr, call);
}

static const char *hook_name(const struct doca_gpu *gpu)
{
	return gpu->bus_id;
}

static bool hook_device_only(struct doca_gpu *gpu, const void *addr, size_t len)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	bool hit = false;

	pthread_mutex_lock(&gpu->allocs_lock);
	for (const struct gpu_alloc *a = gpu->allocs; a != NULL && !hit; a = a->next) {
		uintptr_t b = (uintptr_t)a->gpu;

		hit = a->type == DOCA_GPU_MEM_TYPE_GPU && lo < b + a->size && b < hi;
	}
	pthread_mutex_unlock(&gpu->allocs_lock);
	return hit;
}

/*
 * Any thread (DMA engine workers): cudaMemcpyDefault, which tells the direction from the
 * pointers (unified addressing).
 */
static doca_error_t hook_copy(struct doca_gpu *gpu, void *dst, const void *src, size_t len, const char *owner)
{
	return gpunetio_memcpy(gpu, dst, src, len, SD_CUDA_MEMCPY_DEFAULT, owner);
}

/*
 * Makes @gpu the calling thread's current device (softdoca's own threads and the application's
 * alike) and says in *@prev which one to give back with gpu_leave(): CUDA calls go to the
 * current device, and a call softdoca makes on the application's thread must not change it.
 */
static doca_error_t gpu_enter(struct doca_gpu *gpu, int *prev, const char *call)
{
	int err;

	*prev = gpu->cuda_dev;
	if (!cuda_rt_call_begin()) {
		SD_DBG(COMP, "%s: GPU %s: the process is exiting; no more CUDA calls", call, gpu->bus_id);
		return DOCA_ERROR_BAD_STATE;
	}
	(void)gpu->rt->get_device(prev);
	err = gpu->rt->set_device(gpu->cuda_dev);
	if (err != SD_CUDA_SUCCESS) {
		cuda_rt_call_end();
		return SD_REJECT(cuda_to_doca(err), COMP, "%s: GPU %s: cudaSetDevice failed with %s", call, gpu->bus_id,
				 cuda_rt_err(gpu->rt, err));
	}
	return DOCA_SUCCESS;
}

static void gpu_leave(struct doca_gpu *gpu, int prev)
{
	if (prev != gpu->cuda_dev)
		(void)gpu->rt->set_device(prev);
	cuda_rt_call_end();
}

/*
 * Queued on the GPU's own stream; not waited for (an event recorded after it says when it
 * landed). cudaMemcpyDefault: the direction from the pointers (unified addressing).
 */
static doca_error_t hook_copy_async(struct doca_gpu *gpu, void *dst, const void *src, size_t len, const char *call)
{
	int prev, err;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	err = gpu->rt->copy_async(dst, src, len, SD_CUDA_MEMCPY_DEFAULT, gpu->stream);
	gpu_leave(gpu, prev);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: GPU %s: cudaMemcpyAsync of %zu bytes failed with %s",
				 call, gpu->bus_id, len, cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

static doca_error_t hook_event_create(struct doca_gpu *gpu, void **event, const char *call)
{
	int prev, err;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	err = gpu->rt->event_create_with_flags(event, SD_CUDA_EVENT_DISABLE_TIMING);
	gpu_leave(gpu, prev);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(cuda_to_doca(err), COMP, "%s: GPU %s: cudaEventCreateWithFlags failed with %s", call,
				 gpu->bus_id, cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

static void hook_event_destroy(struct doca_gpu *gpu, void *event)
{
	int prev;

	if (event == NULL || gpu_enter(gpu, &prev, "event destroy") != DOCA_SUCCESS)
		return;
	(void)gpu->rt->event_destroy(event);
	gpu_leave(gpu, prev);
}

static doca_error_t hook_event_record(struct doca_gpu *gpu, void *event, const char *call)
{
	int prev, err;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	err = gpu->rt->event_record(event, gpu->stream);
	gpu_leave(gpu, prev);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: GPU %s: cudaEventRecord failed with %s", call,
				 gpu->bus_id, cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

static doca_error_t hook_event_done(struct doca_gpu *gpu, void *event, bool wait, const char *call)
{
	int prev, err;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	err = wait ? gpu->rt->event_synchronize(event) : gpu->rt->event_query(event);
	gpu_leave(gpu, prev);
	if (err == SD_CUDA_ERROR_NOT_READY)
		return DOCA_ERROR_AGAIN;
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: GPU %s: %s failed with %s", call, gpu->bus_id,
				 wait ? "cudaEventSynchronize" : "cudaEventQuery", cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

static const struct priv_doca_gpu_ops gpu_ops = {
    .copy_async = hook_copy_async,
    .event_create = hook_event_create,
    .event_destroy = hook_event_destroy,
    .event_record = hook_event_record,
    .event_done = hook_event_done,
    .copy = hook_copy,
    .mem_alloc = hook_mem_alloc,
    .copy_to_gpu = hook_copy_to_gpu,
    .mem_free = hook_mem_free,
    .mem_alloc_mapped = hook_mem_alloc_mapped,
    .name = hook_name,
    .device_only = hook_device_only,
    .cpu_view = gpunetio_cpu_view,
};

DOCA_EXPERIMENTAL doca_error_t doca_gpu_create(const char *gpu_bus_id, struct doca_gpu **gpu_dev)
{
	const char *call = "doca_gpu_create";
	const struct cuda_rt *rt;
	const char *why = NULL;
	struct doca_gpu *gpu;
	char bus[24];
	void *stream = NULL;
	int dev = -1, prev = -1;
	int err;

	if (gpu_bus_id == NULL || gpu_dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 gpu_bus_id == NULL ? "PCI bus id" : "output argument");
	if (!parse_bus_id(gpu_bus_id, bus, sizeof(bus)))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: \"%.32s\" is not a PCI address; pass the GPU's as BB:DD.F, DDDD:BB:DD.F or "
				 "DDDDDDDD:BB:DD.F (nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader prints it)",
				 call, gpu_bus_id);
	gpu_bus_id = bus; /* one spelling from here on, for CUDA and for the log lines */
	rt = cuda_rt_get(&why);
	if (rt == NULL)
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP, "%s: GPU %s: %s", call, gpu_bus_id, why);
	err = rt->device_get_by_pci_bus_id(&dev, gpu_bus_id);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(cuda_to_doca(err), COMP, "%s: GPU %s: cudaDeviceGetByPCIBusId (%s) failed with %s; %s",
				 call, gpu_bus_id, cuda_rt_path(), cuda_rt_err(rt, err),
				 cuda_rt_hint(rt, err) != NULL
				     ? cuda_rt_hint(rt, err)
				     : "check the address with nvidia-smi --query-gpu=pci.bus_id");
	(void)rt->get_device(&prev);
	err = rt->set_device(dev);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(cuda_to_doca(err), COMP,
				 "%s: GPU %s (CUDA device %d): cudaSetDevice failed with %s%s%s", call, gpu_bus_id, dev,
				 cuda_rt_err(rt, err), cuda_rt_hint(rt, err) != NULL ? "; " : "",
				 cuda_rt_hint(rt, err) != NULL ? cuda_rt_hint(rt, err) : "");
	err = rt->stream_create_with_flags(&stream, SD_CUDA_STREAM_NON_BLOCKING);
	if (prev != dev)
		(void)rt->set_device(prev); /* the application's current device stays its own */
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(cuda_to_doca(err), COMP,
				 "%s: GPU %s (CUDA device %d): cudaStreamCreateWithFlags failed with %s", call,
				 gpu_bus_id, dev, cuda_rt_err(rt, err));
	gpu = calloc(1, sizeof(*gpu));
	if (gpu == NULL) {
		(void)rt->stream_destroy(stream);
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: GPU %s: out of memory", call, gpu_bus_id);
	}
	gpu->stream = stream;
	gpu->hdr.magic = PRIV_DOCA_GPU_MAGIC;
	gpu->hdr.ops = &gpu_ops;
	pthread_mutex_init(&gpu->allocs_lock, NULL);
	gpu->rt = rt;
	gpu->cuda_dev = dev;
	snprintf(gpu->bus_id, sizeof(gpu->bus_id), "%s", gpu_bus_id);
	SD_DBG(COMP, "GPU %s is CUDA device %d", gpu->bus_id, dev);
	*gpu_dev = gpu;
	return DOCA_SUCCESS;
}

static doca_error_t alloc_free(struct doca_gpu *gpu, struct gpu_alloc *a, const char *call);

DOCA_EXPERIMENTAL doca_error_t doca_gpu_destroy(struct doca_gpu *gpu_dev)
{
	const char *call = "doca_gpu_destroy";
	doca_error_t ret = gpunetio_check_gpu(gpu_dev, call);
	unsigned int n = 0;

	if (ret != DOCA_SUCCESS)
		return ret;
	pthread_mutex_lock(&gpu_dev->allocs_lock);
	for (const struct gpu_alloc *a = gpu_dev->allocs; a != NULL; a = a->next)
		n++;
	pthread_mutex_unlock(&gpu_dev->allocs_lock);
	if (n > 0 || gpu_dev->nb_sems > 0)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: GPU %s still has %u allocations and %u semaphores; free them "
				 "(doca_gpu_mem_free, doca_gpu_semaphore_destroy, doca_buf_arr_stop) first",
				 call, gpu_dev->bus_id, n, gpu_dev->nb_sems);
	/* What the stopped queues, semaphores and rings left for their kernels: those have ended now. */
	if (gpu_dev->retired != NULL)
		SD_DBG(COMP, "%s: GPU %s: freeing %zu bytes that stopped queues left for their kernels", call,
		       gpu_dev->bus_id, gpu_dev->retired_bytes);
	while (gpu_dev->retired != NULL) {
		struct gpu_alloc *a = gpu_dev->retired;

		gpu_dev->retired = a->next;
		(void)alloc_free(gpu_dev, a, call);
	}
	gpu_dev->retired_bytes = 0;
	{
		int prev;

		if (gpu_enter(gpu_dev, &prev, call) == DOCA_SUCCESS) {
			(void)gpu_dev->rt->stream_synchronize(gpu_dev->stream);
			(void)gpu_dev->rt->stream_destroy(gpu_dev->stream);
			gpu_leave(gpu_dev, prev);
		}
	}
	gpu_dev->hdr.magic = 0;
	pthread_mutex_destroy(&gpu_dev->allocs_lock);
	free(gpu_dev);
	return DOCA_SUCCESS;
}

static doca_error_t mem_alloc_on(struct doca_gpu *gpu, size_t size, size_t align, enum doca_gpu_mem_type type,
				 void **gpu_ptr, void **cpu_ptr, const char *call);

doca_error_t gpunetio_mem_alloc(struct doca_gpu *gpu, size_t size, size_t align, enum doca_gpu_mem_type type,
				void **gpu_ptr, void **cpu_ptr, const char *call)
{
	int prev;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = mem_alloc_on(gpu, size, align, type, gpu_ptr, cpu_ptr, call);
	gpu_leave(gpu, prev);
	return ret;
}

/* With @gpu current. */
static doca_error_t mem_alloc_on(struct doca_gpu *gpu, size_t size, size_t align, enum doca_gpu_mem_type type,
				 void **gpu_ptr, void **cpu_ptr, const char *call)
{
	const struct cuda_rt *rt = gpu->rt;
	struct gpu_alloc *a;
	size_t pad, total;
	uintptr_t g;
	void *base = NULL;
	void *dbase = NULL;
	doca_error_t ret;
	int err;

	if (align == 0)
		align = CUDA_MIN_ALIGN;
	pad = align > CUDA_MIN_ALIGN ? align - 1 : 0;
	if (__builtin_add_overflow(size, pad, &total))
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: GPU %s: %zu bytes aligned to %zu overflow", call,
				 gpu->bus_id, size, align);
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: GPU %s: out of memory", call, gpu->bus_id);
	if (type == DOCA_GPU_MEM_TYPE_GPU) {
		err = rt->dev_malloc(&base, total);
		if (err != SD_CUDA_SUCCESS) {
			ret = SD_REJECT(cuda_to_doca(err), COMP, "%s: GPU %s: cudaMalloc(%zu) failed with %s", call,
					gpu->bus_id, total, cuda_rt_err(rt, err));
			goto fail;
		}
		dbase = base;
	} else {
		err = rt->host_alloc(&base, total, SD_CUDA_HOST_ALLOC_MAPPED | SD_CUDA_HOST_ALLOC_PORTABLE);
		if (err != SD_CUDA_SUCCESS) {
			ret =
			    SD_REJECT(cuda_to_doca(err), COMP, "%s: GPU %s: cudaHostAlloc(%zu, mapped) failed with %s",
				      call, gpu->bus_id, total, cuda_rt_err(rt, err));
			goto fail;
		}
		err = rt->host_get_device_pointer(&dbase, base, 0);
		if (err != SD_CUDA_SUCCESS) {
			ret = SD_REJECT(cuda_to_doca(err), COMP,
					"%s: GPU %s: cudaHostGetDevicePointer failed with %s; the GPU cannot map host "
					"memory, use DOCA_GPU_MEM_TYPE_GPU",
					call, gpu->bus_id, cuda_rt_err(rt, err));
			rt->free_host(base);
			goto fail;
		}
	}
	g = ((uintptr_t)dbase + align - 1) & ~(uintptr_t)(align - 1);
	a->gpu = (void *)g;
	a->base = base;
	a->size = size;
	a->type = type;
	a->cpu = type == DOCA_GPU_MEM_TYPE_GPU ? NULL : (uint8_t *)base + (g - (uintptr_t)dbase);
	if (type == DOCA_GPU_MEM_TYPE_GPU && priv_doca_gpu_mem_add(gpu, a->gpu, size) != DOCA_SUCCESS) {
		rt->dev_free(base);
		ret = SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: GPU %s: out of memory", call, gpu->bus_id);
		goto fail;
	}
	pthread_mutex_lock(&gpu->allocs_lock);
	a->next = gpu->allocs;
	gpu->allocs = a;
	pthread_mutex_unlock(&gpu->allocs_lock);
	*gpu_ptr = a->gpu;
	if (cpu_ptr != NULL)
		*cpu_ptr = type == DOCA_GPU_MEM_TYPE_GPU ? NULL : (uint8_t *)base + (g - (uintptr_t)dbase);
	return DOCA_SUCCESS;
fail:
	free(a);
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_mem_alloc(struct doca_gpu *gpu_dev, size_t size, size_t alignment,
						  enum doca_gpu_mem_type mtype, void **memptr_gpu, void **memptr_cpu)
{
	const char *call = "doca_gpu_mem_alloc";
	doca_error_t ret = gpunetio_check_gpu(gpu_dev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (memptr_gpu == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: GPU %s: NULL memptr_gpu", call, gpu_dev->bus_id);
	if (size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: GPU %s: size 0; allocate at least one byte", call,
				 gpu_dev->bus_id);
	if ((alignment & (alignment - 1)) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: GPU %s: alignment %zu is not a power of two; pass 0 or a power of two", call,
				 gpu_dev->bus_id, alignment);
	if (mtype != DOCA_GPU_MEM_TYPE_GPU && mtype != DOCA_GPU_MEM_TYPE_GPU_CPU && mtype != DOCA_GPU_MEM_TYPE_CPU_GPU)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: GPU %s: memory type %d is none of DOCA_GPU_MEM_TYPE_GPU, _GPU_CPU, _CPU_GPU",
				 call, gpu_dev->bus_id, (int)mtype);
	if (mtype != DOCA_GPU_MEM_TYPE_GPU && memptr_cpu == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: GPU %s: NULL memptr_cpu; memory of type %s has a CPU pointer, pass where to "
				 "store it",
				 call, gpu_dev->bus_id, mtype == DOCA_GPU_MEM_TYPE_GPU_CPU ? "GPU_CPU" : "CPU_GPU");
	return gpunetio_mem_alloc(gpu_dev, size, alignment, mtype, memptr_gpu, memptr_cpu, call);
}

/* Takes @gpu_ptr's allocation off the live list: NULL when it is none of this GPU's. */
static struct gpu_alloc *alloc_take(struct doca_gpu *gpu, const void *gpu_ptr)
{
	struct gpu_alloc **pp = &gpu->allocs;
	struct gpu_alloc *a;

	pthread_mutex_lock(&gpu->allocs_lock);
	while (*pp != NULL && (*pp)->gpu != gpu_ptr)
		pp = &(*pp)->next;
	a = *pp;
	if (a != NULL)
		*pp = a->next;
	pthread_mutex_unlock(&gpu->allocs_lock);
	if (a != NULL && a->type == DOCA_GPU_MEM_TYPE_GPU)
		priv_doca_gpu_mem_del(a->gpu);
	return a;
}

void gpunetio_mem_retire(struct doca_gpu *gpu, void *gpu_ptr)
{
	struct gpu_alloc *a = alloc_take(gpu, gpu_ptr);

	if (a == NULL)
		return;
	pthread_mutex_lock(&gpu->allocs_lock);
	a->next = gpu->retired;
	gpu->retired = a;
	gpu->retired_bytes += a->size;
	pthread_mutex_unlock(&gpu->allocs_lock);
}

doca_error_t gpunetio_mem_free(struct doca_gpu *gpu, void *gpu_ptr, const char *call)
{
	struct gpu_alloc *a = alloc_take(gpu, gpu_ptr);

	if (a == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: GPU %s: %p is not the GPU pointer of a live doca_gpu_mem_alloc() allocation "
				 "(freed already, or another GPU's)",
				 call, gpu->bus_id, gpu_ptr);
	return alloc_free(gpu, a, call);
}

/* cudaFree / cudaFreeHost of @a (taken off every list), then @a itself. */
static doca_error_t alloc_free(struct doca_gpu *gpu, struct gpu_alloc *a, const char *call)
{
	void *gpu_ptr = a->gpu;
	const char *what;
	int err, prev;

	what = a->type == DOCA_GPU_MEM_TYPE_GPU ? "cudaFree" : "cudaFreeHost";
	if (gpu_enter(gpu, &prev, call) != DOCA_SUCCESS) {
		free(a);
		return DOCA_ERROR_DRIVER;
	}
	/* What softdoca itself still had in flight to it lands first. */
	(void)gpu->rt->stream_synchronize(gpu->stream);
	err = a->type == DOCA_GPU_MEM_TYPE_GPU ? gpu->rt->dev_free(a->base) : gpu->rt->free_host(a->base);
	gpu_leave(gpu, prev);
	free(a);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: GPU %s: %s of %p failed with %s", call, gpu->bus_id,
				 what, gpu_ptr, cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_mem_free(struct doca_gpu *gpu_dev, void *memptr_gpu)
{
	const char *call = "doca_gpu_mem_free";
	doca_error_t ret = gpunetio_check_gpu(gpu_dev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (memptr_gpu == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: GPU %s: NULL memptr_gpu", call, gpu_dev->bus_id);
	return gpunetio_mem_free(gpu_dev, memptr_gpu, call);
}

/*
 * On the GPU's own non-blocking stream, then synchronized: a cudaMemcpy from pageable memory may
 * return before the bytes reach the device, and one on the legacy stream would wait for (and be
 * waited for by) a persistent kernel on a blocking stream.
 */
doca_error_t gpunetio_memcpy(struct doca_gpu *gpu, void *dst, const void *src, size_t len, int kind, const char *call)
{
	int prev, err;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	err = gpu->rt->copy_async(dst, src, len, kind, gpu->stream);
	if (err == SD_CUDA_SUCCESS)
		err = gpu->rt->stream_synchronize(gpu->stream);
	gpu_leave(gpu, prev);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: GPU %s: a copy of %zu bytes failed with %s", call,
				 gpu->bus_id, len, cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

doca_error_t gpunetio_memset(struct doca_gpu *gpu, void *gpu_ptr, size_t len, const char *call)
{
	int prev, err;
	doca_error_t ret = gpu_enter(gpu, &prev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	err = gpu->rt->fill_async(gpu_ptr, 0, len, gpu->stream);
	if (err == SD_CUDA_SUCCESS)
		err = gpu->rt->stream_synchronize(gpu->stream);
	gpu_leave(gpu, prev);
	if (err != SD_CUDA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, "%s: GPU %s: a memset of %zu bytes failed with %s", call,
				 gpu->bus_id, len, cuda_rt_err(gpu->rt, err));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size,
						  int *dmabuf_fd)
{
	const char *call = "doca_gpu_dmabuf_fd";
	doca_error_t ret = gpunetio_check_gpu(gpu_dev, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (memptr_gpu == NULL || dmabuf_fd == NULL || size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: GPU %s: %s", call, gpu_dev->bus_id,
				 memptr_gpu == NULL  ? "NULL memptr_gpu"
				 : dmabuf_fd == NULL ? "NULL output argument"
						     : "size 0");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "%s: GPU %s: softdoca exports no dmabuf (its NIC is software and reads the memory through "
			 "its pointer); register the memory with doca_mmap_set_memrange() instead",
			 call, gpu_dev->bus_id);
}
