/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_gpunetio.h includes <stdint.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_gpunetio.h>

#include "compat_set.h"

doca_error_t gpu_use(const char *bus, struct doca_gpu **gpu);
doca_error_t gpu_use(const char *bus, struct doca_gpu **gpu)
{
	enum doca_gpu_mem_type t = DOCA_GPU_MEM_TYPE_CPU_GPU; /* doca_types.h */
	uint32_t n = (uint32_t)t;			      /* <stdint.h> */
	doca_error_t err = doca_gpu_create(bus, gpu);

	(void)n;
	return DOCA_IS_ERROR(err) ? err : doca_gpu_destroy(*gpu); /* doca_error.h */
}
