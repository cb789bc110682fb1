/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * common.c - helpers shared by the examples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_dma.h>
#include <doca_log.h>

#include "common.h"

DOCA_LOG_REGISTER(EXAMPLES::COMMON);

static doca_error_t pci_cb(void *param, void *config)
{
	struct example_cfg *cfg = config;
	const char *addr = param;

	if (strlen(addr) >= sizeof(cfg->pci_addr)) {
		DOCA_LOG_ERR("PCI address '%s' is too long; use BB:DD.F or DDDD:BB:DD.F", addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(cfg->pci_addr, addr);
	return DOCA_SUCCESS;
}

static doca_error_t text_cb(void *param, void *config)
{
	struct example_cfg *cfg = config;
	const char *text = param;

	if (strlen(text) >= sizeof(cfg->text)) {
		DOCA_LOG_ERR("text is longer than %zu bytes", sizeof(cfg->text) - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(cfg->text, text);
	return DOCA_SUCCESS;
}

static doca_error_t num_cb(void *param, void *config)
{
	struct example_cfg *cfg = config;
	int n = *(int *)param;

	if (n < 1 || n > 65536) {
		DOCA_LOG_ERR("number of tasks %d is outside 1..65536", n);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->num_tasks = n;
	return DOCA_SUCCESS;
}

static doca_error_t add_param(const char *s, const char *l, const char *desc, enum doca_argp_type type,
			      doca_argp_param_cb_t cb)
{
	struct doca_argp_param *p;
	doca_error_t ret = doca_argp_param_create(&p);

	if (ret != DOCA_SUCCESS)
		return ret;
	doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, desc);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	return doca_argp_register_param(p);
}

static doca_error_t register_params(void)
{
	doca_error_t ret;

	ret = add_param("p", "pci-addr", "DMA device PCI address (default " EXAMPLE_PCI_ADDR_DEFAULT ")",
			DOCA_ARGP_TYPE_STRING, pci_cb);
	if (ret == DOCA_SUCCESS)
		ret = add_param("t", "text", "text to copy", DOCA_ARGP_TYPE_STRING, text_cb);
	if (ret == DOCA_SUCCESS)
		ret = add_param("n", "num-tasks", "number of copy tasks (1..65536)", DOCA_ARGP_TYPE_INT, num_cb);
	return ret;
}

doca_error_t example_begin(int argc, char **argv, struct example_cfg *cfg)
{
	struct doca_log_backend *sdk_log;
	doca_error_t ret;

	ret = doca_log_backend_create_standard();
	if (ret == DOCA_SUCCESS)
		ret = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (ret == DOCA_SUCCESS)
		ret = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_init(NULL, cfg);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = register_params();
	if (ret == DOCA_SUCCESS)
		ret = doca_argp_start(argc, argv);
	if (ret != DOCA_SUCCESS)
		doca_argp_destroy();
	return ret;
}

doca_error_t example_open_dma_device(const char *pci_addr, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t ret;

	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS) {
		DOCA_LOG_ERR("cannot list devices: %s", doca_error_get_descr(ret));
		return ret;
	}
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci_addr, &eq) != DOCA_SUCCESS || !eq)
			continue;
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) != DOCA_SUCCESS) {
			DOCA_LOG_ERR("device %s cannot run DMA memcpy tasks", pci_addr);
			ret = DOCA_ERROR_NOT_SUPPORTED;
			break;
		}
		ret = doca_dev_open(list[i], dev);
		break;
	}
	doca_devinfo_destroy_list(list);
	if (ret == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("no device with PCI address %s (try doca_caps --list-devs)", pci_addr);
	return ret;
}

#include <doca_buf.h>
#include <doca_ctx.h>

static void copy_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct example_dma *ex = ctx_ud.ptr;
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);
	size_t written = 0;

	doca_buf_get_data_len(dst, &written);
	if (written != ex->len)
		DOCA_LOG_ERR("task %llu wrote %zu bytes, expected %zu", (unsigned long long)task_ud.u64, written,
			     ex->len);
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(task), NULL);
	doca_buf_dec_refcount(dst, NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	ex->completed++;
}

static void copy_failed(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct example_dma *ex = ctx_ud.ptr;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	DOCA_LOG_ERR("task %llu failed: %s", (unsigned long long)task_ud.u64, doca_error_get_descr(status));
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(task), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(task), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	ex->completed++;
	ex->failed++;
}

static void state_changed(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			  enum doca_ctx_states next)
{
	struct example_dma *ex = ud.ptr;

	(void)ctx;
	(void)prev;
	if (next == DOCA_CTX_STATE_IDLE)
		ex->stopped = true;
}

static doca_error_t make_mmap(struct example_dma *ex, char *mem, struct doca_mmap **mmap)
{
	doca_error_t ret = doca_mmap_create(mmap);

	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(*mmap, mem, ex->len * (size_t)ex->num_tasks);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(*mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(*mmap, ex->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(*mmap);
	return ret;
}

doca_error_t example_dma_setup(struct example_dma *ex, const char *pci_addr, const char *text, int num_tasks)
{
	union doca_data ud = {.ptr = ex};
	size_t total;
	doca_error_t ret;

	memset(ex, 0, sizeof(*ex));
	ex->len = strlen(text) + 1;
	ex->num_tasks = num_tasks;
	total = ex->len * (size_t)num_tasks;
	ex->src = malloc(total);
	ex->dst = calloc(1, total);
	if (ex->src == NULL || ex->dst == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (int i = 0; i < num_tasks; i++)
		memcpy(ex->src + (size_t)i * ex->len, text, ex->len);

	ret = example_open_dma_device(pci_addr, &ex->dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = make_mmap(ex, ex->src, &ex->src_mmap);
	if (ret == DOCA_SUCCESS)
		ret = make_mmap(ex, ex->dst, &ex->dst_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(2 * (size_t)num_tasks, &ex->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(ex->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_create(&ex->pe);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(ex->dev, &ex->dma);
	if (ret != DOCA_SUCCESS)
		return ret;
	ex->ctx = doca_dma_as_ctx(ex->dma);
	ret = doca_pe_connect_ctx(ex->pe, ex->ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_set_conf(ex->dma, copy_done, copy_failed, (uint32_t)num_tasks);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_state_changed_cb(ex->ctx, state_changed);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(ex->ctx, ud);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(ex->ctx);
	return ret;
}

doca_error_t example_dma_submit_all(struct example_dma *ex)
{
	for (int i = 0; i < ex->num_tasks; i++) {
		char *s = ex->src + (size_t)i * ex->len, *d = ex->dst + (size_t)i * ex->len;
		union doca_data ud = {.u64 = (uint64_t)i};
		struct doca_buf *sb, *db;
		struct doca_dma_task_memcpy *task;
		doca_error_t ret;

		ret = doca_buf_inventory_buf_get_by_data(ex->inv, ex->src_mmap, s, ex->len, &sb);
		if (ret != DOCA_SUCCESS)
			return ret;
		ret = doca_buf_inventory_buf_get_by_addr(ex->inv, ex->dst_mmap, d, ex->len, &db);
		if (ret != DOCA_SUCCESS)
			return ret;
		ret = doca_dma_task_memcpy_alloc_init(ex->dma, sb, db, ud, &task);
		if (ret != DOCA_SUCCESS)
			return ret;
		do {
			ret = doca_task_submit(doca_dma_task_memcpy_as_task(task));
			if (ret == DOCA_ERROR_AGAIN)
				doca_pe_progress(ex->pe); /* queue full: let completions drain, then retry */
		} while (ret == DOCA_ERROR_AGAIN);
		if (ret != DOCA_SUCCESS) {
			DOCA_LOG_ERR("submit failed: %s", doca_error_get_descr(ret));
			return ret;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t example_dma_verify(const struct example_dma *ex)
{
	size_t total = ex->len * (size_t)ex->num_tasks;

	if (ex->failed != 0 || memcmp(ex->src, ex->dst, total) != 0) {
		DOCA_LOG_ERR("destination differs from source (%d task(s) failed)", ex->failed);
		return DOCA_ERROR_UNEXPECTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t example_dma_teardown(struct example_dma *ex)
{
	doca_error_t ret = DOCA_SUCCESS, r;

	if (ex->ctx != NULL && doca_ctx_stop(ex->ctx) == DOCA_ERROR_IN_PROGRESS)
		while (!ex->stopped)
			doca_pe_progress(ex->pe);
	if (ex->dma != NULL && (r = doca_dma_destroy(ex->dma)) != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(ret, r);
	if (ex->pe != NULL && (r = doca_pe_destroy(ex->pe)) != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(ret, r);
	if (ex->inv != NULL && (r = doca_buf_inventory_destroy(ex->inv)) != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(ret, r);
	if (ex->src_mmap != NULL && (r = doca_mmap_destroy(ex->src_mmap)) != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(ret, r);
	if (ex->dst_mmap != NULL && (r = doca_mmap_destroy(ex->dst_mmap)) != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(ret, r);
	if (ex->dev != NULL && (r = doca_dev_close(ex->dev)) != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(ret, r);
	free(ex->src);
	free(ex->dst);
	memset(ex, 0, sizeof(*ex));
	return ret;
}
