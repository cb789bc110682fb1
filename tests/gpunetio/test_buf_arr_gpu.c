/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A buf array with a GPU target: the table doca_buf_arr_start builds in GPU memory, read back
 * through doca_gpunetio_dev_buf.cuh (compiled here by the C compiler) - element addresses,
 * lengths and the mmap's mkey in network byte order - and its memory given back at stop.
 */
#include <arpa/inet.h>
#include <stdint.h>

#include <doca_buf_array.h>
#include <doca_gpunetio_dev_buf.cuh>

#include "gpu_test.h"

#define ELEMS 16
#define ELEM  512
#define OFF   128

int main(void)
{
	struct doca_dev *dev = sd_open_dev("03:00.0");
	struct doca_gpu_buf_arr *h = NULL;
	struct doca_buf_arr *arr = NULL;
	struct doca_mmap *mm = NULL;
	struct doca_gpu *gpu = NULL;
	struct fake_cuda fake;
	uint32_t mkey = 0;
	uint8_t *mem_cpu;
	void *mem_gpu;
	void *c;

	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &gpu));
	fake = fake_cuda_get();
	CHECK_OK(doca_gpu_mem_alloc(gpu, OFF + ELEMS * ELEM, 4096, DOCA_GPU_MEM_TYPE_GPU_CPU, &mem_gpu, &c));
	mem_cpu = c;

	/* The mmap covers the GPU view of the memory, as GPUNetIO programs register it. */
	CHECK_OK(doca_mmap_create(&mm));
	CHECK_OK(doca_mmap_add_dev(mm, dev));
	CHECK_OK(doca_mmap_set_memrange(mm, mem_gpu, OFF + ELEMS * ELEM));
	CHECK_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_start(mm));
	CHECK_OK(doca_mmap_get_mkey(mm, dev, &mkey));

	CHECK_OK(doca_buf_arr_create(ELEMS, &arr));
	CHECK_OK(doca_buf_arr_set_target_gpu(arr, gpu));
	CHECK_OK(doca_buf_arr_set_params(arr, mm, ELEM, OFF));
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_EQ(fake.live_allocations(), 2); /* the memory + the table */
	CHECK_OK(doca_buf_arr_get_gpu_handle(arr, &h));
	CHECK(h != NULL);
	CHECK_ERR(doca_buf_arr_set_target_gpu(arr, gpu), DOCA_ERROR_BAD_STATE);

	/* What a kernel reads. */
	for (uint64_t i = 0; i < ELEMS; i++) {
		struct doca_gpu_buf *b = NULL;
		uintptr_t addr = 0;
		uint32_t key = 0;

		doca_gpu_dev_buf_get_buf(h, i, &b);
		doca_gpu_dev_buf_get_addr(b, &addr);
		doca_gpu_dev_buf_get_mkey(b, &key);
		CHECK_EQ(addr, (uintptr_t)mem_gpu + OFF + i * ELEM);
		CHECK_EQ(key, htonl(mkey));
		CHECK_EQ(b->len, ELEM);
		/* the "GPU" writes the element, the CPU reads it through its own pointer */
		*(uint64_t *)addr = 0x5d0ca000u + i;
		CHECK_EQ(*(uint64_t *)(mem_cpu + OFF + i * ELEM), 0x5d0ca000u + i);
	}

	/*
	 * The GPU stays while the table lives; stop retires it (a kernel may still read it: freed
	 * with the GPU); start again rebuilds it.
	 */
	CHECK_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_arr_stop(arr));
	CHECK_EQ(fake.live_allocations(), 2);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_EQ(fake.live_allocations(), 3);
	CHECK_OK(doca_buf_arr_destroy(arr)); /* retires a started array's table */
	CHECK_EQ(fake.live_allocations(), 3);

	/* A failing table allocation fails the start, which can be retried. */
	CHECK_OK(doca_buf_arr_create(ELEMS, &arr));
	CHECK_OK(doca_buf_arr_set_target_gpu(arr, gpu));
	CHECK_OK(doca_buf_arr_set_params(arr, mm, ELEM, OFF));
	fake.fail_next_alloc(2 /* cudaErrorMemoryAllocation */);
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_NO_MEMORY);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_OK(doca_buf_arr_stop(arr));
	CHECK_OK(doca_buf_arr_destroy(arr));

	CHECK_OK(doca_mmap_stop(mm));
	CHECK_OK(doca_mmap_destroy(mm));
	CHECK_OK(doca_gpu_mem_free(gpu, mem_gpu));
	CHECK_OK(doca_gpu_destroy(gpu));
	CHECK_EQ(fake.live_allocations(), 0); /* the GPU took the retired tables */
	CHECK_OK(doca_dev_close(dev));
	return T_EXIT_PASS;
}
