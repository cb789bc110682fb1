/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * null.c - a test-only executor: every job completes successfully at the next poll without a
 * byte moving. tests/engines/check_add_backend.sh copies this directory to src/engines/null in
 * a scratch copy of the tree and adds one line to src/engines/meson.build, to show that a
 * backend is one directory and one line: the registry, SOFTDOCA_ENGINE, the config validator,
 * doca-env and the per-executor tests then know it.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

struct engine_queue {
	struct engine_job *head, *tail;
	uint32_t count, depth;
};

static doca_error_t null_queue_create(const struct engine_queue_attr *attr, struct engine_queue **q)
{
	*q = calloc(1, sizeof(**q));
	if (*q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	(*q)->depth = attr->depth;
	return DOCA_SUCCESS;
}

static void null_queue_destroy(struct engine_queue *q)
{
	free(q);
}

static int null_submit(struct engine_queue *q, struct engine_job *job)
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

static void drain(struct engine_queue *q, doca_error_t status, unsigned int budget)
{
	while (q->head != NULL && budget-- > 0) {
		struct engine_job *job = q->head;

		q->head = job->next;
		if (q->head == NULL)
			q->tail = NULL;
		q->count--;
		engine_task_complete_pe(job, status);
	}
}

static unsigned int null_poll(struct engine_queue *q, unsigned int budget)
{
	uint32_t before = q->count;

	drain(q, DOCA_SUCCESS, budget);
	return before - q->count;
}

static bool null_pending(const struct engine_queue *q)
{
	return q->head != NULL;
}

static void null_cancel(struct engine_queue *q, doca_error_t status)
{
	drain(q, status, UINT32_MAX);
}

static const struct engine_ops null_ops = {
    .name = "null",
    .desc = "test only: completes every job without moving a byte",
    .queue_create = null_queue_create,
    .queue_destroy = null_queue_destroy,
    .submit = null_submit,
    .poll = null_poll,
    .pending = null_pending,
    .cancel = null_cancel,
};

const struct engine_backend engine_backend_null = {
    .name = "null",
    .desc = "test only: completes every job without moving a byte",
    .kind = ENGINE_EXECUTOR,
    .pairs = ENGINE_PAIR(MEM_DOMAIN_LOCAL, MEM_DOMAIN_LOCAL),
    .priority = 0,
    .ops = &null_ops,
};
