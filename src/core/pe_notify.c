/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pe_notify.c - when the PE thread writes the notification handle itself (see pe.c for the
 * handle): work became deliverable on the application's thread outside doca_pe_progress(),
 * and the application armed the handle. Contexts (ctx.c), graphs and batches call
 * priv_doca_pe_kick(); it looks at each context's work (its FIFO head, events, extension,
 * data path) without calling back into the state machine, so that ctx.c and pe.c do not call
 * each other.
 */
#include <errno.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

#define COMP "pe"

/* Deliverable now: a finished FIFO head (or any finished task when unordered), an extension's
 * or the module's events, data-path work, or a stop that can finish. */
static bool ctx_has_work(const struct doca_ctx *ctx)
{
	const struct doca_task *head = ctx->fifo_head;

	if (ctx_can_finish_stop(ctx))
		return true;
	if (head != NULL && atomic_load_explicit(&((struct doca_task *)head)->comp.done, memory_order_acquire)) {
		/* An injected delay holds the FIFO head back: deliverable only once it is due. */
		if (SD_UNLIKELY(ctx->instrumented) && head->fault_due_ns != 0 && fault_now_ns() < head->fault_due_ns)
			return ctx_dp_pending(ctx);
		return true;
	}
	/* Unordered contexts (sync events) deliver any finished task, not only the head. */
	for (const struct doca_task *t = head ? head->next : NULL; ctx->ops->policy.unordered && t != NULL; t = t->next)
		if (atomic_load_explicit(&((struct doca_task *)t)->comp.done, memory_order_acquire))
			return true;
	if (SD_UNLIKELY(ctx->ext != NULL) && ctx->ext->ops->has_work(ctx))
		return true;
	if (ctx->ops->events_pending(ctx))
		return true;
	return ctx_dp_pending(ctx);
}

/* When the context's next completion, held back by an injected delay, becomes deliverable
 * (fault_now_ns clock); 0 when none is held back. */
static uint64_t ctx_next_due(const struct doca_ctx *ctx)
{
	const struct doca_task *head = ctx->fifo_head;

	if (!ctx->instrumented || head == NULL || head->fault_due_ns == 0 ||
	    !atomic_load_explicit(&((struct doca_task *)head)->comp.done, memory_order_acquire))
		return 0;
	return head->fault_due_ns;
}

static void notify_signal(struct doca_pe *pe)
{
	uint64_t one = 1;

	if (write(pe->notify.efd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		SD_WARN(COMP, "progress engine %p: writing the notification handle failed: %s", (void *)pe,
			strerror(errno));
}

/* Makes the handle readable at @due_ns (fault_now_ns clock). */
static void timer_set(struct doca_pe *pe, uint64_t due_ns)
{
	struct itimerspec its = {
	    .it_value = {.tv_sec = (time_t)(due_ns / 1000000000ull), .tv_nsec = (long)(due_ns % 1000000000ull)}};

	if (timerfd_settime(pe->tfd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
		notify_signal(pe); /* wake early rather than never */
}

/* Writes the handle if the PE is armed and something is deliverable; disarms it then. */
void pe_kick_if_work(struct doca_pe *pe)
{
	bool work = pe->deferred != NULL;
	uint64_t due = 0;

	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL && !work; ctx = ctx->pe_next)
		work = ctx_has_work(ctx);
	if (work) {
		if (atomic_exchange(&pe->notify.armed, 0))
			notify_signal(pe);
		return;
	}
	/* Nothing deliverable now; a completion held back by SOFTDOCA_FAULT wakes when due. */
	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next) {
		uint64_t d = ctx_next_due(ctx);

		if (d != 0 && (due == 0 || d < due))
			due = d;
	}
	if (due == 0)
		return;
	if (pe->tfd >= 0)
		timer_set(pe, due);
	else if (atomic_exchange(&pe->notify.armed, 0))
		notify_signal(pe); /* a handle of the application's own: no timer in it, wake early */
}

/*
 * Something became deliverable on the PE thread itself, outside doca_pe_progress(): a task
 * submitted to an engine that completes only inside progress (inline), a task refused at
 * submit, a stop, a graph instance that finished at once. No engine thread will write the
 * handle for it, so the PE does, when armed: the application may be asleep on it already.
 */
SD_PRIV void priv_doca_pe_kick(struct doca_pe *pe)
{
	if (pe == NULL || pe->in_progress || !atomic_load_explicit(&pe->notify.armed, memory_order_relaxed))
		return;
	pe_kick_if_work(pe);
}
