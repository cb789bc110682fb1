/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc_exporter - the other process of the cross-process tests: it exports a buffer with
 * doca_mmap_export_pci() and then does what the test tells it, one command per line on stdin,
 * one answer line per command on stdout. It does no DMA itself: the importing test does.
 *
 *   xproc_exporter [-d PCI] [-a PCI] [-s SIZE] [-S SEED] [-w] [-n]
 *     -d  exporting device (default b1:00.0, the host PF)
 *     -a  a second device added to the mmap (for "export PCI")
 *     -s  bytes exported (default 1 MiB); the buffer is mmap'ed, so "unmap" can take it away
 *     -S  the buffer starts filled with pattern SEED (xproc.h: xp_pattern)
 *     -w  export read-write (DOCA_ACCESS_FLAG_PCI_READ_WRITE) instead of read-only
 *     -n  make the process non-dumpable (PR_SET_DUMPABLE 0): same-user importers are refused
 *
 * Answers: "EXPORT <hex descriptor> <address> <length>" after starting and after "export" /
 * "restart"; "OK", "BAD <offset>" or "ERR <what>" otherwise.
 *
 *   verify OFF LEN SEED  the bytes [OFF, OFF+LEN) hold pattern SEED?   fill OFF LEN SEED
 *   stop | restart | destroy | unmap | export PCI | exit
 *
 * It dies with its parent (PR_SET_PDEATHSIG), so a test that crashes leaves nothing behind.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>

#define XPROC_EXPORTER_ONLY
#include "xproc.h"

static struct doca_dev *open_pci(const char *pci)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			doca_dev_open(list[i], &dev);
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

static int export_line(struct doca_mmap *m, struct doca_dev *dev, uint8_t *buf, size_t size)
{
	const void *desc = NULL;
	size_t len = 0;
	doca_error_t ret = doca_mmap_export_pci(m, dev, &desc, &len);

	if (ret != DOCA_SUCCESS) {
		printf("ERR export %s\n", doca_error_get_name(ret));
		return 1;
	}
	printf("EXPORT ");
	for (size_t i = 0; i < len; i++)
		printf("%02x", ((const uint8_t *)desc)[i]);
	printf(" %llu %zu\n", (unsigned long long)(uintptr_t)buf, size);
	return 0;
}

static void answer(doca_error_t ret, const char *what)
{
	if (ret == DOCA_SUCCESS)
		printf("OK\n");
	else
		printf("ERR %s %s\n", what, doca_error_get_name(ret));
}

static doca_error_t start_map(struct doca_mmap **m, struct doca_dev *dev, struct doca_dev *dev2, uint8_t *buf,
			      size_t size, uint32_t rights)
{
	doca_error_t ret = doca_mmap_create(m);

	if (ret == DOCA_SUCCESS && (ret = doca_mmap_set_memrange(*m, buf, size)) == DOCA_SUCCESS &&
	    (ret = doca_mmap_set_permissions(*m, rights | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE)) == DOCA_SUCCESS &&
	    (ret = doca_mmap_add_dev(*m, dev)) == DOCA_SUCCESS &&
	    (dev2 == NULL || (ret = doca_mmap_add_dev(*m, dev2)) == DOCA_SUCCESS))
		ret = doca_mmap_start(*m);
	return ret;
}

int main(int argc, char **argv)
{
	const char *pci = "b1:00.0", *pci2 = NULL;
	size_t size = 1u << 20;
	uint64_t seed = 1;
	uint32_t rights = DOCA_ACCESS_FLAG_PCI_READ_ONLY;
	struct doca_log_backend *be = NULL;
	struct doca_mmap *m = NULL;
	struct doca_dev *dev, *dev2 = NULL;
	uint8_t *buf;
	char line[256];
	int opt;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		return 1; /* the test died before we could follow it */
	while ((opt = getopt(argc, argv, "d:a:s:S:wn")) != -1) {
		switch (opt) {
		case 'd':
			pci = optarg;
			break;
		case 'a':
			pci2 = optarg;
			break;
		case 's':
			size = strtoull(optarg, NULL, 0);
			break;
		case 'S':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'w':
			rights = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
			break;
		case 'n':
			prctl(PR_SET_DUMPABLE, 0);
			break;
		default:
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* SDK lines go to stderr, which the test leaves attached to its own. */
	doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &be);
	dev = open_pci(pci);
	if (pci2 != NULL && (dev2 = open_pci(pci2)) == NULL) {
		printf("ERR setup no device %s\n", pci2);
		return 1;
	}
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (dev == NULL || buf == MAP_FAILED) {
		printf("ERR setup %s\n", dev == NULL ? "no such device" : strerror(errno));
		return 1;
	}
	xp_fill(buf, 0, size, seed);
	if (start_map(&m, dev, dev2, buf, size, rights) != DOCA_SUCCESS || export_line(m, dev, buf, size) != 0) {
		printf("ERR start\n");
		return 1;
	}
	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned long long off = 0, len = 0, s = 0;
		char arg[64];
		doca_error_t ret;

		if (sscanf(line, "verify %llu %llu %llu", &off, &len, &s) == 3) {
			size_t bad = off + len <= size ? xp_check(buf + off, off, len, s) : 0;

			if (off + len <= size && bad == len)
				printf("OK\n");
			else
				printf("BAD %zu\n", (size_t)off + bad);
		} else if (sscanf(line, "fill %llu %llu %llu", &off, &len, &s) == 3 && off + len <= size) {
			xp_fill(buf + off, off, len, s);
			printf("OK\n");
		} else if (strcmp(line, "stop\n") == 0) {
			answer(doca_mmap_stop(m), "stop");
		} else if (strcmp(line, "restart\n") == 0) {
			ret = doca_mmap_start(m);
			if (ret == DOCA_SUCCESS)
				export_line(m, dev, buf, size);
			else
				printf("ERR restart %s\n", doca_error_get_name(ret));
		} else if (strcmp(line, "destroy\n") == 0) {
			ret = doca_mmap_destroy(m);
			if (ret == DOCA_SUCCESS)
				m = NULL;
			answer(ret, "destroy");
		} else if (strcmp(line, "unmap\n") == 0) {
			printf(munmap(buf, size) == 0 ? "OK\n" : "ERR unmap\n");
		} else if (sscanf(line, "export %63s", arg) == 1) {
			uint8_t eq = 0;

			if (dev2 == NULL || doca_devinfo_is_equal_pci_addr(doca_dev_as_devinfo(dev2), arg, &eq) != DOCA_SUCCESS ||
			    !eq)
				printf("ERR %s was not added with -a\n", arg);
			else
				export_line(m, dev2, buf, size);
		} else if (strcmp(line, "exit\n") == 0) {
			break;
		} else {
			printf("ERR unknown command\n");
		}
	}
	if (m != NULL)
		doca_mmap_destroy(m);
	doca_dev_close(dev);
	if (dev2 != NULL)
		doca_dev_close(dev2);
	return 0;
}
