/* SPDX-License-Identifier: BSD-3-Clause */
/* example_args.c - log set-up and doca_argp parameters for the examples (example_args.h). */
#include <stdio.h>
#include <string.h>

#include <doca_log.h>

#include "example_args.h"

doca_error_t example_log_argp_init(void *cfg)
{
	struct doca_log_backend *sdk_log;
	doca_error_t ret;

	ret = doca_log_backend_create_standard();
	if (ret == DOCA_SUCCESS)
		ret = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (ret == DOCA_SUCCESS)
		ret = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_init(NULL, cfg);
	return ret;
}

doca_error_t example_param(const char *s, const char *l, const char *desc, enum doca_argp_type type,
			   doca_argp_param_cb_t cb, bool required)
{
	struct doca_argp_param *p;
	doca_error_t ret = doca_argp_param_create(&p);

	if (ret != DOCA_SUCCESS)
		return ret;
	doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, desc);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	if (required)
		doca_argp_param_set_mandatory(p);
	return doca_argp_register_param(p);
}

DOCA_LOG_REGISTER(EXAMPLE_ARGS);

static doca_error_t copy_addr(char *to, const char *addr)
{
	if (strlen(addr) >= DOCA_DEVINFO_PCI_ADDR_SIZE) {
		DOCA_LOG_ERR("PCI address '%s' is too long; use BB:DD.F or DDDD:BB:DD.F", addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(to, addr);
	return DOCA_SUCCESS;
}

doca_error_t example_nic_cb(void *param, void *config)
{
	return copy_addr(((struct example_gpu_nic *)config)->nic, param);
}

doca_error_t example_gpu_cb(void *param, void *config)
{
	return copy_addr(((struct example_gpu_nic *)config)->gpu, param);
}
