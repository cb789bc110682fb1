/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_log.h - DOCA logging.
 *
 * Two independent worlds: application messages (DOCA_LOG_* macros in user code) and SDK
 * messages (written by the DOCA libraries themselves). Each world has backends (sinks) and a
 * global verbosity limit. Levels grow with verbosity: CRIT (20) is the least verbose real level,
 * TRACE (70) the most. A message is written when its level is <= the world's global limit and
 * within the backend's [upper, lower] window.
 *
 * softdoca extension: the environment variable DOCA_LOG_LEVEL (a level name such as "debug" or
 * a number such as 60) sets the initial global limit of both worlds.
 */
#ifndef DOCA_LOG_H_
#define DOCA_LOG_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_compat.h>
#include <doca_error.h>

#ifdef __cplusplus
extern "C" {
#endif

enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10, /**< nothing is printed */
	DOCA_LOG_LEVEL_CRIT = 20,    /**< critical */
	DOCA_LOG_LEVEL_ERROR = 30,   /**< error */
	DOCA_LOG_LEVEL_WARNING = 40, /**< warning */
	DOCA_LOG_LEVEL_INFO = 50,    /**< information */
	DOCA_LOG_LEVEL_DEBUG = 60,   /**< debug */
	DOCA_LOG_LEVEL_TRACE = 70,   /**< trace */
};

/** Opaque log sink. */
struct doca_log_backend;

/** Global limit of application messages (what argp's -l sets). */
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_lower_limit(uint32_t level);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_lower_limit(void);
/** Least verbose level application backends print by default (normally CRIT). */
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_upper_limit(void);
/** Global limit of SDK messages (what argp's --sdk-log-level sets). */
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_sdk_limit(void);

/** Application backends on stdout (INFO and more verbose) and stderr (WARNING and more severe). */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_standard(void);
/** Application backend writing to @fptr. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend);
/** Application backend writing to file descriptor @fd. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend);
/** Application backend writing to syslog under @name. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend);
/** SDK backend writing to @fptr. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);
/** SDK backend writing to file descriptor @fd. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend);
/** Most verbose level @backend prints. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level);
/** Least verbose level @backend prints. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend,
								      uint32_t upper_limit);
/** Verbosity limit of one SDK backend. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level);

/** Allocates the id of a log source; called by DOCA_LOG_REGISTER before main(). */
DOCA_EXPERIMENTAL doca_error_t doca_log_register_source(const char *source_name, int *source);
/** Releases a source id. */
DOCA_EXPERIMENTAL doca_error_t doca_log_unregister_source(int source);

/** Formats one application message and hands it to every admitting backend. */
DOCA_EXPERIMENTAL doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func,
					const char *format, ...) __attribute__((format(printf, 6, 7)));

/**
 * Registers the log source of this translation unit under @source (stringified, so names like
 * PE::COMMON work). Use once per file, at file scope, before any DOCA_LOG_* call.
 */
#define DOCA_LOG_REGISTER(source)                                                                                      \
	static int log_source;                                                                                         \
	static void __attribute__((constructor(101), used)) doca_log_register_source_ctor(void);                       \
	static void doca_log_register_source_ctor(void)                                                                \
	{                                                                                                              \
		doca_log_register_source(#source, &log_source);                                                        \
	}

#define DOCA_LOG(level, format, ...) doca_log(level, log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)

#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_ERR(format, ...)  DOCA_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_DBG(format, ...)  DOCA_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)
#ifdef DOCA_LOGGING_ALLOW_TRACE
#define DOCA_LOG_TRC(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__)
#else
#define DOCA_LOG_TRC(format, ...)                                                                                      \
	do {                                                                                                           \
	} while (0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* DOCA_LOG_H_ */
