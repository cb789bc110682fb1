/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * example_args.h - what the GPUNetIO examples share for their command lines: log set-up and
 * doca_argp parameters in one call each.
 */
#ifndef EXAMPLE_ARGS_H_
#define EXAMPLE_ARGS_H_

#include <stdbool.h>

#include <doca_argp.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_gpunetio.h>

/* The first member of an example's configuration: the NIC and the GPU, by PCI address. */
struct example_gpu_nic {
	char nic[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char gpu[DOCA_DEVINFO_PCI_ADDR_SIZE];
};

/*
 * The standard log backend, SDK messages of level WARNING and above on stderr, then
 * doca_argp_init(NULL, @cfg): what every example does first.
 */
doca_error_t example_log_argp_init(void *cfg);
/* Registers one parameter: -@s / --@l, @desc, of @type, handled by @cb; @required makes it mandatory. */
doca_error_t example_param(const char *s, const char *l, const char *desc, enum doca_argp_type type,
			   doca_argp_param_cb_t cb, bool required);

/* A PCI address argument into @to (DOCA_DEVINFO_PCI_ADDR_SIZE bytes); INVALID_VALUE, said, if too long. */
doca_error_t example_pci_arg(char *to, const char *addr);
/* doca_argp callbacks for -n / -g: @config starts with a struct example_gpu_nic. */
doca_error_t example_nic_cb(void *param, void *config);
doca_error_t example_gpu_cb(void *param, void *config);

/* -e: an execution scope, 0 (thread), 1 (warp) or 2 (block), into @scope; logged when refused. */
doca_error_t example_scope_arg(const void *param, int *scope);
/* -m: "gpu" or "cpu_gpu" packet memory, into @mem; logged when refused. */
doca_error_t example_mem_arg(const void *param, enum doca_gpu_mem_type *mem);

#endif /* EXAMPLE_ARGS_H_ */
