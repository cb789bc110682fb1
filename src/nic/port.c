/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port.c - the port registry of the software NIC (nic.h): which medium moves each device's
 * frames. Media install their ports (through the provider, on first use of a device), tests
 * install their own; DOCA Ethernet looks them up.
 */
#include <pthread.h>

#include "core.h"
#include "nic_internal.h"

#define COMP "nic"

static struct {
	const struct nic_port_ops *ops;
	void *port;
} ports[TOPO_MAX_DEVICES];
/* The media of the topology (media.c) unless a test sets its own. */
static nic_provider_fn provider = nic_media_provider;
static pthread_mutex_t port_lock = PTHREAD_MUTEX_INITIALIZER;

SD_PRIV void priv_doca_nic_set_provider(nic_provider_fn fn)
{
	pthread_mutex_lock(&port_lock);
	provider = fn;
	pthread_mutex_unlock(&port_lock);
}

SD_PRIV doca_error_t priv_doca_nic_port_install(struct doca_dev *dev, const struct nic_port_ops *ops, void *port)
{
	doca_error_t ret = DOCA_SUCCESS;
	uint32_t i;

	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "port install: NULL device");
	i = dev->info.index;
	if (i >= TOPO_MAX_DEVICES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "port install: device index %u out of range", i);
	pthread_mutex_lock(&port_lock);
	if (ops != NULL && ports[i].ops != NULL)
		ret = SD_REJECT(DOCA_ERROR_IN_USE, COMP, "device %s already has a port on medium '%s'; remove it first",
				priv_doca_dev_name(&dev->info), ports[i].ops->medium);
	else {
		ports[i].ops = ops;
		ports[i].port = ops != NULL ? port : NULL;
	}
	pthread_mutex_unlock(&port_lock);
	return ret;
}

SD_PRIV doca_error_t priv_doca_nic_port_get(struct doca_dev *dev, const struct nic_port_ops **ops, void **port)
{
	doca_error_t ret = DOCA_SUCCESS;
	uint32_t i;

	if (dev == NULL || ops == NULL || port == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	i = dev->info.index;
	if (i >= TOPO_MAX_DEVICES)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&port_lock);
	if (ports[i].ops == NULL && provider != NULL) {
		nic_provider_fn fn = provider;

		/* The provider installs through priv_doca_nic_port_install, which takes the lock. */
		pthread_mutex_unlock(&port_lock);
		ret = fn(dev);
		pthread_mutex_lock(&port_lock);
	}
	if (ports[i].ops == NULL) {
		if (ret == DOCA_SUCCESS)
			ret = DOCA_ERROR_NOT_FOUND;
	} else {
		*ops = ports[i].ops;
		*port = ports[i].port;
		ret = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&port_lock);
	return ret;
}
