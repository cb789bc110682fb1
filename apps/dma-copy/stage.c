/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stage.c - doca_dma_copy's staging ring, on either side: the bytes of the file pass through it
 * in the cache, read in and folded by a source (stage_fill; a sending host: host_fill_step),
 * written out and folded by a destination (stage_drain).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

#define HUGE_PAGE (2ull << 20)

/*
 * The staging ring, @len bytes of page-aligned memory made present now (torn down in
 * teardown()). A ring of whole 2 MiB pages is aligned to them and asked for transparent huge
 * pages: every copy through it (the file's, the DMA's) then misses the TLB once per 2 MiB
 * instead of once per 4 KiB.
 */
doca_error_t stage_alloc(struct app *app, uint64_t len)
{
	uint64_t extra = len % HUGE_PAGE == 0 ? HUGE_PAGE : 0;
	uint8_t *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | (extra == 0 ? MAP_POPULATE : 0), -1, 0);

	if (p == MAP_FAILED) {
		LOG_ERR("cannot allocate the %" PRIu64 " bytes of the staging ring: %s", len, strerror(errno));
		return DOCA_ERROR_NO_MEMORY;
	}
	if (extra != 0) {
		uint64_t lead = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;

		if (lead != 0)
			munmap(p, lead);
		if (extra - lead != 0)
			munmap(p + lead + len, extra - lead);
		p += lead;
		(void)madvise(p, len, MADV_HUGEPAGE); /* a hint: 4 KiB pages work too */
		memset(p, 0, len);		      /* present now, not at the first copy */
	}
	app->stage = p;
	app->stage_len = len;
	return DOCA_SUCCESS;
}

/*
 * A destination: the bytes of the staging ring up to @upto that are not written yet, in order,
 * into the file and then into the checksum. Their room in the ring is free after. False once a
 * write failed (logged, and recorded by app_fail(); @app->write_error says how). The bytes were
 * put in the ring by the engine, on another core: the kernel's copy in pwrite() fetches them
 * from there faster than the fold's loads do, and leaves them in this core's cache for the fold
 * (2 GiB host -> DPU, sixteen copies of each order alternated: 422 ms median against 469 ms
 * with the fold first).
 */
bool stage_drain(struct app *app, uint64_t upto)
{
	while (app->written < upto && app->write_error == DOCA_SUCCESS) {
		uint64_t at = app->written % app->stage_len;
		uint64_t len = upto - app->written;
		const uint8_t *p = app->stage + at;

		if (len > app->stage_len - at)
			len = app->stage_len - at;
		if (len > STAGE_CHUNK)
			len = STAGE_CHUNK;
		if (!write_full(app->fm.fd, p, len, app->written)) {
			int err = errno;

			LOG_ERR("cannot write %s at byte %" PRIu64 ": %s", app->fm.tmp, app->written, strerror(err));
			app->write_error =
			    err == ENOSPC || err == EDQUOT || err == EFBIG ? DOCA_ERROR_FULL : DOCA_ERROR_IO_FAILED;
			(void)app_fail(app, app->write_error, DC_CAUSE_LOCAL,
				       "cannot write %.200s on the %s side: %.60s", app->fm.path,
				       ROLE_DPU ? "DPU" : "host", strerror(err));
			break;
		}
		dc_sum_update(&app->sum, p, len);
		app->sum_pos += len;
		app->written += len;
		if (!ROLE_DPU) {
			/* A receiving host hands the room back piece by piece, so that the DPU refills
			 * the ring while this side writes the rest (never called from a callback here). */
			send_credit(app, false);
			doca_pe_progress(app->pe);
		}
	}
	return app->write_error == DOCA_SUCCESS;
}

/*
 * A source: reads the piece at @off into its place in the staging ring and folds it into the
 * checksum there (in the cache), once: a chunk the engine refused is not read again.
 */
bool stage_fill(struct app *app, uint64_t off, uint64_t len)
{
	if (app->sum_pos >= off + len)
		return true;
	if (!read_full(app, app->stage + off % app->stage_len, len, off))
		return false;
	dc_sum_update(&app->sum, app->stage + off % app->stage_len, len);
	app->sum_pos = off + len;
	return true;
}

/*
 * A sending host, between two looks at the progress engine: reads the next piece of its file
 * into its ring, where the DPU side's DMA has taken the bytes out already (PROGRESS), and says
 * how far the ring is filled (FILLED). False when there is nothing to do: the file is all in,
 * the ring is full, or the file ended early (file_shrank: wait_msg() stops).
 */
bool host_fill_step(struct app *app)
{
	uint64_t off = app->written, len = app->size - off, room = app->done_bytes + app->stage_len - off;

	if (ROLE_DPU || app->fm.is_dest || app->stage == NULL || off >= app->size || app->file_shrank ||
	    off >= app->done_bytes + app->stage_len)
		return false;
	if (len > STAGE_CHUNK)
		len = STAGE_CHUNK;
	if (len > app->stage_len - off % app->stage_len)
		len = app->stage_len - off % app->stage_len; /* never across the ring's end */
	if (len > room)
		len = room;
	if (!stage_fill(app, off, len))
		return false;
	app->written = off + len;
	send_credit(app, false);
	return true;
}
