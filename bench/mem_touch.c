/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mem_touch.c - writes MiB of fresh anonymous memory and frees it again, so that the next
 * command's new pages are pages the machine has just used.
 *
 *   mem_touch MiB      (at most half of MemAvailable is touched)
 *
 * Why: a VM with free page reporting (virtio-balloon) hands free memory back to the
 * hypervisor, and the first write into such a page later faults in the hypervisor. A copy
 * that fills 2 GiB of new page cache then runs anywhere from 0.3 to 4 s, depending on which
 * free pages it happens to get. bench/dma_copy_bench.sh runs this before every timed command,
 * `cp` and doca_dma_copy alike, so that none of them pays for it (docs/performance.md).
 * On a machine without free page reporting it only costs the time it takes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* MemAvailable from /proc/meminfo in MiB, 0 when it cannot be read. */
static uint64_t mem_available_mib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	uint64_t kib = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1)
			break;
	fclose(f);
	return kib / 1024;
}

int main(int argc, char **argv)
{
	uint64_t mib, avail;
	char *end = NULL;
	size_t len, off;
	char *p;

	if (argc != 2 || argv[1][0] < '0' || argv[1][0] > '9') {
		fprintf(stderr, "usage: mem_touch MiB\n");
		return 2;
	}
	errno = 0;
	mib = strtoull(argv[1], &end, 10);
	if (errno != 0 || *end != '\0' || mib == 0 || mib > (1ull << 24)) {
		fprintf(stderr, "mem_touch: '%s' is not a size in MiB (1..16777216)\n", argv[1]);
		return 2;
	}
	avail = mem_available_mib();
	if (avail != 0 && mib > avail / 2)
		mib = avail / 2;
	if (mib == 0)
		return 0;
	len = (size_t)mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "mem_touch: cannot map %" PRIu64 " MiB: %s\n", mib, strerror(errno));
		return 1;
	}
	(void)madvise(p, len, MADV_HUGEPAGE); /* fewer faults; the pages are written all the same */
	for (off = 0; off < len; off += 4096)
		((volatile char *)p)[off] = 1;
	munmap(p, len);
	return 0;
}
