/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_buf_pool.h includes <stddef.h>, <stdint.h>, doca_error.h, doca_types.h. */
#include <doca_buf_pool.h>

#include "compat_set.h"

int buf_pool_use(size_t num, size_t size, const struct doca_mmap *mmap, struct doca_buf_pool **pool);
int buf_pool_use(size_t num, size_t size, const struct doca_mmap *mmap, struct doca_buf_pool **pool)
{
	union doca_data user; /* doca_types.h */

	user.u64 = UINT64_C(1);
	return doca_buf_pool_create(num, size, mmap, pool) == DOCA_SUCCESS && user.u64 == 1 &&
	       doca_buf_pool_set_user_data(*pool, user) == DOCA_SUCCESS;
}
