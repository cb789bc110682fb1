/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_build_config.h includes nothing; it says which side and CPU a program is built for. */
#include <doca_build_config.h>

#if defined(DOCA_ARCH_DPU) == defined(DOCA_ARCH_HOST)
#error "exactly one of DOCA_ARCH_DPU and DOCA_ARCH_HOST must be defined"
#endif
#if (defined(__x86_64__) && !defined(DOCA_ARCH_X86)) || (defined(__aarch64__) && !defined(DOCA_ARCH_ARM))
#error "DOCA_ARCH_X86 / DOCA_ARCH_ARM does not match the target"
#endif

int build_config_unused;
