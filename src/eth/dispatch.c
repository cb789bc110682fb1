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

doca_error_t eth_port_get(struct doca_dev *dev, const char *call, struct eth_port **out)
{
	const struct nic_port_ops *ops = NULL;
	void *port = NULL;
	uint32_t i = dev->info.index;
	struct eth_port *p;
	doca_error_t ret;

	ret = priv_doca_nic_port_get(dev, &ops, &port);
	if (ret != DOCA_SUCCESS)
		return SD_REJECT(ret, COMP,
				 "%s: device %s has no port medium (%s); give it one in the topology (a [device] "
				 "section's medium, docs/config.md) or use a device that has one",
				 call, priv_doca_dev_name(&dev->info), doca_error_get_name(ret));
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
	p->nb_rxqs++;
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
			break;
		}
	}
	pthread_mutex_unlock(&p->lock);
}

doca_error_t eth_port_watch(struct eth_port *p, struct doca_pe *pe)
{
	int fd = p->ops->rx_fd != NULL ? p->ops->rx_fd(p->port) : -1;
	doca_error_t ret = DOCA_SUCCESS;
	uint32_t i, free_slot = ETH_MAX_RXQS_PER_PORT;

	if (fd < 0)
		return DOCA_SUCCESS; /* a medium without an fd: receivers poll */
	pthread_mutex_lock(&p->lock);
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

	if (eth_frame_parse(frame, len, &info) != 0 || len > NIC_MAX_FRAME) {
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
	if (n == 0 && p->ops->rx_rearm != NULL)
		p->ops->rx_rearm(p->port);
	pthread_mutex_unlock(&p->lock);
	return n;
}

/* ---- frame parser ---- */

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88a8

static bool l4_checksum_ok(const uint8_t *f, const struct nic_frame_info *o, size_t l4_len)
{
	bool odd = false;
	uint32_t sum;

	if (o->l4 == NIC_L4_UDP && o->l3 == NIC_L3_IPV4 && eth_get16(f + o->l4_off + 6) == 0)
		return true; /* UDP over IPv4 without a checksum */
	sum = eth_csum_pseudo(f + o->l3_off, o->l3 == NIC_L3_IPV6, o->ip_proto, (uint32_t)l4_len);
	sum = eth_csum_add(sum, f + o->l4_off, l4_len, &odd);
	return eth_csum_fold(sum) == 0;
}

int eth_frame_parse(const uint8_t *f, size_t len, struct nic_frame_info *o)
{
	size_t off = 14, l3_end;
	uint16_t type;

	memset(o, 0, sizeof(*o));
	if (len < 14 || len > NIC_MAX_FRAME)
		return -EINVAL;
	o->len = (uint16_t)len;
	type = eth_get16(f + 12);
	while ((type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) && o->nb_vlans < 2 && off + 4 <= len) {
		if (o->nb_vlans == 0)
			memcpy(&o->vlan_tci, f + off, 2);
		type = eth_get16(f + off + 2);
		off += 4;
		o->nb_vlans++;
	}
	memcpy(&o->eth_type, f + off - 2, 2);
	if (type == ETHERTYPE_IPV4 && off + 20 <= len) {
		const uint8_t *ip = f + off;
		size_t ihl = (size_t)(ip[0] & 0x0f) * 4;
		size_t tot = eth_get16(ip + 2);
		bool odd = false;

		if ((ip[0] >> 4) != 4 || ihl < 20 || off + ihl > len || tot < ihl || off + tot > len)
			return 0;
		o->l3 = NIC_L3_IPV4;
		o->l3_off = (uint16_t)off;
		o->ip_proto = ip[9];
		o->ip_ttl = ip[8];
		memcpy(&o->ip4_src, ip + 12, 4);
		memcpy(&o->ip4_dst, ip + 16, 4);
		o->l3_ok = eth_csum_fold(eth_csum_add(0, ip, ihl, &odd)) == 0;
		o->ip_frag = (eth_get16(ip + 6) & 0x3fff) != 0;
		off += ihl;
		l3_end = o->l3_off + tot;
	} else if (type == ETHERTYPE_IPV6 && off + 40 <= len) {
		const uint8_t *ip = f + off;

		if ((ip[0] >> 4) != 6 || off + 40 + eth_get16(ip + 4) > len)
			return 0;
		o->l3 = NIC_L3_IPV6;
		o->l3_off = (uint16_t)off;
		o->ip_proto = ip[6];
		o->ip_ttl = ip[7];
		memcpy(o->ip6_src, ip + 8, 16);
		memcpy(o->ip6_dst, ip + 24, 16);
		o->l3_ok = 1;
		l3_end = off + 40 + eth_get16(ip + 4);
		off += 40;
	} else {
		o->payload_off = (uint16_t)off;
		return 0;
	}
	o->payload_off = (uint16_t)off;
	if (o->ip_frag)
		return 0;
	if (o->ip_proto == 6 && off + 20 <= l3_end) {
		size_t doff = (size_t)(f[off + 12] >> 4) * 4;

		if (doff < 20 || off + doff > l3_end)
			return 0;
		o->l4 = NIC_L4_TCP;
		o->tcp_flags = f[off + 13];
		memcpy(&o->tcp_seq, f + off + 4, 4);
		o->payload_off = (uint16_t)(off + doff);
	} else if (o->ip_proto == 17 && off + 8 <= l3_end) {
		o->l4 = NIC_L4_UDP;
		o->payload_off = (uint16_t)(off + 8);
	} else {
		o->l4 = (o->ip_proto == 1 || o->ip_proto == 58) ? NIC_L4_ICMP : NIC_L4_OTHER;
		return 0;
	}
	o->l4_off = (uint16_t)off;
	memcpy(&o->l4_src, f + off, 2);
	memcpy(&o->l4_dst, f + off + 2, 2);
	o->l4_ok = l4_checksum_ok(f, o, l3_end - off);
	return 0;
}
