/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca-capability-snapshot - per-device capability flags as JSON with stable keys, to save as a
 * baseline and compare later.
 *
 *   doca-capability-snapshot > caps.json          take a snapshot
 *   doca-capability-snapshot --diff caps.json     compare with a saved one
 *
 * Output: one object; "devices" maps each PCI address to a flat object of capability keys in a
 * fixed order. Keys are never renamed; new keys are only ever added. With --diff, every
 * difference is printed as "<pci> <key>: <old> -> <new>" and the exit status is 1 when
 * anything differs (0 when identical, 2 on usage or file errors).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_version.h>

#include "caps_common.h"
#include "file_util.h"

#define MAX_LINE    512
#define MAX_ENTRIES 4096

struct entry {
	char key[160]; /* "<pci> <capability>" */
	char val[300];
};

static void usage(FILE *f)
{
	fprintf(f, "NAME\n"
		   "    doca-capability-snapshot - device capabilities as stable JSON, and comparison\n\n"
		   "SYNOPSIS\n"
		   "    doca-capability-snapshot [--diff BASELINE.json]\n"
		   "    doca-capability-snapshot --version | --help\n\n"
		   "DESCRIPTION\n"
		   "    Prints every device's capability flags: one line per key, keys in a fixed order,\n"
		   "    so snapshots diff cleanly. With --diff, compares the current devices with a saved\n"
		   "    snapshot and prints each difference as '<pci> <key>: <old> -> <new>'.\n\n"
		   "EXIT STATUS\n"
		   "    0 no difference (or snapshot printed); 1 differences found; 2 usage or file error;\n"
		   "    3 devices unavailable\n");
}

/* Collects "<pci> <key>" -> value pairs for every device, in output order. */
static int collect(struct entry *e, int max)
{
	struct doca_devinfo **devs;
	uint32_t n;
	int k = 0;

	if (doca_devinfo_create_list(&devs, &n) != DOCA_SUCCESS)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		struct dev_caps c;

		caps_collect(devs[i], &c);
#define ADD(name, fmt, v)                                                                                              \
	do {                                                                                                           \
		if (k < max) {                                                                                         \
			snprintf(e[k].key, sizeof(e[k].key), "%s %s", c.pci, name);                                    \
			snprintf(e[k].val, sizeof(e[k].val), fmt, v);                                                  \
			k++;                                                                                           \
		}                                                                                                      \
	} while (0)
		ADD("side", "\"%s\"", c.side);
		ADD("ibdev", "\"%s\"", c.ibdev);
		ADD("iface", "\"%s\"", c.iface);
		ADD("representors", "%u", c.nreps);
		ADD("dma.memcpy.supported", "%s", c.dma_memcpy ? "true" : "false");
		ADD("dma.memcpy.max_buf_size", "%llu", (unsigned long long)c.dma_max_buf_size);
		ADD("dma.memcpy.max_buf_list_len", "%u", c.dma_max_buf_list_len);
		ADD("dma.max_num_tasks", "%u", c.dma_max_num_tasks);
		ADD("mmap.export_pci", "%s", c.mmap_export_pci ? "true" : "false");
		ADD("mmap.create_from_export_pci", "%s", c.mmap_create_from_export_pci ? "true" : "false");
		ADD("comch.server", "%s", c.comch_server ? "true" : "false");
		ADD("comch.client", "%s", c.comch_client ? "true" : "false");
		ADD("comch.max_msg_size", "%u", c.comch_max_msg_size);
#undef ADD
	}
	doca_devinfo_destroy_list(devs);
	return k;
}

static void print_snapshot(const struct entry *e, int n)
{
	char cur[32] = "";

	printf("{\n  \"format\": 1,\n  \"doca_version\": \"%s\",\n  \"devices\": {", DOCA_VERSION_STRING);
	for (int i = 0; i < n; i++) {
		const char *sp = strchr(e[i].key, ' ');
		size_t plen = (size_t)(sp - e[i].key);
		bool new_dev = strncmp(cur, e[i].key, plen) != 0 || cur[plen] != '\0';

		if (new_dev) {
			printf("%s\n    \"%.*s\": {\n", cur[0] ? "\n    }," : "", (int)plen, e[i].key);
			snprintf(cur, sizeof(cur), "%.*s", (int)plen, e[i].key);
		} else {
			printf(",\n");
		}
		printf("      \"%s\": %s", sp + 1, e[i].val);
	}
	printf("%s\n  }\n}\n", cur[0] ? "\n    }" : "");
}

/* Reads a snapshot written by print_snapshot (one key per line). */
static int load(const char *path, struct entry *e, int max)
{
	FILE *f = tool_fopen_regular(path);
	char line[MAX_LINE], dev[32] = "";
	int k = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL && k < max) {
		char name[128], val[300], tmp[32];

		/* A device opens an object: "<pci>": { */
		if (strchr(line, '{') != NULL && sscanf(line, " \"%31[^\"]\"", tmp) == 1) {
			snprintf(dev, sizeof(dev), "%s", tmp);
			continue;
		}
		if (dev[0] == '\0' || sscanf(line, " \"%127[^\"]\": %299[^,\n]", name, val) != 2)
			continue;
		if (strcmp(name, "format") == 0 || strcmp(name, "doca_version") == 0)
			continue;
		snprintf(e[k].key, sizeof(e[k].key), "%s %s", dev, name);
		snprintf(e[k].val, sizeof(e[k].val), "%s", val);
		k++;
	}
	fclose(f);
	return k;
}

static const struct entry *find(const struct entry *e, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (strcmp(e[i].key, key) == 0)
			return &e[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static struct entry now[MAX_ENTRIES], base[MAX_ENTRIES];
	char *diff_arg[4] = {NULL};
	int n, nb, diffs = 0;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc == 2 && (strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "--version") == 0)) {
		printf("doca-capability-snapshot %s (DOCA %s)\n", SD_TOOL_VERSION, SD_DOCA_VERSION);
		return 0;
	}
	if (argc == 2 && strncmp(argv[1], "--diff=", 7) == 0 && argv[1][7] != '\0') {
		/* --diff=FILE, as getopt_long-style tools take it */
		diff_arg[0] = argv[0];
		diff_arg[1] = "--diff";
		diff_arg[2] = argv[1] + 7;
		argv = diff_arg;
		argc = 3;
	}
	if (argc != 1 && !(argc == 3 && strcmp(argv[1], "--diff") == 0)) {
		static const char *const known[] = {"--diff", "-h", "--help", "-v", "--version"};
		bool diff = strcmp(argv[1], "--diff") == 0, is_opt = strncmp(argv[1], "--diff=", 7) == 0;

		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			is_opt = is_opt || strcmp(argv[1], known[i]) == 0;
		fprintf(stderr, "doca-capability-snapshot: ");
		if (argv[1][0] == '-' && !is_opt)
			fprintf(stderr, "unknown option '%s'", argv[1]);
		else if (argc == 2 && is_opt) /* --diff or --diff= */
			fprintf(stderr, "--diff needs a snapshot file");
		else /* the first word that is neither an option nor --diff's file */
			fprintf(stderr, "unexpected argument '%s'", argv[diff ? 3 : is_opt ? 2 : 1]);
		fprintf(stderr, "; see doca-capability-snapshot --help\n");
		return 2;
	}
	n = collect(now, MAX_ENTRIES);
	if (n < 0) {
		fprintf(stderr, "doca-capability-snapshot: cannot read the device list (see the error above)\n");
		return 3;
	}
	if (argc == 1) {
		print_snapshot(now, n);
		return 0;
	}
	nb = load(argv[2], base, MAX_ENTRIES);
	if (nb <= 0) {
		fprintf(stderr, "doca-capability-snapshot: %s is not a readable snapshot\n", argv[2]);
		return 2;
	}
	for (int i = 0; i < nb; i++) {
		const struct entry *c = find(now, n, base[i].key);

		if (c == NULL) {
			printf("%s: %s -> (gone)\n", base[i].key, base[i].val);
			diffs++;
		} else if (strcmp(c->val, base[i].val) != 0) {
			printf("%s: %s -> %s\n", base[i].key, base[i].val, c->val);
			diffs++;
		}
	}
	for (int i = 0; i < n; i++) {
		if (find(base, nb, now[i].key) == NULL) {
			printf("%s: (new) -> %s\n", now[i].key, now[i].val);
			diffs++;
		}
	}
	if (diffs == 0)
		printf("no difference from %s\n", argv[2]);
	return diffs ? 1 : 0;
}
