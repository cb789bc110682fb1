/* SPDX-License-Identifier: BSD-3-Clause */
/* DOCA's doca_dev.h includes <stdint.h>, doca_types.h, doca_compat.h, doca_error.h. */
#include <doca_dev.h>

#include "compat_set.h"

size_t dev_use(const struct doca_devinfo *devinfo);
size_t dev_use(const struct doca_devinfo *devinfo)
{
	char addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char bdf[DOCA_DEVINFO_REP_PCI_BDF_SIZE > DOCA_DEVINFO_PCI_BDF_SIZE ? DOCA_DEVINFO_REP_PCI_BDF_SIZE
									   : DOCA_DEVINFO_PCI_BDF_SIZE];
	enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_PF; /* doca_types.h */

	memset(bdf, 0, sizeof(bdf));
	if (doca_devinfo_get_pci_addr_str(devinfo, addr) != DOCA_SUCCESS)
		return 0;
	return strlen(addr) + sizeof(bdf) + (size_t)type;
}
