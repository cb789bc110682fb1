/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * window.c - doca_dma_copy's DMA window (DPU side): the host's exported ring imported, a ring of
 * this side's own, and chunks between them, INFLIGHT at most past the prefix that has landed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_ctx.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

/*
 * A chunk landed. done_bytes is the prefix of the file that is complete: chunks may complete
 * in any order within the window in flight (tud: the chunk's offset). A destination writes it
 * out in dma_run(), after the progress call that delivered this, not here.
 */
static void dma_ok(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;

	app->landed[(tud.u64 / app->chunk) % INFLIGHT] = true;
	while (app->done_bytes < app->size && app->landed[(app->done_bytes / app->chunk) % INFLIGHT]) {
		uint64_t left = app->size - app->done_bytes;

		app->landed[(app->done_bytes / app->chunk) % INFLIGHT] = false;
		app->done_bytes += left < app->chunk ? left : app->chunk;
	}
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(task), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(task), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	app->inflight--;
}

static void dma_err(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;
	doca_error_t st = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)tud;
	if (app->dma_error == DOCA_SUCCESS && !app->stopping) {
		app->dma_error = st;
		LOG_ERR("DMA of the file failed: %s", doca_error_get_descr(st));
	}
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(task), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(task), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	app->inflight--;
}

doca_error_t dma_setup(struct app *app, const struct msg_export *exp)
{
	union doca_data ud = {.ptr = app};
	uint64_t max_size = 0;
	doca_error_t ret;

	ret = doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(app->dev), &max_size);
	if (ret != DOCA_SUCCESS)
		return ret;
	/* A power of two, so that a chunk never wraps a ring (the host's is a power of two too). */
	for (app->chunk = STAGE_CHUNK; app->chunk > max_size && app->chunk > 1;)
		app->chunk /= 2;
	app->ring_len = exp->len;
	app->msg_step = app->ring_len / MSG_STEPS;
	if (app->chunk > app->ring_len)
		app->chunk = app->ring_len;
	/* The staging ring: INFLIGHT chunks that stay in the cache. */
	ret = stage_alloc(app, INFLIGHT * app->chunk);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_mmap_create_from_export(NULL, exp->desc, exp->desc_len, app->dev, &app->remote_mmap);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_mmap_create(&app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(app->local_mmap, app->stage, app->stage_len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(app->local_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(app->local_mmap, app->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(2 * INFLIGHT, &app->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(app->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(app->dev, &app->dma);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_pe_connect_ctx(app->pe, doca_dma_as_ctx(app->dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_set_conf(app->dma, dma_ok, dma_err, INFLIGHT);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_dma_as_ctx(app->dma), ud);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_dma_as_ctx(app->dma));
	return ret;
}

/*
 * Submits DMA jobs for every chunk that has room in this side's ring (its bytes are out:
 * written to the file by a destination, landed in the host's ring from a source) and in the
 * host's (FILLED, CREDIT), until INFLIGHT fly or the engine is full.
 */
static doca_error_t dma_submit_room(struct app *app, uint64_t remote_addr)
{
	uint64_t out = app->fm.is_dest ? app->written : app->done_bytes;
	doca_error_t ret;

	while (app->next_off < app->size && app->next_off < out + app->stage_len && app->dma_error == DOCA_SUCCESS) {
		uint64_t len = app->size - app->next_off < app->chunk ? app->size - app->next_off : app->chunk;
		uint8_t *local = app->stage + app->next_off % app->stage_len;
		struct doca_buf *src, *dst;
		struct doca_dma_task_memcpy *task;
		union doca_data tud = {.u64 = app->next_off};

		void *remote = (void *)(uintptr_t)(remote_addr + app->next_off % app->ring_len);

		if (app->file_on_host) {
			if (app->next_off + len > app->credit)
				break; /* not in the host's ring yet: wait for its FILLED */
			ret = doca_buf_inventory_buf_get_by_data(app->inv, app->remote_mmap, remote, len, &src);
			if (ret == DOCA_SUCCESS)
				ret = doca_buf_inventory_buf_get_by_addr(app->inv, app->local_mmap, local, len, &dst);
		} else {
			if (app->next_off + len > app->credit + app->ring_len)
				break; /* the host's ring is full: wait for its CREDIT */
			if (!stage_fill(app, app->next_off, len))
				break;
			ret = doca_buf_inventory_buf_get_by_data(app->inv, app->local_mmap, local, len, &src);
			if (ret == DOCA_SUCCESS)
				ret = doca_buf_inventory_buf_get_by_addr(app->inv, app->remote_mmap, remote, len, &dst);
		}
		if (ret != DOCA_SUCCESS)
			return ret;
		ret = doca_dma_task_memcpy_alloc_init(app->dma, src, dst, tud, &task);
		if (ret == DOCA_SUCCESS) {
			ret = doca_task_submit(doca_dma_task_memcpy_as_task(task));
			if (ret != DOCA_SUCCESS) /* a task that was never allocated is not freed */
				doca_task_free(doca_dma_task_memcpy_as_task(task));
		}
		if (ret != DOCA_SUCCESS) {
			doca_buf_dec_refcount(src, NULL);
			doca_buf_dec_refcount(dst, NULL);
			if (ret == DOCA_ERROR_AGAIN)
				break; /* the engine is full: retry after the next completions */
			return ret;
		}
		app->inflight++;
		app->next_off += len;
	}
	return DOCA_SUCCESS;
}

/*
 * Whether the other side said why it stops. A side that stops sends an ERROR naming the cause
 * and then goes away; its leaving (a send that fails, a DMA into memory it no longer exports)
 * can be seen here before that ERROR is read. Reads what is still coming, until the
 * connection's end is seen or for at most 100 ms; true with the ERROR first in the inbox.
 */
static bool peer_said_why(struct app *app)
{
	double deadline = now_s() + 0.1;

	while (app->inbox_count == 0 && !(ROLE_DPU && app->conn == NULL) && now_s() < deadline)
		if (doca_pe_progress(app->pe) == 0)
			pe_wait(app, 10);
	return app->inbox_count > 0;
}

/* The host stopped the copy and said why (the first message in the inbox): that is the cause
 * (peer_error() records it). */
static doca_error_t peer_stopped(struct app *app)
{
	return peer_error(app, app->inbox[app->inbox_head], app->inbox_len[app->inbox_head]);
}

/*
 * Moves the whole file in chunks between the host's ring and this side's, at most INFLIGHT of
 * them at a time past the landed prefix. Host -> DPU: each chunk the host has read into its
 * ring (FILLED) lands in this side's ring and is written out as the prefix completes (dma_ok);
 * PROGRESS tells the host where it may refill. DPU -> host: each chunk is read into this side's
 * ring and folded just before its DMA into the host's ring, which the host writes out, telling
 * how far (CREDIT); the DMA never runs more than that ring ahead. The queue is refilled on every
 * completion, so the engine never drains while data remains.
 */
doca_error_t dma_run(struct app *app, uint64_t remote_addr)
{
	doca_error_t ret;

	clock_gettime(CLOCK_MONOTONIC, &app->t_start);
	while (
	    (app->next_off < app->size || app->inflight > 0 || (app->fm.is_dest && app->written < app->done_bytes)) &&
	    app->dma_error == DOCA_SUCCESS && !app->file_shrank) {
		ret = dma_submit_room(app, remote_addr);
		if (ret != DOCA_SUCCESS)
			return ret;
		int got = doca_pe_progress(app->pe);

		/* The host hears what landed, a quarter of its ring at a time (it refills or writes
		 * out its ring behind it). */
		report_progress(app, false);
		if (app->fm.is_dest && app->written < app->done_bytes) {
			/*
			 * Everything that landed goes into the file now, a chunk a write, and the room
			 * each write frees is refilled at once: an engine that copies inside
			 * doca_pe_progress() then takes the refills together at the next turn, one that
			 * copies on another core starts on them meanwhile. A DMA that waits for the
			 * host's FILLED takes a look at the progress engine between writes; what lands
			 * then is written at the next turn, after the checks below.
			 */
			uint64_t end = app->done_bytes;

			while (app->written < end && app->dma_error == DOCA_SUCCESS) {
				uint64_t upto = app->written + app->chunk;

				if (!stage_drain(app, upto < end ? upto : end)) {
					app->dma_error = app->write_error; /* stops the copy: returned below */
					break;
				}
				ret = dma_submit_room(app, remote_addr);
				if (ret != DOCA_SUCCESS)
					return ret;
				if (app->file_on_host && app->next_off < app->size &&
				    app->next_off + app->chunk > app->credit) {
					doca_pe_progress(app->pe);
					report_progress(app, false);
				}
			}
		} else if (got == 0) {
			/* Nothing completed: sleep until something does (a completion, a CREDIT, FILLED),
			 * the host told of everything that landed first. */
			report_progress(app, true);
			pe_wait(app, 10);
		}
		progress_bar(app, false);
		if (interrupted)
			return DOCA_ERROR_SHUTDOWN;
		if (app->seq_broken)
			return DOCA_ERROR_UNEXPECTED; /* logged by seq_note() */
		/* The host says nothing during the DMA but CREDIT (taken in msg_recv), unless it
		 * stops: a receiving host that could not write its file. */
		if (app->inbox_count > 0)
			return peer_stopped(app);
		if (app->peer_gone && app->inflight == 0 && app->next_off < app->size)
			return peer_said_why(app) ? peer_stopped(app) : DOCA_ERROR_CONNECTION_RESET;
	}
	progress_bar(app, true);
	/* A DMA that failed because the host stopped exporting its ring: the host said why. */
	if (app->dma_error != DOCA_SUCCESS && app->write_error == DOCA_SUCCESS && peer_said_why(app))
		return peer_stopped(app);
	return app->dma_error;
}
