/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma_copy - copy a file between the host and the DPU with DOCA Comch and DOCA DMA.
 *
 *   DPU:  doca_dma_copy -f /path/on/dpu [-p 03:00.0] [-r b1:00.0] [--force]
 *   host: doca_dma_copy -f /path/on/host [-p b1:00.0] [--force]
 *
 * Whichever side has the file sends it; the other side creates it (refusing to replace an
 * existing file without --force). See dma_copy.h for the protocol, app.h for the parts.
 *
 * main.c: set-up, the role, and the exit path: it reads the cause of the failure (app_fail()),
 * tells the other side what it has not heard yet, and exits with the status that says it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_ctx.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

volatile sig_atomic_t interrupted; /* the signal that stops the copy (SIGINT, SIGTERM), or 0 */

static void on_signal(int sig)
{
	interrupted = sig;
}

/* What an interrupted side tells the other one, and logs. */
const char *interrupted_why(void)
{
	if (ROLE_DPU)
		return interrupted == SIGTERM ? "the DPU side was stopped (SIGTERM)"
					      : "the DPU side was interrupted (SIGINT)";
	return interrupted == SIGTERM ? "the host was stopped (SIGTERM)" : "the host was interrupted (SIGINT)";
}

/*
 * Stops @ctx and progresses until it is IDLE: for as long as its tasks take to flush (a clock,
 * not a number of calls: completions may be slow, e.g. with SOFTDOCA_FAULT delays), at most 10 s;
 * after 1 s it says what it waits for.
 */
static void stop_ctx(struct app *app, struct doca_ctx *ctx, const char *what)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;
	double start = now_s(), deadline = start + 10;
	bool said = false;

	if (doca_ctx_stop(ctx) != DOCA_ERROR_IN_PROGRESS)
		return;
	while (doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE && now_s() < deadline) {
		if (doca_pe_progress(app->pe) == 0)
			usleep(100);
		if (!said && now_s() > start + 1) {
			/* Slow tasks (SOFTDOCA_FAULT delays, a stalled peer) keep the exit waiting: say so. */
			LOG_WARN("waiting for the %s tasks in flight to finish before exiting (at most 10 s)", what);
			said = true;
		}
	}
	if (st != DOCA_CTX_STATE_IDLE)
		LOG_WARN("the %s context did not stop within 10 s; its resources are left to the exit", what);
}

static void teardown(struct app *app)
{
	app->stopping = true; /* tasks still in flight are flushed: nothing to report or send after them */
	if (app->dma != NULL) {
		stop_ctx(app, doca_dma_as_ctx(app->dma), "DMA");
		doca_dma_destroy(app->dma);
	}
	if (app->inv != NULL)
		doca_buf_inventory_destroy(app->inv);
	if (app->remote_mmap != NULL)
		doca_mmap_destroy(app->remote_mmap);
	if (app->local_mmap != NULL)
		doca_mmap_destroy(app->local_mmap);
	if (app->stage != NULL)
		munmap(app->stage, app->stage_len);
	if (app->comch_ctx != NULL) {
		stop_ctx(app, app->comch_ctx, "Comch");
		if (app->server != NULL)
			doca_comch_server_destroy(app->server);
		if (app->client != NULL)
			doca_comch_client_destroy(app->client);
	}
	if (app->pe != NULL)
		doca_pe_destroy(app->pe);
	if (app->rep != NULL)
		doca_dev_rep_close(app->rep);
	if (app->dev != NULL)
		doca_dev_close(app->dev);
	close_file(&app->fm);
	for (int i = 0; i < INBOX; i++)
		free(app->inbox[i]);
}

/*
 * A failure that reached main() with no cause recorded (the other side gone or silent, a
 * signal, the protocol broken, this side's set-up or a message it could not send): records
 * what it was, from its status.
 */
static void record_cause(struct app *app, doca_error_t err)
{
	if (err == DOCA_ERROR_SHUTDOWN && interrupted)
		(void)app_fail(app, err, DC_CAUSE_SIGNAL, "%s", interrupted_why());
	else if (app->seq_broken)
		(void)app_fail(app, err, DC_CAUSE_PROTOCOL, "the protocol was broken: %s", app->seq_why);
	else if (err == DOCA_ERROR_CONNECTION_RESET || err == DOCA_ERROR_NOT_CONNECTED || err == DOCA_ERROR_TIME_OUT)
		(void)app_fail(app, err, DC_CAUSE_PEER, "%s", doca_error_get_name(err));
	else
		(void)app_fail(app, err, DC_CAUSE_LOCAL, "%s", doca_error_get_name(err));
}

/*
 * The exit path: says why the copy failed (the cause app_fail() recorded first) where nothing
 * said it yet, and tells the other side what it has not heard: a signal, a broken protocol.
 */
static void exit_path(struct app *app)
{
	bool can_tell = app->connected && !app->peer_gone && !app->fail.told;

	switch (app->fail.cause) {
	case DC_CAUSE_NONE:
		break;
	case DC_CAUSE_SIGNAL:
		/* The other side hears it now rather than finding the connection gone. */
		if (can_tell)
			send_failure(app, MSG_ERROR, true);
		LOG_ERR("%s: the copy stopped%s", app->fail.why, app->fm.is_dest ? "; nothing was put in place" : "");
		break;
	case DC_CAUSE_PROTOCOL:
		/* Logged once already (seq_note); the other side hears why its copy stops. */
		if (can_tell)
			send_failure(app, MSG_ERROR, true);
		break;
	case DC_CAUSE_LOCAL:
	case DC_CAUSE_PEER:
		/* (SHUTDOWN here: the other side was interrupted, and peer_error() said so) */
		if (app->fail.err != DOCA_ERROR_SHUTDOWN)
			LOG_ERR("DMA copy failed: %s", doca_error_get_descr(app->fail.err));
		break;
	}
}

int main(int argc, char **argv)
{
	static struct app app;
	struct doca_log_backend *sdk_log;
	struct sigaction sa = {.sa_handler = on_signal};
	doca_error_t ret;

	app.fm.fd = -1;
	app.pe_fd = -1;
	dc_seq_init(&app.seq, ROLE_DPU);
	dc_sum_init(&app.sum);
	snprintf(app.pci, sizeof(app.pci), "%s", DEFAULT_PCI);
	snprintf(app.rep_pci, sizeof(app.rep_pci), "%s", DEFAULT_REP_PCI);
	app.timeout_s = 60;
	if (doca_log_backend_create_standard() != DOCA_SUCCESS ||
	    doca_log_backend_create_with_file_sdk(stderr, &sdk_log) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (doca_argp_init(NULL, &app) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (register_params() != DOCA_SUCCESS) {
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	if (doca_argp_start(argc, argv) != DOCA_SUCCESS) {
		doca_argp_destroy();
		return 2; /* bad usage: doca_argp said why */
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	ret = open_device(&app);
	if (ret == DOCA_SUCCESS)
		ret = comch_setup(&app);
	if (ret == DOCA_SUCCESS)
		ret = wait_connected(&app);
	if (ret == DOCA_SUCCESS)
		ret = ROLE_DPU ? run_dpu(&app) : run_host(&app);
	if (ret != DOCA_SUCCESS && app.fail.err == DOCA_SUCCESS)
		record_cause(&app, ret);
	exit_path(&app);
	/* An ERROR said just before (on a busy socket it may still be queued) leaves before the
	 * connection closes: the other side names this side's cause, not its departure. */
	if (app.fail.told && app.connected && !app.peer_gone)
		sends_flush(&app);
	teardown(&app);
	doca_argp_destroy();
	if (app.fail.cause == DC_CAUSE_SIGNAL)
		return 128 + interrupted; /* as the shell reports a program the signal ended */
	return app.fail.err == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
