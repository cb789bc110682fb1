/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_state.c - doca_dma_copy's state per side and the record of why it failed
 * (apps/dma-copy/state.c): the state only moves forward, DONE and FAILED are final, FAILED is
 * reached through app_fail() alone; the first cause is kept (its status, kind and reason), later
 * ones change nothing and come back as the first's status; after DONE nothing is recorded.
 */
#include <string.h>

#include "../../apps/dma-copy/app.h"
#include "../common/sd_test.h"

static struct app app;

static void reset(void)
{
	memset(&app, 0, sizeof(app));
}

int main(void)
{
	/* The progression, one state after the other; no step back, none to FAILED directly. */
	reset();
	CHECK_EQ(app.state, DC_CONNECTING);
	CHECK_STR(dc_state_name(app.state), "connecting");
	app_set_state(&app, DC_NEGOTIATED);
	app_set_state(&app, DC_COPYING);
	CHECK_EQ(app.state, DC_COPYING);
	app_set_state(&app, DC_NEGOTIATED);
	CHECK_EQ(app.state, DC_COPYING);
	app_set_state(&app, DC_FAILED);
	CHECK_EQ(app.state, DC_COPYING);
	CHECK_EQ(app.fail.err, DOCA_SUCCESS);
	app_set_state(&app, DC_VERIFYING);
	app_set_state(&app, DC_DONE);
	CHECK_STR(dc_state_name(app.state), "done");

	/* The first cause wins: status, kind and reason; the later ones return the first status. */
	reset();
	app_set_state(&app, DC_COPYING);
	CHECK_EQ(app_fail(&app, DOCA_ERROR_FULL, DC_CAUSE_LOCAL, "cannot write %s: %s", "f", "disk full"),
		 DOCA_ERROR_FULL);
	CHECK_EQ(app.state, DC_FAILED);
	CHECK_EQ(app.fail.cause, DC_CAUSE_LOCAL);
	CHECK_STR(app.fail.why, "cannot write f: disk full");
	CHECK_EQ(app_fail(&app, DOCA_ERROR_SHUTDOWN, DC_CAUSE_SIGNAL, "interrupted"), DOCA_ERROR_FULL);
	CHECK_EQ(app_fail(&app, DOCA_ERROR_UNEXPECTED, DC_CAUSE_PROTOCOL, "broken"), DOCA_ERROR_FULL);
	CHECK_EQ(app.fail.err, DOCA_ERROR_FULL);
	CHECK_EQ(app.fail.cause, DC_CAUSE_LOCAL);
	CHECK_STR(app.fail.why, "cannot write f: disk full");
	/* FAILED is final. */
	app_set_state(&app, DC_VERIFYING);
	app_set_state(&app, DC_DONE);
	CHECK_EQ(app.state, DC_FAILED);
	CHECK_STR(dc_state_name(app.state), "failed");

	/* A failure in the first state, with a reason longer than the record: cut, still a string. */
	reset();
	{
		char big[600];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		CHECK_EQ(app_fail(&app, DOCA_ERROR_TIME_OUT, DC_CAUSE_PEER, "%s", big), DOCA_ERROR_TIME_OUT);
		CHECK_EQ(strlen(app.fail.why), sizeof(app.fail.why) - 1);
		CHECK_EQ(app.state, DC_FAILED);
	}

	/* After DONE nothing is recorded: the copy is complete, the status given comes back. */
	reset();
	app_set_state(&app, DC_DONE);
	CHECK_EQ(app_fail(&app, DOCA_ERROR_UNEXPECTED, DC_CAUSE_PROTOCOL, "late"), DOCA_ERROR_UNEXPECTED);
	CHECK_EQ(app.state, DC_DONE);
	CHECK_EQ(app.fail.err, DOCA_SUCCESS);
	CHECK_EQ(app.fail.cause, DC_CAUSE_NONE);
	return T_EXIT_PASS;
}
