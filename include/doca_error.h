/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_error.h - the error codes every DOCA call returns.
 *
 * DOCA_SUCCESS is 0; every failure is a non-zero doca_error_t. The numeric values are part of
 * the DOCA ABI and never change.
 */
#ifndef DOCA_ERROR_H_
#define DOCA_ERROR_H_

#include <doca_common_defines.h>
#include <doca_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum doca_error {
	DOCA_SUCCESS = 0,		       /**< the call did what it was asked */
	DOCA_ERROR_UNKNOWN = 1,		       /**< failure with no better classification */
	DOCA_ERROR_NOT_PERMITTED = 2,	       /**< not allowed for this object or configuration */
	DOCA_ERROR_IN_USE = 3,		       /**< object still referenced or busy */
	DOCA_ERROR_NOT_SUPPORTED = 4,	       /**< device or library lacks the capability */
	DOCA_ERROR_AGAIN = 5,		       /**< transient shortage: progress, then retry */
	DOCA_ERROR_INVALID_VALUE = 6,	       /**< bad argument */
	DOCA_ERROR_NO_MEMORY = 7,	       /**< allocation failed or a fixed pool is empty */
	DOCA_ERROR_INITIALIZATION = 8,	       /**< internal resource setup failed */
	DOCA_ERROR_TIME_OUT = 9,	       /**< waited too long */
	DOCA_ERROR_SHUTDOWN = 10,	       /**< object is shutting down */
	DOCA_ERROR_CONNECTION_RESET = 11,      /**< peer reset the connection */
	DOCA_ERROR_CONNECTION_ABORTED = 12,    /**< connection aborted */
	DOCA_ERROR_CONNECTION_INPROGRESS = 13, /**< connection still being established */
	DOCA_ERROR_NOT_CONNECTED = 14,	       /**< not connected / not attached */
	DOCA_ERROR_NO_LOCK = 15,	       /**< a required lock could not be taken */
	DOCA_ERROR_NOT_FOUND = 16,	       /**< requested item does not exist */
	DOCA_ERROR_IO_FAILED = 17,	       /**< input/output failed */
	DOCA_ERROR_BAD_STATE = 18,	       /**< wrong lifecycle state for the call */
	DOCA_ERROR_UNSUPPORTED_VERSION = 19,   /**< version mismatch */
	DOCA_ERROR_OPERATING_SYSTEM = 20,      /**< an operating-system call failed */
	DOCA_ERROR_DRIVER = 21,		       /**< the engine (driver) reported a failure */
	DOCA_ERROR_UNEXPECTED = 22,	       /**< internal inconsistency */
	DOCA_ERROR_ALREADY_EXIST = 23,	       /**< item already present */
	DOCA_ERROR_FULL = 24,		       /**< container full */
	DOCA_ERROR_EMPTY = 25,		       /**< container empty */
	DOCA_ERROR_IN_PROGRESS = 26,	       /**< started; completes asynchronously */
	DOCA_ERROR_TOO_BIG = 27,	       /**< request exceeds a size limit */
	DOCA_ERROR_AUTHENTICATION = 28,	       /**< authentication failed */
	DOCA_ERROR_BAD_CONFIG = 29,	       /**< configuration invalid */
	DOCA_ERROR_SKIPPED = 30,	       /**< result valid, earlier output dropped */
	DOCA_ERROR_DEVICE_FATAL_ERROR = 31,    /**< device hit an unrecoverable error */
} doca_error_t;

/** Keep the first error: assign @t to @r only while @r is still DOCA_SUCCESS. */
#define DOCA_ERROR_PROPAGATE(r, t)                                                                                     \
	do {                                                                                                           \
		if (r == DOCA_SUCCESS)                                                                                 \
			r = t;                                                                                         \
	} while (0)

/** True when @r is a failure. */
#define DOCA_IS_ERROR(r) doca_unlikely((r) != DOCA_SUCCESS)

/**
 * The enumerator's identifier as text, e.g. "DOCA_ERROR_INVALID_VALUE".
 * Unknown values give "unrecognized error code". Never NULL; static storage.
 */
DOCA_STABLE const char *doca_error_get_name(doca_error_t error);

/** A one-line human description of @error. Never NULL; static storage. */
DOCA_STABLE const char *doca_error_get_descr(doca_error_t error);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ERROR_H_ */
