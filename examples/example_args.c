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

doca_error_t example_pci_arg(char *to, const char *addr)
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
	return example_pci_arg(((struct example_gpu_nic *)config)->nic, param);
}

doca_error_t example_gpu_cb(void *param, void *config)
{
	return example_pci_arg(((struct example_gpu_nic *)config)->gpu, param);
}

doca_error_t example_scope_arg(const void *param, int *scope)
{
	int v = *(const int *)param;

	if (v < 0 || v > 2) {
		DOCA_LOG_ERR("exec scope %d: use 0 (thread), 1 (warp) or 2 (block)", v);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*scope = v;
	return DOCA_SUCCESS;
}

doca_error_t example_mem_arg(const void *param, enum doca_gpu_mem_type *mem)
{
	const char *s = param;

	if (strcmp(s, "gpu") == 0)
		*mem = DOCA_GPU_MEM_TYPE_GPU;
	else if (strcmp(s, "cpu_gpu") == 0)
		*mem = DOCA_GPU_MEM_TYPE_CPU_GPU;
	else {
		DOCA_LOG_ERR("packet memory '%s': use gpu or cpu_gpu", s);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}
