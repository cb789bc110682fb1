/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_config.h includes doca_build_config.h and defines DOCA_COMPAT_HELPERS. */
#include <doca_config.h>

#ifndef DOCA_COMPAT_HELPERS
#error "DOCA_COMPAT_HELPERS is not defined"
#endif
#if !defined(DOCA_ARCH_DPU) && !defined(DOCA_ARCH_HOST)
#error "no personality from doca_build_config.h"
#endif

int config_unused;
