/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * host.c - the host's role (the Comch client): START, exports its staging ring, keeps the ring
 * going while the DPU side moves the bytes (reads the file in or writes it out), then compares
 * the checksums (DONE, RESULT) and, when it sent the file, waits for LANDED. See dma_copy.h for
 * the protocol, app.h for the states.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

static doca_error_t export_local(struct app *app, struct msg_export *exp, uint32_t cap, uint32_t *len)
{
	const void *desc;
	size_t desc_len;
	uint32_t access = app->file_on_host ? DOCA_ACCESS_FLAG_PCI_READ_ONLY : DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	doca_error_t ret;

	uint64_t ring = 4096;

	*exp = (struct msg_export){.hdr = {DMA_COPY_MAGIC, MSG_EXPORT, DMA_COPY_VERSION}};
	*len = sizeof(*exp);
	if (app->size == 0)
		return DOCA_SUCCESS;
	/* The host exports its staging ring (read-only when it sends the file): the smallest power
	 * of two that holds the file, HOST_RING at most. */
	while (ring < app->size && ring < HOST_RING)
		ring *= 2;
	ret = stage_alloc(app, ring);
	if (ret != DOCA_SUCCESS)
		return ret;
	app->msg_step = ring / MSG_STEPS;
	ret = doca_mmap_create(&app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(app->local_mmap, app->stage, app->stage_len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(app->local_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | access);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(app->local_mmap, app->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_export_pci(app->local_mmap, app->dev, &desc, &desc_len);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (sizeof(*exp) + desc_len > cap) {
		LOG_ERR("the export descriptor (%zu bytes) does not fit a Comch message of %u bytes", desc_len, cap);
		return DOCA_ERROR_TOO_BIG;
	}
	exp->addr = (uint64_t)(uintptr_t)app->stage;
	exp->len = app->stage_len;
	exp->desc_len = (uint32_t)desc_len;
	memcpy(exp->desc, desc, desc_len);
	*len = (uint32_t)(sizeof(*exp) + desc_len);
	return DOCA_SUCCESS;
}

doca_error_t run_host(struct app *app)
{
	union {
		struct msg_start start;
		struct msg_status status;
		struct msg_export exp;
		uint8_t raw[65536];
	} *m = malloc(sizeof(*m));
	struct msg_start start;
	char why[300];
	uint32_t len;
	double t0 = now_s();
	doca_error_t ret;

	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	app->file_on_host = access(app->file, F_OK) == 0;
	if (app->file_on_host) {
		ret = open_source(&app->fm, app->file);
		if (ret != DOCA_SUCCESS) {
			/* The DPU side waits for START: tell it why none comes, instead of vanishing. */
			ret = app_fail(app, ret, DC_CAUSE_LOCAL, "the host cannot read %.180s: %.80s", app->file,
				       app->fm.why);
			send_failure(app, MSG_ERROR, true);
			goto out;
		}
		app->size = app->fm.size;
	}
	start = (struct msg_start){
	    .hdr = {DMA_COPY_MAGIC, MSG_START, DMA_COPY_VERSION}, .file_on_host = app->file_on_host, .size = app->size};
	ret = send_msg(app, &start, sizeof(start));
	if (ret == DOCA_SUCCESS)
		ret = wait_msg(app, m, sizeof(*m), &len, false);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_START)) {
		ret = peer_error(app, m, len);
		goto out;
	}
	if (!app->file_on_host) {
		app->size = m->start.size;
		ret = check_dest(app->file, app->size, app->force, why, sizeof(why));
		if (ret == DOCA_SUCCESS)
			ret = open_dest(&app->fm, app->file, app->size, app->force, why, sizeof(why));
		if (ret != DOCA_SUCCESS) {
			LOG_ERR("%s", why);
			ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", why);
			send_failure(app, MSG_ERROR, false);
			goto out;
		}
	}
	app_set_state(app, DC_NEGOTIATED);
	ret = export_local(app, &m->exp, app->max_msg, &len);
	if (ret != DOCA_SUCCESS) {
		ret = app_fail(app, ret, DC_CAUSE_LOCAL, "the host cannot export its memory");
		send_failure(app, MSG_ERROR, false);
		goto out;
	}
	ret = send_msg(app, &m->exp, len);
	if (ret != DOCA_SUCCESS)
		goto out;
	app_set_state(app, DC_COPYING);
	/* The DPU moves the bytes; this side keeps its ring going (however long the file takes) and
	 * shows how far the DPU says it is: a sending host reads its file into the ring where the
	 * DPU has taken the bytes out (host_fill_step(), in wait_msg()), a receiving one writes out
	 * what the DPU reports landed. Each folds its checksum as the bytes pass. */
	clock_gettime(CLOCK_MONOTONIC, &app->t_start);
	for (;;) {
		ret = wait_msg(app, m, sizeof(*m), &len, true);
		if (ret != DOCA_SUCCESS || !msg_is(m, len, MSG_PROGRESS))
			break;
		app->done_bytes = m->status.bytes <= app->size ? m->status.bytes : app->size;
		/* Write out what landed in the ring and hand the room back; a write that fails
		 * stops both sides now (the DPU side is waiting for room). */
		if (app->fm.is_dest && !stage_drain(app, app->done_bytes)) {
			ret = app->fail.err; /* recorded by stage_drain() */
			send_failure(app, MSG_ERROR, true);
			goto out;
		}
		send_credit(app, false);
		progress_bar(app, false);
	}
	if (ret == DOCA_ERROR_IO_FAILED && app->file_shrank) {
		/* The file ended before its size: the DPU side waits for the rest, tell it why. */
		(void)shrink_status(app, why, sizeof(why));
		ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", why);
		send_failure(app, MSG_ERROR, true);
		goto out;
	}
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_DONE)) {
		ret = peer_error(app, m, len);
		goto out;
	}
	app_set_state(app, DC_VERIFYING);
	app->done_bytes = app->size;
	if (app->fm.is_dest && !stage_drain(app, app->size)) {
		ret = app->fail.err; /* recorded by stage_drain() */
		send_failure(app, MSG_RESULT, true);
		goto out;
	}
	if (app->size > 0)
		progress_bar(app, true);
	app->checksum = dc_sum_final(&app->sum); /* every byte passed through the ring */
	ret = shrink_status(app, why, sizeof(why));
	if (ret != DOCA_SUCCESS) {
		ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", why);
		send_failure(app, MSG_RESULT, false);
		goto out;
	}
	if (app->checksum != m->status.checksum) {
		LOG_ERR("checksum mismatch: the file on the DPU side has %016" PRIx64 ", this side's %016" PRIx64,
			(uint64_t)m->status.checksum, app->checksum);
		ret = app_fail(app, DOCA_ERROR_UNEXPECTED, DC_CAUSE_LOCAL, "checksum mismatch on the host side");
		send_failure(app, MSG_RESULT, false);
		goto out;
	}
	app->done_bytes = app->size;
	if (app->fm.is_dest) {
		ret = commit_dest(&app->fm);
		if (ret != DOCA_SUCCESS) {
			ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", app->fm.why);
			send_failure(app, MSG_RESULT, true);
			goto out;
		}
		app_set_state(app, DC_DONE); /* in place: the DPU side hears it next */
	}
	send_status_flush(app, MSG_RESULT, DOCA_SUCCESS, NULL);
	if (!app->fm.is_dest) {
		/* The host sent the file: it succeeds only once the DPU side put it in place. */
		ret = wait_msg(app, m, sizeof(*m), &len, false);
		if (ret == DOCA_ERROR_CONNECTION_RESET) {
			LOG_ERR("the DPU side went away before confirming that the copy of %s landed there", app->file);
			ret = app_fail(app, DOCA_ERROR_IO_FAILED, DC_CAUSE_PEER,
				       "the DPU side went away before confirming that the copy landed there");
		} else if (ret == DOCA_SUCCESS && !msg_is(m, len, MSG_LANDED)) {
			ret = peer_error(app, m, len);
		} else if (ret == DOCA_SUCCESS && m->status.status != DOCA_SUCCESS) {
			LOG_ERR("the DPU side reports: %s", m->status.text);
			ret = app_fail(app, (doca_error_t)m->status.status, DC_CAUSE_PEER, "the DPU side reports: %s",
				       m->status.text);
		}
		if (ret == DOCA_SUCCESS)
			app_set_state(app, DC_DONE); /* LANDED: the copy is in place on the DPU side */
	}
	if (ret == DOCA_SUCCESS)
		summary(app, now_s() - t0, app->file_on_host ? "host -> DPU" : "DPU -> host");
out:
	if (ret == DOCA_ERROR_CONNECTION_RESET)
		LOG_ERR("the DPU side went away before the copy finished");
	/* The DPU side's DMA failing on this side's file: say so if it shrank under the copy. */
	if (ret != DOCA_SUCCESS && app->fm.fd >= 0 && !app->fm.is_dest && app->size > 0)
		(void)shrink_status(app, why, sizeof(why));
	free(m);
	return ret;
}
