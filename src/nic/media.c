/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * media.c - which medium moves a device's frames: the provider port.c asks when a device
 * without a port is first used, reading the device's `medium` from the topology.
 */
#include "core.h"
#include "nic_internal.h"

#define COMP "nic"

doca_error_t nic_media_provider(struct doca_dev *dev)
{
	const struct topo_device *td = dev->info.tdev;

	if (td == NULL || td->medium == TOPO_MEDIUM_NONE)
		return DOCA_ERROR_NOT_FOUND; /* the caller names its call and the fix */
	switch (td->medium) {
	case TOPO_MEDIUM_WIRE:
		return nic_wire_attach(dev);
	case TOPO_MEDIUM_AFPACKET:
		return nic_afpacket_attach(dev);
	case TOPO_MEDIUM_UDP:
		return nic_udp_attach(dev);
	default:
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "device %s: medium %d is not known to this softdoca",
				 priv_doca_dev_name(&dev->info), (int)td->medium);
	}
}
