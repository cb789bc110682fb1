/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_clock.h (3.2+; no 3.0 reference page): NVIDIA's clock_cross_timestamp sample uses
 * DOCA_DEVINFO_PCI_ADDR_SIZE (doca_dev.h) after including only this header. */
#include <doca_clock.h>

#include "compat_set.h"

doca_error_t clock_use(struct doca_dev *dev, struct doca_clock **clk, char *pci);
doca_error_t clock_use(struct doca_dev *dev, struct doca_clock **clk, char *pci)
{
	char addr[DOCA_DEVINFO_PCI_ADDR_SIZE] = "03:00.0"; /* doca_dev.h */
	doca_error_t err = doca_clock_create(dev, clk);

	memcpy(pci, addr, sizeof(addr));
	return DOCA_IS_ERROR(err) ? err : doca_clock_destroy(*clk);
}
