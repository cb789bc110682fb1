/*
 * inline.c - the inline engine: jobs are copied inside doca_pe_progress() on the caller's
 * thread. No threads, deterministic, lowest latency for small copies.
 *
 * The queue is a singly linked list of submitted jobs (submit appends, poll drains); all on the
 * PE thread, so no atomics are needed beyond the done flag the core reads.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

struct engine_queue {
	struct engine_job *head;
	struct engine_job *tail;
	uint32_t count;
	uint32_t depth;
};

static doca_error_t inline_queue_create(const struct engine_queue_attr *attr, struct engine_queue **q)
{
	struct engine_queue *iq = calloc(1, sizeof(*iq));

	if (iq == NULL)
		return DOCA_ERROR_NO_MEMORY;
	iq->depth = attr->depth;
	*q = iq;
	return DOCA_SUCCESS;
}

static void inline_queue_destroy(struct engine_queue *q)
{
	free(q);
}

static int inline_submit(struct engine_queue *q, struct engine_job *job)
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

static doca_error_t job_run(struct engine_job *job)
{
	if (job->src_pid != 0 || job->dst_pid != 0)
		return DOCA_ERROR_NOT_SUPPORTED;
	engine_copy_local(job);
	return DOCA_SUCCESS;
}

static unsigned int inline_poll(struct engine_queue *q, unsigned int budget)
{
	unsigned int n = 0;

	while (q->head != NULL && n < budget) {
		struct engine_job *job = q->head;

		q->head = job->next;
		if (q->head == NULL)
			q->tail = NULL;
		q->count--;
		engine_task_complete_pe(job, job_run(job));
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

const struct engine_ops engine_inline_ops = {
	.name = "inline",
	.desc = "copies inside doca_pe_progress() on the calling thread",
	.queue_create = inline_queue_create,
	.queue_destroy = inline_queue_destroy,
	.submit = inline_submit,
	.poll = inline_poll,
	.pending = inline_pending,
	.cancel = inline_cancel,
};
