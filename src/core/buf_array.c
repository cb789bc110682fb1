/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * buf_array.c - DOCA buf arrays: equal-sized elements carved from one mmap.
 *
 *   create(n) --set_params(mmap, elem_size, offset)--> configured --start--> started
 *        ^                                                                      |
 *        +------------------------------ stop ----------------------------------+
 *
 * A started array holds its element table in host memory: element i is the address
 * mmap.addr + offset + i * elem_size, elem_size bytes long. softdoca's own CPU data paths read
 * it through priv_doca_buf_arr_elem(). An array with a GPU target (set_target_gpu) also gets a
 * table in that GPU's memory at start (struct doca_gpu_buf_arr, doca_gpunetio_hd.h: a header
 * and one struct doca_gpu_buf per element), built here and copied there through the GPU's ops
 * (gpu_hook.h, filled by libdoca_gpunetio); stop frees it. DPA tables answer NOT_SUPPORTED.
 *
 * The mmap must stay started while the array is started (as for a buf); the array does not
 * pin it.
 */
#include <stdlib.h>

#include <doca_buf_array.h>
#include <doca_gpunetio_hd.h>

#include "core.h"
#include "buf_array.h"
#include "gpu_hook.h"

#define COMP "buf_arr"

struct doca_buf_arr {
	size_t num_elem;
	struct doca_mmap *mmap; /* NULL until set_params */
	size_t elem_size;
	uint64_t start_offset;
	bool started;
	uint8_t *base;			    /* first element, while started */
	struct doca_gpu *gpu;		    /* GPU target, NULL if none */
	struct doca_gpu_buf_arr *gpu_table; /* in the GPU's memory, while started with a GPU target */
};

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr)
{
	struct doca_buf_arr *a;

	if (buf_arr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_arr_create: NULL output argument");
	if (num_elem == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_arr_create: 0 elements requested; an array holds at least one");
	a = calloc(1, sizeof(*a));
	if (a == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_buf_arr_create: out of memory");
	a->num_elem = num_elem;
	*buf_arr = a;
	return DOCA_SUCCESS;
}

static doca_error_t check_configurable(const struct doca_buf_arr *a, const char *call)
{
	if (a->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: buf array %p is started; call doca_buf_arr_stop() before reconfiguring it", call,
				 (const void *)a);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler)
{
	const char *call = "doca_buf_arr_set_target_gpu";
	doca_error_t ret;

	if (buf_arr == NULL || gpu_handler == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 buf_arr == NULL ? "buf array" : "GPU handler");
	ret = check_configurable(buf_arr, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (priv_doca_gpu_base(gpu_handler) == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: buf array %p: %p is not a GPU from doca_gpu_create()", call, (void *)buf_arr,
				 (void *)gpu_handler);
	buf_arr->gpu = gpu_handler;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr, struct doca_dpa *dpa_handler)
{
	const char *call = "doca_buf_arr_set_target_dpa";
	doca_error_t ret;

	if (buf_arr == NULL || dpa_handler == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 buf_arr == NULL ? "buf array" : "DPA handler");
	ret = check_configurable(buf_arr, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "%s: buf array %p: softdoca emulates no DPA; start the array without a target for CPU use",
			 call, (void *)buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, struct doca_mmap *mmap,
						       size_t elem_size, uint64_t start_offset)
{
	const char *call = "doca_buf_arr_set_params";
	doca_error_t ret;

	if (buf_arr == NULL || mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 buf_arr == NULL ? "buf array" : "mmap");
	if (elem_size == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: buf array %p: element size 0; pass the size of one element", call,
				 (void *)buf_arr);
	ret = check_configurable(buf_arr, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	buf_arr->mmap = mmap;
	buf_arr->elem_size = elem_size;
	buf_arr->start_offset = start_offset;
	return DOCA_SUCCESS;
}

/*
 * The GPU table: built in host memory, copied to one GPU allocation. The mkey is the one
 * doca_mmap_get_mkey() reports for the mmap, in network byte order as
 * device send calls take it.
 */
static doca_error_t build_gpu_table(struct doca_buf_arr *a, const struct doca_mmap *m)
{
	const struct priv_doca_gpu_ops *ops = priv_doca_gpu_base(a->gpu)->ops;
	uint32_t mkey = __builtin_bswap32(m->mkey);
	struct doca_gpu_buf_arr *t;
	struct doca_gpu_buf *bufs;
	void *dev = NULL;
	doca_error_t ret;
	size_t size;

	if (a->elem_size > UINT32_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_buf_arr_start: buf array %p: GPU elements hold at most 4 GiB, not %zu bytes",
				 (void *)a, a->elem_size);
	if (a->num_elem > (SIZE_MAX - sizeof(*t)) / sizeof(*bufs))
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_buf_arr_start: buf array %p: %zu elements overflow",
				 (void *)a, a->num_elem);
	size = sizeof(*t) + a->num_elem * sizeof(*bufs);
	t = malloc(size);
	if (t == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_buf_arr_start: buf array %p: out of memory",
				 (void *)a);
	ret = ops->mem_alloc(a->gpu, size, &dev, "doca_buf_arr_start");
	if (ret != DOCA_SUCCESS)
		goto out;
	bufs = (struct doca_gpu_buf *)(t + 1);
	t->num_elem = a->num_elem;
	t->elem_size = a->elem_size;
	t->bufs = (struct doca_gpu_buf *)((struct doca_gpu_buf_arr *)dev + 1);
	for (size_t i = 0; i < a->num_elem; i++) {
		bufs[i].addr = (uint64_t)(uintptr_t)(a->base + i * a->elem_size);
		bufs[i].mkey = mkey;
		bufs[i].len = (uint32_t)a->elem_size;
	}
	ret = ops->copy_to_gpu(a->gpu, dev, t, size, "doca_buf_arr_start");
	if (ret != DOCA_SUCCESS) {
		ops->mem_free(a->gpu, dev);
		goto out;
	}
	a->gpu_table = dev;
out:
	free(t);
	return ret;
}

static void free_gpu_table(struct doca_buf_arr *a)
{
	if (a->gpu_table != NULL)
		priv_doca_gpu_base(a->gpu)->ops->mem_free(a->gpu, a->gpu_table);
	a->gpu_table = NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr)
{
	const char *call = "doca_buf_arr_start";
	const struct doca_mmap *m;
	doca_error_t ret;
	uint64_t need;

	if (buf_arr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL buf array", call);
	ret = check_configurable(buf_arr, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	m = buf_arr->mmap;
	if (m == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: buf array %p has no mmap; call doca_buf_arr_set_params() first", call,
				 (void *)buf_arr);
	if (!m->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: buf array %p: mmap %p is not started; call doca_mmap_start() before "
				 "doca_buf_arr_start()",
				 call, (void *)buf_arr, (const void *)m);
	if (m->kind == MMAP_FROM_EXPORT)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: buf array %p: mmap %p is a from-export mmap; the CPU-side table holds local "
				 "memory only",
				 call, (void *)buf_arr, (const void *)m);
	if (__builtin_mul_overflow((uint64_t)buf_arr->num_elem, (uint64_t)buf_arr->elem_size, &need) ||
	    __builtin_add_overflow(need, buf_arr->start_offset, &need) || need > m->len)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP,
				 "%s: buf array %p: %zu elements of %zu bytes from offset %llu need more than the %zu "
				 "bytes of mmap %p; use fewer or smaller elements or a larger mmap",
				 call, (void *)buf_arr, buf_arr->num_elem, buf_arr->elem_size,
				 (unsigned long long)buf_arr->start_offset, m->len, (const void *)m);
	buf_arr->base = m->addr + buf_arr->start_offset;
	if (buf_arr->gpu != NULL) {
		ret = build_gpu_table(buf_arr, m);
		if (ret != DOCA_SUCCESS) {
			buf_arr->base = NULL;
			return ret;
		}
	}
	buf_arr->started = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr)
{
	if (buf_arr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_arr_stop: NULL buf array");
	free_gpu_table(buf_arr);
	buf_arr->started = false;
	buf_arr->base = NULL;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr)
{
	if (buf_arr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_buf_arr_destroy: NULL buf array");
	free_gpu_table(buf_arr);
	free(buf_arr);
	return DOCA_SUCCESS;
}

static doca_error_t check_handle(const struct doca_buf_arr *a, const void *out, const char *call)
{
	if (a == NULL || out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 a == NULL ? "buf array" : "output");
	if (!a->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: buf array %p is not started; call doca_buf_arr_start() first", call,
				 (const void *)a);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr,
							   struct doca_gpu_buf_arr **gpu_buf_arr)
{
	const char *call = "doca_buf_arr_get_gpu_handle";
	doca_error_t ret = check_handle(buf_arr, gpu_buf_arr, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (buf_arr->gpu_table == NULL)
		return SD_REJECT(
		    DOCA_ERROR_BAD_STATE, COMP,
		    "%s: buf array %p has no GPU table: it was started without a GPU target; stop it, call "
		    "doca_buf_arr_set_target_gpu() and start it again",
		    call, (const void *)buf_arr);
	*gpu_buf_arr = buf_arr->gpu_table;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr,
							   doca_dpa_dev_buf_arr_t *dpa_buf_arr)
{
	const char *call = "doca_buf_arr_get_dpa_handle";
	doca_error_t ret = check_handle(buf_arr, dpa_buf_arr, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "%s: buf array %p has no DPA table: softdoca emulates no DPA",
			 call, (const void *)buf_arr);
}

SD_PRIV doca_error_t priv_doca_buf_arr_elem(const struct doca_buf_arr *buf_arr, size_t i, void **addr, size_t *len)
{
	if (!buf_arr->started || i >= buf_arr->num_elem)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "buf array %p: element %zu of %zu%s",
				 (const void *)buf_arr, i, buf_arr->num_elem,
				 buf_arr->started ? " does not exist" : ": array not started");
	*addr = buf_arr->base + i * buf_arr->elem_size;
	*len = buf_arr->elem_size;
	return DOCA_SUCCESS;
}

SD_PRIV size_t priv_doca_buf_arr_num_elem(const struct doca_buf_arr *buf_arr)
{
	return buf_arr->num_elem;
}
