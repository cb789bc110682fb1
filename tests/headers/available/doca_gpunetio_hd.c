/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca's own host/device core: <stddef.h>, <stdint.h>; usable from C11 host code. */
#include <doca_gpunetio_hd.h>

uint32_t hd_use(uint32_t *w);
uint32_t hd_use(uint32_t *w)
{
	struct doca_gpu_semaphore_gpu s = {w, NULL, 1, 0};
	size_t n = sizeof(s); /* <stddef.h> */

	doca_gpunetio_hd_store_release_u32(s.status, (uint32_t)n);
	return doca_gpunetio_hd_load_acquire_u32(s.status);
}
