/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_copy_dpu - the DPU half of a cross-process DMA copy (DOCA's dma_copy_dpu sample does the
 * same): read the descriptor and the buffer's address and length that dma_copy_host wrote,
 * import the host's buffer with doca_mmap_create_from_export(), DMA it into a local buffer and
 * print it.
 *
 *   dma_copy_dpu [-p 03:00.0] [-d /tmp/export_desc.txt] [-b /tmp/buffer_info.txt]
 *
 * The DPU device must pair with the host's: 03:00.0 holds the representor of host PF b1:00.0.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../dma_copy_pair.h"

DOCA_LOG_REGISTER(DMA_COPY_DPU);

#define DESC_MAX 4096

struct copy_state {
	int done;
	doca_error_t status;
};

static void copy_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct copy_state *st = ctx_ud.ptr;

	(void)task_ud;
	st->status = DOCA_SUCCESS;
	st->done = 1;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static void copy_failed(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct copy_state *st = ctx_ud.ptr;

	(void)task_ud;
	st->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	st->done = 1;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

/* fopen(@path, "r") of a regular file only: a FIFO named by mistake must not hang the open. */
static FILE *fopen_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	FILE *f = NULL;

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		f = fdopen(fd, "r");
	if (f == NULL && fd >= 0)
		close(fd);
	return f;
}

/* Reads a whole regular file of at most @cap bytes; a larger one is refused, never cut. */
static doca_error_t read_small_file(const char *path, void *buf, size_t cap, size_t *len)
{
	FILE *f = fopen_regular(path);
	size_t n;

	if (f == NULL) {
		DOCA_LOG_ERR("cannot open %s as a regular file (run dma_copy_host first)", path);
		return DOCA_ERROR_NOT_FOUND;
	}
	n = fread(buf, 1, cap, f);
	if (n == cap && fgetc(f) != EOF) {
		fclose(f);
		DOCA_LOG_ERR("%s is larger than the %zu bytes dma_copy_host writes there", path, cap);
		return DOCA_ERROR_INVALID_VALUE;
	}
	fclose(f);
	*len = n;
	return DOCA_SUCCESS;
}

static doca_error_t read_files(const struct pair_cfg *cfg, uint8_t *desc, size_t *desc_len, uint64_t *addr,
			       uint64_t *len)
{
	char info[64];
	size_t n;
	doca_error_t ret = read_small_file(cfg->desc_path, desc, DESC_MAX, desc_len);

	if (ret == DOCA_SUCCESS)
		ret = read_small_file(cfg->buf_path, info, sizeof(info), &n);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (*desc_len == 0 || !pair_parse_buffer_info(info, n, addr, len)) {
		DOCA_LOG_ERR("%s or %s does not hold what dma_copy_host writes (a descriptor; an address and a "
			     "length of 1..%u bytes on two decimal lines)",
			     cfg->desc_path, cfg->buf_path, PAIR_MAX_BUF_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Imports the host buffer, copies it into @dst with one DMA task, waits for the completion. */
static doca_error_t copy_from_host(struct doca_dev *dev, const uint8_t *desc, size_t desc_len, uint64_t addr,
				   uint64_t len, char *dst)
{
	struct doca_mmap *remote = NULL, *local = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *src_buf = NULL, *dst_buf = NULL;
	struct doca_pe *pe = NULL;
	struct doca_dma *dma = NULL;
	struct doca_dma_task_memcpy *task;
	struct copy_state st = {0, DOCA_SUCCESS};
	union doca_data ud = {.ptr = &st}, task_ud = {.u64 = 0};
	doca_error_t ret;

	ret = doca_mmap_create_from_export(NULL, desc, desc_len, dev, &remote);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_create(&local);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(local, dst, len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(local, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(local, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(local);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(2, &inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(inv);
	/* The host's address, as the host wrote it: the remote mmap takes the exporter's addresses. */
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_buf_get_by_data(inv, remote, (void *)(uintptr_t)addr, len, &src_buf);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_buf_get_by_addr(inv, local, dst, len, &dst_buf);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(dev, &dma);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_set_conf(dma, copy_done, copy_failed, 1);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_dma_as_ctx(dma), ud);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_dma_as_ctx(dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_alloc_init(dma, src_buf, dst_buf, task_ud, &task);
	if (ret == DOCA_SUCCESS)
		ret = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	while (ret == DOCA_SUCCESS && !st.done)
		doca_pe_progress(pe);
	if (ret == DOCA_SUCCESS)
		ret = st.status;
	if (ret != DOCA_SUCCESS)
		DOCA_LOG_ERR("DMA copy from the host failed: %s", doca_error_get_descr(ret));

	if (dma != NULL) {
		enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

		doca_ctx_stop(doca_dma_as_ctx(dma));
		while (doca_ctx_get_state(doca_dma_as_ctx(dma), &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
			doca_pe_progress(pe);
		doca_dma_destroy(dma);
	}
	if (pe != NULL)
		doca_pe_destroy(pe);
	if (src_buf != NULL)
		doca_buf_dec_refcount(src_buf, NULL);
	if (dst_buf != NULL)
		doca_buf_dec_refcount(dst_buf, NULL);
	if (inv != NULL)
		doca_buf_inventory_destroy(inv);
	if (local != NULL)
		doca_mmap_destroy(local);
	if (remote != NULL)
		doca_mmap_destroy(remote);
	return ret;
}

int main(int argc, char **argv)
{
	struct pair_cfg cfg = {
	    .pci_addr = PAIR_DPU_PCI_DEFAULT, .desc_path = PAIR_DESC_PATH_DEFAULT, .buf_path = PAIR_BUF_PATH_DEFAULT};
	struct doca_log_backend *sdk_log;
	static uint8_t desc[DESC_MAX];
	size_t desc_len = 0;
	uint64_t addr = 0, len = 0;
	struct doca_dev *dev = NULL;
	uint8_t can_import = 0;
	char *dst = NULL;
	int rc = EXIT_FAILURE;

	if (doca_log_backend_create_standard() != DOCA_SUCCESS ||
	    doca_log_backend_create_with_file_sdk(stderr, &sdk_log) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (doca_argp_init(NULL, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (pair_register_params(false) != DOCA_SUCCESS || doca_argp_start(argc, argv) != DOCA_SUCCESS)
		goto argp_done;

	if (read_files(&cfg, desc, &desc_len, &addr, &len) != DOCA_SUCCESS)
		goto argp_done;
	if (pair_open_device(cfg.pci_addr, &dev) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("no device %s", cfg.pci_addr);
		goto argp_done;
	}
	if (doca_dma_cap_task_memcpy_is_supported(doca_dev_as_devinfo(dev)) != DOCA_SUCCESS ||
	    doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(dev), &can_import) != DOCA_SUCCESS ||
	    !can_import) {
		DOCA_LOG_ERR("device %s cannot DMA from imported memory", cfg.pci_addr);
		goto done;
	}
	dst = calloc(1, len + 1); /* + 1: printable even if the host sent no terminating NUL */
	if (dst == NULL)
		goto done;
	if (copy_from_host(dev, desc, desc_len, addr, len, dst) != DOCA_SUCCESS)
		goto done;
	DOCA_LOG_INFO("Memory content: %s", dst);
	printf("%s\n", dst);
	rc = EXIT_SUCCESS;
done:
	free(dst);
	doca_dev_close(dev);
argp_done:
	doca_argp_destroy();
	return rc;
}
