/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_copy_host - the host half of a cross-process DMA copy (DOCA's dma_copy_host sample does
 * the same): put a text in a buffer, export the buffer for PCI reads, hand the descriptor and
 * the buffer's address and length to the DPU side through two files, and wait. The host CPU
 * does nothing while the DPU side copies: the program sits in getchar().
 *
 *   dma_copy_host [-p b1:00.0] [-t "text"] [-d /tmp/export_desc.txt] [-b /tmp/buffer_info.txt]
 *
 * Then run dma_copy_dpu with the same -d and -b, and press Enter here when it has finished.
 * Each file is written under a temporary name and renamed, so the DPU side never reads half
 * of one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "../dma_copy_pair.h"

DOCA_LOG_REGISTER(DMA_COPY_HOST);

/*
 * Writes @len bytes to @path through a temporary file in the same directory and a rename. The
 * temporary name is made by mkstemp() (O_CREAT | O_EXCL, mode 0600): in a shared directory such
 * as /tmp another user's symlink cannot redirect the write, and rename() replaces a link at
 * @path itself rather than following it.
 */
static doca_error_t write_file(const char *path, const void *data, size_t len)
{
	char tmp[PAIR_PATH_MAX + 16];
	size_t done = 0;
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		DOCA_LOG_ERR("cannot create a temporary file next to %s: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (done != len || fchmod(fd, 0644) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		DOCA_LOG_ERR("cannot write %s: %s", path, strerror(errno));
		if (done != len)
			close(fd);
		unlink(tmp);
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

static doca_error_t export_text(const struct pair_cfg *cfg, struct doca_dev *dev, char *buf, size_t len,
				struct doca_mmap **mmap)
{
	const void *desc = NULL;
	size_t desc_len = 0;
	char info[64];
	doca_error_t ret;

	ret = doca_mmap_create(mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(*mmap, buf, len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(*mmap, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(*mmap, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(*mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_export_pci(*mmap, dev, &desc, &desc_len);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot export the buffer: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = write_file(cfg->desc_path, desc, desc_len);
	if (ret != DOCA_SUCCESS)
		return ret;
	snprintf(info, sizeof(info), "%" PRIu64 "\n%" PRIu64 "\n", (uint64_t)(uintptr_t)buf, (uint64_t)len);
	return write_file(cfg->buf_path, info, strlen(info));
}

int main(int argc, char **argv)
{
	struct pair_cfg cfg = {.pci_addr = PAIR_HOST_PCI_DEFAULT,
			       .text = "This text was copied from the host by the DPU, across processes.",
			       .desc_path = PAIR_DESC_PATH_DEFAULT,
			       .buf_path = PAIR_BUF_PATH_DEFAULT};
	struct doca_log_backend *sdk_log;
	struct doca_mmap *mmap = NULL;
	struct doca_dev *dev = NULL;
	char *buf = NULL;
	size_t len;
	uint8_t can_export = 0;
	int rc = EXIT_FAILURE;

	if (doca_log_backend_create_standard() != DOCA_SUCCESS ||
	    doca_log_backend_create_with_file_sdk(stderr, &sdk_log) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (doca_argp_init(NULL, &cfg) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (pair_register_params(true) != DOCA_SUCCESS || doca_argp_start(argc, argv) != DOCA_SUCCESS)
		goto argp_done;

	if (pair_open_device(cfg.pci_addr, &dev) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("no device %s", cfg.pci_addr);
		goto argp_done;
	}
	if (doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(dev), &can_export) != DOCA_SUCCESS ||
	    !can_export) {
		DOCA_LOG_ERR("device %s cannot export memory over PCI", cfg.pci_addr);
		goto done;
	}
	len = strlen(cfg.text) + 1;
	buf = malloc(len);
	if (buf == NULL)
		goto done;
	memcpy(buf, cfg.text, len);
	if (export_text(&cfg, dev, buf, len, &mmap) != DOCA_SUCCESS)
		goto done;
	DOCA_LOG_INFO("exported %zu bytes at %p; descriptor in %s, address and length in %s", len, (void *)buf,
		      cfg.desc_path, cfg.buf_path);
	DOCA_LOG_INFO("Wait till the DPU has finished and press enter");
	/* The host CPU does nothing from here: the DPU side copies on its own. */
	while (getchar() != '\n' && !feof(stdin))
		;
	rc = EXIT_SUCCESS;
done:
	if (mmap != NULL && doca_mmap_destroy(mmap) != DOCA_SUCCESS)
		rc = EXIT_FAILURE;
	free(buf);
	doca_dev_close(dev);
argp_done:
	doca_argp_destroy();
	return rc;
}
