/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_topology.c - libFuzzer target for the SOFTDOCA_CONFIG parser (topo_parse) and the PCI
 * address parser (topo_parse_pci).
 *
 * The sanitizers catch crashes and out-of-bounds reads; on top of that every input checks the
 * parser's contract, aborting when it breaks: a failure always comes with a
 * "line N: field 'F': " message (truncated cleanly into a small buffer) and a zeroed topology;
 * a success always yields a topology whose counts, indices and strings are in bounds and whose
 * names and addresses are unique.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Too big for a fuzzer thread's stack. */
static struct topology topo;

static void check(int cond)
{
	if (!cond)
		abort();
}

static int is_str(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static int is_name(const char *s, size_t size)
{
	return is_str(s, size) && s[0] != '\0';
}

static void check_profile(const struct topo_profile *p)
{
	check(is_name(p->name, sizeof(p->name)));
	check(p->dma.supported <= 1 && p->export_pci <= 1 && p->import_pci <= 1);
	check(p->dma.max_buf_size >= 1 && p->dma.max_buf_size <= (1ull << 40));
	check(p->dma.max_buf_list_len >= 1 && p->dma.max_buf_list_len <= 1024);
	check(p->dma.max_tasks >= 1 && p->dma.max_tasks <= (1u << 24));
	check(p->dma.queue_depth >= 1 && p->dma.queue_depth <= (1u << 24));
	check(p->comch.supported <= 1);
	check(p->comch.max_msg_size >= 1 && p->comch.max_msg_size <= TOPO_COMCH_MAX_MSG_SIZE);
	check(p->comch.max_name_len >= 2 && p->comch.max_name_len <= TOPO_COMCH_MAX_NAME_LEN);
	check(p->comch.max_clients >= 1 && p->comch.max_clients <= TOPO_COMCH_MAX_CLIENTS);
	check(p->comch.max_send_tasks >= 1 && p->comch.max_send_tasks <= TOPO_COMCH_MAX_SEND_TASKS);
	check(p->comch.max_recv_queue_size >= 1 && p->comch.max_recv_queue_size <= TOPO_COMCH_MAX_RECV_QUEUE);
	check(p->comch.max_consumers >= 1 && p->comch.max_consumers <= TOPO_COMCH_MAX_PER_CONN);
	check(p->comch.max_producers >= 1 && p->comch.max_producers <= TOPO_COMCH_MAX_PER_CONN);
	check(p->comch.consumer_max_num_tasks >= 1 && p->comch.consumer_max_num_tasks <= TOPO_COMCH_MAX_DP_TASKS);
	check(p->comch.producer_max_num_tasks >= 1 && p->comch.producer_max_num_tasks <= TOPO_COMCH_MAX_DP_TASKS);
	check(p->comch.consumer_max_buf_size >= 1 && p->comch.consumer_max_buf_size <= TOPO_COMCH_MAX_DP_BUF_SIZE);
	check(p->comch.producer_max_buf_size >= 1 && p->comch.producer_max_buf_size <= TOPO_COMCH_MAX_DP_BUF_SIZE);
	check(p->eth.supported <= 1);
	check(p->eth.max_burst_size >= 1 && p->eth.max_burst_size <= 65536);
	check(p->eth.max_packet_size >= 64 && p->eth.max_packet_size <= 65536);
	check(p->eth.max_queue_size >= 1 && p->eth.max_queue_size <= 65536);
}

static int same_pci(const struct topo_device *a, const struct topo_device *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev && a->fn == b->fn;
}

static void check_topology(const struct topology *t)
{
	check(t->nb_profiles >= 1 && t->nb_profiles <= TOPO_MAX_PROFILES);
	check(strcmp(t->profiles[0].name, "default") == 0);
	for (uint32_t i = 0; i < t->nb_profiles; i++) {
		check_profile(&t->profiles[i]);
		for (uint32_t j = 0; j < i; j++)
			check(strcmp(t->profiles[i].name, t->profiles[j].name) != 0);
	}
	check(t->nb_devices >= 1 && t->nb_devices <= TOPO_MAX_DEVICES);
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *d = &t->devices[i];

		check(d->side == TOPO_SIDE_DPU || d->side == TOPO_SIDE_HOST);
		check(d->func <= DOCA_PCI_FUNC_TYPE_SF);
		check(d->dev <= 0x1f && d->fn <= 7);
		check(d->profile < t->nb_profiles);
		check(is_name(d->ibdev, sizeof(d->ibdev)) && is_name(d->iface, sizeof(d->iface)));
		check(d->nb_reps <= TOPO_MAX_REPS);
		check(d->side == TOPO_SIDE_DPU || d->nb_reps == 0);
		check(!(d->mac[0] & 1));
		for (uint32_t k = 0; k < d->nb_reps; k++)
			check(is_name(d->reps[k].vuid, sizeof(d->reps[k].vuid)));
		check(d->medium <= TOPO_MEDIUM_UDP);
		/* udp always has its peer, a host of one family with its local address, and a 24-bit VNI;
		 * nothing else has any of them */
		if (d->medium == TOPO_MEDIUM_UDP) {
			static const uint8_t any[16];

			check(d->udp_peer.family == 4 || d->udp_peer.family == 6);
			check(d->udp_local.family == d->udp_peer.family);
			check(d->udp_peer.port >= 1 && d->udp_local.port >= 1);
			check(memcmp(d->udp_peer.addr, any, d->udp_peer.family == 6 ? 16 : 4) != 0);
			check(d->udp_vni <= 0xffffff);
		} else {
			check(d->udp_peer.family == 0 && d->udp_local.family == 0 && d->udp_vni == 0);
		}
		check(d->medium != TOPO_MEDIUM_WIRE || (d->wire_peer < t->nb_devices && d->wire_peer != i));
		check(is_str(d->ifname, sizeof(d->ifname)) && is_str(d->netns, sizeof(d->netns)));
		/* afpacket always has its interface; nothing else has one or a namespace */
		check(d->medium == TOPO_MEDIUM_AFPACKET ? d->ifname[0] != '\0' && strchr(d->ifname, '/') == NULL
							: d->ifname[0] == '\0' && d->netns[0] == '\0');
		for (uint32_t j = 0; j < i; j++) {
			const struct topo_device *o = &t->devices[j];

			check(!same_pci(d, o));
			check(strcmp(d->ibdev, o->ibdev) != 0);
			check(strcmp(d->iface, o->iface) != 0);
			check(memcmp(d->mac, o->mac, sizeof(d->mac)) != 0);
		}
	}
	check(is_str(t->engine, sizeof(t->engine)));
	check(t->workers <= 64);
}

static void check_failure(const char *err, size_t err_len, const struct topology *t, const uint8_t *data, size_t size)
{
	char small[16];

	check(is_str(err, err_len));
	check(strncmp(err, "line ", 5) == 0 && strstr(err, ": field '") != NULL);
	check(t->nb_profiles == 0 && t->nb_devices == 0);
	/* A short buffer must get a NUL-terminated prefix of the same message. */
	check(topo_parse((const char *)data, size, &topo, small, sizeof(small)) == DOCA_ERROR_BAD_CONFIG);
	check(is_str(small, sizeof(small)));
	check(strncmp(small, err, strlen(small)) == 0 && strlen(small) == sizeof(small) - 1);
}

/* The PCI parser takes a C string: feed it the input's first bytes, and check a round trip. */
static void fuzz_pci(const uint8_t *data, size_t size)
{
	char buf[16], again[16];
	uint16_t dom, dom2;
	uint8_t bus, dev, fn, bus2, dev2, fn2;
	size_t n = size < sizeof(buf) - 1 ? size : sizeof(buf) - 1;

	memcpy(buf, data, n);
	buf[n] = '\0';
	if (topo_parse_pci(buf, &dom, &bus, &dev, &fn))
		return;
	check(dev <= 0x1f && fn <= 7);
	snprintf(again, sizeof(again), "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	check(topo_parse_pci(again, &dom2, &bus2, &dev2, &fn2) == 0);
	check(dom == dom2 && bus == bus2 && dev == dev2 && fn == fn2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];

	if (topo_parse((const char *)data, size, &topo, err, sizeof(err)) == DOCA_SUCCESS)
		check_topology(&topo);
	else
		check_failure(err, sizeof(err), &topo, data, size);
	fuzz_pci(data, size);
	return 0;
}
