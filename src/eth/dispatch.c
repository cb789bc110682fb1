/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dispatch.c - the receive side of one device's port in this process (eth_internal.h): which
 * receive queue applied which queue id, draining the medium, steering and placing each frame,
 * and the frame parser libdoca_eth uses until the NIC's own lands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "eth_internal.h"

#define COMP ETH_COMP

static struct eth_port *ports[TOPO_MAX_DEVICES];
static pthread_mutex_t ports_lock = PTHREAD_MUTEX_INITIALIZER;

doca_error_t eth_devinfo_caps(const struct doca_devinfo *devinfo, const char *call, const struct topo_caps_eth **caps)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: NULL devinfo; pass one from doca_devinfo_create_list()", call);
	*caps = &devinfo->profile->eth;
	return DOCA_SUCCESS;
}

doca_error_t eth_medium_get(struct doca_dev *dev, const char *call, const struct nic_port_ops **ops, void **port)
{
	uint64_t said = priv_doca_errors_said();
	doca_error_t ret = priv_doca_nic_port_get(dev, ops, port);

	if (ret != DOCA_SUCCESS && priv_doca_errors_said() != said) /* configured, and said why it failed */
		return SD_REJECT(ret, COMP, "%s: the port of device %s did not attach (%s): fix the cause said above",
				 call, priv_doca_dev_name(&dev->info), doca_error_get_name(ret));
	if (ret != DOCA_SUCCESS)
		return SD_REJECT(ret, COMP,
				 "%s: device %s has no port medium (%s); give it one in the topology (a [device] "
				 "section's medium, docs/config.md) or use a device that has one",
				 call, priv_doca_dev_name(&dev->info), doca_error_get_name(ret));
	return DOCA_SUCCESS;
}

doca_error_t eth_port_get(struct doca_dev *dev, const char *call, struct eth_port **out)
{
	const struct nic_port_ops *ops = NULL;
	void *port = NULL;
	uint32_t i = dev->info.index;
	struct eth_port *p;
	doca_error_t ret;

	ret = eth_medium_get(dev, call, &ops, &port);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (i >= TOPO_MAX_DEVICES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: device index %u out of range", call, i);
	pthread_mutex_lock(&ports_lock);
	p = ports[i];
	if (p == NULL) {
		p = calloc(1, sizeof(*p));
		if (p != NULL) {
			pthread_mutex_init(&p->lock, NULL);
			ports[i] = p;
		}
	}
	if (p != NULL) {
		/* The medium may have been replaced (a test reinstalling its port): follow it. */
		pthread_mutex_lock(&p->lock);
		p->dev = dev;
		p->ops = ops;
		p->port = port;
		/* The port receives while one of its queues is bound, like a NIC's (see bind). */
		if (p->nb_rxqs == 0 && ops->rx_enable != NULL)
			ops->rx_enable(port, false);
		pthread_mutex_unlock(&p->lock);
	}
	pthread_mutex_unlock(&ports_lock);
	if (p == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "%s: cannot allocate the port dispatch", call);
	*out = p;
	return DOCA_SUCCESS;
}

doca_error_t eth_port_bind(struct eth_port *p, uint16_t id, struct doca_eth_rxq *q)
{
	doca_error_t ret = DOCA_SUCCESS;

	pthread_mutex_lock(&p->lock);
	for (uint32_t i = 0; i < p->nb_rxqs; i++) {
		if (p->rxqs[i].q == q) {
			p->rxqs[i].id = id; /* re-applied: the new id replaces the old */
			goto out;
		}
		if (p->rxqs[i].id == id) {
			ret = SD_REJECT(DOCA_ERROR_IN_USE, COMP,
					"doca_eth_rxq_apply_queue_id: queue id %u of port %s is applied by rxq %p "
					"already; give each receive queue of a port its own id",
					id, priv_doca_dev_name(&p->dev->info), (void *)p->rxqs[i].q);
			goto out;
		}
	}
	if (p->nb_rxqs == ETH_MAX_RXQS_PER_PORT) {
		ret = SD_REJECT(DOCA_ERROR_FULL, COMP,
				"doca_eth_rxq_apply_queue_id: port %s has %u receive queues in this process, the "
				"most softdoca dispatches to; stop one first",
				priv_doca_dev_name(&p->dev->info), ETH_MAX_RXQS_PER_PORT);
		goto out;
	}
	p->rxqs[p->nb_rxqs].id = id;
	p->rxqs[p->nb_rxqs].q = q;
	/* The first queue: the medium starts taking frames in, from now on, not from before. */
	if (p->nb_rxqs++ == 0 && p->ops->rx_enable != NULL)
		p->ops->rx_enable(p->port, true);
out:
	pthread_mutex_unlock(&p->lock);
	return ret;
}

void eth_port_unbind(struct eth_port *p, struct doca_eth_rxq *q)
{
	pthread_mutex_lock(&p->lock);
	for (uint32_t i = 0; i < p->nb_rxqs; i++) {
		if (p->rxqs[i].q == q) {
			p->rxqs[i] = p->rxqs[--p->nb_rxqs];
			if (p->nb_rxqs == 0 && p->ops->rx_enable != NULL)
				p->ops->rx_enable(p->port, false);
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
	/* What no queue saw, next to the queue's own counts (rxq_stopped). */
	SD_DBG(COMP,
	       "port %s: %llu frames dropped before any queue: %llu unparsable, %llu by a pipe, %llu missed every "
	       "pipe, %llu for a queue id no rxq applied",
	       priv_doca_dev_name(&p->dev->info),
	       (unsigned long long)(atomic_load(&p->drop_bad) + atomic_load(&p->drop_steer) +
				    atomic_load(&p->drop_miss) + atomic_load(&p->drop_no_queue)),
	       (unsigned long long)atomic_load(&p->drop_bad), (unsigned long long)atomic_load(&p->drop_steer),
	       (unsigned long long)atomic_load(&p->drop_miss), (unsigned long long)atomic_load(&p->drop_no_queue));
}

doca_error_t eth_port_watch(struct eth_port *p, struct doca_pe *pe)
{
	doca_error_t ret = DOCA_SUCCESS;
	uint32_t i, free_slot = ETH_MAX_RXQS_PER_PORT;
	int fd;

	/* Under the port lock, like every other call into the medium's receive side. */
	pthread_mutex_lock(&p->lock);
	fd = p->ops->rx_fd != NULL ? p->ops->rx_fd(p->port) : -1;
	if (fd < 0) {
		pthread_mutex_unlock(&p->lock);
		return DOCA_SUCCESS; /* a medium without an fd: receivers poll */
	}
	for (i = 0; i < ETH_MAX_RXQS_PER_PORT; i++) {
		if (p->watchers[i].pe == pe)
			break;
		if (p->watchers[i].pe == NULL && free_slot == ETH_MAX_RXQS_PER_PORT)
			free_slot = i;
	}
	if (i < ETH_MAX_RXQS_PER_PORT) {
		p->watchers[i].refs++;
	} else if (free_slot < ETH_MAX_RXQS_PER_PORT) {
		ret = priv_doca_pe_watch_fd(pe, fd);
		if (ret == DOCA_SUCCESS) {
			p->watchers[free_slot].pe = pe;
			p->watchers[free_slot].refs = 1;
		}
	} else {
		ret = SD_REJECT(DOCA_ERROR_FULL, COMP, "port %s: too many progress engines receive from it",
				priv_doca_dev_name(&p->dev->info));
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

void eth_port_unwatch(struct eth_port *p, struct doca_pe *pe)
{
	int fd = p->ops->rx_fd != NULL ? p->ops->rx_fd(p->port) : -1;

	if (fd < 0)
		return;
	pthread_mutex_lock(&p->lock);
	for (uint32_t i = 0; i < ETH_MAX_RXQS_PER_PORT; i++) {
		if (p->watchers[i].pe == pe) {
			if (--p->watchers[i].refs == 0) {
				priv_doca_pe_unwatch_fd(pe, fd);
				p->watchers[i].pe = NULL;
			}
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
}

static void on_frame(void *arg, const uint8_t *frame, uint32_t len, uint64_t timestamp_ns)
{
	struct eth_port *p = arg;
	struct nic_frame_info info;
	struct nic_verdict v;
	struct eth_rx_meta m;

	if (priv_doca_nic_frame_parse(frame, len, &info) != 0) {
		atomic_fetch_add_explicit(&p->drop_bad, 1, memory_order_relaxed);
		return;
	}
	priv_doca_nic_steer(p->dev, &info, frame, &v);
	if (v.kind != NIC_TO_QUEUE) {
		atomic_fetch_add_explicit(v.kind == NIC_DROP ? &p->drop_steer : &p->drop_miss, 1, memory_order_relaxed);
		return;
	}
	for (uint32_t i = 0; i < p->nb_rxqs; i++) {
		if (p->rxqs[i].id == v.queue) {
			m.timestamp = timestamp_ns;
			m.pkt_meta = v.pkt_meta;
			m.rss_hash = v.rss_hash;
			m.l3_ok = info.l3_ok;
			m.l4_ok = info.l4_ok;
			eth_rxq_place(p->rxqs[i].q, frame, len, &m);
			return;
		}
	}
	atomic_fetch_add_explicit(&p->drop_no_queue, 1, memory_order_relaxed);
}

unsigned int eth_port_drain(struct eth_port *p, unsigned int budget)
{
	unsigned int n;

	if (pthread_mutex_trylock(&p->lock) != 0)
		return 0; /* another queue's progress is draining this port */
	n = p->ops->rx_burst(p->port, budget, on_frame, p);
	for (uint32_t i = 0; i < p->nb_rxqs; i++)
		(void)eth_rxq_flush(p->rxqs[i].q, false); /* GPU-only memory: the burst in one batch */
	pthread_mutex_unlock(&p->lock);
	return n;
}

bool eth_port_settle(struct eth_port *p)
{
	bool any = false;

	if (pthread_mutex_trylock(&p->lock) != 0)
		return false;
	for (uint32_t i = 0; i < p->nb_rxqs; i++)
		any |= eth_rxq_flush(p->rxqs[i].q, true);
	pthread_mutex_unlock(&p->lock);
	return any;
}

void eth_port_arm(struct eth_port *p)
{
	/* rx_rearm and rx_burst: one thread at a time; ops too (eth_port_get() rewrites them under it) */
	pthread_mutex_lock(&p->lock);
	if (p->ops->rx_rearm != NULL)
		p->ops->rx_rearm(p->port);
	pthread_mutex_unlock(&p->lock);
}
