/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_test.h - helpers of the GPUNetIO tests: the fake CUDA runtime's controls
 * (fake_cudart.c), reached through the library SOFTDOCA_CUDART names.
 */
#ifndef GPU_TEST_H_
#define GPU_TEST_H_

#include <dlfcn.h>

#include <doca_gpunetio.h>

#include "../common/sd_test.h"

#define FAKE_GPU_PCI "17:00.0"
#define N_ELEMS(a)   (sizeof(a) / sizeof((a)[0]))

struct fake_cuda {
	int (*live_allocations)(void);
	void (*fail_next_alloc)(int err);
	int (*current_device)(void);
	/* A persistent kernel starts / ends on the legacy or a blocking stream (0) or a non-blocking one. */
	void (*kernel_begin)(int nonblocking);
	void (*kernel_end)(int nonblocking);
	int (*pending)(void);	    /* copies to the device still to land */
	long (*copies)(void);	    /* cudaMemcpy and cudaMemcpyAsync calls so far */
	long (*async_copies)(void); /* cudaMemcpyAsync calls so far */
	long (*waits)(void);	    /* cudaStreamSynchronize and cudaEventSynchronize calls so far */
};

/* The fake's controls; call after doca_gpu_create() loaded it. Dies if it is not loaded. */
static inline struct fake_cuda fake_cuda_get(void)
{
	const char *path = getenv("SOFTDOCA_CUDART");
	struct fake_cuda f;
	void *h;

	if (path == NULL)
		sd_die_at(__FILE__, __LINE__, "SOFTDOCA_CUDART is not set: run through meson test");
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (h == NULL)
		sd_die_at(__FILE__, __LINE__, "%s is not loaded: %s", path, dlerror());
	*(void **)&f.live_allocations = dlsym(h, "fake_cuda_live_allocations");
	*(void **)&f.fail_next_alloc = dlsym(h, "fake_cuda_fail_next_alloc");
	*(void **)&f.current_device = dlsym(h, "fake_cuda_current_device");
	*(void **)&f.kernel_begin = dlsym(h, "fake_cuda_kernel_begin");
	*(void **)&f.kernel_end = dlsym(h, "fake_cuda_kernel_end");
	*(void **)&f.pending = dlsym(h, "fake_cuda_pending");
	*(void **)&f.copies = dlsym(h, "fake_cuda_copies");
	*(void **)&f.async_copies = dlsym(h, "fake_cuda_async_copies");
	*(void **)&f.waits = dlsym(h, "fake_cuda_waits");
	if (f.waits == NULL || f.copies == NULL || f.async_copies == NULL || f.live_allocations == NULL ||
	    f.fail_next_alloc == NULL || f.current_device == NULL || f.kernel_begin == NULL || f.kernel_end == NULL ||
	    f.pending == NULL)
		sd_die_at(__FILE__, __LINE__, "%s is not the fake CUDA runtime", path);
	return f;
}

#endif /* GPU_TEST_H_ */
