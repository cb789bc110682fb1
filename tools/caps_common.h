/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * caps_common.h - what softdoca's tools know about one device, collected through the public
 * DOCA API only (the tools are DOCA programs like any other).
 */
#ifndef TOOLS_CAPS_COMMON_H_
#define TOOLS_CAPS_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>

/* Whether @s is a PCI address by the library's rule (BB:DD.F or DDDD:BB:DD.F, every digit written,
 * device at most 1f, function at most 7): a tool says a malformed one once, before any lookup. */
bool caps_pci_valid(const char *s);

#define CAPS_MAX_REPS 16

struct dev_caps {
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
	const char *side; /* "dpu" or "host" */
	uint32_t nreps;
	char rep_pci[CAPS_MAX_REPS][DOCA_DEVINFO_PCI_ADDR_SIZE];
	char rep_vuid[CAPS_MAX_REPS][DOCA_DEVINFO_REP_VUID_SIZE];
	bool dma_memcpy;
	uint64_t dma_max_buf_size;
	uint32_t dma_max_buf_list_len;
	uint32_t dma_max_num_tasks;
	bool mmap_export_pci;
	bool mmap_create_from_export_pci;
	bool comch_server;
	bool comch_client;
	uint32_t comch_max_msg_size;
	uint32_t comch_max_name_len;
	uint32_t comch_max_clients;
	uint32_t comch_max_send_tasks;
	uint32_t comch_max_recv_queue_size;
	bool comch_consumer;
	bool comch_producer;
	uint32_t comch_max_consumers;
	uint32_t comch_max_producers;
	uint32_t comch_consumer_max_num_tasks;
	uint32_t comch_producer_max_num_tasks;
	uint32_t comch_consumer_max_buf_size;
	uint32_t comch_producer_max_buf_size;
	/* No DOCA call reports these; they come from softdoca's profile (priv_doca_devinfo_profile). */
	char profile[64];
	bool eth;
	uint32_t eth_max_burst_size;
	uint32_t eth_max_packet_size;
	uint32_t eth_max_queue_size;
	/* GPUNetIO: queue types on the GPU data path (doca_eth_rxq/txq_cap_is_type_supported with
	 * DATA_PATH_TYPE_GPU), and the receive queues a port takes (softdoca's NIC). */
	bool gpu_rxq_cyclic, gpu_rxq_managed, gpu_rxq_regular;
	bool gpu_txq_regular;
	uint32_t eth_max_rxqs_per_port;
	/* The software NIC's medium from the topology ("none", "wire", "afpacket"), the wire's other
	 * end, the afpacket interface and its namespace, and the medium in one phrase. */
	const char *medium;
	char wire_peer[DOCA_DEVINFO_PCI_ADDR_SIZE]; /* "" without a wire */
	char ifname[16];			    /* "" without afpacket */
	char netns[128];			    /* "" when the process's own */
	char medium_desc[160]; /* "wire", "afpacket <ifname>[@netns]" (the peer is printed apart) */
};

struct priv_doca_gpu_report;

/* Fills @c for @d. Representor probes on host devices are expected refusals and stay silent. */
void caps_collect(const struct doca_devinfo *d, struct dev_caps *c);
/* Writes @s as a JSON string literal (quotes and escapes included). */
void caps_json_str(const char *s);
/* Writes `, "ifname": ..., "netns": ...` for @c (null where there is none). */
void caps_json_ifname(const struct dev_caps *c);

/* The GPU queue types of @c, comma-separated ("cyclic"), or "none". */
const char *caps_gpu_rxq_types(const struct dev_caps *c, char *buf, size_t len);
const char *caps_gpu_txq_types(const struct dev_caps *c, char *buf, size_t len);
/* Writes `"gpu_rxq_types": [...], "gpu_txq_types": [...], "max_rxqs_per_port": N` for @c. */
void caps_json_gpu_queues(const struct dev_caps *c);
/* Writes @g (priv_doca_gpu_report) as a JSON object: runtime and driver versions, devices, why
 * none, dmabuf; without @close the object stays open for the caller's keys. */
void caps_json_gpus(const struct priv_doca_gpu_report *g, bool close);

#endif /* TOOLS_CAPS_COMMON_H_ */
