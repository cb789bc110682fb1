/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * args.c - doca_dma_copy's command line: -f, -p, -r, --force, -t, -q (doca_argp fills struct app).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

static doca_error_t copy_arg(char *dst, size_t cap, const char *src, const char *what)
{
	if (strlen(src) >= cap) {
		LOG_ERR("%s is too long (%zu bytes, at most %zu)", what, strlen(src), cap - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(dst, src);
	return DOCA_SUCCESS;
}

static doca_error_t file_cb(void *param, void *config)
{
	if (*(const char *)param == '\0') {
		LOG_ERR("-f/--file is empty: give the path of the file to copy or to create");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return copy_arg(((struct app *)config)->file, sizeof(((struct app *)config)->file), param, "file path");
}

/* Whether @s reads as a PCI address as doca_devinfo_is_equal_pci_addr() takes it: fixed widths,
 * BB:DD.F or DDDD:BB:DD.F in hex, device at most 1f, function at most 7. */
static bool pci_addr_ok(const char *s)
{
	size_t len = strlen(s);
	const char *shape = len == 12 ? "xxxx:xx:xx.x" : "xx:xx.x";

	if (strlen(shape) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	s += len - 7; /* BB:DD.F */
	return strtoul((char[]){s[3], s[4], '\0'}, NULL, 16) <= 0x1f && s[6] <= '7';
}

static doca_error_t pci_flag(char *dst, size_t cap, const char *arg, const char *flag)
{
	if (!pci_addr_ok(arg)) {
		LOG_ERR("%s '%s' is not a PCI address; use BB:DD.F or DDDD:BB:DD.F (hex), e.g. 03:00.0", flag, arg);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return copy_arg(dst, cap, arg, flag);
}

static doca_error_t pci_cb(void *param, void *config)
{
	return pci_flag(((struct app *)config)->pci, sizeof(((struct app *)config)->pci), param, "-p/--pci-addr");
}

static doca_error_t rep_cb(void *param, void *config)
{
	return pci_flag(((struct app *)config)->rep_pci, sizeof(((struct app *)config)->rep_pci), param,
			"-r/--rep-pci");
}

static doca_error_t force_cb(void *param, void *config)
{
	((struct app *)config)->force = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t quiet_cb(void *param, void *config)
{
	((struct app *)config)->quiet = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t timeout_cb(void *param, void *config)
{
	int t = *(int *)param;

	if (t < 1 || t > 86400) {
		LOG_ERR("timeout %d s is outside 1..86400", t);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct app *)config)->timeout_s = t;
	return DOCA_SUCCESS;
}

static doca_error_t add_param(const char *s, const char *l, const char *desc, enum doca_argp_type type,
			      doca_argp_param_cb_t cb, bool mandatory)
{
	struct doca_argp_param *p;
	doca_error_t ret = doca_argp_param_create(&p);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (s != NULL)
		doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, desc);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	if (mandatory)
		doca_argp_param_set_mandatory(p);
	return doca_argp_register_param(p);
}

doca_error_t register_params(void)
{
	doca_error_t ret;

	ret = add_param("f", "file", "file to copy (on the side that has it) or to create (on the other side)",
			DOCA_ARGP_TYPE_STRING, file_cb, true);
	if (ret == DOCA_SUCCESS)
		ret = add_param("p", "pci-addr",
				"DOCA Comch/DMA device PCI address (default " DPU_DEFAULT_PCI
				" on the DPU side, " HOST_DEFAULT_PCI " on the host)",
				DOCA_ARGP_TYPE_STRING, pci_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param("r", "rep-pci",
				"representor PCI address of the host function (DPU side only, default " DEFAULT_REP_PCI
				")",
				DOCA_ARGP_TYPE_STRING, rep_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param(NULL, "force", "replace the destination file if it exists", DOCA_ARGP_TYPE_BOOLEAN,
				force_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param("t", "timeout", "seconds to wait for the other side (default 60)", DOCA_ARGP_TYPE_INT,
				timeout_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param("q", "quiet", "no progress bar on a terminal, only the summary", DOCA_ARGP_TYPE_BOOLEAN,
				quiet_cb, false);
	return ret;
}
