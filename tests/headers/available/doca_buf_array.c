/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_buf_array.h includes <stddef.h>, <stdint.h>, doca_compat.h, doca_error.h. */
#include <doca_buf_array.h>

#include "compat_set.h"

doca_error_t buf_arr_use(size_t n, struct doca_buf_arr **arr);
doca_error_t buf_arr_use(size_t n, struct doca_buf_arr **arr)
{
	uint32_t elems = (uint32_t)n; /* <stdint.h> */
	doca_error_t err = doca_buf_arr_create(elems, arr);

	return DOCA_IS_ERROR(err) ? err : doca_buf_arr_destroy(*arr); /* doca_error.h */
}
