/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpu.c - the DPU side's role (the Comch server): answers the host's START, imports the host's
 * ring and moves the bytes with the DMA (window.c), then DONE, RESULT and, when it received the
 * file, LANDED. See dma_copy.h for the protocol, app.h for the states.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

doca_error_t run_dpu(struct app *app)
{
	union {
		struct msg_start start;
		struct msg_status status;
		uint8_t raw[65536];
	} *m = malloc(sizeof(*m));
	struct msg_start reply;
	char why[300];
	uint32_t len;
	double t0;
	doca_error_t ret;

	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = wait_msg(app, m, sizeof(*m), &len, true);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_START)) {
		ret = peer_error(app, m, len);
		goto out;
	}
	app->file_on_host = m->start.file_on_host;
	if (app->file_on_host) {
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
	} else {
		if (access(app->file, R_OK) != 0) {
			if (errno == ENOENT)
				snprintf(why, sizeof(why),
					 "no file to copy: the host's -f names no file, and %.200s does not exist on "
					 "the DPU side",
					 app->file);
			else
				snprintf(why, sizeof(why),
					 "the host's -f names no file, and the DPU side cannot read %.200s: %s",
					 app->file, strerror(errno));
			LOG_ERR("%s", why);
			ret = app_fail(app, DOCA_ERROR_NOT_FOUND, DC_CAUSE_LOCAL, "%s", why);
			send_failure(app, MSG_ERROR, false);
			goto out;
		}
		ret = open_source(&app->fm, app->file);
		if (ret != DOCA_SUCCESS) {
			ret = app_fail(app, ret, DC_CAUSE_LOCAL, "cannot read the file on the DPU side");
			send_failure(app, MSG_ERROR, false);
			goto out;
		}
		app->size = app->fm.size; /* read into the ring and folded there as the DMA goes (stage_fill) */
	}
	reply = (struct msg_start){
	    .hdr = {DMA_COPY_MAGIC, MSG_START, DMA_COPY_VERSION}, .file_on_host = app->file_on_host, .size = app->size};
	ret = send_msg(app, &reply, sizeof(reply));
	if (ret != DOCA_SUCCESS)
		goto out;
	app_set_state(app, DC_NEGOTIATED);
	ret = wait_msg(app, m, sizeof(*m), &len, false);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_EXPORT)) {
		ret = peer_error(app, m, len);
		goto out;
	}
	app_set_state(app, DC_COPYING);
	t0 = now_s();
	if (app->size > 0) {
		const struct msg_export *exp = (const struct msg_export *)m;

		if (exp->len == 0 || (exp->len & (exp->len - 1)) != 0) {
			LOG_ERR("the host's ring of %" PRIu64 " bytes is not a power of two", (uint64_t)exp->len);
			ret = app_fail(app, DOCA_ERROR_INVALID_VALUE, DC_CAUSE_PEER,
				       "the exported ring's length is not a power of two");
			send_failure(app, MSG_ERROR, false);
			goto out;
		}
		double t1;

		ret = dma_setup(app, exp);
		t1 = now_s();
		if (ret == DOCA_SUCCESS)
			ret = dma_run(app, exp->addr);
		LOG_DBG("set-up %.3f s, DMA %.3f s (%.2f GB/s)", t1 - t0, now_s() - t1,
			(double)app->size / (now_s() - t1) / 1e9);
		if (ret == DOCA_SUCCESS && app->file_shrank)
			ret = DOCA_ERROR_IO_FAILED;
		if (ret != DOCA_SUCCESS) {
			/* What stopped the copy: the cause recorded already (the host's word, recorded by
			 * peer_stopped(); a write that failed, by stage_drain()), or else the first of these. */
			bool host_said = app->fail.cause == DC_CAUSE_PEER;

			if (app->fail.err != DOCA_SUCCESS)
				ret = app->fail.err;
			else if (app->seq_broken)
				ret =
				    app_fail(app, ret, DC_CAUSE_PROTOCOL, "the protocol was broken: %s", app->seq_why);
			else if (ret == DOCA_ERROR_SHUTDOWN && interrupted)
				ret = app_fail(app, ret, DC_CAUSE_SIGNAL, "%s", interrupted_why());
			else if (shrink_status(app, why, sizeof(why)) != DOCA_SUCCESS)
				ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", why);
			else
				ret = app_fail(app, ret, DC_CAUSE_LOCAL, "DMA on the DPU side failed: %.200s",
					       doca_error_get_descr(ret));
			if (!host_said) /* the host knows why: it said so */
				send_failure(app, MSG_ERROR, false);
			goto out;
		}
	}
	/* This side's checksum, folded during the DMA; the host compares it with its own and sends
	 * that back in RESULT, which this side checks too. */
	app->checksum = dc_sum_final(&app->sum); /* every byte passed through the ring */
	ret = shrink_status(app, why, sizeof(why));
	if (ret != DOCA_SUCCESS) {
		ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", why);
		send_failure(app, MSG_ERROR, false);
		goto out;
	}
	app_set_state(app, DC_VERIFYING);
	app->done_bytes = app->size;
	LOG_DBG("DMA done, checksum folded at %.3f s", now_s() - t0);
	send_status(app, MSG_DONE, DOCA_SUCCESS, NULL);
	ret = wait_msg(app, m, sizeof(*m), &len, false);
	LOG_DBG("host answered at %.3f s", now_s() - t0);
	if (ret == DOCA_SUCCESS && !msg_is(m, len, MSG_RESULT))
		ret = peer_error(app, m, len);
	if (ret == DOCA_SUCCESS && m->status.status != DOCA_SUCCESS) {
		LOG_ERR("the host reports: %s", m->status.text);
		ret = app_fail(app, (doca_error_t)m->status.status, DC_CAUSE_PEER, "the host reports: %s",
			       m->status.text);
	}
	if (ret == DOCA_SUCCESS && m->status.checksum != app->checksum) {
		LOG_ERR("checksum mismatch: the host's file has %016" PRIx64 ", this side's %016" PRIx64,
			(uint64_t)m->status.checksum, app->checksum);
		ret = app_fail(app, DOCA_ERROR_UNEXPECTED, DC_CAUSE_LOCAL, "checksum mismatch on the DPU side");
		if (app->fm.is_dest)
			send_failure(app, MSG_LANDED, false);
	}
	if (ret == DOCA_SUCCESS && app->fm.is_dest) {
		/* Success means the file landed: the sending host waits for this answer. */
		ret = commit_dest(&app->fm);
		if (ret == DOCA_SUCCESS) {
			app_set_state(app, DC_DONE);
			send_status_flush(app, MSG_LANDED, ret, NULL);
		} else {
			ret = app_fail(app, ret, DC_CAUSE_LOCAL, "%s", app->fm.why);
			send_failure(app, MSG_LANDED, true);
		}
	}
	if (ret == DOCA_SUCCESS) {
		if (!app->fm.is_dest)
			app_set_state(app, DC_DONE); /* the host's RESULT: its copy is in place */
		summary(app, now_s() - t0, app->file_on_host ? "host -> DPU" : "DPU -> host");
	}
out:
	if (ret == DOCA_ERROR_CONNECTION_RESET)
		LOG_ERR("the host went away before the copy finished");
	free(m);
	return ret;
}
