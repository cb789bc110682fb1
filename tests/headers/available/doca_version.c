/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_version.h includes <stddef.h> and doca_compat.h. */
#include <doca_version.h>

#include "compat_set.h"

#if !DOCA_VERSION_LTE_CURRENT(3, 0, 0)
#error "DOCA_VERSION_LTE_CURRENT"
#endif

size_t version_use(void);
size_t version_use(void)
{
	size_t exact = DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH);

	if (exact != DOCA_VERSION_EXACT ||
	    !DOCA_VERSION_EQ_CURRENT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH))
		return 0;
	return exact + DOCA_VERSION_CALC(3, 3, 0) + strlen(DOCA_VERSION_STRING) + strlen(doca_version_runtime());
}
