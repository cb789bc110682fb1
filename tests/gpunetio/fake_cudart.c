/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_cudart.c - a test-only CUDA runtime: the cuda* functions libdoca_gpunetio resolves,
 * backed by host memory, selected with SOFTDOCA_CUDART=<path of this library>.
 *
 * One GPU, CUDA device 0, at PCI 17:00.0 (also 0000:17:00.0). Device and mapped host memory
 * are host memory; as with CUDA's unified addressing, the device pointer of mapped host memory
 * is its host pointer, so CPU threads "playing the GPU" use the handles as kernels would.
 * Tests reach the controls below with dlopen(RTLD_NOLOAD) of the same path.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define EXPORT __attribute__((visibility("default")))

enum { OK = 0, ERR_INVALID_VALUE = 1, ERR_MEMORY_ALLOCATION = 2, ERR_INVALID_DEVICE = 101 };

static atomic_int live;	     /* allocations not freed */
static atomic_int fail_next; /* error the next allocation returns, 0 = none */
static _Thread_local int current = -1;

/* Controls for tests. */
EXPORT int fake_cuda_live_allocations(void)
{
	return atomic_load(&live);
}

EXPORT void fake_cuda_fail_next_alloc(int err)
{
	atomic_store(&fail_next, err);
}

EXPORT int fake_cuda_current_device(void)
{
	return current;
}

EXPORT int cudaGetDeviceCount(int *count)
{
	*count = 1;
	return OK;
}

EXPORT int cudaDeviceGetByPCIBusId(int *device, const char *bus)
{
	if (strcasecmp(bus, "17:00.0") != 0 && strcasecmp(bus, "0000:17:00.0") != 0)
		return ERR_INVALID_DEVICE;
	*device = 0;
	return OK;
}

EXPORT int cudaSetDevice(int device)
{
	if (device != 0)
		return ERR_INVALID_DEVICE;
	current = device;
	return OK;
}

EXPORT int cudaDeviceGetAttribute(int *value, int attr, int device)
{
	if (device != 0)
		return ERR_INVALID_DEVICE;
	*value = attr == 75 ? 9 : 0; /* compute capability 9.0, like an H100/H200 */
	return OK;
}

static int alloc(void **p, size_t size)
{
	int err = atomic_exchange(&fail_next, 0);

	if (current != 0)
		return ERR_INVALID_DEVICE;
	if (err != 0)
		return err;
	*p = aligned_alloc(256, (size + 255) & ~(size_t)255);
	if (*p == NULL)
		return ERR_MEMORY_ALLOCATION;
	atomic_fetch_add(&live, 1);
	return OK;
}

static int release(void *p)
{
	if (p == NULL)
		return ERR_INVALID_VALUE;
	free(p);
	atomic_fetch_sub(&live, 1);
	return OK;
}

EXPORT int cudaMalloc(void **p, size_t size)
{
	return alloc(p, size);
}

EXPORT int cudaFree(void *p)
{
	return release(p);
}

EXPORT int cudaHostAlloc(void **p, size_t size, unsigned int flags)
{
	(void)flags;
	return alloc(p, size);
}

EXPORT int cudaFreeHost(void *p)
{
	return release(p);
}

EXPORT int cudaHostGetDevicePointer(void **dptr, void *hptr, unsigned int flags)
{
	if (flags != 0 || hptr == NULL)
		return ERR_INVALID_VALUE;
	*dptr = hptr;
	return OK;
}

EXPORT int cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
	(void)kind;
	memcpy(dst, src, count);
	return OK;
}

EXPORT int cudaMemset(void *p, int value, size_t count)
{
	memset(p, value, count);
	return OK;
}

EXPORT const char *cudaGetErrorName(int err)
{
	switch (err) {
	case OK:
		return "cudaSuccess";
	case ERR_INVALID_VALUE:
		return "cudaErrorInvalidValue";
	case ERR_MEMORY_ALLOCATION:
		return "cudaErrorMemoryAllocation";
	case ERR_INVALID_DEVICE:
		return "cudaErrorInvalidDevice";
	default:
		return "cudaErrorUnknown";
	}
}

EXPORT int cudaDeviceGetPCIBusId(char *bus, int len, int device)
{
	if (device != 0)
		return ERR_INVALID_DEVICE;
	if (len < 13)
		return ERR_INVALID_VALUE;
	memcpy(bus, "0000:17:00.0", 13);
	return OK;
}

EXPORT int cudaRuntimeGetVersion(int *v)
{
	*v = 13000;
	return OK;
}

EXPORT int cudaDriverGetVersion(int *v)
{
	*v = 13000;
	return OK;
}
