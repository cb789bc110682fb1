/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_mmap_advise.h includes <stddef.h>, <stdint.h>, doca_compat.h, doca_error.h,
 * doca_types.h. */
#include <doca_mmap_advise.h>

#include "compat_set.h"

doca_error_t advise_use(struct doca_dev *dev, struct doca_mmap_advise **adv);
doca_error_t advise_use(struct doca_dev *dev, struct doca_mmap_advise **adv)
{
	union doca_data ud = {.u64 = 0}; /* doca_types.h */
	doca_error_t err = doca_mmap_advise_create(dev, adv);

	if (err == DOCA_SUCCESS && ud.u64 == 0)
		err = doca_mmap_advise_destroy(*adv);
	return err;
}
