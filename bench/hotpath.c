/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hotpath - a fixed amount of DMA work for instruction counting:
 *
 *   valgrind --tool=callgrind --callgrind-out-file=hot.out ./hotpath 200000 256 [SIZE]
 *   callgrind_annotate hot.out | head -30
 *
 * Runs N tasks of SIZE bytes (64 unless given, at most 64 KiB) with Q in flight through the
 * full DOCA API per task (alloc_init, submit, completion callback, free), after a warm-up
 * pass. Instruction counts are repeatable where timings are not; divide the total by N for the
 * per-task cost. Prints the count of tasks so runs can be compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

static unsigned int free_slots[1024], nfree;
static unsigned long done;

static void on_done(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud)
{
	(void)cud;
	free_slots[nfree++] = (unsigned int)tud.u64;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	done++;
}

static void on_err(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud)
{
	(void)t;
	(void)tud;
	(void)cud;
	fprintf(stderr, "task failed\n");
	exit(1);
}

#define TRY(x)                                                                                                         \
	do {                                                                                                           \
		if ((x) != DOCA_SUCCESS) {                                                                             \
			fprintf(stderr, "%s failed\n", #x);                                                            \
			return 1;                                                                                      \
		}                                                                                                      \
	} while (0)

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000;
	unsigned int q = argc > 2 ? (unsigned int)atoi(argv[2]) : 256;
	size_t size = argc > 3 ? strtoul(argv[3], NULL, 0) : 64;
	size_t len;
	char *mem;
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_mmap *m;
	struct doca_buf_inventory *inv;
	struct doca_buf *s[1024], *d[1024];
	struct doca_pe *pe;
	struct doca_dma *dma;
	uint32_t nd;
	unsigned long submitted = 0;

	if (q < 1 || q > 1024)
		q = 256;
	if (size < 1 || size > 65536)
		size = 64;
	len = (2 * q * size + 4095) & ~(size_t)4095; /* a source and a destination per slot */
	mem = aligned_alloc(4096, len);
	if (mem == NULL)
		return 1;
	TRY(doca_devinfo_create_list(&list, &nd));
	TRY(doca_dev_open(list[0], &dev));
	TRY(doca_mmap_create(&m));
	TRY(doca_mmap_set_memrange(m, mem, len));
	TRY(doca_mmap_add_dev(m, dev));
	TRY(doca_mmap_start(m));
	TRY(doca_buf_inventory_create(2 * q, &inv));
	TRY(doca_buf_inventory_start(inv));
	for (unsigned int i = 0; i < q; i++) {
		TRY(doca_buf_inventory_buf_get_by_data(inv, m, mem + size * i, size, &s[i]));
		TRY(doca_buf_inventory_buf_get_by_addr(inv, m, mem + size * (q + i), size, &d[i]));
		free_slots[nfree++] = i;
	}
	TRY(doca_pe_create(&pe));
	TRY(doca_dma_create(dev, &dma));
	TRY(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	TRY(doca_dma_task_memcpy_set_conf(dma, on_done, on_err, q));
	TRY(doca_ctx_start(doca_dma_as_ctx(dma)));
	while (done < n) {
		while (nfree > 0 && submitted < n) {
			unsigned int slot = free_slots[--nfree];
			union doca_data ud = {.u64 = slot};
			struct doca_dma_task_memcpy *t;

			TRY(doca_dma_task_memcpy_alloc_init(dma, s[slot], d[slot], ud, &t));
			TRY(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
			submitted++;
		}
		doca_pe_progress(pe);
	}
	printf("%lu tasks\n", done);
	return 0;
}
