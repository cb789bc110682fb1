/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event_tasks.c - a sync event as a context (doca_sync_event_as_ctx): its own data path
 * (get / notify-set / notify-add act at submit, waits are checked whenever seq moved), the
 * watcher thread that wakes an armed PE, the context ops and the task calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/futex.h>

#include <doca_buf.h>
#include <doca_mmap.h>
#include <doca_sync_event.h>

#include "core.h"
#include "export.h"
#include "sync_event_desc.h"
#include "sync_event_internal.h"

static const char *const kind_name[K_NB] = {"get", "notify_set", "notify_add", "wait_eq", "wait_neq"};

/* 0, or 1, 2, 4 or 8 bytes of 0xff at a multiple of their own size (what the hardware compares). */
static bool mask_ok(uint64_t mask)
{
	static const uint64_t widths[] = {0xffull, 0xffffull, 0xffffffffull, UINT64_MAX};

	if (mask == 0)
		return true;
	for (unsigned int w = 0; w < 4; w++) {
		unsigned int bits = 8u << w;

		for (unsigned int sh = 0; sh < 64; sh += bits)
			if (mask == widths[w] << sh)
				return true;
	}
	return false;
}

/* ---- the data path of a sync-event context ---- */

/*
 * Tasks here act themselves: get / notify complete inside submit(), a wait sits in
 * `waits` until poll() finds its condition met. Everything but the watcher runs on the PE thread.
 */
struct ctx_dp_queue {
	struct engine_notify *notify;
	struct se_task *waits;
	struct se_task **wtail;
	uint32_t nwaits;
	uint32_t last_seq;
	uint32_t polls;
	bool look_now; /* pending() saw the exporter gone: the next poll() fails the waits */
	/* Fixed once the context starts. */
	_Atomic uint32_t *seq;
	_Atomic uint32_t *sleepers;
	_Atomic uint64_t *val;
	const _Atomic uint32_t *state;
	const atomic_bool *shared; /* the event's: a peer maps the page, sleeps are bounded */
	int pidfd;		   /* exporter of an imported event, else -1 */
	bool user_val;
	bool ended; /* the state word read other than LIVE once (PE thread) */
	/* Watcher thread, created on the first armed notification. */
	bool thr_started;
	pthread_t thr;
	_Atomic uint32_t ctl; /* futex word of the parked watcher: bumped to arm or to quit */
	_Atomic uint32_t watch_seq;
	_Atomic uint64_t watch_val;
	atomic_int watching;
	atomic_int quit;
};

static void *se_watch(void *arg)
{
	struct ctx_dp_queue *q = arg;
	const struct timespec peer_tick = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};
	const struct timespec user_tick = {.tv_sec = 0, .tv_nsec = 1000 * 1000};

	for (;;) {
		uint32_t c = atomic_load(&q->ctl);
		uint32_t want;

		if (atomic_load(&q->quit))
			break;
		if (!atomic_load(&q->watching)) {
			se_futex_wait(&q->ctl, c, NULL);
			continue;
		}
		want = atomic_load(&q->watch_seq);
		if (atomic_load(q->seq) == want && atomic_load(q->state) == SE_LIVE) {
			/* A peer may write the value without moving seq, or die asleep: look again now and then. */
			bool shared = atomic_load(q->shared);

			atomic_fetch_add(q->sleepers, 1);
			if (atomic_load(q->seq) == want && !atomic_load(&q->quit))
				se_futex_wait(q->seq, want, q->user_val ? &user_tick : (shared ? &peer_tick : NULL));
			atomic_fetch_sub(q->sleepers, 1);
			if (atomic_load(&q->quit))
				break;
			if (atomic_load(q->seq) == want && atomic_load(q->state) == SE_LIVE &&
			    !se_pidfd_gone(q->pidfd) &&
			    !((q->user_val || shared) && atomic_load(q->val) != atomic_load(&q->watch_val)))
				continue; /* timeout or spurious: nothing changed */
		}
		atomic_store(&q->watching, 0);
		engine_notify_wake(q->notify);
	}
	return NULL;
}

static doca_error_t seq_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **out)
{
	struct ctx_dp_queue *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	q->notify = attr->notify;
	q->wtail = &q->waits;
	q->pidfd = -1;
	*out = q;
	return DOCA_SUCCESS;
}

static void seq_destroy(struct ctx_dp_queue *q)
{
	if (q->thr_started) {
		atomic_store(&q->quit, 1);
		atomic_fetch_add(&q->ctl, 1);
		se_futex_wake_all(&q->ctl);
		/*
		 * The watcher may be about to sleep on seq, having looked at quit already: moving seq
		 * makes that FUTEX_WAIT return at once. Other waiters merely look again.
		 */
		atomic_fetch_add(q->seq, 1);
		se_futex_wake_all(q->seq);
		pthread_join(q->thr, NULL);
	}
	free(q);
}

static void wait_push(struct ctx_dp_queue *q, struct se_task *t)
{
	t->wnext = NULL;
	*q->wtail = t;
	q->wtail = &t->wnext;
	q->nwaits++;
}

static int seq_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	struct se_task *t = (struct se_task *)task;
	uint64_t v;

	switch (t->kind) {
	case K_GET:
		*t->ptr = atomic_load(q->val);
		break;
	case K_SET:
		atomic_store(q->val, t->val);
		value_changed(q->seq, q->sleepers);
		break;
	case K_ADD:
		*t->ptr = atomic_fetch_add(q->val, t->val);
		value_changed(q->seq, q->sleepers);
		break;
	default:
		v = atomic_load(q->val);
		if (!cond_met(t->kind, v, t->val, t->mask)) {
			wait_push(q, t);
			return 0;
		}
		break;
	}
	priv_doca_task_complete_pe(task, DOCA_SUCCESS);
	return 0;
}

/* Completes every wait whose condition holds (or all of them with @fail). */
static unsigned int check_waits(struct ctx_dp_queue *q, doca_error_t fail)
{
	uint64_t v = atomic_load(q->val);
	struct se_task **pp = &q->waits;
	unsigned int n = 0;

	while (*pp != NULL) {
		struct se_task *t = *pp;

		if (fail == DOCA_SUCCESS && !cond_met(t->kind, v, t->val, t->mask)) {
			pp = &t->wnext;
			continue;
		}
		*pp = t->wnext;
		q->nwaits--;
		priv_doca_task_complete_pe(&t->base, fail);
		n++;
	}
	q->wtail = pp;
	return n;
}

/* DOCA_SUCCESS, or why every pending wait must fail now (the end is final). */
static doca_error_t peer_status(struct ctx_dp_queue *q, bool check_pidfd)
{
	if (q->ended || atomic_load_explicit(q->state, memory_order_acquire) != SE_LIVE) {
		q->ended = true;
		return DOCA_ERROR_IO_FAILED;
	}
	if (check_pidfd && se_pidfd_gone(q->pidfd))
		return DOCA_ERROR_IO_FAILED;
	return DOCA_SUCCESS;
}

static unsigned int seq_poll(struct ctx_dp_queue *q, unsigned int budget)
{
	uint32_t s;
	bool tick;

	(void)budget;
	if (SD_LIKELY(q->nwaits == 0))
		return 0;
	s = atomic_load(q->seq);
	/*
	 * An exporter killed without a word is noticed through its pidfd, and a value a peer wrote
	 * without moving seq by reading it, now and then.
	 */
	tick = (q->pidfd >= 0 || atomic_load_explicit(q->shared, memory_order_relaxed)) &&
	       ((++q->polls & 1023) == 0 || q->look_now);
	if (s == q->last_seq && !q->user_val && !tick)
		return 0;
	q->last_seq = s;
	q->look_now = false;
	return check_waits(q, peer_status(q, tick));
}

static bool seq_pending(const struct ctx_dp_queue *cq)
{
	struct ctx_dp_queue *q = (struct ctx_dp_queue *)cq;
	uint32_t s;
	uint64_t v;

	if (q->nwaits == 0)
		return false;
	/* seq before the value: a change after this read moves seq, and the watcher sees it. */
	s = atomic_load(q->seq);
	v = atomic_load(q->val);
	if (peer_status(q, true) != DOCA_SUCCESS) {
		q->look_now = true;
		return true;
	}
	for (const struct se_task *t = q->waits; t != NULL; t = t->wnext)
		if (cond_met(t->kind, v, t->val, t->mask))
			return true;
	atomic_store(&q->watch_seq, s);
	atomic_store(&q->watch_val, v);
	atomic_store(&q->watching, 1);
	if (!q->thr_started) {
		int err = pthread_create(&q->thr, NULL, se_watch, q);

		if (err != 0) {
			SD_WARN(COMP,
				"cannot start the watcher thread (%s); a sleeping application is not woken by "
				"sync event changes: keep calling doca_pe_progress()",
				strerror(err));
			return true;
		}
		q->thr_started = true;
	}
	atomic_fetch_add(&q->ctl, 1);
	se_futex_wake_all(&q->ctl);
	return false;
}

static void seq_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	check_waits(q, status);
}

static const struct ctx_dp_ops se_dp_ops = {
    .name = "sync event tasks: act at submit, waits checked when the value changes",
    .queue_create = seq_create,
    .queue_destroy = seq_destroy,
    .submit = seq_submit,
    .poll = seq_poll,
    .pending = seq_pending,
    .cancel = seq_cancel,
};

/* ---- context ops ---- */

static inline struct doca_sync_event *se_of(struct doca_ctx *ctx)
{
	return (struct doca_sync_event *)ctx;
}

static doca_error_t se_ctx_start(struct doca_ctx *ctx)
{
	struct doca_sync_event *se = se_of(ctx);
	struct ctx_dp_queue *q;
	uint64_t n = 0;
	doca_error_t ret;

	ret = se_check_configured(se, "doca_ctx_start");
	if (ret != DOCA_SUCCESS)
		return ret;
	for (int k = 0; k < K_NB; k++)
		n += se->conf[k].num;
	if (n == 0)
		return SD_REJECT(
		    DOCA_ERROR_BAD_STATE, COMP,
		    "doca_ctx_start: %s has no task configuration; call doca_sync_event_task_<type>_set_conf() "
		    "before doca_ctx_start(), or use doca_sync_event_start() for synchronous calls only",
		    se_name(se));
	if (n > UINT32_MAX / 2)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_ctx_start: %s: %" PRIu64 " tasks are too many",
				 se_name(se), n);
	ret = priv_doca_ctx_pool_init(ctx, sizeof(struct se_task), (uint32_t)n, (uint32_t)n, &se_dp_ops);
	if (ret != DOCA_SUCCESS)
		return ret;
	q = ctx->queue;
	q->seq = se->seq;
	q->sleepers = se->sleepers;
	q->val = se->val;
	q->state = &se->shm->state;
	q->shared = &se->shared;
	q->pidfd = se_pidfd(se);
	q->user_val = se->user_val;
	q->last_seq = atomic_load(se->seq);
	return DOCA_SUCCESS;
}

static doca_error_t se_prepare(struct doca_task *task)
{
	struct se_task *t = (struct se_task *)task;
	struct doca_sync_event *se = se_of(task->ctx);

	task->bytes = 0;
	if (se_destroyed(se))
		return se_gone(se, "doca_task_submit", false);
	switch (t->kind) {
	case K_GET:
	case K_ADD:
		if (t->ptr == NULL)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
					 "%s: %s task %p has no %s pointer; pass one to alloc_init or its setter",
					 priv_doca_ctx_name(task->ctx), kind_name[t->kind], (void *)t,
					 t->kind == K_GET ? "return value" : "fetched value");
		break;
	case K_WAIT_EQ:
	case K_WAIT_NEQ:
		if (!mask_ok(t->mask))
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
					 "%s: %s task %p: mask 0x%" PRIx64 " is not 0 or 1, 2, 4 or 8 bytes of 0xff "
					 "at a multiple of their size (e.g. UINT64_MAX, 0xffffffff00000000)",
					 priv_doca_ctx_name(task->ctx), kind_name[t->kind], (void *)t, t->mask);
		break;
	default:
		break;
	}
	return DOCA_SUCCESS;
}

static void se_deliver(struct doca_task *task, bool success)
{
	struct doca_sync_event *se = se_of(task->ctx);
	struct se_task *t = (struct se_task *)task;
	union se_cb cb = success ? se->conf[t->kind].cb : se->conf[t->kind].err_cb;
	union doca_data tu = task->user_data, cu = task->ctx->user_data;

	switch (t->kind) {
	case K_GET:
		cb.get((struct doca_sync_event_task_get *)t, tu, cu);
		break;
	case K_SET:
		cb.set((struct doca_sync_event_task_notify_set *)t, tu, cu);
		break;
	case K_ADD:
		cb.add((struct doca_sync_event_task_notify_add *)t, tu, cu);
		break;
	case K_WAIT_EQ:
		cb.eq((struct doca_sync_event_task_wait_eq *)t, tu, cu);
		break;
	default:
		cb.neq((struct doca_sync_event_task_wait_neq *)t, tu, cu);
		break;
	}
}

static const struct ctx_ops se_ctx_ops = {
    .name = "sync_event",
    .policy = {.unordered = true}, /* a wait must not hold back the tasks behind it */
    .start = se_ctx_start,
    .prepare = se_prepare,
    .deliver = se_deliver,
};

/* ---- creation: an event is a context from the start ---- */

doca_error_t se_alloc(struct doca_sync_event **out)
{
	struct doca_sync_event *se = calloc(1, sizeof(*se));

	if (se == NULL)
		return DOCA_ERROR_NO_MEMORY;
	priv_doca_ctx_init(&se->ctx, &se_ctx_ops, NULL);
	se->memfd = -1;
	se->owner = getpid();
	atomic_init(&se->shared, false);
	*out = se;
	return DOCA_SUCCESS;
}

/* ---- tasks ---- */

static doca_error_t cap_yes(const struct doca_devinfo *devinfo, const char *call)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL devinfo", call);
	return DOCA_SUCCESS;
}

static doca_error_t set_conf(struct doca_sync_event *se, int kind, union se_cb cb, union se_cb err_cb, uint32_t num)
{
	char call[64];

	snprintf(call, sizeof(call), "doca_sync_event_task_%s_set_conf", kind_name[kind]);
	if (se == NULL || cb.any == NULL || err_cb.any == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s; pass the event and both callbacks", call,
				 se == NULL ? "event" : "callback");
	if (num == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: 0 tasks requested; ask for at least 1 (the samples take it from "
				 "--async-num-tasks)",
				 call);
	if (se->mode == SE_MODE_STANDALONE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is used stand-alone (doca_sync_event_start); tasks need "
				 "doca_sync_event_as_ctx() before any start",
				 call, se_name(se));
	if (priv_doca_ctx_check_idle(&se->ctx, call, "configure tasks while the context is IDLE") != DOCA_SUCCESS)
		return DOCA_ERROR_NOT_PERMITTED; /* as DOCA's sync event returns it */
	se->conf[kind].cb = cb;
	se->conf[kind].err_cb = err_cb;
	se->conf[kind].num = num;
	return DOCA_SUCCESS;
}

static doca_error_t task_alloc(struct doca_sync_event *se, int kind, union doca_data user_data, void *out,
			       struct se_task **t)
{
	struct doca_task *task = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(se == NULL || out == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_task_%s_alloc_init: NULL %s",
				 kind_name[kind], se == NULL ? "event" : "output argument");
	if (SD_UNLIKELY(se->conf[kind].cb.any == NULL))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_sync_event_task_%s_alloc_init: %s has no %s task configuration; call "
				 "doca_sync_event_task_%s_set_conf() before doca_ctx_start()",
				 kind_name[kind], se_name(se), kind_name[kind], kind_name[kind]);
	ret = priv_doca_task_alloc(&se->ctx, &task);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	task->user_data = user_data;
	*t = (struct se_task *)task;
	(*t)->kind = (uint8_t)kind;
	(*t)->val = 0;
	(*t)->mask = 0;
	(*t)->ptr = NULL;
	return DOCA_SUCCESS;
}

/* get */

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_yes(devinfo, "doca_sync_event_cap_task_get_is_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_set_conf(struct doca_sync_event *event,
								 doca_sync_event_task_get_completion_cb_t completion_cb,
								 doca_sync_event_task_get_completion_cb_t error_cb,
								 uint32_t num_tasks)
{
	return set_conf(event, K_GET, (union se_cb){.get = completion_cb}, (union se_cb){.get = error_cb}, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_alloc_init(struct doca_sync_event *event, uint64_t *ret_val_ptr,
								   union doca_data user_data,
								   struct doca_sync_event_task_get **task)
{
	struct se_task *t = NULL;
	doca_error_t ret;

	if (ret_val_ptr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_task_get_alloc_init: NULL ret_val_ptr");
	ret = task_alloc(event, K_GET, user_data, task, &t);
	if (ret != DOCA_SUCCESS)
		return ret;
	t->ptr = ret_val_ptr;
	*task = (struct doca_sync_event_task_get *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task,
								uint64_t *ret_val_ptr)
{
	if (task != NULL)
		task->t.ptr = ret_val_ptr;
}

DOCA_EXPERIMENTAL uint64_t *doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task)
{
	return task ? task->t.ptr : NULL;
}

/* notify set */

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_yes(devinfo, "doca_sync_event_cap_task_notify_set_is_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_set_conf(
    struct doca_sync_event *event, doca_sync_event_task_notify_set_completion_cb_t completion_cb,
    doca_sync_event_task_notify_set_completion_cb_t error_cb, uint32_t num_tasks)
{
	return set_conf(event, K_SET, (union se_cb){.set = completion_cb}, (union se_cb){.set = error_cb}, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_alloc_init(struct doca_sync_event *event,
									  uint64_t set_val, union doca_data user_data,
									  struct doca_sync_event_task_notify_set **task)
{
	struct se_task *t = NULL;
	doca_error_t ret = task_alloc(event, K_SET, user_data, task, &t);

	if (ret != DOCA_SUCCESS)
		return ret;
	t->val = set_val;
	*task = (struct doca_sync_event_task_notify_set *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task,
								   uint64_t set_val)
{
	if (task != NULL)
		task->t.val = set_val;
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task)
{
	return task ? task->t.val : 0;
}

/* notify add */

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_yes(devinfo, "doca_sync_event_cap_task_notify_add_is_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_set_conf(
    struct doca_sync_event *event, doca_sync_event_task_notify_add_completion_cb_t completion_cb,
    doca_sync_event_task_notify_add_completion_cb_t error_cb, uint32_t num_tasks)
{
	return set_conf(event, K_ADD, (union se_cb){.add = completion_cb}, (union se_cb){.add = error_cb}, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_alloc_init(struct doca_sync_event *event,
									  uint64_t inc_val, uint64_t *fetched_val_ptr,
									  union doca_data user_data,
									  struct doca_sync_event_task_notify_add **task)
{
	struct se_task *t = NULL;
	doca_error_t ret;

	if (fetched_val_ptr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_task_notify_add_alloc_init: NULL fetched_val_ptr");
	ret = task_alloc(event, K_ADD, user_data, task, &t);
	if (ret != DOCA_SUCCESS)
		return ret;
	t->val = inc_val;
	t->ptr = fetched_val_ptr;
	*task = (struct doca_sync_event_task_notify_add *)t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task,
								   uint64_t inc_val)
{
	if (task != NULL)
		task->t.val = inc_val;
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task)
{
	return task ? task->t.val : 0;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
									   uint64_t *fetched_val_ptr)
{
	if (task != NULL)
		task->t.ptr = fetched_val_ptr;
}

DOCA_EXPERIMENTAL uint64_t *
doca_sync_event_task_notify_add_get_fetched_val_ptr(const struct doca_sync_event_task_notify_add *task)
{
	return task ? task->t.ptr : NULL;
}

/* wait eq / neq */

static doca_error_t wait_alloc(struct doca_sync_event *se, int kind, uint64_t wait_val, uint64_t mask,
			       union doca_data user_data, void *out, struct se_task **t)
{
	doca_error_t ret;

	if (!mask_ok(mask))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_task_%s_alloc_init: mask 0x%" PRIx64 " is not 0 or 1, 2, 4 or 8 "
				 "bytes of 0xff at a multiple of their size (e.g. UINT64_MAX, 0xffffffff)",
				 kind_name[kind], mask);
	ret = task_alloc(se, kind, user_data, out, t);
	if (ret != DOCA_SUCCESS)
		return ret;
	(*t)->val = wait_val;
	(*t)->mask = mask;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_yes(devinfo, "doca_sync_event_cap_task_wait_eq_is_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_set_conf(
    struct doca_sync_event *event, doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
    doca_sync_event_task_wait_eq_completion_cb_t error_cb, uint32_t num_tasks)
{
	return set_conf(event, K_WAIT_EQ, (union se_cb){.eq = completion_cb}, (union se_cb){.eq = error_cb}, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_alloc_init(struct doca_sync_event *event, uint64_t wait_val,
								       uint64_t mask, union doca_data user_data,
								       struct doca_sync_event_task_wait_eq **task)
{
	struct se_task *t = NULL;
	doca_error_t ret = wait_alloc(event, K_WAIT_EQ, wait_val, mask, user_data, task, &t);

	if (ret == DOCA_SUCCESS)
		*task = (struct doca_sync_event_task_wait_eq *)t;
	return ret;
}

DOCA_EXPERIMENTAL struct doca_task *doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task,
								 uint64_t wait_val)
{
	if (task != NULL)
		task->t.val = wait_val;
}

DOCA_EXPERIMENTAL uint64_t doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task)
{
	return task ? task->t.val : 0;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask)
{
	if (task != NULL)
		task->t.mask = mask;
}

DOCA_EXPERIMENTAL uint64_t doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task)
{
	return task ? task->t.mask : 0;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_yes(devinfo, "doca_sync_event_cap_task_wait_neq_is_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_set_conf(
    struct doca_sync_event *event, doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
    doca_sync_event_task_wait_neq_completion_cb_t error_cb, uint32_t num_tasks)
{
	return set_conf(event, K_WAIT_NEQ, (union se_cb){.neq = completion_cb}, (union se_cb){.neq = error_cb},
			num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_alloc_init(struct doca_sync_event *event,
									uint64_t wait_val, uint64_t mask,
									union doca_data user_data,
									struct doca_sync_event_task_wait_neq **task)
{
	struct se_task *t = NULL;
	doca_error_t ret = wait_alloc(event, K_WAIT_NEQ, wait_val, mask, user_data, task, &t);

	if (ret == DOCA_SUCCESS)
		*task = (struct doca_sync_event_task_wait_neq *)t;
	return ret;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task,
								  uint64_t wait_val)
{
	if (task != NULL)
		task->t.val = wait_val;
}

DOCA_EXPERIMENTAL uint64_t doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task)
{
	return task ? task->t.val : 0;
}

DOCA_EXPERIMENTAL void doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask)
{
	if (task != NULL)
		task->t.mask = mask;
}

DOCA_EXPERIMENTAL uint64_t doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task)
{
	return task ? task->t.mask : 0;
}

/* ---- what softdoca does not have: DPA, GPU, remote network ---- */

static doca_error_t no_unit(const void *a, const void *b, const char *call, const char *what)
{
	if (a == NULL || b == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "%s: softdoca has no %s; share events between CPUs "
			 "(doca_sync_event_export_to_remote_pci)",
			 call, what);
}

static doca_error_t no_cap(const struct doca_devinfo *devinfo, const char *call)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL devinfo", call);
	return DOCA_ERROR_NOT_SUPPORTED; /* a capability answer, not a rejection */
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data,
									     size_t sz,
									     struct doca_sync_event_remote_net **event)
{
	(void)sz;
	if (event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_remote_net_create_from_export: NULL output argument");
	return no_unit(dev, data, "doca_sync_event_remote_net_create_from_export", "remote-network sync events");
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	return no_cap(devinfo, "doca_sync_event_cap_remote_net_is_create_from_export_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event)
{
	(void)event;
	return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
			 "doca_sync_event_remote_net_destroy: softdoca never creates remote-network events");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
							      doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	if (dpa_dev_se_handle == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_get_dpa_handle: NULL output");
	return no_unit(event, dpa, "doca_sync_event_get_dpa_handle", "DPA");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	return no_cap(devinfo, "doca_sync_event_cap_is_export_to_dpa_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
							      doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	if (gpu_dev_se == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_get_gpu_handle: NULL output");
	return no_unit(event, gpu, "doca_sync_event_get_gpu_handle", "GPU");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	return no_cap(devinfo, "doca_sync_event_cap_is_export_to_gpu_supported");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event, const uint8_t **data,
								    size_t *sz)
{
	if (sz == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_export_to_remote_net: NULL output");
	return no_unit(event, data, "doca_sync_event_export_to_remote_net", "remote-network sync events");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo)
{
	return no_cap(devinfo, "doca_sync_event_cap_is_export_to_remote_net_supported");
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_get_dpa_handle(struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
					  doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	if (dpa_remote_event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_remote_net_get_dpa_handle: NULL output");
	return no_unit(event, dpa, "doca_sync_event_remote_net_get_dpa_handle", "DPA");
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	return no_cap(devinfo, "doca_sync_event_cap_remote_net_is_export_to_dpa_supported");
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_get_gpu_handle(struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
					  doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	if (gpu_remote_event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_remote_net_get_gpu_handle: NULL output");
	return no_unit(event, gpu, "doca_sync_event_remote_net_get_gpu_handle", "GPU");
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	return no_cap(devinfo, "doca_sync_event_cap_remote_net_is_export_to_gpu_supported");
}
