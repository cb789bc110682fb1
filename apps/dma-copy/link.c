/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * link.c - doca_dma_copy's Comch link: the device, the connection (the DPU side is the server,
 * the host the client), messages out (send_msg, one PROGRESS and one CREDIT or FILLED in flight
 * at most) and in (copied into the inbox by the receive callback; CREDIT and FILLED taken there
 * at once), every one of them through the session's order (seq.c).
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_ctx.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

/*
 * Sleeps until the progress engine has something (a completion, a Comch message) or @ms pass.
 * Sleeping instead of spinning leaves the cores to the copy: the engine's worker thread, the
 * other side, the file system.
 */
void pe_wait(struct app *app, int ms)
{
	struct pollfd p = {.fd = app->pe_fd, .events = POLLIN};

	if (app->pe_fd < 0 || doca_pe_request_notification(app->pe) != DOCA_SUCCESS) {
		usleep(200);
		return;
	}
	(void)poll(&p, 1, ms);
	(void)doca_pe_clear_notification(app->pe, app->pe_fd);
}

/* A send of kind @kind (its task user data) is over, sent or failed: it is no longer in flight. */
static void send_settled(struct app *app, uint64_t kind)
{
	if (kind == MSG_TASK)
		app->sends_inflight--;
	else if (kind == PROGRESS_TASK)
		app->progress_inflight = false;
	else if (kind == CREDIT_TASK)
		app->credit_inflight = false;
}

static void send_done(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;

	send_settled(app, tud.u64);
	doca_task_free(doca_comch_task_send_as_task(task));
	if (tud.u64 == CREDIT_TASK && !app->stopping)
		send_credit(app, false); /* what was written while this one was out */
}

static void send_failed(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;

	send_settled(app, tud.u64);
	LOG_ERR("a message to the other side failed: %s",
		doca_error_get_descr(doca_task_get_status(doca_comch_task_send_as_task(task))));
	doca_task_free(doca_comch_task_send_as_task(task));
	app->peer_gone = true;
}

/*
 * A message this side sends (@from_peer false) or receives, through the session's order; false
 * once the order is broken: the copy stops, and the first break is logged (one line). A
 * malformed message is left to the checks of its reader (peer_error() names it).
 */
bool seq_note(struct app *app, bool from_peer, const void *msg, uint32_t len)
{
	char why[200];

	if (app->seq_broken)
		return false;
	if (dc_seq_step(&app->seq, from_peer, msg, len, why, sizeof(why)) != 0)
		return true;
	{
		char scratch[8]; /* the step refused it: malformed (its reader names it) or out of order */

		if (dc_msg_check(msg, len, scratch, sizeof(scratch)) == 0)
			return true;
	}
	app->seq_broken = true;
	snprintf(app->seq_why, sizeof(app->seq_why), "%s", why);
	LOG_ERR("%s the protocol: %s; the copy stops", from_peer ? "the other side broke" : "this side broke (a bug)",
		why);
	return false;
}

static struct app *g_app; /* the server connect callback has no user data to carry it */
/* User data of a host connection turned away while a copy runs: its messages get ERROR back. */
static int busy_marker;

static void refuse_busy(struct app *app, struct doca_comch_connection *conn)
{
	struct doca_comch_task_send *task;
	struct msg_status m;

	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, MSG_ERROR, DMA_COPY_VERSION};
	m.status = DOCA_ERROR_IN_USE;
	snprintf(m.text, sizeof(m.text),
		 "the DPU side is busy with another host's copy; run this copy again when that one is done");
	if (doca_comch_server_task_send_alloc_init(app->server, conn, &m, sizeof(m), &task) != DOCA_SUCCESS)
		return;
	doca_task_set_user_data(doca_comch_task_send_as_task(task), (union doca_data){.u64 = BUSY_TASK});
	if (doca_task_submit(doca_comch_task_send_as_task(task)) != DOCA_SUCCESS)
		doca_task_free(doca_comch_task_send_as_task(task));
}

static void msg_recv(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
		     struct doca_comch_connection *conn)
{
	struct app *app = doca_comch_connection_get_user_data(conn).ptr;
	int slot;

	(void)event;
	if ((void *)app == (void *)&busy_marker) {
		refuse_busy(g_app, conn);
		return;
	}
	if (app == NULL)
		return;
	if (!seq_note(app, true, buf, len))
		return; /* the main loop sees seq_broken */
	if (ROLE_DPU && (msg_is(buf, len, MSG_CREDIT) || msg_is(buf, len, MSG_FILLED))) {
		/* The host wrote this much of the file out of its ring (the DMA may refill the room),
		 * or read this much of it into its ring (the DMA may take it). */
		uint64_t bytes;

		memcpy(&bytes, buf + offsetof(struct msg_status, bytes), sizeof(bytes));
		if (bytes > app->credit && bytes <= app->size)
			app->credit = bytes;
		return;
	}
	if (app->inbox_count > 0 && msg_is(buf, len, MSG_PROGRESS)) {
		/* Only the latest report counts: reports that piled up while this side was busy (a
		 * write throttled by the page cache can stall it for 200 ms) replace each other. */
		slot = (app->inbox_head + app->inbox_count - 1) % INBOX;
		if (msg_is(app->inbox[slot], app->inbox_len[slot], MSG_PROGRESS)) {
			memcpy(app->inbox[slot], buf, len);
			app->inbox_len[slot] = len;
			return;
		}
	}
	if (app->inbox_count == INBOX || len > app->max_msg) {
		LOG_ERR("unexpected message burst from the other side (%u bytes); stopping", len);
		app->peer_gone = true;
		return;
	}
	slot = (app->inbox_head + app->inbox_count) % INBOX;
	memcpy(app->inbox[slot], buf, len);
	app->inbox_len[slot] = len;
	app->inbox_count++;
}

static void server_connected(struct doca_comch_event_connection_status_changed *event,
			     struct doca_comch_connection *conn, uint8_t ok)
{
	struct app *app = g_app;
	union doca_data ud = {.ptr = app};

	(void)event;
	if (!ok)
		return;
	if (app->conn != NULL) {
		/* One copy at a time: a second host is told so when it speaks (then it leaves). */
		union doca_data busy = {.ptr = &busy_marker};

		doca_comch_connection_set_user_data(conn, busy);
		LOG_WARN("a second host connected while a copy runs; it is told that this side is busy");
		return;
	}
	doca_comch_connection_set_user_data(conn, ud);
	app->conn = conn;
	app->connected = true;
}

static void server_disconnected(struct doca_comch_event_connection_status_changed *event,
				struct doca_comch_connection *conn, uint8_t ok)
{
	struct app *app = g_app;

	(void)event;
	(void)ok;
	if (conn == app->conn) {
		app->conn = NULL;
		app->peer_gone = true;
	}
}

static void comch_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	struct app *app = ud.ptr;

	(void)ctx;
	if (prev == DOCA_CTX_STATE_RUNNING && next != DOCA_CTX_STATE_RUNNING)
		app->peer_gone = true;
	if (prev == DOCA_CTX_STATE_STARTING && next == DOCA_CTX_STATE_IDLE)
		app->peer_gone = true;
}

doca_error_t send_msg(struct app *app, const void *msg, uint32_t len)
{
	struct doca_comch_task_send *task;
	doca_error_t ret;
	double deadline = now_s() + app->timeout_s;

	(void)seq_note(app, false, msg, len); /* before the other side can answer it */
	for (;;) {
		if (app->conn == NULL)
			return DOCA_ERROR_NOT_CONNECTED;
		ret = ROLE_DPU ? doca_comch_server_task_send_alloc_init(app->server, app->conn, msg, len, &task)
			       : doca_comch_client_task_send_alloc_init(app->client, app->conn, msg, len, &task);
		if (ret == DOCA_SUCCESS) {
			doca_task_set_user_data(doca_comch_task_send_as_task(task), (union doca_data){.u64 = MSG_TASK});
			ret = doca_task_submit(doca_comch_task_send_as_task(task));
			if (ret == DOCA_SUCCESS) {
				app->sends_inflight++;
				return DOCA_SUCCESS;
			}
			doca_task_free(doca_comch_task_send_as_task(task));
		}
		if ((ret != DOCA_ERROR_AGAIN && ret != DOCA_ERROR_NO_MEMORY) || now_s() > deadline)
			return ret;
		doca_pe_progress(app->pe);
	}
}

void send_status(struct app *app, uint16_t type, doca_error_t status, const char *text)
{
	struct msg_status m;

	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, type, DMA_COPY_VERSION};
	m.status = status;
	m.bytes = app->done_bytes;
	m.checksum = app->checksum;
	if (text != NULL)
		snprintf(m.text, sizeof(m.text), "%.*s", (int)sizeof(m.text) - 1, text); /* longer text is cut */
	if (type == MSG_ERROR)
		app->fail.told = true;
	(void)send_msg(app, &m, sizeof(m));
}

/* Progresses until every message this side sent has left (at most 1 s, or until the peer is gone). */
void sends_flush(struct app *app)
{
	double deadline = now_s() + 1;

	while ((app->sends_inflight > 0 || app->progress_inflight || app->credit_inflight) && !app->peer_gone &&
	       now_s() < deadline)
		if (doca_pe_progress(app->pe) == 0)
			pe_wait(app, 1);
}

/* send_status(), then progress until every message has left (at most a second), so that none is
 * lost when the connection closes: what the socket took, the other side reads even after that. */
void send_status_flush(struct app *app, uint16_t type, doca_error_t status, const char *text)
{
	send_status(app, type, status, text);
	sends_flush(app);
}

/* Tells the other side why this side's copy failed (the cause app_fail() recorded: its status and
 * its reason) in a message of @type, ERROR, RESULT or LANDED; @flush: send_status_flush(). */
void send_failure(struct app *app, uint16_t type, bool flush)
{
	send_status(app, type, app->fail.err, app->fail.why);
	if (flush)
		sends_flush(app);
}

doca_error_t open_device(struct app *app)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t ret;

	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], app->pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_open(list[i], &app->dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	if (ret == DOCA_ERROR_NOT_FOUND)
		LOG_ERR("no device with PCI address %s (see doca_caps --list-devs)", app->pci);
	if (ret != DOCA_SUCCESS || !ROLE_DPU)
		return ret;

	struct doca_devinfo_rep **reps;

	ret = doca_devinfo_rep_create_list(app->dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_rep_is_equal_pci_addr(reps[i], app->rep_pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_rep_open(reps[i], &app->rep);
			break;
		}
	}
	doca_devinfo_rep_destroy_list(reps);
	if (ret == DOCA_ERROR_NOT_FOUND)
		LOG_ERR("device %s has no representor %s (see doca_caps --list-rep-devs)", app->pci, app->rep_pci);
	return ret;
}

doca_error_t comch_setup(struct app *app)
{
	union doca_data ud = {.ptr = app};
	doca_error_t ret;

	g_app = app;
	ret = doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(app->dev), &app->max_msg);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (app->max_msg < sizeof(struct msg_status) + 64) {
		LOG_ERR("device %s allows Comch messages of %u bytes, too small for DMA Copy", app->pci, app->max_msg);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	for (int i = 0; i < INBOX; i++) {
		app->inbox[i] = malloc(app->max_msg);
		if (app->inbox[i] == NULL)
			return DOCA_ERROR_NO_MEMORY;
	}
	ret = doca_pe_create(&app->pe);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (doca_pe_get_notification_handle(app->pe, &app->pe_fd) != DOCA_SUCCESS)
		app->pe_fd = -1;
	if (ROLE_DPU) {
		ret = doca_comch_server_create(app->dev, app->rep, DMA_COPY_SERVER_NAME, &app->server);
		if (ret != DOCA_SUCCESS)
			return ret;
		app->comch_ctx = doca_comch_server_as_ctx(app->server);
		ret = doca_comch_server_set_max_msg_size(app->server, app->max_msg);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_task_send_set_conf(app->server, send_done, send_failed, 32);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_msg_recv_register(app->server, msg_recv);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_connection_status_changed_register(app->server, server_connected,
											 server_disconnected);
	} else {
		ret = doca_comch_client_create(app->dev, DMA_COPY_SERVER_NAME, &app->client);
		if (ret != DOCA_SUCCESS)
			return ret;
		app->comch_ctx = doca_comch_client_as_ctx(app->client);
		ret = doca_comch_client_set_max_msg_size(app->client, app->max_msg);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_client_task_send_set_conf(app->client, send_done, send_failed, 32);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_client_event_msg_recv_register(app->client, msg_recv);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(app->pe, app->comch_ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(app->comch_ctx, ud);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_state_changed_cb(app->comch_ctx, comch_state);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_ctx_start(app->comch_ctx);
	if (ROLE_DPU)
		return ret;
	if (ret != DOCA_ERROR_IN_PROGRESS && ret != DOCA_SUCCESS)
		return ret;
	return DOCA_SUCCESS;
}

/* Progresses until the other side is there (or the timeout). */
doca_error_t wait_connected(struct app *app)
{
	double deadline = now_s() + app->timeout_s;

	/* Where stderr is a terminal and not --quiet: elsewhere only the summary is printed. */
	if (ROLE_DPU && !app->quiet && isatty(STDERR_FILENO))
		LOG_INFO("waiting for the host (doca_dma_copy on the host side, server name '%s')",
			 DMA_COPY_SERVER_NAME);
	while (!app->connected) {
		if (interrupted)
			return DOCA_ERROR_SHUTDOWN; /* main() says so */
		if (app->peer_gone) {
			LOG_ERR("the DPU side is not there: start doca_dma_copy on the DPU side first");
			return DOCA_ERROR_NOT_CONNECTED;
		}
		if (now_s() > deadline) {
			LOG_ERR("no %s within %d s; start doca_dma_copy on the %s side (or raise --timeout)",
				ROLE_DPU ? "host connected" : "DPU side answered", app->timeout_s,
				ROLE_DPU ? "host" : "DPU");
			return DOCA_ERROR_TIME_OUT;
		}
		if (doca_pe_progress(app->pe) == 0)
			pe_wait(app, 10); /* woken by the connection (or the client's retry timer) */
		if (!ROLE_DPU) {
			enum doca_ctx_states st;
			struct doca_comch_connection *conn;

			doca_ctx_get_state(app->comch_ctx, &st);
			if (st == DOCA_CTX_STATE_RUNNING &&
			    doca_comch_client_get_connection(app->client, &conn) == DOCA_SUCCESS) {
				union doca_data ud = {.ptr = app};

				doca_comch_connection_set_user_data(conn, ud);
				app->conn = conn;
				app->connected = true;
			}
		}
	}
	return DOCA_SUCCESS;
}

/* Waits for the next message of the other side; copies at most @cap bytes of it. */
doca_error_t wait_msg(struct app *app, void *out, uint32_t cap, uint32_t *len, bool unbounded)
{
	double deadline = now_s() + app->timeout_s;

	while (app->inbox_count == 0 || app->seq_broken) {
		if (app->seq_broken)
			return DOCA_ERROR_UNEXPECTED; /* logged by seq_note() */
		if (interrupted)
			return DOCA_ERROR_SHUTDOWN;
		if (app->peer_gone)
			return DOCA_ERROR_CONNECTION_RESET;
		if (!unbounded && now_s() > deadline)
			return DOCA_ERROR_TIME_OUT;
		send_credit(app, false);
		if (app->file_shrank)
			return DOCA_ERROR_IO_FAILED; /* a sending host's file ended early: shrink_status() */
		/* One look at the engine and one piece of the file per turn: a message in or out does
		 * not cost a turn of its own (each look is a system call). */
		int got = doca_pe_progress(app->pe);

		if (!host_fill_step(app) && got == 0) {
			send_credit(app, true); /* whatever is held back goes before this side sleeps */
			pe_wait(app, 100);
		}
	}
	uint32_t n = app->inbox_len[app->inbox_head];

	memcpy(out, app->inbox[app->inbox_head], n < cap ? n : cap);
	*len = n < cap ? n : cap; /* what was copied: the checks never look past it */
	app->inbox_head = (app->inbox_head + 1) % INBOX;
	app->inbox_count--;
	return DOCA_SUCCESS;
}

/* True when @msg is a well-formed message of @type (dc_msg_check: every field read is sound). */
bool msg_is(const void *msg, uint32_t len, uint16_t type)
{
	char why[160];

	return dc_msg_check(msg, len, why, sizeof(why)) == type;
}

/* Reports an ERROR, unexpected or malformed message, the cause of this side's failure; returns
 * the status to exit with. */
doca_error_t peer_error(struct app *app, const void *msg, uint32_t len)
{
	char why[160];
	int type = dc_msg_check(msg, len, why, sizeof(why));

	if (type == MSG_ERROR) {
		struct msg_status s; /* a copy: messages arrive at any alignment */

		memcpy(&s, msg, sizeof(s));
		LOG_ERR("the other side stopped the copy: %s", s.text);
		return app_fail(app, s.status != 0 ? (doca_error_t)s.status : DOCA_ERROR_UNKNOWN, DC_CAUSE_PEER,
				"the other side stopped the copy: %s", s.text);
	}
	if (type == 0) {
		LOG_ERR("malformed message from the other side: %s", why);
		return app_fail(app, DOCA_ERROR_UNEXPECTED, DC_CAUSE_PEER, "malformed message from the other side: %s",
				why);
	}
	LOG_ERR("unexpected message of type %d from the other side", type);
	return app_fail(app, DOCA_ERROR_UNEXPECTED, DC_CAUSE_PEER, "unexpected message of type %d from the other side",
			type);
}
