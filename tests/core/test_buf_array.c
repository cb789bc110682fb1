/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_buf_array.c - doca_buf_array.h: life cycle, parameter checks, the CPU-side element
 * table (read through the internal getter softdoca's data paths use), and the GPU/DPA calls
 * that answer NOT_SUPPORTED until GPUNetIO.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <doca_buf_array.h>
#include <doca_dev.h>
#include <doca_mmap.h>

#include "buf_array.h"
#include "../common/sd_test.h"

#define ELEMS 8
#define ELEM  256
#define OFF   64

static uint8_t mem[OFF + ELEMS * ELEM];

static struct doca_mmap *make_mmap(struct doca_dev *dev, size_t len, bool start)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, len));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	if (start)
		CHECK_OK(doca_mmap_start(m));
	return m;
}

static void free_mmap(struct doca_mmap *m)
{
	(void)doca_mmap_stop(m);
	CHECK_OK(doca_mmap_destroy(m));
}

int main(void)
{
	struct doca_dev *dev = sd_open_dev("03:00.0");
	struct doca_mmap *mm = make_mmap(dev, sizeof(mem), true);
	struct doca_buf_arr *arr = NULL;
	struct doca_gpu_buf_arr *gpu = NULL;
	doca_dpa_dev_buf_arr_t dpa = 0;
	uint64_t not_a_gpu[4] = {0};
	void *addr;
	size_t len;

	/* create */
	CHECK_ERR(doca_buf_arr_create(0, &arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_create(ELEMS, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_create(ELEMS, &arr));
	CHECK(priv_doca_buf_arr_num_elem(arr) == ELEMS);

	/* start needs params, and the handles need a started array */
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, &gpu), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_get_dpa_handle(arr, &dpa), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(priv_doca_buf_arr_elem(arr, 0, &addr, &len), DOCA_ERROR_INVALID_VALUE);

	/* set_params checks */
	CHECK_ERR(doca_buf_arr_set_params(NULL, mm, ELEM, OFF), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_set_params(arr, NULL, ELEM, OFF), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_set_params(arr, mm, 0, OFF), DOCA_ERROR_INVALID_VALUE);

	/* GPU target: only a GPU from doca_gpu_create() (tests/gpunetio); DPA: not supported */
	CHECK_ERR(doca_buf_arr_set_target_gpu(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_set_target_gpu(arr, (struct doca_gpu *)(void *)not_a_gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_set_target_dpa(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_set_target_dpa(arr, (struct doca_dpa *)(uintptr_t)0x1000), DOCA_ERROR_NOT_SUPPORTED);

	/* An mmap one byte too small for the elements: NO_MEMORY at start. */
	struct doca_mmap *small = make_mmap(dev, sizeof(mem) - 1, true);

	CHECK_OK(doca_buf_arr_set_params(arr, small, ELEM, OFF));
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_NO_MEMORY);
	/* An offset so large that offset + size wraps around: NO_MEMORY, not a wrapped table. */
	CHECK_OK(doca_buf_arr_set_params(arr, mm, ELEM, UINT64_MAX - 16));
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_NO_MEMORY);
	free_mmap(small);

	/* An mmap not started: BAD_STATE. */
	struct doca_mmap *idle = make_mmap(dev, sizeof(mem), false);

	CHECK_OK(doca_buf_arr_set_params(arr, idle, ELEM, OFF));
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	free_mmap(idle);

	/* The exact fit starts; the table covers [OFF + i * ELEM, + ELEM). */
	CHECK_OK(doca_buf_arr_set_params(arr, mm, ELEM, OFF));
	CHECK_OK(doca_buf_arr_start(arr));
	for (size_t i = 0; i < ELEMS; i++) {
		CHECK_OK(priv_doca_buf_arr_elem(arr, i, &addr, &len));
		CHECK(addr == mem + OFF + i * ELEM && len == ELEM);
	}
	CHECK_ERR(priv_doca_buf_arr_elem(arr, ELEMS, &addr, &len), DOCA_ERROR_INVALID_VALUE);

	/* Started: no reconfiguration, no second start; no GPU table without a GPU target, no DPA. */
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_set_params(arr, mm, ELEM, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_set_target_gpu(arr, (struct doca_gpu *)(uintptr_t)0x1000), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, &gpu), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(NULL, &gpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_get_dpa_handle(arr, &dpa), DOCA_ERROR_NOT_SUPPORTED);

	/* Stop, reconfigure (offset 0, half as large elements), start again. */
	CHECK_OK(doca_buf_arr_stop(arr));
	CHECK_OK(doca_buf_arr_stop(arr)); /* a stopped array: nothing to do */
	CHECK_ERR(priv_doca_buf_arr_elem(arr, 0, &addr, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_set_params(arr, mm, ELEM / 2, 0));
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_OK(priv_doca_buf_arr_elem(arr, ELEMS - 1, &addr, &len));
	CHECK(addr == mem + (ELEMS - 1) * (ELEM / 2) && len == ELEM / 2);

	/* Destroy stops implicitly. */
	CHECK_ERR(doca_buf_arr_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_destroy(arr));
	free_mmap(mm);
	CHECK_OK(doca_dev_close(dev));
	printf("buf_array: ok\n");
	return T_EXIT_PASS;
}
