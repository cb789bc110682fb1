/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * credit.c - the words that keep the two rings going while the bytes move: PROGRESS (DPU side:
 * how much of the file has landed), CREDIT (a receiving host: how much it wrote out of its ring)
 * and FILLED (a sending host: how much it read into it). One of each kind in flight at most,
 * each a quarter of the host's ring at least unless the side is about to sleep (dma_copy.h).
 */
#include <string.h>

#include "app.h"

/* Whether a message that moves the ring from @sent to @pos is worth waking the other side for
 * now: a step of msg_step at least, the end of the file, or @flush (this side is about to sleep). */
static bool msg_due(const struct app *app, uint64_t pos, uint64_t sent, bool flush)
{
	return flush || pos - sent >= app->msg_step || pos >= app->size;
}

/* DPU side: tells the host how much of the file has landed (PROGRESS); its bar moves with it.
 * @flush: this side is about to sleep, so even a small step goes now. */
void report_progress(struct app *app, bool flush)
{
	struct doca_comch_task_send *task;
	struct msg_status m;
	union doca_data ud = {.u64 = PROGRESS_TASK};

	/* Never more than one in flight: a slow link skips reports instead of filling the send queue.
	 * The host hears of landed chunks a quarter of its ring at a time, and of all of them before
	 * this side sleeps: a receiving host writes out its ring behind these, a sending one refills
	 * its ring where they say the DMA has taken the bytes out. */
	if (app->progress_inflight || app->conn == NULL || app->done_bytes == app->reported)
		return;
	if (!msg_due(app, app->done_bytes, app->reported, flush))
		return;
	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, MSG_PROGRESS, DMA_COPY_VERSION};
	m.bytes = app->done_bytes;
	if (doca_comch_server_task_send_alloc_init(app->server, app->conn, &m, sizeof(m), &task) != DOCA_SUCCESS)
		return; /* the send queue is full: the next call tries again */
	doca_task_set_user_data(doca_comch_task_send_as_task(task), ud);
	if (doca_task_submit(doca_comch_task_send_as_task(task)) != DOCA_SUCCESS) {
		doca_task_free(doca_comch_task_send_as_task(task));
		return;
	}
	app->progress_inflight = true;
	app->reported = m.bytes;
	(void)seq_note(app, false, &m, sizeof(m));
}

/*
 * A host's word on its ring: a receiving host tells the DPU side how much of the file it has
 * written out of it (CREDIT: the DPU may fill that room again), a sending host how much it has
 * read into it (FILLED: the DPU may take that much out). One in flight; its completion sends the
 * next, and so does every turn of wait_msg(), should the send queue have been full.
 */
void send_credit(struct app *app, bool flush)
{
	struct doca_comch_task_send *task;
	struct msg_status m;

	if (ROLE_DPU || app->credit_inflight || app->conn == NULL || app->written == app->credit_sent)
		return;
	if (!msg_due(app, app->written, app->credit_sent, flush))
		return;
	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, app->fm.is_dest ? MSG_CREDIT : MSG_FILLED, DMA_COPY_VERSION};
	m.bytes = app->written;
	if (doca_comch_client_task_send_alloc_init(app->client, app->conn, &m, sizeof(m), &task) != DOCA_SUCCESS)
		return;
	doca_task_set_user_data(doca_comch_task_send_as_task(task), (union doca_data){.u64 = CREDIT_TASK});
	if (doca_task_submit(doca_comch_task_send_as_task(task)) != DOCA_SUCCESS) {
		doca_task_free(doca_comch_task_send_as_task(task));
		return;
	}
	app->credit_inflight = true;
	app->credit_sent = m.bytes;
	(void)seq_note(app, false, &m, sizeof(m));
}

/* A source about to wait for its disk: the word it holds back goes now (FILLED from a host,
 * PROGRESS from the DPU side), so that the other side is not kept waiting for bytes already in. */
void flush_before_block(struct app *app)
{
	if (ROLE_DPU)
		report_progress(app, true);
	else
		send_credit(app, true);
}
