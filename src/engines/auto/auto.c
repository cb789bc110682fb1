/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * auto.c - the default engine: small copies run inline at progress time, large ones go to a
 * cpu worker. On a small machine a worker competing with a polling application costs more than
 * it saves for a short copy; for large copies the submitting thread stays free.
 * Ordering is the core's business (per-context FIFO), so mixing the two is safe.
 *
 * Unless the application busy-polls: then its thread spins in doca_pe_progress() while a worker
 * copies, both fighting for the same cores, and copying inside progress is faster (on 2 cores,
 * 2 MiB copies: 0.16 ms inline against 0.68 ms through a worker). auto watches how the
 * application waits for its worker copies: it counts the progress calls made while a worker job
 * is in flight. Many per job (AUTO_SPIN_POLLS) means a spinning thread, and large jobs then run
 * inline too; an application that sleeps in epoll until the notification makes one or two. One
 * large job in AUTO_REPROBE still goes to the worker, so a program that changes how it waits is
 * noticed again. docs/performance.md has the policy and its measurements.
 *
 * Nor when the application sleeps on each worker job alone: one job in flight (on either
 * executor), and it arms the
 * notification (the core asks pending() first) before the job is back. Then the thread would
 * wait anyway, and the worker adds two wake-ups per job (the PE's, and the worker's own once it
 * parked) without sharing the copy: on 2 cores, 1 MiB cold copies at queue depth 1 moved 4.1
 * GB/s through the worker against 8.0 inline. Such jobs run inline too, unless they are large
 * enough for the cpu engine to split over its workers (ENGINE_CPU_SPLIT_MIN), which beats one thread.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

/* The two executors auto combines (src/engines/inline, src/engines/cpu). */
extern const struct engine_ops engine_inline_ops;
extern const struct engine_ops engine_cpu_ops;

/* Jobs of at least this many bytes go to the cpu worker. */
#define AUTO_CPU_MIN_BYTES (256u * 1024u)
/* Progress calls per worker job above which the application is taken to be spinning. */
#define AUTO_SPIN_POLLS 16
/* While spinning, one large job in this many still goes to the worker (to look again). */
#define AUTO_REPROBE 64

struct engine_queue {
	struct engine_queue *inl;
	struct engine_queue *cpu; /* created on the first large job */
	struct engine_queue_attr attr;
	/* How the application waits for worker jobs (all on the PE thread). */
	uint32_t cpu_inflight;	/* jobs submitted to the worker, not yet reaped */
	uint32_t polls;		/* progress calls while cpu_inflight > 0, since the last decision */
	uint32_t reaped;	/* worker jobs reaped since the last decision */
	uint32_t large_inline;	/* large jobs run inline since the last probe */
	uint32_t sleeps;	/* pending() calls (the application arming to sleep) while worker jobs fly */
	uint32_t inflight;	/* jobs in flight on either executor */
	uint32_t most_inflight; /* jobs in flight at once while worker jobs flew, since the last decision */
	bool spinning;
	bool waits_alone; /* it sleeps on one worker job at a time */
	char owner[64];	  /* attr.owner points here: the creator's string is gone by then */
};

static doca_error_t auto_queue_create(const struct engine_queue_attr *attr, struct engine_queue **out)
{
	struct engine_queue *q = calloc(1, sizeof(*q));
	doca_error_t ret;

	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->attr = *attr;
	snprintf(q->owner, sizeof(q->owner), "%s", attr->owner ? attr->owner : "?");
	q->attr.owner = q->owner;
	ret = engine_inline_ops.queue_create(attr, &q->inl);
	if (ret != DOCA_SUCCESS) {
		free(q);
		return ret;
	}
	*out = q;
	return DOCA_SUCCESS;
}

static void auto_queue_destroy(struct engine_queue *q)
{
	engine_inline_ops.queue_destroy(q->inl);
	if (q->cpu != NULL)
		engine_cpu_ops.queue_destroy(q->cpu);
	free(q);
}

static int auto_submit(struct engine_queue *q, struct engine_job *job)
{
	bool inline_ok = q->spinning || (q->waits_alone && q->inflight == 0 && job->len < ENGINE_CPU_SPLIT_MIN);
	int rc;

	if (job->len >= AUTO_CPU_MIN_BYTES && (!inline_ok || ++q->large_inline >= AUTO_REPROBE)) {
		if (q->cpu == NULL && engine_cpu_ops.queue_create(&q->attr, &q->cpu) != DOCA_SUCCESS)
			q->cpu = NULL;
		if (q->cpu != NULL) {
			rc = engine_cpu_ops.submit(q->cpu, job);

			if (rc == 0) {
				q->cpu_inflight++;
				if (++q->inflight > q->most_inflight)
					q->most_inflight = q->inflight;
				q->large_inline = 0;
			}
			return rc;
		}
	}
	rc = engine_inline_ops.submit(q->inl, job);
	if (rc == 0 && ++q->inflight > q->most_inflight && q->cpu_inflight > 0)
		q->most_inflight = q->inflight;
	return rc;
}

static unsigned int auto_poll(struct engine_queue *q, unsigned int budget)
{
	unsigned int n = engine_inline_ops.poll(q->inl, budget);

	q->inflight -= n < q->inflight ? n : q->inflight;

	if (q->cpu != NULL && q->cpu_inflight > 0) {
		unsigned int k = engine_cpu_ops.poll(q->cpu, budget);

		q->polls++;
		q->reaped += k;
		q->cpu_inflight -= k;
		q->inflight -= k < q->inflight ? k : q->inflight;
		n += k;
		/* Decide once a few worker jobs came back: spinning or sleeping between them? */
		if (q->reaped >= 4 || (q->reaped > 0 && q->cpu_inflight == 0)) {
			q->spinning = q->polls >= AUTO_SPIN_POLLS * q->reaped;
			q->waits_alone = q->most_inflight <= 1 && q->sleeps >= q->reaped;
			q->polls = q->reaped = q->sleeps = 0;
			q->most_inflight = q->inflight;
		}
	}
	return n;
}

static bool auto_pending(const struct engine_queue *q)
{
	bool cpu_work = q->cpu_inflight > 0 && engine_cpu_ops.pending(q->cpu);

	/* The core asks this as the application arms the notification to sleep: it means to wait
	 * for what is in flight, whether or not the worker got there first (PE thread, the
	 * queue's own counter: the queue is not const memory). */
	if (q->cpu_inflight > 0)
		((struct engine_queue *)q)->sleeps++;
	return engine_inline_ops.pending(q->inl) || cpu_work;
}

static void auto_cancel(struct engine_queue *q, doca_error_t status)
{
	engine_inline_ops.cancel(q->inl, status);
	if (q->cpu != NULL)
		engine_cpu_ops.cancel(q->cpu, status);
	q->inflight = q->cpu_inflight; /* the inline ones completed here; the worker's come back in poll */
}

/* For tests (tests/engines): whether @q currently runs large jobs inline. */
bool engine_auto_spinning(const struct engine_queue *q);
bool engine_auto_spinning(const struct engine_queue *q)
{
	return q->spinning;
}

/* For tests: whether @q takes the application to sleep on one worker job at a time. */
bool engine_auto_waits_alone(const struct engine_queue *q);
bool engine_auto_waits_alone(const struct engine_queue *q)
{
	return q->waits_alone;
}

#define AUTO_DESC "small copies inline at progress time, large copies on a cpu worker"

static const struct engine_ops auto_ops = {
    .name = "auto",
    .desc = AUTO_DESC,
    .queue_create = auto_queue_create,
    .queue_destroy = auto_queue_destroy,
    .submit = auto_submit,
    .poll = auto_poll,
    .pending = auto_pending,
    .cancel = auto_cancel,
};

const struct engine_backend engine_backend_auto = {
    .name = "auto",
    .desc = AUTO_DESC,
    .kind = ENGINE_EXECUTOR,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL),
    .priority = 30,
    .ops = &auto_ops,
};
