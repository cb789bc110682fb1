/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_error.h includes doca_compat.h and doca_common_defines.h. */
#include <doca_error.h>

#include "compat_set.h"

const char *error_use(doca_error_t first, doca_error_t second);
const char *error_use(doca_error_t first, doca_error_t second)
{
	doca_error_t result = DOCA_SUCCESS;

	DOCA_ERROR_PROPAGATE(result, first);
	DOCA_ERROR_PROPAGATE(result, second);
	if (doca_likely(!DOCA_IS_ERROR(result)))
		return doca_error_get_descr(DOCA_ERROR_DEVICE_FATAL_ERROR);
	return doca_error_get_name(result);
}
