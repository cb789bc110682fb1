/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * media.c - which medium moves a device's frames: the provider port.c asks when a device
 * without a port is first used, reading the device's `medium` from the topology and attaching
 * the backend the media list (media_list.h, generated from src/nic/meson.build) gives it.
 */
#include <pthread.h>
#include <stddef.h>

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

/* The media of this build (media_list.h, from the list in src/nic/meson.build). */
static const struct {
	const char *name;
	enum topo_medium topo;
	const struct dev_backend_ops *backend;
} media[] = {
#define NIC_MEDIUM(name, topo, backend) {#name, topo, &backend},
#include "media_list.h"
#undef NIC_MEDIUM
};

doca_error_t nic_media_provider(struct doca_dev *dev)
{
	const struct topo_device *td = dev->info.tdev;

	if (td == NULL || td->medium == TOPO_MEDIUM_NONE)
		return DOCA_ERROR_NOT_FOUND; /* the caller names its call and the fix */
	for (size_t i = 0; i < sizeof(media) / sizeof(media[0]); i++)
		if (media[i].topo == td->medium)
			return attach_once(dev, media[i].backend);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "device %s: medium %d is not built into this softdoca",
			 priv_doca_dev_name(&dev->info), (int)td->medium);
}
