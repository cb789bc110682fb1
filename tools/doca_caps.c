/*
 * doca_caps - what the (emulated) DOCA devices are and what they can do.
 *
 *   doca_caps --version              version, the same as `pkg-config --modversion doca-common`
 *   doca_caps --list-devs [--json]   devices: PCI address, ibdev, interface, side, representors
 *   doca_caps [--pci-addr BB:DD.F] [--json]
 *                                    capabilities of one device, or of all
 *
 * Exit status: 0 success, 1 the devices could not be read (e.g. a bad SOFTDOCA_CONFIG),
 * 2 bad usage, 3 no device with that PCI address.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_version.h>

#include "caps_common.h"

static void usage(FILE *f)
{
	fprintf(f, "NAME\n"
		   "    doca_caps - list softdoca devices and their capabilities\n\n"
		   "SYNOPSIS\n"
		   "    doca_caps [--pci-addr BB:DD.F] [--json]\n"
		   "    doca_caps --list-devs [--json]\n"
		   "    doca_caps --version | --help\n\n"
		   "DESCRIPTION\n"
		   "    Without options, prints the capabilities of every device, library by library:\n"
		   "    DMA (memcpy, buffer size and list length, tasks), PCI export/import, Comch (server,\n"
		   "    client, message size, name length, clients, tasks, consumers and producers) and the\n"
		   "    eth values of the device's profile (no eth library yet).\n"
		   "    Devices come from the embedded default topology or from SOFTDOCA_CONFIG.\n\n"
		   "OPTIONS\n"
		   "    -p, --pci-addr ADDR   only the device at ADDR (BB:DD.F or DDDD:BB:DD.F)\n"
		   "    -l, --list-devs       list devices (address, ibdev, interface, side, representors)\n"
		   "    -j, --json            machine-readable JSON on stdout\n"
		   "    -v, --version         print the DOCA version softdoca implements\n"
		   "    -h, --help            this text\n\n"
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
	       "\"max_queue_size\": %u}}",
	       yes_no(c->eth), c->eth_max_burst_size, c->eth_max_packet_size, c->eth_max_queue_size);
}

static void print_caps_text(const struct dev_caps *c)
{
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
	printf("    eth                         %s (no eth library yet; from the profile)\n", supported(c->eth));
	printf("    eth max burst size          %u\n", c->eth_max_burst_size);
	printf("    eth max packet size         %u\n", c->eth_max_packet_size);
	printf("    eth max queue size          %u\n", c->eth_max_queue_size);
	printf("    port medium                 %s%s%s\n", c->medium, c->wire_peer[0] ? ", peer " : "", c->wire_peer);
}

static void print_dev(const struct doca_devinfo *d, bool caps, bool json, bool first)
{
	struct dev_caps c;

	caps_collect(d, &c);
	if (json) {
		printf("%s\n    {\"pci_addr\": ", first ? "" : ",");
		caps_json_str(c.pci);
		printf(", \"ibdev\": ");
		caps_json_str(c.ibdev);
		printf(", \"iface\": ");
		caps_json_str(c.iface);
		printf(", \"side\": \"%s\", \"representors\": [", c.side);
		for (uint32_t i = 0; i < c.nreps; i++) {
			printf("%s{\"pci_addr\": ", i ? ", " : "");
			caps_json_str(c.rep_pci[i]);
			printf(", \"vuid\": ");
			caps_json_str(c.rep_vuid[i]);
			printf("}");
		}
		printf("], \"medium\": \"%s\", \"wire_peer\": ", c.medium);
		if (c.wire_peer[0])
			caps_json_str(c.wire_peer);
		else
			printf("null");
		if (caps)
			print_caps_json(&c);
		printf("}");
		return;
	}
	printf("%s  ibdev %s  iface %s  side %s  medium %s%s%s\n", c.pci, c.ibdev, c.iface, c.side, c.medium,
	       c.wire_peer[0] ? "  peer " : "", c.wire_peer);
	for (uint32_t i = 0; i < c.nreps; i++)
		printf("        representor %s  vuid %s\n", c.rep_pci[i], c.rep_vuid[i]);
	if (caps)
		print_caps_text(&c);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"pci-addr", required_argument, NULL, 'p'}, {"list-devs", no_argument, NULL, 'l'},
	    {"json", no_argument, NULL, 'j'},		{"version", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},		{NULL, 0, NULL, 0},
	};
	const char *pci = NULL;
	bool list = false, json = false, found = false;
	struct doca_devinfo **devs;
	uint32_t n;
	int c;

	while ((c = getopt_long(argc, argv, "p:ljvh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pci = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'j':
			json = true;
			break;
		case 'v':
			printf(json ? "{\"doca_version\": \"%s\", \"softdoca_version\": \"%s\"}\n"
				    : "%s (softdoca %s)\n",
			       DOCA_VERSION_STRING, SOFTDOCA_VERSION_STRING);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default: /* getopt_long already said which option */
			fprintf(stderr, "see doca_caps --help\n");
			return 2;
		}
	}
	if (pci != NULL) {
		/* A malformed address is bad usage: say it once, before looking at any device. */
		unsigned int b, d, f, dom;
		char tail;

		if (!(sscanf(pci, "%2x:%2x.%1x%c", &b, &d, &f, &tail) == 3 ||
		      sscanf(pci, "%4x:%2x:%2x.%1x%c", &dom, &b, &d, &f, &tail) == 4) ||
		    strlen(pci) > 12) {
			fprintf(
			    stderr,
			    "doca_caps: '%s' is not a PCI address; use BB:DD.F or DDDD:BB:DD.F (hex), e.g. 03:00.0\n",
			    pci);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "doca_caps: unexpected argument '%s'; see doca_caps --help\n", argv[optind]);
		return 2;
	}
	if (doca_devinfo_create_list(&devs, &n) != DOCA_SUCCESS) {
		fprintf(stderr, "doca_caps: cannot read the device list (see the error above)\n");
		return 1;
	}
	if (json)
		printf("{\"doca_version\": \"%s\", \"devices\": [", DOCA_VERSION_STRING);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 1;

		if (pci != NULL && (doca_devinfo_is_equal_pci_addr(devs[i], pci, &eq) != DOCA_SUCCESS || !eq))
			continue;
		print_dev(devs[i], !list, json, !found);
		found = true;
	}
	if (json)
		printf("\n]}\n");
	doca_devinfo_destroy_list(devs);
	if (pci != NULL && !found) {
		fprintf(stderr, "doca_caps: no device with PCI address %s; run doca_caps --list-devs\n", pci);
		return 3;
	}
	return 0;
}
