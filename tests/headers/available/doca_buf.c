/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_buf.h includes <stdint.h>, <stddef.h>, doca_compat.h, doca_error.h. */
#include <doca_buf.h>

#include "compat_set.h"

size_t buf_use(const struct doca_buf *buf);
size_t buf_use(const struct doca_buf *buf)
{
	size_t len = 0;
	doca_error_t err = doca_buf_get_len(buf, &len);

	return doca_unlikely(err != DOCA_SUCCESS) ? SIZE_MAX : len;
}
