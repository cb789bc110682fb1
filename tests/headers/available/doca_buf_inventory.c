/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_buf_inventory.h includes <stddef.h>, <stdint.h>, doca_compat.h, doca_error.h, doca_types.h. */
#include <doca_buf_inventory.h>

#include "compat_set.h"

int buf_inventory_use(size_t num, struct doca_buf_inventory **inv);
int buf_inventory_use(size_t num, struct doca_buf_inventory **inv)
{
	union doca_data user; /* doca_types.h */

	user.u64 = UINT64_C(1);
	return doca_buf_inventory_create(num, inv) == DOCA_SUCCESS && user.u64 == 1;
}
