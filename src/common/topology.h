/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.h - the emulated devices and their capability profiles.
 *
 * The topology comes from the embedded default or from the file named by SOFTDOCA_CONFIG,
 * parsed once (topo_get()). The parser (topo_parse) is a pure function of its input bytes
 * so it can be unit-tested and fuzzed.
 *
 * File format (INI-like; '#' or ';' start a comment; blank lines ignored):
 *
 *   [profile NAME]             capability profile; "default" always exists. Keys are
 *                              "library.cap"; core keys have no prefix.
 *   export_pci = yes|no        mmaps on this device may be exported over PCI
 *   import_pci = yes|no        this device may import PCI exports
 *   dma.supported = yes|no     DMA memcpy supported                       (alias: dma)
 *   dma.max_buf_size = SIZE    bytes one memcpy task may move (K M G)     (alias: max_buf_size)
 *   dma.max_buf_list_len = N   elements in a buf list (1..1024)           (alias: max_buf_list_len)
 *   dma.max_tasks = N          largest memcpy task pool (1..16777216)     (alias: max_tasks)
 *   dma.queue_depth = N        engine queue depth per context; below the  (alias: queue_depth)
 *                              task pool, doca_task_submit() returns AGAIN when full
 *   comch.supported = yes|no   Comch server/client, consumer and producer
 *   comch.max_msg_size = N     bytes in one message (1..4080)
 *   comch.max_name_len = N     server name length counting the NUL (2..120)
 *   comch.max_clients = N      connections one server holds (1..512)
 *   comch.max_send_tasks = N   send task pool (1..65536)
 *   comch.max_recv_queue_size = N (1..8192)
 *   comch.max_consumers, comch.max_producers = N   per connection (1..512)
 *   comch.consumer_max_num_tasks, comch.producer_max_num_tasks = N   (1..65536)
 *   comch.consumer_max_buf_size, comch.producer_max_buf_size = SIZE  (1..1G)
 *   eth.supported = yes|no     DOCA Ethernet queues (libdoca_eth)
 *   eth.max_burst_size = N     packets per burst (1..65536)
 *   eth.max_packet_size = SIZE bytes in one packet, MTU-like (64..64K); a software NIC port's
 *                              MTU (at most NIC_MAX_FRAME, 9216)
 *   eth.max_queue_size = N     descriptors in one queue (1..65536)
 *
 *   [device PCI]               one local device, e.g. [device 03:00.0]
 *   side = dpu|host            required
 *   ibdev = NAME               default mlx5_<index>
 *   iface = NAME               default p<index> (dpu) or ens<index>f0 (host)
 *   mac = aa:bb:cc:dd:ee:ff    default derived from the PCI address
 *   profile = NAME             default "default"
 *   func = pf|vf|sf            default pf
 *   sf_index = N               only with func = sf
 *   representor = PCI [vuid]   (dpu side) a representor of a host function; repeatable
 *   medium = wire|afpacket|none  what moves the port's frames (software NIC, src/nic);
 *                              default none, wire when `wire` is set, afpacket when `ifname` is
 *   wire = PCI                 the device at the other end of this port's wire; the other
 *                              device must name this one back (either side, not itself)
 *   ifname = NAME              afpacket: the Linux interface (veth, tap, NIC); required for
 *                              afpacket, at most 15 characters (IFNAMSIZ), letters, digits, _ . -
 *   netns = NAME|/PATH         afpacket: the network namespace of ifname, /run/netns/NAME or
 *                              an absolute path; default the process's own
 *
 *   [engine]
 *   name = auto|cpu|inline     copy engine (SOFTDOCA_ENGINE overrides)
 *   workers = N                cpu engine worker threads (1..64)
 */
#ifndef SD_TOPOLOGY_H_
#define SD_TOPOLOGY_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_types.h>

#include "sd_internal.h"

#define TOPO_MAX_NAME	  64
#define TOPO_MAX_PROFILES 32
#define TOPO_MAX_DEVICES  64
#define TOPO_MAX_REPS	  16

enum topo_side { TOPO_SIDE_DPU = 0, TOPO_SIDE_HOST = 1 };
enum topo_medium { TOPO_MEDIUM_NONE = 0, TOPO_MEDIUM_WIRE = 1, TOPO_MEDIUM_AFPACKET = 2, TOPO_MEDIUM_UDP = 3 };

#define TOPO_IFNAME_SIZE 16   /* IFNAMSIZ */
#define TOPO_NETNS_SIZE	 128  /* a name or an absolute path, counting the NUL */
#define TOPO_UDP_PORT	 4789 /* VXLAN's (IANA), when udp.local or udp.peer names none */

/* An IP address and UDP port of the udp medium (udp.local, udp.peer). */
struct topo_udp_addr {
	uint8_t family;	  /* 4 or 6; 0 = not set */
	uint16_t port;	  /* host order, 1..65535 */
	uint8_t addr[16]; /* network order: 4 bytes for IPv4, 16 for IPv6 */
};

/* What a device can do, one struct per library; defaults in topology.c (builtin_profile). */
struct topo_caps_dma {
	uint8_t supported; /* 1 = memcpy supported */
	uint64_t max_buf_size;
	uint32_t max_buf_list_len;
	uint32_t max_tasks;
	uint32_t queue_depth;
};

struct topo_caps_comch {
	uint8_t supported; /* server/client and consumer/producer */
	uint32_t max_msg_size;
	uint32_t max_name_len; /* counting the NUL */
	uint32_t max_clients;
	uint32_t max_send_tasks;
	uint32_t max_recv_queue_size;
	uint32_t max_consumers; /* per connection */
	uint32_t max_producers; /* per connection */
	uint32_t consumer_max_num_tasks;
	uint32_t producer_max_num_tasks;
	uint32_t consumer_max_buf_size;
	uint32_t producer_max_buf_size;
};

/* DOCA Ethernet (libdoca_eth): queue creation and task configuration bounds; the software NIC
 * takes its ports' MTU from max_packet_size. */
struct topo_caps_eth {
	uint8_t supported;
	uint32_t max_burst_size;
	uint32_t max_packet_size;
	uint32_t max_queue_size;
};

/*
 * Bounds of what the implementation can honour. The comch values are those of its transport
 * (socket packets, connection table, name buffer); a profile may lower them, never raise them.
 */
#define TOPO_COMCH_MAX_MSG_SIZE	   4080u
#define TOPO_COMCH_MAX_NAME_LEN	   120u
#define TOPO_COMCH_MAX_CLIENTS	   512u
#define TOPO_COMCH_MAX_SEND_TASKS  65536u
#define TOPO_COMCH_MAX_RECV_QUEUE  8192u
#define TOPO_COMCH_MAX_PER_CONN	   512u
#define TOPO_COMCH_MAX_DP_TASKS	   65536u
#define TOPO_COMCH_MAX_DP_BUF_SIZE (1u << 30)

struct topo_profile {
	char name[TOPO_MAX_NAME];
	uint8_t export_pci;
	uint8_t import_pci;
	struct topo_caps_dma dma;
	struct topo_caps_comch comch;
	struct topo_caps_eth eth;
};

struct topo_rep {
	uint16_t domain;
	uint8_t bus, dev, fn;
	char vuid[DOCA_DEVINFO_REP_VUID_SIZE];
};

struct topo_device {
	uint16_t domain;
	uint8_t bus, dev, fn;
	enum topo_side side;
	enum doca_pci_func_type func;
	uint32_t sf_index;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface[TOPO_MAX_NAME];
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE];
	uint32_t profile; /* index into topology.profiles */
	uint32_t nb_reps;
	struct topo_rep reps[TOPO_MAX_REPS];
	enum topo_medium medium;
	uint32_t wire_peer;		/* TOPO_MEDIUM_WIRE: index of the device at the other end */
	char ifname[TOPO_IFNAME_SIZE];	/* TOPO_MEDIUM_AFPACKET: the Linux interface */
	char netns[TOPO_NETNS_SIZE];	/* TOPO_MEDIUM_AFPACKET: its namespace, "" = the process's */
	struct topo_udp_addr udp_local; /* TOPO_MEDIUM_UDP: bound here (default: any address, 4789) */
	struct topo_udp_addr udp_peer;	/* TOPO_MEDIUM_UDP: the other end, the only sender taken */
	uint32_t udp_vni;		/* TOPO_MEDIUM_UDP: VXLAN network identifier, 0..16777215 */
};

struct topology {
	uint32_t nb_profiles;
	struct topo_profile profiles[TOPO_MAX_PROFILES];
	uint32_t nb_devices;
	struct topo_device devices[TOPO_MAX_DEVICES];
	char engine[TOPO_MAX_NAME]; /* "" = not set */
	uint32_t workers;	    /* 0 = not set */
	char source[256];	    /* "embedded default" or the file path */
};

/*
 * Parses @len bytes of @text into @out (fully overwritten). On error returns
 * DOCA_ERROR_BAD_CONFIG and writes "line N: field 'F': reason" into @err (NUL-terminated,
 * truncated to @err_len). Never reads past @len; @text need not be NUL-terminated.
 */
doca_error_t topo_parse(const char *text, size_t len, struct topology *out, char *err, size_t err_len);

/* Fills @out with the embedded default topology. */
void topo_default(struct topology *out);

/*
 * The process-wide topology: the default, or SOFTDOCA_CONFIG parsed on first call.
 * NULL when the config file cannot be used (the reason is logged once, with line and field).
 */
const struct topology *topo_get(void);

/*
 * The capability profile of @devinfo (NULL for NULL), for softdoca's tools: they show what no
 * DOCA call reports yet (the profile's name, the eth.* values). Exported from libdoca_common.
 */
SD_PRIV const struct topo_profile *priv_doca_devinfo_profile(const struct doca_devinfo *devinfo);

/* The topology device of @devinfo (NULL for NULL), for softdoca's tools: its medium and wire. */
SD_PRIV const struct topo_device *priv_doca_devinfo_topo_device(const struct doca_devinfo *devinfo);

/* topo_get() for softdoca's tools (softdoca-wire lists the wires), exported from libdoca_common. */
SD_PRIV const struct topology *priv_doca_topology(void);

/* "none", "wire", "afpacket" or "udp". */
SD_PRIV const char *priv_doca_topo_medium_name(enum topo_medium m);

/* Parses "DDDD:BB:DD.F" or "BB:DD.F" (hex, any case). 0 on success, -1 if malformed. */
int topo_parse_pci(const char *s, uint16_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *fn);
/* Whether @s is a PCI address by topo_parse_pci()'s rule (for tools that check before asking). */
SD_PRIV bool priv_doca_pci_addr_valid(const char *s);

#endif /* SD_TOPOLOGY_H_ */
