/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_gpu_create / destroy / mem_alloc / mem_free / dmabuf_fd against the fake CUDA runtime:
 * every memory type and alignment, the pointers each type returns, rejections, and that every
 * CUDA allocation is given back.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "gpu_test.h"

static struct doca_gpu *gpu;

static void *alloc_on_other_thread(void *arg)
{
	void **p = arg;

	/* The library makes the GPU current on the calling thread before allocating. */
	if (doca_gpu_mem_alloc(gpu, 64, 0, DOCA_GPU_MEM_TYPE_GPU, p, NULL) != DOCA_SUCCESS)
		*p = NULL;
	return NULL;
}

/* A thread that allocates and frees GPU memory until the process ends. */
static void *churn(void *arg)
{
	struct doca_gpu *g = arg;

	for (;;) {
		void *p = NULL;

		if (doca_gpu_mem_alloc(g, 64, 0, DOCA_GPU_MEM_TYPE_GPU, &p, NULL) == DOCA_SUCCESS)
			(void)doca_gpu_mem_free(g, p);
	}
	return NULL;
}

/*
 * The process ends while another thread is in the middle of CUDA calls: the runtime's exit
 * handler tears it down (the fake aborts a call made after that), so softdoca must make none.
 */
static struct doca_gpu *busy_gpu;
static volatile int busy_exit;

/*
 * LeakSanitizer asks this at exit (ASan builds): a child that ends with a thread still inside
 * its calls is not leak-checked (LeakSanitizer's tracer stops threads and does not survive
 * one in the middle of a call); everything else is.
 */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return busy_exit;
}

static int exit_while_busy(void *arg)
{
	pthread_t t;

	(void)arg;
	if (doca_gpu_create(FAKE_GPU_PCI, &busy_gpu) != DOCA_SUCCESS ||
	    pthread_create(&t, NULL, churn, busy_gpu) != 0)
		return T_EXIT_FAIL;
	usleep(20000);
	busy_exit = 1;
	exit(T_EXIT_PASS); /* the churning thread is still calling */
}

/*
 * Two GPUs: the application works on device 0 and opens the other one. softdoca's calls make
 * that GPU current for themselves (its memory is allocated there) and give the application's
 * device back; a thread of the application that never chose a device works too.
 */
static void *alloc_on_fresh_thread(void *arg)
{
	void *p = NULL;

	if (doca_gpu_mem_alloc(arg, 64, 0, DOCA_GPU_MEM_TYPE_GPU, &p, NULL) != DOCA_SUCCESS)
		return NULL;
	return p;
}

static int two_gpus(void *arg)
{
	struct doca_gpu *g1 = NULL;
	void *h = dlopen(getenv("SOFTDOCA_CUDART"), RTLD_NOW);
	int (*set_device)(int), (*get_device)(int *), (*alloc_device)(const void *);
	void *p = NULL, *q = NULL;
	pthread_t t;
	int cur = -1;

	(void)arg;
	setenv("FAKE_CUDA_DEVICES", "2", 1);
	CHECK(h != NULL);
	*(void **)&set_device = dlsym(h, "cudaSetDevice");
	*(void **)&get_device = dlsym(h, "cudaGetDevice");
	*(void **)&alloc_device = dlsym(h, "fake_cuda_alloc_device");
	CHECK(set_device != NULL && get_device != NULL && alloc_device != NULL);
	CHECK_EQ(set_device(0), 0); /* the application's own device */
	CHECK_OK(doca_gpu_create("65:00.0", &g1));
	CHECK_EQ(get_device(&cur), 0);
	CHECK_EQ(cur, 0);
	CHECK_OK(doca_gpu_mem_alloc(g1, 64, 0, DOCA_GPU_MEM_TYPE_GPU, &p, NULL));
	CHECK_EQ(alloc_device(p), 1);
	CHECK_EQ(get_device(&cur), 0);
	CHECK_EQ(cur, 0);
	CHECK(pthread_create(&t, NULL, alloc_on_fresh_thread, g1) == 0);
	CHECK(pthread_join(t, &q) == 0);
	CHECK(q != NULL);
	CHECK_EQ(alloc_device(q), 1);
	CHECK_OK(doca_gpu_mem_free(g1, q));
	CHECK_OK(doca_gpu_mem_free(g1, p));
	CHECK_OK(doca_gpu_destroy(g1));
	CHECK_EQ(get_device(&cur), 0);
	CHECK_EQ(cur, 0);
	return T_EXIT_PASS;
}

int main(void)
{
	static const enum doca_gpu_mem_type types[] = {DOCA_GPU_MEM_TYPE_GPU, DOCA_GPU_MEM_TYPE_GPU_CPU,
						       DOCA_GPU_MEM_TYPE_CPU_GPU};
	static const size_t aligns[] = {0, 1, 64, 256, 4096, 1 << 16};
	struct doca_gpu *other = NULL;
	struct fake_cuda fake;
	void *g = NULL;
	void *c = NULL;
	pthread_t t;
	int fd = -1;

	CHECK_EQ(check_run_child(two_gpus, NULL, "two GPUs"), T_EXIT_PASS);
	/* In a child: the runtime is loaded once per process. */
	for (int i = 0; i < 5; i++)
		CHECK_EQ(check_run_child(exit_while_busy, NULL, "exit while busy"), T_EXIT_PASS);

	/* Arguments, before any CUDA is touched. */
	CHECK_ERR(doca_gpu_create(NULL, &gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_create(FAKE_GPU_PCI, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_create("17:00", &gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_create("17:00.8", &gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_create("17:00.0 ", &gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_create("zz:00.0", &gpu), DOCA_ERROR_INVALID_VALUE);

	/* No GPU at that address; then the fake's one, in both spellings. */
	CHECK_ERR(doca_gpu_create("18:00.0", &gpu), DOCA_ERROR_NOT_FOUND);
	CHECK_OK(doca_gpu_create("0000:17:00.0", &other));
	CHECK_OK(doca_gpu_destroy(other));
	/* nvidia-smi --query-gpu=pci.bus_id prints an 8-digit domain; either case of hex digits. */
	CHECK_OK(doca_gpu_create("00000000:17:00.0", &other));
	CHECK_OK(doca_gpu_destroy(other));
	CHECK_ERR(doca_gpu_create("000000000:17:00.0", &other), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_create("00000:17:00.0", &other), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_gpu_create("0000:17:00.0", &other));
	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &gpu));
	fake = fake_cuda_get();
	CHECK_EQ(fake.live_allocations(), 0);

	/* Every type and alignment: aligned GPU pointer; a CPU pointer exactly for the mapped types. */
	for (size_t i = 0; i < N_ELEMS(types); i++) {
		for (size_t j = 0; j < N_ELEMS(aligns); j++) {
			size_t a = aligns[j] == 0 ? 1 : aligns[j];

			g = NULL;
			c = (void *)&g; /* must be overwritten */
			CHECK_OK(doca_gpu_mem_alloc(gpu, 1000, aligns[j], types[i], &g, &c));
			CHECK(g != NULL);
			CHECK_EQ((uintptr_t)g % a, 0);
			if (types[i] == DOCA_GPU_MEM_TYPE_GPU) {
				CHECK(c == NULL);
			} else {
				CHECK(c != NULL);
				memset(c, 0xa5, 1000);		     /* the CPU may write all of it */
				CHECK_EQ(((uint8_t *)g)[999], 0xa5); /* and the GPU sees it (unified addressing) */
			}
			CHECK_EQ(fake.live_allocations(), 1);
			CHECK_OK(doca_gpu_mem_free(gpu, g));
			CHECK_EQ(fake.live_allocations(), 0);
		}
	}

	/* GPU memory without a CPU pointer argument is fine; mapped types need one. */
	CHECK_OK(doca_gpu_mem_alloc(gpu, 16, 0, DOCA_GPU_MEM_TYPE_GPU, &g, NULL));
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 16, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &c, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 16, 0, DOCA_GPU_MEM_TYPE_GPU_CPU, &c, NULL), DOCA_ERROR_INVALID_VALUE);

	/* Rejections. */
	CHECK_ERR(doca_gpu_mem_alloc(NULL, 16, 0, DOCA_GPU_MEM_TYPE_GPU, &c, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 0, 0, DOCA_GPU_MEM_TYPE_GPU, &c, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 16, 3, DOCA_GPU_MEM_TYPE_GPU, &c, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 16, 0, (enum doca_gpu_mem_type)3, &c, &c), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 16, 0, DOCA_GPU_MEM_TYPE_GPU, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, SIZE_MAX, 4096, DOCA_GPU_MEM_TYPE_GPU, &c, NULL), DOCA_ERROR_NO_MEMORY);
	CHECK_EQ(fake.live_allocations(), 1);

	/* A CUDA allocation failure is NO_MEMORY and leaves nothing behind. */
	fake.fail_next_alloc(2 /* cudaErrorMemoryAllocation */);
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 16, 0, DOCA_GPU_MEM_TYPE_CPU_GPU, &c, &c), DOCA_ERROR_NO_MEMORY);
	CHECK_EQ(fake.live_allocations(), 1);

	/* Free: by GPU pointer of a live allocation of that GPU only. */
	CHECK_ERR(doca_gpu_mem_free(gpu, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_free(NULL, g), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_free(other, g), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_mem_free(gpu, (uint8_t *)g + 1), DOCA_ERROR_INVALID_VALUE);

	/* dmabuf: validated, then not supported. */
	CHECK_ERR(doca_gpu_dmabuf_fd(gpu, g, 16, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dmabuf_fd(gpu, NULL, 16, &fd), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dmabuf_fd(gpu, g, 16, &fd), DOCA_ERROR_NOT_SUPPORTED);

	/* Destroy refuses while memory is live, then works. */
	CHECK_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_gpu_mem_free(gpu, g));
	CHECK_ERR(doca_gpu_mem_free(gpu, g), DOCA_ERROR_INVALID_VALUE);

	/* Another thread: the library sets the device there itself. */
	g = NULL;
	CHECK(pthread_create(&t, NULL, alloc_on_other_thread, &g) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(g != NULL);
	CHECK_OK(doca_gpu_mem_free(gpu, g));

	CHECK_EQ(fake.live_allocations(), 0);
	CHECK_ERR(doca_gpu_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_gpu_destroy(gpu));
	CHECK_OK(doca_gpu_destroy(other));
	return T_EXIT_PASS;
}
