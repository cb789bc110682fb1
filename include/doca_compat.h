/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_compat.h - symbol attributes shared by every softdoca public header.
 *
 * DOCA_STABLE marks an exported function whose interface is stable.
 * DOCA_EXPERIMENTAL marks an exported function whose interface may still change; using it
 * raises a deprecation warning unless DOCA_ALLOW_EXPERIMENTAL_API is defined before the
 * first DOCA header is included (DOCA's own sample builds define it).
 * DOCA_DEPRECATED works the same way, keyed on DOCA_ALLOW_DEPRECATED_API.
 *
 * With DOCA_COMPAT_HELPERS (set by doca_config.h) this header also brings <string.h>,
 * <stdint.h>, <stdlib.h>, <assert.h> and doca_version.h, so that every DOCA header makes them
 * available as DOCA's do, and defines the DOCA_STRUCT_* macros for versioned structs whose
 * first member is DOCA_STRUCT_START.
 */
#ifndef DOCA_COMPAT_H_
#define DOCA_COMPAT_H_

/* Every DOCA header sees the personality (DOCA_ARCH_DPU or DOCA_ARCH_HOST). */
#include <doca_config.h>

#if defined(__GNUC__) || defined(__clang__)
#define DOCA_USED   __attribute__((used))
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

#ifdef DOCA_COMPAT_HELPERS

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_version.h>

/** First member of a versioned struct: the API version the program was built with. */
#define DOCA_STRUCT_START	     size_t __doca_api_version
#define DOCA_STRUCT_GET_VERSION(_X_) (_X_)->__doca_api_version
/** Stamp the struct object @_X_ with the compile-time API version. */
#define DOCA_STRUCT_CTOR(_X_)	  (_X_).__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_PTR_CTOR(_X_) DOCA_STRUCT_CTOR(*(_X_))
/** Zero the struct object @_X_, then stamp it. */
#define DOCA_STRUCT_MEMSET_CTOR(_X_)                                                                                   \
	do {                                                                                                           \
		memset(&(_X_), 0, sizeof(_X_));                                                                        \
		(_X_).__doca_api_version = DOCA_VERSION_EXACT;                                                         \
	} while (0)
#define DOCA_STRUCT_PTR_MEMSET_CTOR(_X_) DOCA_STRUCT_MEMSET_CTOR(*(_X_))
/** Designated-initializer form: struct s v = {DOCA_STRUCT_CTOR_LIST_START, .x = 1}; */
#define DOCA_STRUCT_CTOR_LIST_START	  .__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_DEF(__st__, __name__) struct __st__ __name__ = {.__doca_api_version = DOCA_VERSION_EXACT}

#endif /* DOCA_COMPAT_HELPERS */

#endif /* DOCA_COMPAT_H_ */
