/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * media.c - which medium moves a device's frames: the provider port.c asks when a device
 * without a port is first used, reading the device's `medium` from the topology.
 */
#include <pthread.h>

#include "core.h"
#include "nic_internal.h"

#define COMP "nic"

/* Two threads asking for the same port at once attach its medium once. */
static doca_error_t attach_once(struct doca_dev *dev, const struct dev_backend_ops *medium)
{
	static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;
	doca_error_t ret = DOCA_SUCCESS;

	pthread_mutex_lock(&attach_lock);
	if (priv_doca_dev_backend(dev, medium) == NULL)
		ret = priv_doca_dev_attach(dev, medium);
	pthread_mutex_unlock(&attach_lock);
	return ret;
}

doca_error_t nic_media_provider(struct doca_dev *dev)
{
	const struct topo_device *td = dev->info.tdev;

	if (td == NULL || td->medium == TOPO_MEDIUM_NONE)
		return DOCA_ERROR_NOT_FOUND; /* the caller names its call and the fix */
	switch (td->medium) {
	case TOPO_MEDIUM_WIRE:
		return attach_once(dev, &nic_wire_backend);
	case TOPO_MEDIUM_AFPACKET:
		return attach_once(dev, &nic_afpacket_backend);
	case TOPO_MEDIUM_UDP:
		return attach_once(dev, &nic_udp_backend);
	default:
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "device %s: medium %d is not known to this softdoca",
				 priv_doca_dev_name(&dev->info), (int)td->medium);
	}
}
