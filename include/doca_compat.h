/*
 * doca_compat.h - symbol attributes shared by every softdoca public header.
 *
 * DOCA_STABLE marks an exported function whose interface is stable.
 * DOCA_EXPERIMENTAL marks an exported function whose interface may still change; using it
 * raises a deprecation warning unless DOCA_ALLOW_EXPERIMENTAL_API is defined before the
 * first DOCA header is included (DOCA's own sample builds define it).
 * DOCA_DEPRECATED works the same way, keyed on DOCA_ALLOW_DEPRECATED_API.
 */
#ifndef DOCA_COMPAT_H_
#define DOCA_COMPAT_H_

/* Every DOCA header sees the personality (DOCA_ARCH_DPU or DOCA_ARCH_HOST). */
#include <doca_build_config.h>

#if defined(__GNUC__) || defined(__clang__)
#define DOCA_USED __attribute__((used))
#define DOCA_STABLE __attribute__((visibility("default")))
#ifdef DOCA_ALLOW_EXPERIMENTAL_API
#define DOCA_EXPERIMENTAL DOCA_STABLE
#else
#define DOCA_EXPERIMENTAL __attribute__((deprecated("Symbol is defined as experimental"))) DOCA_STABLE
#endif
#ifdef DOCA_ALLOW_DEPRECATED_API
#define DOCA_DEPRECATED DOCA_STABLE
#else
#define DOCA_DEPRECATED __attribute__((deprecated("Symbol is defined as deprecated"))) DOCA_STABLE
#endif
#else
#define DOCA_USED
#define DOCA_STABLE
#define DOCA_EXPERIMENTAL
#define DOCA_DEPRECATED
#endif

#endif /* DOCA_COMPAT_H_ */
