/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_compat.h includes doca_config.h and, under DOCA_COMPAT_HELPERS, <string.h>,
 * <stdint.h>, <stdlib.h>, <assert.h> and doca_version.h. */
#include <doca_compat.h>

#include "compat_set.h"

#if !defined(DOCA_ARCH_DPU) && !defined(DOCA_ARCH_HOST)
#error "doca_build_config.h did not arrive through doca_compat.h"
#endif

DOCA_STABLE int compat_stable(void);
DOCA_EXPERIMENTAL int compat_experimental(void);
DOCA_DEPRECATED int compat_deprecated(void);

struct compat_cfg {
	DOCA_STRUCT_START;
	int x;
};

size_t compat_use(struct compat_cfg *cfg);
size_t compat_use(struct compat_cfg *cfg)
{
	DOCA_STRUCT_PTR_MEMSET_CTOR(cfg);
	DOCA_STRUCT_PTR_CTOR(cfg);
	return DOCA_STRUCT_GET_VERSION(cfg) + (size_t)DOCA_VERSION_OFFICIAL;
}
