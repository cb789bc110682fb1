/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_side.c - a program lists the devices of the side it was built for.
 *
 * Built twice, once against the host personality and once against the dpu personality (the
 * doca_build_config.h a real DOCA install has on that side), as a DOCA program would be: a
 * host program sees the host's PCI functions, a DPU program the DPU's, and the DPU reaches the
 * host functions through representors. SOFTDOCA_SIDE overrides the side at run time, and a
 * value that is not a side is refused, not ignored.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <doca_build_config.h>
#include <doca_dev.h>

#include "../common/sd_test.h"

#if defined(DOCA_ARCH_HOST)
static const char *const own[] = {"0000:b1:00.0", "0000:b1:00.1"};
static const char *const other[] = {"0000:03:00.0", "0000:03:00.1"};
#define SIDE_NAME "host"
#else
static const char *const own[] = {"0000:03:00.0", "0000:03:00.1"};
static const char *const other[] = {"0000:b1:00.0", "0000:b1:00.1"};
#define SIDE_NAME "dpu"
#endif

/* Lists the devices; returns how many, their addresses in @addr. */
static uint32_t list(char addr[][DOCA_DEVINFO_PCI_ADDR_SIZE], uint32_t max)
{
	struct doca_devinfo **devs;
	uint32_t n;

	CHECK_OK(doca_devinfo_create_list(&devs, &n));
	CHECK(n <= max);
	for (uint32_t i = 0; i < n; i++)
		CHECK_OK(doca_devinfo_get_pci_addr_str(devs[i], addr[i]));
	CHECK_OK(doca_devinfo_destroy_list(devs));
	return n;
}

static bool has(char addr[][DOCA_DEVINFO_PCI_ADDR_SIZE], uint32_t n, const char *want)
{
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(addr[i], want) == 0)
			return true;
	return false;
}

int main(void)
{
	char addr[16][DOCA_DEVINFO_PCI_ADDR_SIZE];
	struct doca_devinfo **devs;
	uint32_t n;

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_SIDE", NULL);

	/* 1. The build personality decides. */
	n = list(addr, 16);
	CHECK(n == 2);
	CHECK(has(addr, n, own[0]) && has(addr, n, own[1]));
	CHECK(!has(addr, n, other[0]) && !has(addr, n, other[1]));

#if !defined(DOCA_ARCH_HOST)
	/* 2. On the DPU the host functions stay reachable as representors. */
	{
		struct doca_devinfo_rep **reps;
		struct doca_dev *dev = sd_open_dev("03:00.0");
		char rep_addr[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];
		uint32_t nr;

		CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nr));
		CHECK(nr >= 1);
		CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[0], rep_addr));
		CHECK(strcmp(rep_addr, "0000:b1:00.0") == 0);
		CHECK_OK(doca_devinfo_rep_destroy_list(reps));
		CHECK_OK(doca_dev_close(dev));
	}
#endif

	/* 3. SOFTDOCA_SIDE overrides it. */
	sd_setenv("SOFTDOCA_SIDE", "all");
	n = list(addr, 16);
	CHECK(n == 4);
	CHECK(has(addr, n, own[0]) && has(addr, n, other[0]) && has(addr, n, other[1]));
	sd_setenv("SOFTDOCA_SIDE", strcmp(SIDE_NAME, "host") == 0 ? "dpu" : "host");
	n = list(addr, 16);
	CHECK(n == 2);
	CHECK(has(addr, n, other[0]) && has(addr, n, other[1]) && !has(addr, n, own[0]));

	/* 4. A value that is not a side is refused. */
	sd_setenv("SOFTDOCA_SIDE", "Host");
	CHECK_ERR(doca_devinfo_create_list(&devs, &n), DOCA_ERROR_BAD_CONFIG);
	sd_setenv("SOFTDOCA_SIDE", NULL);
	CHECK(list(addr, 16) == 2);
	/* Empty is not set, as for every SOFTDOCA_* variable: the build's side. */
	sd_setenv("SOFTDOCA_SIDE", "");
	CHECK(list(addr, 16) == 2);
	sd_setenv("SOFTDOCA_SIDE", NULL);
	printf("test_side[%s]: ok\n", SIDE_NAME);
	return T_EXIT_PASS;
}
