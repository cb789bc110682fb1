/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_argp.h includes <stdarg.h>, doca_compat.h, doca_error.h, doca_log.h. */
#include <doca_argp.h>

#include "compat_set.h"

static doca_error_t argp_param(void *param, void *config)
{
	return param != NULL && config != NULL ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
}

int argp_use(FILE *out, const char *fmt, ...);
int argp_use(FILE *out, const char *fmt, ...)
{
	va_list ap; /* <stdarg.h> */
	int n;
	doca_argp_param_cb_t cb = argp_param;
	doca_argp_cmd_cb_t cmd = NULL;
	doca_argp_dpdk_cb_t dpdk = NULL;
	enum doca_argp_type type = DOCA_ARGP_TYPE_STRING;
	enum doca_log_level level = DOCA_LOG_LEVEL_WARNING; /* doca_log.h */

	va_start(ap, fmt);
	n = vfprintf(out, fmt, ap); /* <stdio.h>, through doca_log.h */
	va_end(ap);
	return n + (int)type + (int)level + (cb != NULL) + (cmd != NULL) + (dpdk != NULL);
}
