/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_mmap.h includes <stddef.h>, <stdint.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_mmap.h>

#include "compat_set.h"

uint32_t mmap_use(struct doca_mmap *mmap);
uint32_t mmap_use(struct doca_mmap *mmap)
{
	uint32_t perm = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	size_t len = 4096;
	void *buf = malloc(len);

	if (doca_mmap_set_permissions(mmap, perm) != DOCA_SUCCESS)
		perm = 0;
	free(buf);
	return perm + (uint32_t)len;
}
