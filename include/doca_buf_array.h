/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_array.h - an array of equal-sized bufs carved from one mmap, for device data paths.
 *
 * Life cycle: doca_buf_arr_create(n) -> doca_buf_arr_set_params(mmap, elem_size, offset) ->
 * (doca_buf_arr_set_target_gpu / _dpa) -> doca_buf_arr_start -> get the device handle ->
 * doca_buf_arr_stop (may reconfigure and start again) -> doca_buf_arr_destroy (stops first).
 * Element i covers [offset + i * elem_size, + elem_size) of the mmap's range, which must be
 * started before the array starts and large enough for all n elements.
 *
 * softdoca: a GPU target (a struct doca_gpu from doca_gpu_create) puts a copy of the element
 * table in that GPU's memory at start, read by doca_gpunetio_dev_buf.cuh; DPA targets are not
 * supported. An array started without a target holds its element table in host memory only,
 * for softdoca's CPU data paths (DOCA itself requires a target).
 */
#ifndef DOCA_BUF_ARRAY_H_
#define DOCA_BUF_ARRAY_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_gpu;
struct doca_dpa;
struct doca_mmap;
struct doca_buf_arr;
struct doca_gpu_buf_arr;

/** A buf array's handle in DPA memory space. */
typedef uint64_t doca_dpa_dev_buf_arr_t;

/** An array of @num_elem (> 0) elements. INVALID_VALUE; NO_MEMORY. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr);
/** Also builds the element table in @gpu_handler's memory at start. INVALID_VALUE; BAD_STATE once started. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler);
/** Builds the element table in @dpa_handler's memory. INVALID_VALUE; BAD_STATE once started. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr, struct doca_dpa *dpa_handler);
/** @mmap, @elem_size (> 0) and @start_offset into the mmap range. INVALID_VALUE; BAD_STATE once started. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, struct doca_mmap *mmap,
						       size_t elem_size, uint64_t start_offset);
/**
 * Builds the element table. INVALID_VALUE for NULL; BAD_STATE when already started, with no
 * params, or with the mmap not started; NO_MEMORY when the mmap range is too small or memory
 * runs out.
 */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr);
/** Stops a started array (a stopped one: nothing to do). INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr);
/** Stops and frees. INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr);
/** The table in GPU memory. INVALID_VALUE; BAD_STATE unless started with a GPU target. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr,
							   struct doca_gpu_buf_arr **gpu_buf_arr);
/** The table in DPA memory. INVALID_VALUE; BAD_STATE unless started. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr,
							   doca_dpa_dev_buf_arr_t *dpa_buf_arr);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_BUF_ARRAY_H_ */
