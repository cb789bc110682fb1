/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reentry.h - the re-entrancy rule every context type must keep: an application may stop a
 * context from any of its callbacks and destroy it from its IDLE state callback, and the
 * library touches nothing of it afterwards (ASan turns any touch into a failure).
 *
 * A test fills one struct re_subject per case: the context, where it is stopped (its RUNNING
 * state callback, a task completion, a task error, or an event of its module) and how its
 * object is destroyed. re_install() puts re_state_cb on the context; the module's callbacks
 * call re_stop_here() at their stop point; re_state_cb destroys the object on IDLE.
 * re_wait_destroyed() progresses until then, with a deadline.
 *
 * The case counts of every suite are printed ("reentrancy: N cases") for the record.
 */
#ifndef SD_TEST_REENTRY_H_
#define SD_TEST_REENTRY_H_

#include <doca_ctx.h>
#include <doca_pe.h>

#include "sd_test.h"

enum re_stop {
	RE_STOP_RUNNING, /* in the RUNNING state callback */
	RE_STOP_TASK,	 /* in a task's completion callback */
	RE_STOP_ERROR,	 /* in a task's error callback */
	RE_STOP_EVENT,	 /* in an event callback of the module */
};

static const char *const re_stop_names[] = {"RUNNING callback", "task completion", "task error", "event"};

struct re_subject {
	const char *what;	/* "dma", "comch consumer", ... */
	enum re_stop stop;	/* where it is stopped */
	struct doca_ctx *ctx;	/* dangling once destroyed */
	void (*destroy)(struct re_subject *s);
	void *obj;		/* the module's object, for destroy */
	void *arg;		/* the test's own */
	bool started;		/* IDLE from now on means "destroy it" */
	bool stop_called;	/* re_stop_here() ran */
	bool destroyed;		/* destroy ran, from the IDLE callback */
	enum doca_ctx_states state;
	int callbacks;		/* task and event callbacks seen */
};

static inline struct re_subject *re_of_ud(union doca_data ud)
{
	return (struct re_subject *)ud.ptr;
}

/* From a callback of @s: stop its context there (once). Nothing of it is touched afterwards. */
static inline void re_stop_here(struct re_subject *s, enum re_stop where)
{
	doca_error_t r;

	if (s->stop != where || s->stop_called)
		return;
	s->stop_called = true;
	r = doca_ctx_stop(s->ctx); /* may go to IDLE, and destroy, inside */
	if (r != DOCA_SUCCESS && r != DOCA_ERROR_IN_PROGRESS) {
		fprintf(stderr, "%s: doca_ctx_stop from the %s returned %s\n", s->what, re_stop_names[where],
			doca_error_get_name(r));
		exit(T_EXIT_FAIL);
	}
}

static inline void re_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			       enum doca_ctx_states next)
{
	struct re_subject *s = re_of_ud(ud);

	(void)ctx;
	(void)prev;
	s->state = next;
	if (next == DOCA_CTX_STATE_RUNNING)
		re_stop_here(s, RE_STOP_RUNNING);
	else if (next == DOCA_CTX_STATE_IDLE && s->started && !s->destroyed) {
		s->destroyed = true;
		s->destroy(s);
	}
}

/* @ctx gets the subject as its user data and re_state_cb; call while IDLE, before the start. */
static inline void re_install(struct re_subject *s, struct doca_ctx *ctx)
{
	s->ctx = ctx;
	CHECK_OK(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = s}));
	CHECK_OK(doca_ctx_set_state_changed_cb(ctx, re_state_cb));
}

/* Progresses @pe and @pe2 (may be NULL) until @s was destroyed; a test failure after 10 s. */
static inline void re_wait_destroyed(struct re_subject *s, struct doca_pe *pe, struct doca_pe *pe2)
{
	uint64_t end = sd_now_ms() + 10000;

	while (!s->destroyed) {
		uint8_t any = doca_pe_progress(pe);

		if (pe2 != NULL)
			any |= doca_pe_progress(pe2);
		if (sd_now_ms() > end) {
			fprintf(stderr, "%s, stopped in its %s: not destroyed within 10 s (state %d, stop %s)\n", s->what,
				re_stop_names[s->stop], (int)s->state, s->stop_called ? "called" : "not called");
			exit(T_EXIT_FAIL);
		}
		if (!any)
			usleep(50);
	}
	/* A few more turns: anything the library still held of the context would be touched now. */
	for (int i = 0; i < 10; i++) {
		(void)doca_pe_progress(pe);
		if (pe2 != NULL)
			(void)doca_pe_progress(pe2);
	}
	printf("  %s, stopped in its %s, destroyed in its IDLE callback\n", s->what, re_stop_names[s->stop]);
}

#endif /* SD_TEST_REENTRY_H_ */
