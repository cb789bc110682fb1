/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_argp.h - DOCA's argument parser: program flags from the command line or a JSON file.
 *
 *   doca_argp_init(NULL, &cfg);  create/set/register params;  doca_argp_start(argc, argv);
 *   ... program ...;  doca_argp_destroy();
 *
 * Built-in flags: -h/--help, -v/--version, -l/--log-level <level>, --sdk-log-level <level>,
 * -j/--json <path>. Levels are numbers (10..70) or names (disable, critical, error, warning,
 * info, debug, trace).
 */
#ifndef DOCA_ARGP_H_
#define DOCA_ARGP_H_

#include <stdarg.h>
#include <stdbool.h>

#include <doca_compat.h>
#include <doca_error.h>
#include <doca_log.h>

#ifdef __cplusplus
extern "C" {
#endif

enum doca_argp_type {
	DOCA_ARGP_TYPE_UNKNOWN = 0,
	DOCA_ARGP_TYPE_STRING,	 /**< callback gets char * */
	DOCA_ARGP_TYPE_INT,	 /**< callback gets int * */
	DOCA_ARGP_TYPE_BOOLEAN,	 /**< callback gets bool *; the flag takes no argument */
	DOCA_ARGP_TYPE_JSON_OBJ, /**< callback gets the JSON text of the object (char *) */
};

struct doca_argp_param;

/** Receives (value, program_config). Any error makes doca_argp_start() fail. */
typedef doca_error_t (*doca_argp_param_cb_t)(void *, void *);
/** Callback of a sub-command, receives (program_config). */
typedef doca_error_t (*doca_argp_cmd_cb_t)(void *);
/** Entry point of a DPDK-based program: receives the arguments argp left for DPDK. */
typedef doca_error_t (*doca_argp_dpdk_cb_t)(int argc, char **argv);
/** Receives (program_config) once all flags were handled. */
typedef doca_error_t (*doca_argp_validation_cb_t)(void *);
/** Where argp's own messages go (softdoca prints them through the SDK log). */
typedef void (*doca_argp_logger_cb_t)(enum doca_log_level level, const char *format, va_list args);

DOCA_EXPERIMENTAL doca_error_t doca_argp_init(const char *program_name, void *program_config);
/** Parses, runs callbacks, checks mandatory flags, then the validation callback. -h exits. */
DOCA_EXPERIMENTAL doca_error_t doca_argp_start(int argc, char **argv);
DOCA_EXPERIMENTAL doca_error_t doca_argp_destroy(void);
DOCA_EXPERIMENTAL void doca_argp_usage(void);

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_create(struct doca_argp_param **param);
DOCA_EXPERIMENTAL void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name);
DOCA_EXPERIMENTAL void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name);
DOCA_EXPERIMENTAL void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments);
DOCA_EXPERIMENTAL void doca_argp_param_set_description(struct doca_argp_param *param, const char *description);
DOCA_EXPERIMENTAL void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback);
DOCA_EXPERIMENTAL void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type);
DOCA_EXPERIMENTAL void doca_argp_param_set_mandatory(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_multiplicity(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_cli_only(struct doca_argp_param *param);
/** Argp owns @input_param afterwards, also on failure. */
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_param(struct doca_argp_param *input_param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_param_destroy(struct doca_argp_param *param);

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_log_level(int *log_level);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_sdk_log_level(int *log_level);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_ARGP_H_ */
