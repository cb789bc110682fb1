/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_common_defines.h - small helper macros shared by the DOCA headers.
 *
 * doca_likely()/doca_unlikely() are branch-prediction hints; they evaluate their argument
 * exactly once and yield 0 or 1 (the argument itself where the compiler has no hint support).
 * doca_error.h brings this header, so every DOCA header makes them available.
 */
#ifndef DOCA_COMMON_DEFINES_H_
#define DOCA_COMMON_DEFINES_H_

#if defined(__GNUC__) || defined(__clang__)
#define doca_likely(x)	 __builtin_expect(!!(x), 1)
#define doca_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define doca_likely(x)	 (x)
#define doca_unlikely(x) (x)
#endif

#endif /* DOCA_COMMON_DEFINES_H_ */
