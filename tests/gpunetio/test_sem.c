/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPUNetIO semaphores: the host API's state machine and rejections, then the protocol between
 * the host API and a CPU thread playing the GPU through doca_gpunetio_dev_sem.cuh (the same
 * code kernels compile), over a ring of items: the "GPU" fills an item's custom info and
 * publishes READY; the CPU sees READY, checks the info and hands the item back with FREE. Run
 * under TSan this also proves the acquire/release pairing covers the custom info.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <doca_gpunetio_dev_sem.cuh>

#include "gpu_test.h"

#define ITEMS	 8
#define MESSAGES 20000

struct info {
	uint64_t seq;
	uint64_t check;
	uint8_t payload[48];
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	return x ^ (x >> 27);
}

static void *play_gpu(void *arg)
{
	struct doca_gpu_semaphore_gpu *sem = arg;
	uintptr_t bad = 0;

	for (uint64_t seq = 0; seq < MESSAGES; seq++) {
		uint32_t idx = (uint32_t)(seq % ITEMS);
		enum doca_gpu_semaphore_status st;
		struct info *in;
		void *p;

		do {
			if (doca_gpu_dev_semaphore_get_status(sem, idx, &st) != DOCA_SUCCESS)
				return (void *)++bad;
		} while (st != DOCA_GPU_SEMAPHORE_STATUS_FREE);
		if (doca_gpu_dev_semaphore_get_custom_info_addr(sem, idx, &p) != DOCA_SUCCESS)
			return (void *)++bad;
		in = p;
		in->seq = seq;
		memset(in->payload, (int)(seq & 0xff), sizeof(in->payload));
		in->check = mix(seq);
		if (doca_gpu_dev_semaphore_set_status(sem, idx, DOCA_GPU_SEMAPHORE_STATUS_READY) != DOCA_SUCCESS)
			return (void *)++bad;
	}
	return NULL;
}

static int protocol(struct doca_gpu *gpu, enum doca_gpu_mem_type status_type, enum doca_gpu_mem_type info_type)
{
	struct doca_gpu_semaphore *sem = NULL;
	struct doca_gpu_semaphore_gpu *h = NULL;
	void *thread_rc = (void *)1;
	pthread_t t;

	CHECK_OK(doca_gpu_semaphore_create(gpu, &sem));
	CHECK_OK(doca_gpu_semaphore_set_memory_type(sem, status_type));
	CHECK_OK(doca_gpu_semaphore_set_items_num(sem, ITEMS));
	CHECK_OK(doca_gpu_semaphore_set_custom_info(sem, sizeof(struct info), info_type));
	CHECK_OK(doca_gpu_semaphore_start(sem));
	CHECK_OK(doca_gpu_semaphore_get_gpu_handle(sem, &h));
	CHECK(pthread_create(&t, NULL, play_gpu, h) == 0);
	for (uint64_t seq = 0; seq < MESSAGES; seq++) {
		uint32_t idx = (uint32_t)(seq % ITEMS);
		enum doca_gpu_semaphore_status st;
		const struct info *in;
		void *p;

		do
			CHECK_OK(doca_gpu_semaphore_get_status(sem, idx, &st));
		while (st != DOCA_GPU_SEMAPHORE_STATUS_READY);
		CHECK_OK(doca_gpu_semaphore_get_custom_info_addr(sem, idx, &p));
		in = p;
		CHECK_EQ(in->seq, seq);
		CHECK_EQ(in->check, mix(seq));
		CHECK_EQ(in->payload[sizeof(in->payload) - 1], seq & 0xff);
		CHECK_OK(doca_gpu_semaphore_set_status(sem, idx, DOCA_GPU_SEMAPHORE_STATUS_FREE));
	}
	CHECK(pthread_join(t, &thread_rc) == 0);
	CHECK(thread_rc == NULL);
	CHECK_OK(doca_gpu_semaphore_stop(sem));
	CHECK_OK(doca_gpu_semaphore_destroy(sem));
	return 0;
}

int main(void)
{
	struct doca_gpu_semaphore *sem = NULL;
	struct doca_gpu_semaphore_gpu *h = NULL;
	enum doca_gpu_semaphore_status st;
	struct doca_gpu *gpu = NULL;
	struct fake_cuda fake;
	void *p;

	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &gpu));
	fake = fake_cuda_get();

	/* create */
	CHECK_ERR(doca_gpu_semaphore_create(NULL, &sem), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_create(gpu, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_gpu_semaphore_create(gpu, &sem));

	/* Not started: no handle, no items; start needs items. */
	CHECK_ERR(doca_gpu_semaphore_get_gpu_handle(sem, &h), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_get_status(sem, 0, &st), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_set_status(sem, 0, DOCA_GPU_SEMAPHORE_STATUS_READY), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_get_custom_info_addr(sem, 0, &p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_stop(sem), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_start(sem), DOCA_ERROR_BAD_STATE);

	/* setters */
	CHECK_ERR(doca_gpu_semaphore_set_memory_type(NULL, DOCA_GPU_MEM_TYPE_GPU), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_memory_type(sem, (enum doca_gpu_mem_type)7), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_items_num(sem, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_items_num(NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_custom_info(sem, 0, DOCA_GPU_MEM_TYPE_CPU_GPU), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_custom_info(sem, 8, (enum doca_gpu_mem_type)7), DOCA_ERROR_INVALID_VALUE);

	/* Status words in GPU-only memory (reached with cudaMemcpy), no custom info. */
	CHECK_OK(doca_gpu_semaphore_set_memory_type(sem, DOCA_GPU_MEM_TYPE_GPU));
	CHECK_OK(doca_gpu_semaphore_set_items_num(sem, 4));
	CHECK_OK(doca_gpu_semaphore_start(sem));
	CHECK_EQ(fake.live_allocations(), 2); /* status words + handle */
	CHECK_ERR(doca_gpu_semaphore_start(sem), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_set_items_num(sem, 8), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_set_memory_type(sem, DOCA_GPU_MEM_TYPE_CPU_GPU), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_gpu_semaphore_set_custom_info(sem, 8, DOCA_GPU_MEM_TYPE_CPU_GPU), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_gpu_semaphore_get_gpu_handle(sem, &h));
	CHECK(h != NULL);
	CHECK_ERR(doca_gpu_semaphore_get_gpu_handle(sem, NULL), DOCA_ERROR_INVALID_VALUE);
	for (uint32_t i = 0; i < 4; i++) {
		CHECK_OK(doca_gpu_semaphore_get_status(sem, i, &st));
		CHECK_EQ(st, DOCA_GPU_SEMAPHORE_STATUS_FREE);
	}
	CHECK_ERR(doca_gpu_semaphore_get_status(sem, 4, &st), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_get_status(sem, 0, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_status(sem, 4, DOCA_GPU_SEMAPHORE_STATUS_READY), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_set_status(sem, 0, (enum doca_gpu_semaphore_status)6), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_semaphore_get_custom_info_addr(sem, 0, &p), DOCA_ERROR_INVALID_VALUE); /* none set */
	/* Both sides see each other's statuses. */
	CHECK_OK(doca_gpu_semaphore_set_status(sem, 3, DOCA_GPU_SEMAPHORE_STATUS_READY));
	CHECK_OK(doca_gpu_dev_semaphore_get_status(h, 3, &st));
	CHECK_EQ(st, DOCA_GPU_SEMAPHORE_STATUS_READY);
	CHECK_OK(doca_gpu_dev_semaphore_set_status(h, 2, DOCA_GPU_SEMAPHORE_STATUS_DONE));
	CHECK_OK(doca_gpu_semaphore_get_status(sem, 2, &st));
	CHECK_EQ(st, DOCA_GPU_SEMAPHORE_STATUS_DONE);
	/* Device-side checks. */
	CHECK_ERR(doca_gpu_dev_semaphore_get_status(h, 4, &st), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_semaphore_set_status(NULL, 0, DOCA_GPU_SEMAPHORE_STATUS_DONE), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_semaphore_get_custom_info_addr(h, 0, &p), DOCA_ERROR_INVALID_VALUE);

	/*
	 * Stop retires everything (a kernel may still read it: freed with the GPU); restart gives
	 * fresh FREE items; custom info in GPU memory is not the CPU's.
	 */
	CHECK_OK(doca_gpu_semaphore_stop(sem));
	CHECK_EQ(fake.live_allocations(), 2);
	CHECK_OK(doca_gpu_semaphore_set_custom_info(sem, 24, DOCA_GPU_MEM_TYPE_GPU));
	CHECK_OK(doca_gpu_semaphore_start(sem));
	CHECK_EQ(fake.live_allocations(), 2 + 3);
	CHECK_OK(doca_gpu_semaphore_get_status(sem, 3, &st));
	CHECK_EQ(st, DOCA_GPU_SEMAPHORE_STATUS_FREE);
	CHECK_ERR(doca_gpu_semaphore_get_custom_info_addr(sem, 1, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_gpu_semaphore_get_gpu_handle(sem, &h));
	CHECK_OK(doca_gpu_dev_semaphore_get_custom_info_addr(h, 1, &p));
	CHECK_OK(doca_gpu_dev_semaphore_get_custom_info_addr(h, 3, &p));
	CHECK_ERR(doca_gpu_dev_semaphore_get_custom_info_addr(h, 4, &p), DOCA_ERROR_INVALID_VALUE);

	/* The GPU cannot go while a semaphore exists; destroy stops a started one. */
	CHECK_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_gpu_semaphore_destroy(sem));
	CHECK_ERR(doca_gpu_semaphore_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(fake.live_allocations(), 2 + 3); /* retired, not freed */

	/* The protocol, with the placements the samples use. */
	CHECK_EQ(protocol(gpu, DOCA_GPU_MEM_TYPE_CPU_GPU, DOCA_GPU_MEM_TYPE_CPU_GPU), 0);
	CHECK_EQ(protocol(gpu, DOCA_GPU_MEM_TYPE_GPU_CPU, DOCA_GPU_MEM_TYPE_CPU_GPU), 0);
	CHECK_OK(doca_gpu_destroy(gpu));
	CHECK_EQ(fake.live_allocations(), 0); /* the GPU took what its semaphores left */
	return T_EXIT_PASS;
}
