/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_caps - what the (emulated) DOCA devices are and what they can do, with DOCA's tool's
 * flags and, for what DOCA's prints, DOCA's format ("PCI: <address>" blocks of "key value"
 * lines); softdoca's additions follow DOCA's keys.
 *
 *   doca_caps --list-devs            devices: PCI address, ibdev and interface names, function, MAC
 *   doca_caps --list-rep-devs        every device's representors
 *   doca_caps --list-libs            the libraries and whether they work here
 *   doca_caps [--pci-addr BB:DD.F]   capabilities of one device, or of all, library by library
 *   --json-output                    the same as one JSON document (softdoca's addition)
 *   DOCA's program flags: -h/--help, -v/--version, -l/--log-level, --sdk-log-level, -j/--json FILE
 *   (every flag read from a JSON file, as DOCA's argp does: {"list-devs": true, "pci-addr": "..."}).
 *
 * Exit status: 0 success, 1 the devices could not be read (e.g. a bad SOFTDOCA_CONFIG),
 * 2 bad usage, 3 no device with that PCI address.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <doca_dev.h>
#include <doca_log.h>
#include <doca_version.h>

#include "caps_common.h"
#include "file_util.h"
#include "gpu_report.h"
#include "opt_error.h"

static void usage(FILE *f)
{
	fprintf(f, "NAME\n"
		   "    doca_caps - list softdoca devices, libraries and capabilities\n\n"
		   "SYNOPSIS\n"
		   "    doca_caps [--pci-addr BB:DD.F] [--json-output]\n"
		   "    doca_caps --list-devs | --list-rep-devs | --list-libs [--json-output]\n"
		   "    doca_caps --version | --help\n\n"
		   "DESCRIPTION\n"
		   "    Without a list flag, prints the capabilities of every device, library by library:\n"
		   "    DMA (memcpy, buffer size and list length, tasks), PCI export/import, Comch (server,\n"
		   "    client, message size, name length, clients, tasks, consumers and producers) and the\n"
		   "    eth values of the device's profile with its GPU queue types (DOCA GPUNetIO), then the\n"
		   "    GPUs CUDA sees (GPU: blocks: compute capability, CUDA versions, dmabuf), or why there\n"
		   "    are none. The lists use the format of DOCA's doca_caps\n"
		   "    (PCI: blocks of key value lines); softdoca's additions come after DOCA's keys.\n"
		   "    Devices come from the embedded default topology or from SOFTDOCA_CONFIG.\n\n"
		   "OPTIONS\n"
		   "    -p, --pci-addr ADDR     only the device at ADDR (BB:DD.F or DDDD:BB:DD.F)\n"
		   "    --list-devs             list devices (address, ibdev, interface, function, MAC, side)\n"
		   "    --list-rep-devs         list every device's representors (address, VUID)\n"
		   "    --list-libs             list the DOCA libraries and whether they work here\n"
		   "    --json-output           machine-readable JSON on stdout\n"
		   "    -l, --log-level LEVEL   program log level: 10..70 or disable, critical, error,\n"
		   "                            warning, info, debug, trace\n"
		   "    --sdk-log-level LEVEL   SDK log level, same values\n"
		   "    -j, --json FILE         read every flag from a JSON file (then no other flag may be\n"
		   "                            given)\n"
		   "    -v, --version           print the DOCA version softdoca implements\n"
		   "    -h, --help              this text\n\n"
		   "EXIT STATUS\n"
		   "    0 success; 1 devices unavailable (see the error line); 2 bad usage; 3 no such device\n");
}

static const char *yes_no(bool b)
{
	return b ? "true" : "false";
}

static const char *supported(bool b)
{
	return b ? "supported" : "not supported";
}

/*
 * The flat keys are the first ones this tool printed and stay for scripts; the objects per
 * library hold every capability, as the profile's library.cap keys name them.
 */
static void print_caps_json(const struct dev_caps *c)
{
	printf(", \"caps\": {\"dma_memcpy\": %s, \"dma_max_buf_size\": %llu, \"dma_max_buf_list_len\": %u, "
	       "\"dma_max_num_tasks\": %u, \"mmap_export_pci\": %s, \"mmap_create_from_export_pci\": %s, "
	       "\"comch_server\": %s, \"comch_client\": %s, \"comch_max_msg_size\": %u",
	       yes_no(c->dma_memcpy), (unsigned long long)c->dma_max_buf_size, c->dma_max_buf_list_len,
	       c->dma_max_num_tasks, yes_no(c->mmap_export_pci), yes_no(c->mmap_create_from_export_pci),
	       yes_no(c->comch_server), yes_no(c->comch_client), c->comch_max_msg_size);
	printf(", \"profile\": ");
	caps_json_str(c->profile);
	printf(", \"dma\": {\"supported\": %s, \"max_buf_size\": %llu, \"max_buf_list_len\": %u, \"max_tasks\": %u}",
	       yes_no(c->dma_memcpy), (unsigned long long)c->dma_max_buf_size, c->dma_max_buf_list_len,
	       c->dma_max_num_tasks);
	printf(", \"comch\": {\"server\": %s, \"client\": %s, \"max_msg_size\": %u, \"max_name_len\": %u, "
	       "\"max_clients\": %u, \"max_send_tasks\": %u, \"max_recv_queue_size\": %u, \"consumer\": %s, "
	       "\"producer\": %s, \"max_consumers\": %u, \"max_producers\": %u, \"consumer_max_num_tasks\": %u, "
	       "\"producer_max_num_tasks\": %u, \"consumer_max_buf_size\": %u, \"producer_max_buf_size\": %u}",
	       yes_no(c->comch_server), yes_no(c->comch_client), c->comch_max_msg_size, c->comch_max_name_len,
	       c->comch_max_clients, c->comch_max_send_tasks, c->comch_max_recv_queue_size, yes_no(c->comch_consumer),
	       yes_no(c->comch_producer), c->comch_max_consumers, c->comch_max_producers,
	       c->comch_consumer_max_num_tasks, c->comch_producer_max_num_tasks, c->comch_consumer_max_buf_size,
	       c->comch_producer_max_buf_size);
	printf(", \"eth\": {\"supported\": %s, \"max_burst_size\": %u, \"max_packet_size\": %u, "
	       "\"max_queue_size\": %u, ",
	       yes_no(c->eth), c->eth_max_burst_size, c->eth_max_packet_size, c->eth_max_queue_size);
	caps_json_gpu_queues(c);
	printf("}}");
}

static void print_caps_text(const struct dev_caps *c)
{
	char buf[64];

	printf("    profile                     %s\n", c->profile);
	printf("    dma memcpy                  %s\n", supported(c->dma_memcpy));
	printf("    dma max buf size            %llu\n", (unsigned long long)c->dma_max_buf_size);
	printf("    dma max buf list len        %u\n", c->dma_max_buf_list_len);
	printf("    dma max num tasks           %u\n", c->dma_max_num_tasks);
	printf("    mmap export pci             %s\n", supported(c->mmap_export_pci));
	printf("    mmap create from export pci %s\n", supported(c->mmap_create_from_export_pci));
	printf("    comch server                %s\n", supported(c->comch_server));
	printf("    comch client                %s\n", supported(c->comch_client));
	printf("    comch max msg size          %u\n", c->comch_max_msg_size);
	printf("    comch max name len          %u\n", c->comch_max_name_len);
	printf("    comch max clients           %u\n", c->comch_max_clients);
	printf("    comch max send tasks        %u\n", c->comch_max_send_tasks);
	printf("    comch max recv queue size   %u\n", c->comch_max_recv_queue_size);
	printf("    comch consumer              %s\n", supported(c->comch_consumer));
	printf("    comch producer              %s\n", supported(c->comch_producer));
	printf("    comch max consumers         %u\n", c->comch_max_consumers);
	printf("    comch max producers         %u\n", c->comch_max_producers);
	printf("    comch consumer max tasks    %u\n", c->comch_consumer_max_num_tasks);
	printf("    comch producer max tasks    %u\n", c->comch_producer_max_num_tasks);
	printf("    comch consumer max buf size %u\n", c->comch_consumer_max_buf_size);
	printf("    comch producer max buf size %u\n", c->comch_producer_max_buf_size);
	printf("    eth                         %s\n", supported(c->eth));
	printf("    eth max burst size          %u\n", c->eth_max_burst_size);
	printf("    eth max packet size         %u\n", c->eth_max_packet_size);
	printf("    eth max queue size          %u\n", c->eth_max_queue_size);
	printf("    eth max rxqs per port       %u\n", c->eth_max_rxqs_per_port);
	printf("    eth gpu rxq types           %s\n", caps_gpu_rxq_types(c, buf, sizeof(buf)));
	printf("    eth gpu txq types           %s\n", caps_gpu_txq_types(c, buf, sizeof(buf)));
	printf("    port medium                 %s%s%s\n", c->medium_desc, c->wire_peer[0] ? ", peer " : "",
	       c->wire_peer);
}

/* DOCA's "PCI: <address>" block of one device: its keys first, then softdoca's. */
/* DOCA's pci_func_type value of @d ("PF", "VF", "SF") and its MAC address as text (mac: 18 bytes). */
static const char *dev_func_mac(const struct doca_devinfo *d, char *mac)
{
	uint8_t m[DOCA_DEVINFO_MAC_ADDR_SIZE] = {0};
	enum doca_pci_func_type ft = DOCA_PCI_FUNC_TYPE_PF;

	doca_devinfo_get_mac_addr(d, m, sizeof(m));
	doca_devinfo_get_pci_func_type(d, &ft);
	snprintf(mac, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	return ft == DOCA_PCI_FUNC_TYPE_VF ? "VF" : ft == DOCA_PCI_FUNC_TYPE_SF ? "SF" : "PF";
}

static void print_dev_block(const struct doca_devinfo *d, const struct dev_caps *c)
{
	char mac[18];
	const char *ft = dev_func_mac(d, mac);

	printf("PCI: %s\n", c->pci);
	printf("        %-32s %s\n", "ibdev_name", c->ibdev);
	printf("        %-32s %s\n", "iface_name", c->iface);
	printf("        %-32s %s\n", "pci_func_type", ft);
	printf("        %-32s %s\n", "mac_addr", mac);
	printf("        %-32s %s\n", "softdoca_side", c->side);
	printf("        %-32s %u\n", "softdoca_representors", c->nreps);
	printf("        %-32s %s\n", "softdoca_medium", c->medium_desc);
	if (c->wire_peer[0])
		printf("        %-32s %s\n", "softdoca_wire_peer", c->wire_peer);
}

/* --list-rep-devs: each device with its representors, DOCA's blocks. */
static void print_reps(const struct dev_caps *c)
{
	printf("PCI: %s\n", c->pci);
	for (uint32_t i = 0; i < c->nreps; i++) {
		printf("        %-32s %s\n", "representor PCI", c->rep_pci[i]);
		printf("        %-32s %s\n", "vuid", c->rep_vuid[i]);
	}
}

/* The "representors" member of a device's JSON object. */
static void print_reps_json(const struct dev_caps *c)
{
	printf("\"representors\": [");
	for (uint32_t i = 0; i < c->nreps; i++) {
		printf("%s{\"pci_addr\": ", i ? ", " : "");
		caps_json_str(c->rep_pci[i]);
		printf(", \"vuid\": ");
		caps_json_str(c->rep_vuid[i]);
		printf("}");
	}
	printf("]");
}

/* One device: its block (and capabilities with @caps), or its JSON object; with @reps_only, only
 * its representors (--list-rep-devs). */
static void print_dev(const struct doca_devinfo *d, bool caps, bool json, bool first, bool reps_only)
{
	struct dev_caps c;
	char mac[18];
	const char *ft;

	caps_collect(d, &c);
	if (json && reps_only) {
		printf("%s\n    {\"pci_addr\": ", first ? "" : ",");
		caps_json_str(c.pci);
		printf(", ");
		print_reps_json(&c);
		printf("}");
		return;
	}
	if (reps_only) {
		print_reps(&c);
		return;
	}
	if (json) {
		ft = dev_func_mac(d, mac);
		printf("%s\n    {\"pci_addr\": ", first ? "" : ",");
		caps_json_str(c.pci);
		printf(", \"ibdev\": ");
		caps_json_str(c.ibdev);
		printf(", \"iface\": ");
		caps_json_str(c.iface);
		printf(", \"pci_func_type\": \"%s\", \"mac_addr\": \"%s\", \"side\": \"%s\", ", ft, mac, c.side);
		print_reps_json(&c);
		printf(", \"medium\": \"%s\", \"wire_peer\": ", c.medium);
		if (c.wire_peer[0])
			caps_json_str(c.wire_peer);
		else
			printf("null");
		caps_json_ifname(&c);
		if (caps)
			print_caps_json(&c);
		printf("}");
		return;
	}
	print_dev_block(d, &c);
	if (caps)
		print_caps_text(&c);
}

/* "13.0" for CUDA's 13000; "unknown" for 0. */
static const char *cuda_version(int v, char *buf, size_t len)
{
	if (v <= 0)
		return "unknown";
	snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
	return buf;
}

/* The GPUs DOCA GPUNetIO can open, as "GPU: <address>" blocks, or one block saying why none. */
static void print_gpus_text(const struct priv_doca_gpu_report *g)
{
	char rv[16], dv[16];

	if (g->nb_gpus == 0) {
		printf("GPU: none\n");
		printf("        %-32s %s\n", "why", g->why_none);
		return;
	}
	for (int i = 0; i < g->nb_gpus; i++) {
		printf("GPU: %s\n", g->gpus[i].pci);
		printf("        %-32s %d.%d\n", "compute_capability", g->gpus[i].cc_major, g->gpus[i].cc_minor);
		printf("        %-32s %s\n", "cuda_runtime", cuda_version(g->runtime_version, rv, sizeof(rv)));
		printf("        %-32s %s\n", "cuda_driver", cuda_version(g->driver_version, dv, sizeof(dv)));
		printf("        %-32s %s%s\n", "dmabuf",
		       g->dmabuf ? "supported" : "not supported: ", g->dmabuf ? "" : g->dmabuf_why);
		printf("        %-32s %s\n", "memory_types", "gpu, cpu_gpu, gpu_cpu");
	}
}

/* The libraries softdoca has, and the call that tells whether one works on a device here. */
static void list_libs(bool json)
{
	/* name, what it gives, why it does not work here (NULL: it does) */
	static const char *const libs[][3] = {
	    {"doca_common", "devices, memory maps, buffers, contexts, progress engines, graphs, sync events", NULL},
	    {"doca_dma", "memcpy tasks, in this process and across the host/DPU boundary", NULL},
	    {"doca_comch", "control path messages, consumers and producers", NULL},
	    {"doca_argp", "program flags and JSON flag files", NULL},
	    {"doca_eth", "Ethernet send and receive queues on the software NIC's ports", NULL},
	    {"doca_flow", "steering of received frames to Ethernet queues (a subset of DOCA Flow)", NULL},
	    {"doca_dpdk_bridge", "DPDK ports and mbufs as DOCA devices and buffers",
	     "softdoca's devices have no DPDK ports"},
	};

	if (json)
		printf("{\"doca_version\": \"%s\", \"libraries\": [", DOCA_VERSION_STRING);
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		if (json) {
			printf("%s{\"name\": \"%s\", \"supported\": %s, \"what\": ", i ? ", " : "", libs[i][0],
			       yes_no(libs[i][2] == NULL));
			caps_json_str(libs[i][1]);
			if (libs[i][2] != NULL) {
				printf(", \"why_not\": ");
				caps_json_str(libs[i][2]);
			}
			printf("}");
		} else if (libs[i][2] == NULL) {
			printf("%-20s supported        %s\n", libs[i][0], libs[i][1]);
		} else {
			printf("%-20s not supported    %s (%s)\n", libs[i][0], libs[i][1], libs[i][2]);
		}
	}
	{
		/* GPUNetIO works where a GPU can be opened. */
		struct priv_doca_gpu_report g;
		const char *what = "GPUs, GPU memory, semaphores, GPU DMA and receive queues for CUDA kernels";

		priv_doca_gpu_report(&g);
		if (json) {
			printf(", {\"name\": \"doca_gpunetio\", \"supported\": %s, \"what\": ", yes_no(g.nb_gpus > 0));
			caps_json_str(what);
			printf(", \"why_not\": ");
			if (g.nb_gpus > 0)
				printf("null");
			else
				caps_json_str(g.why_none);
			printf("}]}\n");
		} else if (g.nb_gpus > 0) {
			printf("%-20s supported        %s\n", "doca_gpunetio", what);
		} else {
			printf("%-20s not supported    %s (no GPU: %s)\n", "doca_gpunetio", what, g.why_none);
		}
	}
}

/* A DOCA log level: a number 10..70 or a name; -1 when it is neither. */
static int parse_level(const char *s)
{
	static const char *const names[] = {"disable", "critical", "error", "warning", "info", "debug", "trace"};
	char *end;
	long v = strtol(s, &end, 10);

	if (*s != '\0' && *end == '\0')
		return v >= 10 && v <= 70 ? (int)v : -1;
	for (int i = 0; i < 7; i++)
		if (strcasecmp(s, names[i]) == 0)
			return 10 * (i + 1);
	return -1;
}

enum { OPT_LIST_DEVS = 1000, OPT_LIST_REPS, OPT_LIST_LIBS, OPT_JSON_OUT, OPT_SDK_LEVEL };

struct caps_args {
	const char *pci;
	char pci_buf[256]; /* -p from a JSON flag file: the file's text is gone after parsing */
	int list;	   /* 0, OPT_LIST_DEVS, OPT_LIST_REPS, OPT_LIST_LIBS */
	bool json_out;
};

/* Applies one flag (from the command line or a JSON file); 0, or 2 for bad usage (said why). */
static int apply(struct caps_args *a, int opt, const char *arg)
{
	int level;

	switch (opt) {
	case 'p':
		a->pci = arg;
		return 0;
	case OPT_LIST_DEVS:
	case OPT_LIST_REPS:
	case OPT_LIST_LIBS:
		if (a->list != 0 && a->list != opt) {
			fprintf(stderr, "doca_caps: give one of --list-devs, --list-rep-devs and --list-libs; "
					"see doca_caps --help\n");
			return 2;
		}
		a->list = opt;
		return 0;
	case OPT_JSON_OUT:
		a->json_out = true;
		return 0;
	case 'l':
	case OPT_SDK_LEVEL:
		level = parse_level(arg);
		if (level < 0) {
			fprintf(
			    stderr,
			    "doca_caps: log level '%s': use 10..70 or disable, critical, error, warning, info, debug, "
			    "trace\n",
			    arg);
			return 2;
		}
		if (opt == 'l')
			doca_log_level_set_global_lower_limit((uint32_t)level);
		else
			doca_log_level_set_global_sdk_limit((uint32_t)level);
		return 0;
	default:
		return 2;
	}
}

/* -j FILE: every flag from a JSON object, DOCA argp style; nothing else may be on the line. */
static int apply_json_file(struct caps_args *a, const char *path)
{
	static const struct {
		const char *key;
		int opt;
		bool has_arg;
	} keys[] = {
	    {"pci-addr", 'p', true},
	    {"list-devs", OPT_LIST_DEVS, false},
	    {"list-rep-devs", OPT_LIST_REPS, false},
	    {"list-libs", OPT_LIST_LIBS, false},
	    {"json-output", OPT_JSON_OUT, false},
	    {"log-level", 'l', true},
	    {"sdk-log-level", OPT_SDK_LEVEL, true},
	};
	FILE *f = tool_fopen_regular(path);
	char buf[65536];
	size_t n;
	struct json_object *root;
	int rc = 0;

	if (f == NULL) {
		fprintf(stderr, "doca_caps: cannot open the flag file %s as a regular file\n", path);
		return 2;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	root = json_tokener_parse(buf);
	if (root == NULL || !json_object_is_type(root, json_type_object)) {
		fprintf(stderr, "doca_caps: %s is not a JSON object of flags, e.g. {\"list-devs\": true}\n", path);
		json_object_put(root);
		return 2;
	}
	json_object_object_foreach(root, k, v)
	{
		size_t i;
		static char val[256];

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strcmp(k, keys[i].key) == 0)
				break;
		if (i == sizeof(keys) / sizeof(keys[0])) {
			fprintf(stderr, "doca_caps: %s: unknown flag \"%s\"\n", path, k);
			rc = 2;
			break;
		}
		if (keys[i].has_arg) {
			if (!json_object_is_type(v, json_type_string) && !json_object_is_type(v, json_type_int)) {
				fprintf(stderr, "doca_caps: %s: flag \"%s\" takes a string\n", path, k);
				rc = 2;
				break;
			}
			snprintf(val, sizeof(val), "%s", json_object_get_string(v));
			if (keys[i].opt == 'p') {
				/* -p keeps a pointer: a copy that outlives the JSON object */
				snprintf(a->pci_buf, sizeof(a->pci_buf), "%s", val);
				rc = apply(a, 'p', a->pci_buf);
			} else {
				rc = apply(a, keys[i].opt, val);
			}
		} else if (!json_object_is_type(v, json_type_boolean)) {
			fprintf(stderr, "doca_caps: %s: flag \"%s\" takes true or false\n", path, k);
			rc = 2;
		} else if (json_object_get_boolean(v)) {
			rc = apply(a, keys[i].opt, NULL);
		}
		if (rc != 0)
			break;
	}
	json_object_put(root);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"pci-addr", required_argument, NULL, 'p'},
	    {"list-devs", no_argument, NULL, OPT_LIST_DEVS},
	    {"list-rep-devs", no_argument, NULL, OPT_LIST_REPS},
	    {"list-libs", no_argument, NULL, OPT_LIST_LIBS},
	    {"json-output", no_argument, NULL, OPT_JSON_OUT},
	    {"log-level", required_argument, NULL, 'l'},
	    {"sdk-log-level", required_argument, NULL, OPT_SDK_LEVEL},
	    {"json", required_argument, NULL, 'j'},
	    {"version", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const char shorts[] = ":p:l:j:vh";
	struct caps_args a = {0};
	const char *json_file = NULL;
	bool found = false;
	struct doca_devinfo **devs;
	uint32_t n;
	int c, nflags = 0;

	opterr = 0; /* its messages carry argv[0]; this tool's say "doca_caps:" */
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			printf("%s (softdoca %s)\n", DOCA_VERSION_STRING, SOFTDOCA_VERSION_STRING);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case 'j':
			json_file = optarg;
			break;
		case '?':
		case ':':
			return tool_option_error("doca_caps", c, argv, shorts);
		default:
			nflags++;
			if (apply(&a, c, optarg) != 0)
				return 2;
		}
	}
	if (json_file != NULL) {
		if (nflags > 0) {
			fprintf(stderr, "doca_caps: -j/--json reads every flag from its file; give no other flag\n");
			return 2;
		}
		if (apply_json_file(&a, json_file) != 0)
			return 2;
	}
	if (a.pci != NULL) {
		/* A malformed address is bad usage: say it once, before looking at any device. */
		if (!caps_pci_valid(a.pci)) {
			fprintf(
			    stderr,
			    "doca_caps: '%s' is not a PCI address; use BB:DD.F or DDDD:BB:DD.F (hex, device at most "
			    "1f, function at most 7), e.g. 03:00.0\n",
			    a.pci);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "doca_caps: unexpected argument '%s'; see doca_caps --help\n", argv[optind]);
		return 2;
	}
	if (a.list == OPT_LIST_LIBS) {
		list_libs(a.json_out);
		return 0;
	}
	if (doca_devinfo_create_list(&devs, &n) != DOCA_SUCCESS) {
		fprintf(stderr, "doca_caps: cannot read the device list (see the error above)\n");
		return 1;
	}
	if (a.json_out)
		printf("{\"doca_version\": \"%s\", \"devices\": [", DOCA_VERSION_STRING);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 1;

		if (a.pci != NULL && (doca_devinfo_is_equal_pci_addr(devs[i], a.pci, &eq) != DOCA_SUCCESS || !eq))
			continue;
		print_dev(devs[i], a.list == 0, a.json_out, !found, a.list == OPT_LIST_REPS);
		found = true;
	}
	if (a.list == 0 && a.pci == NULL) {
		/* The whole machine: its GPUs after its devices. */
		struct priv_doca_gpu_report g;

		priv_doca_gpu_report(&g);
		if (a.json_out) {
			printf("\n], \"gpus\": ");
			caps_json_gpus(&g, true);
			printf("}\n");
		} else {
			print_gpus_text(&g);
		}
	} else if (a.json_out) {
		printf("\n]}\n");
	}
	doca_devinfo_destroy_list(devs);
	if (a.pci != NULL && !found) {
		fprintf(stderr, "doca_caps: no device with PCI address %s; run doca_caps --list-devs\n", a.pci);
		return 3;
	}
	return 0;
}
