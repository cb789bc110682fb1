/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_copy_pair.h - what dma_copy_host and dma_copy_dpu share: their command line (the flags
 * of DOCA's dma_copy_host / dma_copy_dpu samples) and the two files that carry the export from
 * one process to the other.
 *
 *   host:  -p PCI (default b1:00.0)  -t TEXT  -d DESCRIPTOR_PATH  -b BUFFER_PATH
 *   DPU:   -p PCI (default 03:00.0)           -d DESCRIPTOR_PATH  -b BUFFER_PATH
 *
 * The descriptor file holds the bytes doca_mmap_export_pci() returned; the buffer file holds the
 * exporter's buffer address and length as two decimal lines.
 */
#ifndef EXAMPLES_DMA_COPY_PAIR_H_
#define EXAMPLES_DMA_COPY_PAIR_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>

#define PAIR_HOST_PCI_DEFAULT  "b1:00.0"
#define PAIR_DPU_PCI_DEFAULT   "03:00.0"
#define PAIR_DESC_PATH_DEFAULT "/tmp/export_desc.txt"
#define PAIR_BUF_PATH_DEFAULT  "/tmp/buffer_info.txt"
#define PAIR_PATH_MAX	       1024

struct pair_cfg {
	char pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char text[4096];
	char desc_path[PAIR_PATH_MAX];
	char buf_path[PAIR_PATH_MAX];
};

/* Largest buffer the pair moves: the host's text (-t holds at most 4 KiB) with room to spare. */
#define PAIR_MAX_BUF_LEN (1u << 20)

/* Parses one decimal u64 at *p (no sign, no spaces, no overflow); advances *p. */
static inline bool pair_parse_u64(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = *p;

	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return true;
}

/*
 * The buffer file's @len bytes (not NUL-terminated): "ADDR\nLEN" with an optional final
 * newline, both decimal, LEN in 1..PAIR_MAX_BUF_LEN, ADDR + LEN not wrapping; anything else
 * is refused (false). A pure function of its input (fuzzed: tests/fuzz/fuzz_buffer_info.c).
 */
static inline bool pair_parse_buffer_info(const char *text, size_t len, uint64_t *addr, uint64_t *size)
{
	const char *p = text, *end = text + len;
	uint64_t a, n;

	if (!pair_parse_u64(&p, end, &a) || p == end || *p++ != '\n' || !pair_parse_u64(&p, end, &n))
		return false;
	if (p < end && *p == '\n')
		p++;
	if (p != end || n == 0 || n > PAIR_MAX_BUF_LEN || a + n < a)
		return false;
	*addr = a;
	*size = n;
	return true;
}

static inline doca_error_t pair_copy_arg(char *dst, size_t size, const char *src, const char *what)
{
	if (strlen(src) >= size) {
		fprintf(stderr, "%s is longer than %zu bytes\n", what, size - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(dst, src);
	return DOCA_SUCCESS;
}

static inline doca_error_t pair_pci_cb(void *param, void *config)
{
	return pair_copy_arg(((struct pair_cfg *)config)->pci_addr, DOCA_DEVINFO_PCI_ADDR_SIZE, param, "PCI address");
}

static inline doca_error_t pair_text_cb(void *param, void *config)
{
	return pair_copy_arg(((struct pair_cfg *)config)->text, sizeof(((struct pair_cfg *)config)->text), param,
			     "text");
}

static inline doca_error_t pair_desc_cb(void *param, void *config)
{
	return pair_copy_arg(((struct pair_cfg *)config)->desc_path, PAIR_PATH_MAX, param, "descriptor path");
}

static inline doca_error_t pair_buf_cb(void *param, void *config)
{
	return pair_copy_arg(((struct pair_cfg *)config)->buf_path, PAIR_PATH_MAX, param, "buffer path");
}

static inline doca_error_t pair_add_param(const char *s, const char *l, const char *desc, doca_argp_param_cb_t cb)
{
	struct doca_argp_param *p;
	doca_error_t ret = doca_argp_param_create(&p);

	if (ret != DOCA_SUCCESS)
		return ret;
	doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, desc);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_STRING);
	return doca_argp_register_param(p);
}

/* Registers -p, -d, -b, and -t when @with_text (the host side). */
static inline doca_error_t pair_register_params(bool with_text)
{
	doca_error_t ret;

	ret = pair_add_param("p", "pci-addr", "DOCA device PCI address", pair_pci_cb);
	if (ret == DOCA_SUCCESS && with_text)
		ret = pair_add_param("t", "text", "text to DMA-copy from the host to the DPU", pair_text_cb);
	if (ret == DOCA_SUCCESS)
		ret =
		    pair_add_param("d", "descriptor-path", "file holding the exported memory descriptor", pair_desc_cb);
	if (ret == DOCA_SUCCESS)
		ret = pair_add_param("b", "buffer-path", "file holding the exported buffer's address and length",
				     pair_buf_cb);
	return ret;
}

/* Opens the device at @pci. */
static inline doca_error_t pair_open_device(const char *pci, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t ret = doca_devinfo_create_list(&list, &n);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_open(list[i], dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	return ret;
}

#endif /* EXAMPLES_DMA_COPY_PAIR_H_ */
