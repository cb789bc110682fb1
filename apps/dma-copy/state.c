/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * state.c - where this side of doca_dma_copy is (app.h's diagram), and the one record of why it
 * failed: the first cause wins, later ones are logged at DEBUG; the exit path (main.c) reads it.
 */
#include <stdarg.h>
#include <stdio.h>

#include "app.h"

DOCA_LOG_REGISTER(DMA_COPY);

const char *dc_state_name(enum dc_state s)
{
	switch (s) {
	case DC_CONNECTING:
		return "connecting";
	case DC_NEGOTIATED:
		return "negotiated";
	case DC_COPYING:
		return "copying";
	case DC_VERIFYING:
		return "verifying";
	case DC_DONE:
		return "done";
	case DC_FAILED:
		return "failed";
	}
	return "?";
}

/*
 * Moves this side on to @next, forward only: DONE and FAILED are final, and FAILED is reached
 * through app_fail() alone (it records why).
 */
void app_set_state(struct app *app, enum dc_state next)
{
	if (app->state == DC_DONE || app->state == DC_FAILED || next == DC_FAILED || next <= app->state) {
		LOG_DBG("state %s: not moved to %s", dc_state_name(app->state), dc_state_name(next));
		return;
	}
	LOG_DBG("state %s -> %s", dc_state_name(app->state), dc_state_name(next));
	app->state = next;
}

/*
 * Records that the copy failed with @err for the reason @fmt says (a line the other side may be
 * told: ERROR, RESULT or LANDED carry it): the first cause is kept and moves this side to
 * FAILED; a later one, or one after DONE, is only logged at DEBUG. The lines that explain a
 * failure to the user are logged where it happens, not here. Returns the status the copy ends
 * with: the first cause's (@err after DONE).
 */
doca_error_t app_fail(struct app *app, doca_error_t err, enum dc_cause cause, const char *fmt, ...)
{
	char why[sizeof(app->fail.why)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (app->state == DC_DONE) {
		LOG_DBG("after the copy was done: %s (%s)", why, doca_error_get_name(err));
		return err;
	}
	if (app->fail.err != DOCA_SUCCESS) {
		LOG_DBG("also: %s (%s); the copy failed first with: %s (%s)", why, doca_error_get_name(err),
			app->fail.why, doca_error_get_name(app->fail.err));
		return app->fail.err;
	}
	app->fail.err = err != DOCA_SUCCESS ? err : DOCA_ERROR_UNKNOWN;
	app->fail.cause = cause;
	snprintf(app->fail.why, sizeof(app->fail.why), "%s", why);
	LOG_DBG("state %s -> failed: %s (%s)", dc_state_name(app->state), why, doca_error_get_name(err));
	app->state = DC_FAILED;
	return app->fail.err;
}
