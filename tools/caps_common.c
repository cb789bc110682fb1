/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * caps_common.c - device facts for softdoca's tools, through the public API.
 */
#include <stdio.h>
#include <string.h>

#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_dma.h>
#include <doca_eth_rxq.h>
#include <doca_eth_txq.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "caps_common.h"
#include "eth_internal.h"
#include "gpu_report.h"
#include "topology.h"

/* Representor lists on a host device are refused with an explanation; here that refusal is
 * the expected answer, so SDK messages are muted around the probe. */
static doca_error_t rep_list_quiet(struct doca_dev *dev, struct doca_devinfo_rep ***reps, uint32_t *n)
{
	uint32_t saved = doca_log_level_get_global_sdk_limit();
	doca_error_t ret;

	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	ret = doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, reps, n);
	doca_log_level_set_global_sdk_limit(saved);
	return ret;
}

void caps_collect(const struct doca_devinfo *d, struct dev_caps *c)
{
	struct doca_devinfo_rep **reps;
	struct doca_dev *dev;
	uint8_t exp = 0, imp = 0;
	uint32_t n = 0;

	memset(c, 0, sizeof(*c));
	c->side = "?";
	doca_devinfo_get_pci_addr_str(d, c->pci);
	doca_devinfo_get_ibdev_name(d, c->ibdev, sizeof(c->ibdev));
	doca_devinfo_get_iface_name(d, c->iface, sizeof(c->iface));
	c->dma_memcpy = doca_dma_cap_task_memcpy_is_supported(d) == DOCA_SUCCESS;
	doca_dma_cap_task_memcpy_get_max_buf_list_len(d, &c->dma_max_buf_list_len);
	doca_dma_cap_task_memcpy_get_max_buf_size(d, &c->dma_max_buf_size);
	doca_mmap_cap_is_export_pci_supported(d, &exp);
	doca_mmap_cap_is_create_from_export_pci_supported(d, &imp);
	c->mmap_export_pci = exp != 0;
	c->mmap_create_from_export_pci = imp != 0;
	c->comch_server = doca_comch_cap_server_is_supported(d) == DOCA_SUCCESS;
	c->comch_client = doca_comch_cap_client_is_supported(d) == DOCA_SUCCESS;
	if (doca_comch_cap_get_max_msg_size(d, &c->comch_max_msg_size) != DOCA_SUCCESS)
		c->comch_max_msg_size = 0;
	doca_comch_cap_get_max_name_len(d, &c->comch_max_name_len);
	doca_comch_cap_get_max_clients(d, &c->comch_max_clients);
	doca_comch_cap_get_max_send_tasks(d, &c->comch_max_send_tasks);
	doca_comch_cap_get_max_recv_queue_size(d, &c->comch_max_recv_queue_size);
	c->comch_consumer = doca_comch_consumer_cap_is_supported(d) == DOCA_SUCCESS;
	c->comch_producer = doca_comch_producer_cap_is_supported(d) == DOCA_SUCCESS;
	doca_comch_consumer_cap_get_max_consumers(d, &c->comch_max_consumers);
	doca_comch_producer_cap_get_max_producers(d, &c->comch_max_producers);
	doca_comch_consumer_cap_get_max_num_tasks(d, &c->comch_consumer_max_num_tasks);
	doca_comch_producer_cap_get_max_num_tasks(d, &c->comch_producer_max_num_tasks);
	doca_comch_consumer_cap_get_max_buf_size(d, &c->comch_consumer_max_buf_size);
	doca_comch_producer_cap_get_max_buf_size(d, &c->comch_producer_max_buf_size);
	{
		const struct topo_profile *p = priv_doca_devinfo_profile(d);

		if (p != NULL) {
			snprintf(c->profile, sizeof(c->profile), "%s", p->name);
			c->eth = p->eth.supported != 0;
			c->eth_max_burst_size = p->eth.max_burst_size;
			c->eth_max_packet_size = p->eth.max_packet_size;
			c->eth_max_queue_size = p->eth.max_queue_size;
		}
	}
	c->gpu_rxq_cyclic = doca_eth_rxq_cap_is_type_supported(d, DOCA_ETH_RXQ_TYPE_CYCLIC,
							       DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU) == DOCA_SUCCESS;
	c->gpu_rxq_managed = doca_eth_rxq_cap_is_type_supported(d, DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL,
								DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU) == DOCA_SUCCESS;
	c->gpu_rxq_regular = doca_eth_rxq_cap_is_type_supported(d, DOCA_ETH_RXQ_TYPE_REGULAR,
								DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU) == DOCA_SUCCESS;
	c->gpu_txq_regular = doca_eth_txq_cap_is_type_supported(d, DOCA_ETH_TXQ_TYPE_REGULAR,
								DOCA_ETH_TXQ_DATA_PATH_TYPE_GPU) == DOCA_SUCCESS;
	c->eth_max_rxqs_per_port = c->eth ? ETH_MAX_RXQS_PER_PORT : 0;
	{
		const struct topo_device *td = priv_doca_devinfo_topo_device(d);
		const struct topology *t = priv_doca_topology();

		c->medium = priv_doca_topo_medium_name(td != NULL ? td->medium : TOPO_MEDIUM_NONE);
		if (td != NULL && t != NULL && td->medium == TOPO_MEDIUM_WIRE && td->wire_peer < t->nb_devices) {
			const struct topo_device *p = &t->devices[td->wire_peer];

			snprintf(c->wire_peer, sizeof(c->wire_peer), "%04x:%02x:%02x.%x", p->domain, p->bus,
				 p->dev & 0x1f, p->fn & 7);
		}
		if (td != NULL && td->medium == TOPO_MEDIUM_AFPACKET) {
			snprintf(c->ifname, sizeof(c->ifname), "%s", td->ifname);
			snprintf(c->netns, sizeof(c->netns), "%s", td->netns);
		}
		snprintf(c->medium_desc, sizeof(c->medium_desc), "%s%s%s%s%s", c->medium, c->ifname[0] ? " " : "",
			 c->ifname, c->netns[0] ? "@" : "", c->netns);
	}
	if (doca_dev_open((struct doca_devinfo *)d, &dev) != DOCA_SUCCESS)
		return;
	/* Only DPU-side devices manage representors. */
	if (rep_list_quiet(dev, &reps, &n) == DOCA_SUCCESS) {
		c->side = "dpu";
		for (uint32_t i = 0; i < n && i < CAPS_MAX_REPS; i++) {
			doca_devinfo_rep_get_pci_addr_str(reps[i], c->rep_pci[i]);
			doca_devinfo_rep_get_vuid(reps[i], c->rep_vuid[i], sizeof(c->rep_vuid[i]));
		}
		c->nreps = n < CAPS_MAX_REPS ? n : CAPS_MAX_REPS;
		doca_devinfo_rep_destroy_list(reps);
	} else {
		c->side = "host";
	}
	if (c->dma_memcpy) {
		struct doca_dma *ctx;

		if (doca_dma_create(dev, &ctx) == DOCA_SUCCESS) {
			doca_dma_cap_get_max_num_tasks(ctx, &c->dma_max_num_tasks);
			doca_dma_destroy(ctx);
		}
	}
	doca_dev_close(dev);
}

void caps_json_str(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

void caps_json_ifname(const struct dev_caps *c)
{
	printf(", \"ifname\": ");
	if (c->ifname[0])
		caps_json_str(c->ifname);
	else
		printf("null");
	printf(", \"netns\": ");
	if (c->netns[0])
		caps_json_str(c->netns);
	else
		printf("null");
}

static const char *join(char *buf, size_t len, const bool *on, const char *const *names, int n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		if (on[i] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", names[i]);
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
	return buf;
}

const char *caps_gpu_rxq_types(const struct dev_caps *c, char *buf, size_t len)
{
	static const char *const names[] = {"cyclic", "managed_mempool", "regular"};
	const bool on[] = {c->gpu_rxq_cyclic, c->gpu_rxq_managed, c->gpu_rxq_regular};

	return join(buf, len, on, names, 3);
}

const char *caps_gpu_txq_types(const struct dev_caps *c, char *buf, size_t len)
{
	static const char *const names[] = {"regular"};
	const bool on[] = {c->gpu_txq_regular};

	return join(buf, len, on, names, 1);
}

/* ["a", "b"] from "a,b"; [] from "none". */
static void json_list(const char *csv)
{
	bool first = true;

	putchar('[');
	if (strcmp(csv, "none") != 0) {
		while (*csv != '\0') {
			size_t n = strcspn(csv, ",");

			printf("%s\"%.*s\"", first ? "" : ", ", (int)n, csv);
			first = false;
			csv += n;
			if (*csv == ',')
				csv++;
		}
	}
	putchar(']');
}

void caps_json_gpu_queues(const struct dev_caps *c)
{
	char buf[64];

	printf("\"gpu_rxq_types\": ");
	json_list(caps_gpu_rxq_types(c, buf, sizeof(buf)));
	printf(", \"gpu_txq_types\": ");
	json_list(caps_gpu_txq_types(c, buf, sizeof(buf)));
	printf(", \"max_rxqs_per_port\": %u", c->eth_max_rxqs_per_port);
}

void caps_json_gpus(const struct priv_doca_gpu_report *g, bool close)
{
	printf("{\"runtime_version\": %d, \"driver_version\": %d, \"devices\": [", g->runtime_version,
	       g->driver_version);
	for (int i = 0; i < g->nb_gpus; i++)
		printf("%s{\"pci_addr\": \"%s\", \"compute_capability\": \"%d.%d\"}", i ? ", " : "", g->gpus[i].pci,
		       g->gpus[i].cc_major, g->gpus[i].cc_minor);
	printf("], \"why_none\": ");
	if (g->nb_gpus == 0)
		caps_json_str(g->why_none);
	else
		printf("null");
	printf(", \"dmabuf\": %s, \"dmabuf_why\": ", g->dmabuf ? "true" : "false");
	caps_json_str(g->dmabuf ? "" : g->dmabuf_why);
	if (close)
		printf("}");
}

bool caps_pci_valid(const char *s)
{
	return priv_doca_pci_addr_valid(s);
}
