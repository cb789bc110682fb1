/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_config.h - build-time configuration seen by every DOCA header.
 *
 * Brings doca_build_config.h (the personality: DOCA_ARCH_DPU or DOCA_ARCH_HOST) and turns on
 * DOCA_COMPAT_HELPERS, under which doca_compat.h makes <string.h>, <stdint.h>, <stdlib.h>,
 * <assert.h>, doca_version.h and the DOCA_STRUCT_* macros available to every program that
 * includes a DOCA header, as DOCA's own headers do. Code built for a DPA device
 * (DOCA_DPA_DEVICE) does not get them.
 */
#ifndef DOCA_CONFIG_H_
#define DOCA_CONFIG_H_

#include <doca_build_config.h>

#ifndef DOCA_DPA_DEVICE
#define DOCA_COMPAT_HELPERS
#endif

#endif /* DOCA_CONFIG_H_ */
