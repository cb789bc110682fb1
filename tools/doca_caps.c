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
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_version.h>

static void usage(FILE *f)
{
	fprintf(f,
		"NAME\n"
		"    doca_caps - list softdoca devices and their capabilities\n\n"
		"SYNOPSIS\n"
		"    doca_caps [--pci-addr BB:DD.F] [--json]\n"
		"    doca_caps --list-devs [--json]\n"
		"    doca_caps --version | --help\n\n"
		"DESCRIPTION\n"
		"    Without options, prints the capabilities of every device: DMA memcpy support,\n"
		"    maximum buffer size, maximum buffer list length, maximum tasks, PCI export/import.\n"
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

static const char *side_of(const struct doca_devinfo *d)
{
	struct doca_devinfo_rep **reps;
	uint32_t n;
	struct doca_dev *dev;
	const char *side = "host";

	/* Only DPU-side devices manage representors. */
	if (doca_dev_open((struct doca_devinfo *)d, &dev) != DOCA_SUCCESS)
		return "?";
	if (rep_list_quiet(dev, &reps, &n) == DOCA_SUCCESS) {
		side = "dpu";
		doca_devinfo_rep_destroy_list(reps);
	}
	doca_dev_close(dev);
	return side;
}

static void print_reps(const struct doca_devinfo *d, bool json)
{
	struct doca_devinfo_rep **reps;
	struct doca_dev *dev;
	uint32_t n = 0;
	bool have_list;

	if (doca_dev_open((struct doca_devinfo *)d, &dev) != DOCA_SUCCESS)
		return;
	have_list = rep_list_quiet(dev, &reps, &n) == DOCA_SUCCESS;
	if (!have_list)
		n = 0;
	for (uint32_t i = 0; i < n; i++) {
		char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], vuid[DOCA_DEVINFO_REP_VUID_SIZE];

		doca_devinfo_rep_get_pci_addr_str(reps[i], pci);
		doca_devinfo_rep_get_vuid(reps[i], vuid, sizeof(vuid));
		if (json)
			printf("%s{\"pci_addr\": \"%s\", \"vuid\": \"%s\"}", i ? ", " : "", pci, vuid);
		else
			printf("        representor %s  vuid %s\n", pci, vuid);
	}
	if (have_list)
		doca_devinfo_rep_destroy_list(reps);
	doca_dev_close(dev);
}

static void print_dev(const struct doca_devinfo *d, bool caps, bool json, bool first)
{
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], ib[DOCA_DEVINFO_IBDEV_NAME_SIZE], ifc[DOCA_DEVINFO_IFACE_NAME_SIZE];
	uint32_t list_len = 0, max_tasks = 0;
	uint64_t max_size = 0;
	uint8_t exp = 0, imp = 0;
	bool dma = doca_dma_cap_task_memcpy_is_supported(d) == DOCA_SUCCESS;

	doca_devinfo_get_pci_addr_str(d, pci);
	doca_devinfo_get_ibdev_name(d, ib, sizeof(ib));
	doca_devinfo_get_iface_name(d, ifc, sizeof(ifc));
	doca_dma_cap_task_memcpy_get_max_buf_list_len(d, &list_len);
	doca_dma_cap_task_memcpy_get_max_buf_size(d, &max_size);
	doca_mmap_cap_is_export_pci_supported(d, &exp);
	doca_mmap_cap_is_create_from_export_pci_supported(d, &imp);
	if (dma) {
		struct doca_dev *dev;
		struct doca_dma *ctx;

		if (doca_dev_open((struct doca_devinfo *)d, &dev) == DOCA_SUCCESS) {
			if (doca_dma_create(dev, &ctx) == DOCA_SUCCESS) {
				doca_dma_cap_get_max_num_tasks(ctx, &max_tasks);
				doca_dma_destroy(ctx);
			}
			doca_dev_close(dev);
		}
	}
	if (json) {
		printf("%s\n    {\"pci_addr\": \"%s\", \"ibdev\": \"%s\", \"iface\": \"%s\", \"side\": \"%s\", "
		       "\"representors\": [",
		       first ? "" : ",", pci, ib, ifc, side_of(d));
		print_reps(d, true);
		printf("]");
		if (caps)
			printf(", \"caps\": {\"dma_memcpy\": %s, \"dma_max_buf_size\": %llu, \"dma_max_buf_list_len\": %u, "
			       "\"dma_max_num_tasks\": %u, \"mmap_export_pci\": %s, \"mmap_create_from_export_pci\": %s}",
			       dma ? "true" : "false", (unsigned long long)max_size, list_len, max_tasks,
			       exp ? "true" : "false", imp ? "true" : "false");
		printf("}");
		return;
	}
	printf("%s  ibdev %s  iface %s  side %s\n", pci, ib, ifc, side_of(d));
	print_reps(d, false);
	if (!caps)
		return;
	printf("    dma memcpy                  %s\n", dma ? "supported" : "not supported");
	printf("    dma max buf size            %llu\n", (unsigned long long)max_size);
	printf("    dma max buf list len        %u\n", list_len);
	printf("    dma max num tasks           %u\n", max_tasks);
	printf("    mmap export pci             %s\n", exp ? "supported" : "not supported");
	printf("    mmap create from export pci %s\n", imp ? "supported" : "not supported");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"pci-addr", required_argument, NULL, 'p'}, {"list-devs", no_argument, NULL, 'l'},
		{"json", no_argument, NULL, 'j'},	    {"version", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},	    {NULL, 0, NULL, 0},
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
			printf(json ? "{\"doca_version\": \"%s\", \"softdoca_version\": \"%s\"}\n" : "%s (softdoca %s)\n",
			       DOCA_VERSION_STRING, SOFTDOCA_VERSION_STRING);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
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
