/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_cudart.c - a test-only CUDA runtime: the cuda* functions libdoca_gpunetio resolves,
 * backed by host memory, selected with SOFTDOCA_CUDART=<path of this library>.
 *
 * One GPU, CUDA device 0, at PCI 17:00.0 (also 0000:17:00.0). Device and mapped host memory
 * are host memory; as with CUDA's unified addressing, the device pointer of mapped host memory
 * is its host pointer, so CPU threads "playing the GPU" use the handles as kernels would.
 * Tests reach the controls below with dlopen(RTLD_NOLOAD) of the same path.
 *
 * FAKE_CUDA_PROTECT_DEVICE=1 makes cudaMalloc memory unreachable by CPU code, as device memory
 * is with a real driver: the pointer handed out is a PROT_NONE view of a memfd, and the fake's
 * cudaMemcpy/cudaMemset reach the bytes through a second, writable view. A CPU load or store
 * through the device pointer is a SIGSEGV.
 *
 * FAKE_CUDA_DRIVER=<version> plays the machine's driver (CUDA 12.4 is 12040; 0: no driver): a
 * runtime newer than it answers cudaErrorInsufficientDriver, as a real one does. The fake's own
 * runtime version follows the name it was loaded under: CUDA 12.8 as libcudart.so.12, 13.0
 * otherwise (copies of this library under both names play a machine with both runtimes).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <string.h>
#include <strings.h>

#define EXPORT __attribute__((visibility("default")))

enum { OK = 0, ERR_INVALID_VALUE = 1, ERR_MEMORY_ALLOCATION = 2, ERR_INSUFFICIENT_DRIVER = 35, ERR_INVALID_DEVICE = 101 };

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

static int runtime_version(void)
{
	Dl_info info;
	const char *name;

	if (dladdr((void *)runtime_version, &info) == 0 || info.dli_fname == NULL)
		return 13000;
	name = strrchr(info.dli_fname, '/');
	name = name != NULL ? name + 1 : info.dli_fname;
	return strcmp(name, "libcudart.so.12") == 0 ? 12080 : 13000;
}

static int driver_version(void)
{
	const char *e = getenv("FAKE_CUDA_DRIVER");

	return e != NULL && *e != '\0' ? atoi(e) : 13000;
}

static bool driver_too_old(void)
{
	return driver_version() < runtime_version();
}

EXPORT int cudaGetDeviceCount(int *count)
{
	if (driver_too_old())
		return ERR_INSUFFICIENT_DRIVER;
	*count = 1;
	return OK;
}

EXPORT int cudaDeviceGetByPCIBusId(int *device, const char *bus)
{
	if (driver_too_old())
		return ERR_INSUFFICIENT_DRIVER;
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

/* Protected device memory: the device view (PROT_NONE) and the fake's own view of each range. */
static struct {
	uint8_t *dev, *shadow;
	size_t len;
} ranges[64];
static pthread_mutex_t ranges_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_long copies; /* cudaMemcpy calls */

static bool protect_device(void)
{
	const char *e = getenv("FAKE_CUDA_PROTECT_DEVICE");

	return e != NULL && e[0] == '1';
}

/* The fake's address of @p: its shadow when @p is protected device memory. */
static void *reach(const void *p)
{
	const uint8_t *b = p;
	void *out = (void *)(uintptr_t)p;

	pthread_mutex_lock(&ranges_lock);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].dev != NULL && b >= ranges[i].dev && b < ranges[i].dev + ranges[i].len) {
			out = ranges[i].shadow + (b - ranges[i].dev);
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
	return out;
}

static int alloc_protected(void **p, size_t size)
{
	size_t len = (size + 4095) & ~(size_t)4095;
	int fd = memfd_create("fake-cuda-device", MFD_CLOEXEC), err = ERR_MEMORY_ALLOCATION;
	void *dev = MAP_FAILED, *shadow = MAP_FAILED;

	if (current != 0) {
		if (fd >= 0)
			close(fd);
		return ERR_INVALID_DEVICE;
	}
	if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
		goto out;
	dev = mmap(NULL, len, PROT_NONE, MAP_SHARED, fd, 0);
	shadow = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (dev == MAP_FAILED || shadow == MAP_FAILED)
		goto out;
	pthread_mutex_lock(&ranges_lock);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].dev == NULL) {
			ranges[i].dev = dev;
			ranges[i].shadow = shadow;
			ranges[i].len = len;
			err = OK;
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
out:
	if (fd >= 0)
		close(fd);
	if (err != OK) {
		if (dev != MAP_FAILED)
			munmap(dev, len);
		if (shadow != MAP_FAILED)
			munmap(shadow, len);
		return err;
	}
	*p = dev;
	atomic_fetch_add(&live, 1);
	return OK;
}

/* True (and unmapped) when @p was protected device memory. */
static bool release_protected(void *p)
{
	bool hit = false;

	pthread_mutex_lock(&ranges_lock);
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (ranges[i].dev == p) {
			munmap(ranges[i].dev, ranges[i].len);
			munmap(ranges[i].shadow, ranges[i].len);
			ranges[i].dev = NULL;
			hit = true;
			break;
		}
	pthread_mutex_unlock(&ranges_lock);
	if (hit)
		atomic_fetch_sub(&live, 1);
	return hit;
}

EXPORT long fake_cuda_copies(void)
{
	return atomic_load(&copies);
}

EXPORT int cudaMalloc(void **p, size_t size)
{
	if (protect_device() && atomic_load(&fail_next) == 0)
		return alloc_protected(p, size);
	return alloc(p, size);
}

EXPORT int cudaFree(void *p)
{
	if (p != NULL && release_protected(p))
		return OK;
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
	atomic_fetch_add(&copies, 1);
	memcpy(reach(dst), reach(src), count);
	return OK;
}

EXPORT int cudaMemset(void *p, int value, size_t count)
{
	memset(reach(p), value, count);
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
	case ERR_INSUFFICIENT_DRIVER:
		return "cudaErrorInsufficientDriver";
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
	*v = runtime_version();
	return OK;
}

EXPORT int cudaDriverGetVersion(int *v)
{
	*v = driver_version();
	return OK;
}
