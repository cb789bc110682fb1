/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * inline.c - the inline engine: jobs are copied inside doca_pe_progress() on the caller's
 * thread. No threads, deterministic, lowest latency for small copies.
 *
 * The queue is a singly linked list of submitted jobs (submit appends, poll drains); all on the
 * PE thread, so no atomics are needed beyond the done flag the core reads.
 *
 * Jobs with a transport (another memory domain): consecutive batchable ones are handed together
 * to engine_job_copy_batch(), which moves them in as few operations as the transport can.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "trace.h"

struct engine_queue {
	struct engine_job *head;
	struct engine_job *tail;
	uint32_t count;
	uint32_t depth;
	bool traced;	/* SOFTDOCA_TRACE on when the queue was made */
	char owner[64]; /* for log lines */
};

static doca_error_t inline_queue_create(const struct engine_queue_attr *attr, struct engine_queue **q)
{
	struct engine_queue *iq = calloc(1, sizeof(*iq));

	if (iq == NULL)
		return DOCA_ERROR_NO_MEMORY;
	iq->depth = attr->depth;
	snprintf(iq->owner, sizeof(iq->owner), "%s", attr->owner ? attr->owner : "?");
	iq->traced = priv_doca_trace_on;
	if (iq->traced)
		priv_doca_trace_track(iq, "inline engine (PE thread)");
	*q = iq;
	return DOCA_SUCCESS;
}

static void inline_queue_destroy(struct engine_queue *q)
{
	free(q);
}

int engine_inline_submit(struct engine_queue *q, struct engine_job *job)
{
	if (q->count == q->depth)
		return -EAGAIN;
	job->next = NULL;
	if (q->tail != NULL)
		q->tail->next = job;
	else
		q->head = job;
	q->tail = job;
	q->count++;
	return 0;
}

static struct engine_job *pop(struct engine_queue *q)
{
	struct engine_job *job = q->head;

	q->head = job->next;
	if (q->head == NULL)
		q->tail = NULL;
	q->count--;
	return job;
}

/* Copies the transported job at the head and the batchable ones behind it; returns how many. */
static __attribute__((noinline)) unsigned int poll_xfer(struct engine_queue *q, unsigned int budget)
{
	struct engine_job *jobs[ENGINE_XFER_BATCH];
	doca_error_t status[ENGINE_XFER_BATCH];
	unsigned int n = 0;

	if (budget > ENGINE_XFER_BATCH)
		budget = ENGINE_XFER_BATCH;
	jobs[n++] = pop(q);
	while (n < budget && q->head != NULL && engine_job_batchable(jobs[0], q->head))
		jobs[n++] = pop(q);
	engine_job_copy_batch(jobs, n, status, q->owner);
	for (unsigned int i = 0; i < n; i++)
		engine_task_complete_pe(jobs[i], status[i]);
	return n;
}

unsigned int engine_inline_poll(struct engine_queue *q, unsigned int budget)
{
	unsigned int n = 0;

	while (q->head != NULL && n < budget) {
		struct engine_job *job = q->head;

		if (SD_UNLIKELY(engine_job_xfer(job))) {
			n += poll_xfer(q, budget - n);
			continue;
		}
		pop(q);
		if (SD_UNLIKELY(q->traced)) {
			priv_doca_trace(TR_ENGINE_BEGIN, q, job->comp->trace_id, job->len, 0);
			engine_copy_local(job);
			priv_doca_trace(TR_ENGINE_END, q, job->comp->trace_id, 0, 0);
		} else {
			engine_copy_local(job);
		}
		engine_task_complete_pe(job, DOCA_SUCCESS);
		n++;
	}
	return n;
}

static bool inline_pending(const struct engine_queue *q)
{
	return q->head != NULL;
}

static void inline_cancel(struct engine_queue *q, doca_error_t status)
{
	while (q->head != NULL) {
		struct engine_job *job = q->head;

		q->head = job->next;
		engine_task_complete_pe(job, status);
	}
	q->tail = NULL;
	q->count = 0;
}

#define inline_ops_desc "copies inside doca_pe_progress() on the calling thread"

const struct engine_ops engine_inline_ops = {
    .name = "inline",
    .desc = inline_ops_desc,
    .queue_create = inline_queue_create,
    .queue_destroy = inline_queue_destroy,
    .submit = engine_inline_submit,
    .poll = engine_inline_poll,
    .pending = inline_pending,
    .cancel = inline_cancel,
};

const struct engine_backend engine_backend_inline = {
    .name = "inline",
    .desc = inline_ops_desc,
    .kind = ENGINE_EXECUTOR,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL),
    .priority = 10,
    .ops = &engine_inline_ops,
};
