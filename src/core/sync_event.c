/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event.c - DOCA Sync Event: a 64-bit value updated, read and waited on by this process
 * and by a PCIe peer (another process), synchronously or through tasks on a progress engine.
 *
 *   creator (exporter)                                  importer (the PCIe peer)
 *   ------------------                                  ------------------------
 *   doca_sync_event_create: one page of a memfd         doca_sync_event_create_from_export:
 *     {magic, id, self_addr, state, value, seq,           mmap descriptor -> doca_mmap_create_from_export
 *      sleepers}, mapped read-write                         (every identity check of export.c)
 *   export_to_remote_pci(dev): an internal mmap         open /proc/<pid>/fd/<memfd>, map it read-write,
 *     over the page, exported with                        check magic, id and that the page is the
 *     doca_mmap_export_pci(), plus a trailer              exported range (self_addr == range start)
 *     {memfd number, id, checksum}          ------>     both sides: atomics on the same page
 *   destroy: state = DESTROYED, seq++, wake;            the from-export mmap keeps the exporter's
 *     the mmap export is revoked                          pidfd: a killed exporter is noticed there
 *
 * Every change of the value is followed by seq++ (the futex word); a thread that wants to sleep
 * until the value changes increments `sleepers`, re-reads seq and FUTEX_WAITs on it, so an
 * updater makes a system call only when somebody sleeps.
 *
 * As a context (doca_sync_event_as_ctx) the event runs its tasks on its own data path (below):
 * get / notify-set / notify-add act at submit, wait tasks are checked by poll() whenever seq
 * moved. Arming the PE notification hands pending waits to a watcher thread that sleeps on seq
 * and makes the PE's handle readable when it moves (docs/sync-event.md has the latencies).
 *
 * Threading: as in DOCA, one application thread uses an event at a time. The watcher thread
 * only reads the queue's watch fields and the shared page, and writes the PE eventfd.
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

#define COMP "sync_event"

enum se_mode { SE_MODE_UNSET, SE_MODE_STANDALONE, SE_MODE_CTX };
enum se_loc { SE_LOC_NONE, SE_LOC_CPU, SE_LOC_REMOTE_PCI };
/* Task types; K_WAIT_GT exists only for the blocking calls. */
enum se_kind { K_GET, K_SET, K_ADD, K_WAIT_EQ, K_WAIT_NEQ, K_NB, K_WAIT_GT = K_NB };

static const char *const kind_name[K_NB] = {"get", "notify_set", "notify_add", "wait_eq", "wait_neq"};

/* The callbacks of one task type; kind says which member is set. */
union se_cb {
	doca_sync_event_task_get_completion_cb_t get;
	doca_sync_event_task_notify_set_completion_cb_t set;
	doca_sync_event_task_notify_add_completion_cb_t add;
	doca_sync_event_task_wait_eq_completion_cb_t eq;
	doca_sync_event_task_wait_neq_completion_cb_t neq;
	void *any; /* NULL: the type is not configured */
};

struct se_export {
	const struct doca_dev *dev;
	struct doca_mmap *mmap;
	uint8_t bytes[SE_DESC_LEN];
};

struct doca_sync_event {
	struct doca_ctx ctx; /* first: doca_sync_event_as_ctx is a cast both ways */
	enum se_mode mode;
	bool started; /* stand-alone start */
	bool imported;
	bool user_val; /* value in memory given with set_addr / set_doca_buf */
	enum se_loc pub, sub;
	/* The value and its futex words: in the page, or the user's memory and the two below. */
	_Atomic uint64_t *val;
	_Atomic uint32_t *seq;
	_Atomic uint32_t *sleepers;
	_Atomic uint32_t own_seq, own_sleepers;
	struct se_shm *shm;    /* creator: its page; importer: the exporter's page */
	bool ended;	       /* the page's state word read other than LIVE once: the event is over */
	uint32_t end_state;    /* the word then read */
	uint8_t said;	       /* causes of the end already logged (gone()) */
	atomic_bool shared;    /* a peer maps the page (imported, or exported once): sleeps are bounded */
	int memfd;	       /* creator only */
	uint8_t id[SE_ID_LEN]; /* creator only: the page's id, kept here (an importer may rewrite the page's) */
	pid_t owner;
	struct doca_mmap *imp; /* importer: the from-export mmap (pidfd, record) */
	struct se_export *exps;
	uint32_t nexps;
	struct {
		union se_cb cb, err_cb;
		uint32_t num;
	} conf[K_NB];
};

struct se_task {
	struct doca_task base; /* first: the generic view */
	uint8_t kind;
	uint64_t val; /* set value, increment, or wait value */
	uint64_t mask;
	uint64_t *ptr; /* get: where the value goes; add: where the old value goes */
	struct se_task *wnext;
};

/* The public task types are views of struct se_task. */
struct doca_sync_event_task_get {
	struct se_task t;
};
struct doca_sync_event_task_notify_set {
	struct se_task t;
};
struct doca_sync_event_task_notify_add {
	struct se_task t;
};
struct doca_sync_event_task_wait_eq {
	struct se_task t;
};
struct doca_sync_event_task_wait_neq {
	struct se_task t;
};

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

/* ---- futex and liveness ---- */

static long futex_wait(_Atomic uint32_t *addr, uint32_t expect, const struct timespec *ts)
{
	return syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, expect, ts, NULL, 0);
}

static void futex_wake_all(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* After every change of the value: waiters (here or in the peer) look again. */
static inline void value_changed(_Atomic uint32_t *seq, _Atomic uint32_t *sleepers)
{
	atomic_fetch_add(seq, 1);
	if (SD_UNLIKELY(atomic_load(sleepers) != 0))
		futex_wake_all(seq);
}

static inline void se_changed(struct doca_sync_event *se)
{
	value_changed(se->seq, se->sleepers);
}

static bool pidfd_gone(int pidfd)
{
	struct pollfd p = {.fd = pidfd, .events = POLLIN};

	return pidfd >= 0 && poll(&p, 1, 0) == 1;
}

static int se_pidfd(const struct doca_sync_event *se)
{
	return se->imported ? se->imp->remote->domain.u.process.pidfd : -1;
}

/*
 * One load: the creator destroyed the event (or wrote a state word that is no state). The end is
 * final: a page that reads LIVE again afterwards is not believed.
 */
static inline bool se_destroyed(const struct doca_sync_event *se)
{
	if (SD_UNLIKELY(se->ended))
		return true;
	uint32_t state = atomic_load_explicit(&se->shm->state, memory_order_acquire);

	if (SD_LIKELY(state == SE_LIVE))
		return false;
	((struct doca_sync_event *)se)->end_state = state;
	((struct doca_sync_event *)se)->ended = true;
	return true;
}

static const char *se_name(const struct doca_sync_event *se)
{
	static _Thread_local char name[96];

	if (se->imported)
		snprintf(name, sizeof(name), "sync event %p (imported from pid %d)", (const void *)se,
			 (int)se->imp->pid);
	else
		snprintf(name, sizeof(name), "sync event %p", (const void *)se);
	return name;
}

/*
 * The event is over: IO_FAILED, and one line per cause and event (not one per call). Only the
 * creator destroys an event: a creator that reads a state word it did not write, or an importer
 * that reads one that is no state, names the peer that broke the page's rule.
 */
static doca_error_t gone(const struct doca_sync_event *cse, const char *call, bool killed)
{
	struct doca_sync_event *se = (struct doca_sync_event *)cse; /* only said is written */
	uint32_t state = se->end_state;
	unsigned int bit = killed ? 1u : (se->imported && state == SE_DESTROYED) ? 2u : 4u;

	if (se->said & bit)
		return DOCA_ERROR_IO_FAILED;
	se->said |= bit;
	if (bit == 4u && se->imported)
		return SD_REJECT(DOCA_ERROR_IO_FAILED, COMP,
				 "%s: %s: the exporter broke a rule of the shared page: its state word %u is neither "
				 "LIVE nor DESTROYED; the event is over: destroy it and import a new export",
				 call, se_name(se), state);
	if (bit == 4u)
		return SD_REJECT(DOCA_ERROR_IO_FAILED, COMP,
				 "%s: %s: an importer broke a rule of the shared page: it wrote state word %u (only "
				 "the creator ends the event); the event is over: destroy it and create a new one",
				 call, se_name(se), state);
	return SD_REJECT(DOCA_ERROR_IO_FAILED, COMP,
			 "%s: %s: the exporter %s; the value can no longer change: destroy this event and import a "
			 "new export",
			 call, se_name(se), killed ? "exited" : "destroyed the event");
}

static inline bool cond_met(int kind, uint64_t v, uint64_t val, uint64_t mask)
{
	v &= mask;
	switch (kind) {
	case K_WAIT_EQ:
		return v == val;
	case K_WAIT_NEQ:
		return v != val;
	default: /* K_WAIT_GT */
		return v > val;
	}
}

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
			futex_wait(&q->ctl, c, NULL);
			continue;
		}
		want = atomic_load(&q->watch_seq);
		if (atomic_load(q->seq) == want && atomic_load(q->state) == SE_LIVE) {
			/* A peer may write the value without moving seq, or die asleep: look again now and then. */
			bool shared = atomic_load(q->shared);

			atomic_fetch_add(q->sleepers, 1);
			if (atomic_load(q->seq) == want && !atomic_load(&q->quit))
				futex_wait(q->seq, want, q->user_val ? &user_tick : (shared ? &peer_tick : NULL));
			atomic_fetch_sub(q->sleepers, 1);
			if (atomic_load(&q->quit))
				break;
			if (atomic_load(q->seq) == want && atomic_load(q->state) == SE_LIVE && !pidfd_gone(q->pidfd) &&
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
		futex_wake_all(&q->ctl);
		/*
		 * The watcher may be about to sleep on seq, having looked at quit already: moving seq
		 * makes that FUTEX_WAIT return at once. Other waiters merely look again.
		 */
		atomic_fetch_add(q->seq, 1);
		futex_wake_all(q->seq);
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
	if (check_pidfd && pidfd_gone(q->pidfd))
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
	futex_wake_all(&q->ctl);
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

static doca_error_t check_configured(const struct doca_sync_event *se, const char *call)
{
	if (se->imported || (se->pub != SE_LOC_NONE && se->sub != SE_LOC_NONE))
		return DOCA_SUCCESS;
	return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
			 "%s: %s has no %s location; call doca_sync_event_add_%s_location_cpu() or _remote_pci() "
			 "first",
			 call, se_name(se), se->pub == SE_LOC_NONE ? "publisher" : "subscriber",
			 se->pub == SE_LOC_NONE ? "publisher" : "subscriber");
}

static doca_error_t se_ctx_start(struct doca_ctx *ctx)
{
	struct doca_sync_event *se = se_of(ctx);
	struct ctx_dp_queue *q;
	uint64_t n = 0;
	doca_error_t ret;

	ret = check_configured(se, "doca_ctx_start");
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
		return gone(se, "doca_task_submit", false);
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

/* ---- creation and destruction ---- */

static doca_error_t se_alloc(struct doca_sync_event **out)
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

static void se_point_at_page(struct doca_sync_event *se)
{
	se->val = &se->shm->value;
	se->seq = &se->shm->seq;
	se->sleepers = &se->shm->sleepers;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create(struct doca_sync_event **event)
{
	struct doca_sync_event *se;
	struct se_shm *shm;
	size_t got = 0;
	doca_error_t ret;
	int err;

	if (event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_create: NULL output argument");
	ret = se_alloc(&se);
	if (ret != DOCA_SUCCESS)
		return ret;
	se->memfd = memfd_create("softdoca-sync-event", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (se->memfd < 0) {
		err = errno;
		goto fail;
	}
	if (ftruncate(se->memfd, (off_t)page_size()) != 0) {
		err = errno;
		goto fail;
	}
	/* The peer maps the page: it must never shrink under it. */
	fcntl(se->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	shm = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, se->memfd, 0);
	if (shm == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	se->shm = shm;
	while (got < SE_ID_LEN) {
		ssize_t n = getrandom(se->id + got, SE_ID_LEN - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = errno;
			goto fail;
		}
		got += (size_t)n;
	}
	memcpy(shm->id, se->id, SE_ID_LEN);
	shm->magic = SE_SHM_MAGIC;
	shm->self_addr = (uint64_t)(uintptr_t)shm;
	atomic_store(&shm->value, 0);
	atomic_store_explicit(&shm->state, SE_LIVE, memory_order_release);
	se_point_at_page(se);
	*event = se;
	return DOCA_SUCCESS;

fail:
	if (se->shm != NULL)
		munmap(se->shm, page_size());
	if (se->memfd >= 0)
		close(se->memfd);
	free(se);
	return SD_REJECT(err == ENOMEM || err == EMFILE ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_OPERATING_SYSTEM, COMP,
			 "doca_sync_event_create: cannot create the value's shared page: %s", strerror(err));
}

static void se_release(struct doca_sync_event *se)
{
	for (uint32_t i = 0; i < se->nexps; i++)
		doca_mmap_destroy(se->exps[i].mmap); /* revokes the export record */
	free(se->exps);
	if (se->shm != NULL) {
		if (!se->imported && se->owner == getpid()) {
			atomic_store_explicit(&se->shm->state, SE_DESTROYED, memory_order_release);
			atomic_fetch_add(&se->shm->seq, 1);
			futex_wake_all(&se->shm->seq); /* sleepers in the peer see the end now */
		}
		munmap(se->shm, page_size());
	}
	if (se->memfd >= 0)
		close(se->memfd);
	if (se->imp != NULL)
		doca_mmap_destroy(se->imp);
	free(se);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_destroy(struct doca_sync_event *event)
{
	doca_error_t ret;

	if (event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_destroy: NULL event");
	ret = priv_doca_ctx_fini(&event->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	event->started = false;
	se_release(event);
	return DOCA_SUCCESS;
}

/* ---- import ---- */

#define IMP "doca_sync_event_create_from_export"

/*
 * Maps the exporter's page read-write and checks it is the page the export names, on a private
 * copy of the page's header read once. Afterwards only the atomics are read, each use on its own.
 */
static doca_error_t open_page(const struct doca_mmap *m, const uint8_t id[SE_ID_LEN], int memfd, struct se_shm **out)
{
	struct se_shm *shm, copy;
	char path[64], why[96];
	struct stat st;
	int fd, err, seals;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)m->pid, memfd);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (err == EACCES || err == EPERM)
			return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
					 IMP
					 ": opening the value page of exporter pid %d: %s; both processes must run as "
					 "the same user (see docs/cross-process.md, Security)",
					 (int)m->pid, strerror(err));
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale export: fd %d of exporter pid %d cannot be opened (%s): the event was "
				     "destroyed; export again",
				 memfd, (int)m->pid, strerror(err));
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < page_size()) {
		close(fd);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale or forged export: fd %d of exporter pid %d is not a sync event page",
				 memfd, (int)m->pid);
	}
	/* Every get, update and wait touches the page: one the exporter could shrink would be SIGBUS. */
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
		close(fd);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": exporter pid %d broke a rule of the shared page: fd %d is not sealed against "
				     "shrinking (F_SEAL_SHRINK); export with doca_sync_event_export_to_remote_pci()",
				 (int)m->pid, memfd);
	}
	shm = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (shm == MAP_FAILED)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, IMP ": mapping the value page of pid %d: %s", (int)m->pid,
				 strerror(err));
	memcpy(&copy, (const void *)shm, sizeof(copy));
	atomic_store_explicit(&copy.state, atomic_load_explicit(&shm->state, memory_order_acquire),
			      memory_order_relaxed);
	switch (se_page_check(&copy, id, (uint64_t)(uintptr_t)m->addr, why, sizeof(why))) {
	case SE_PAGE_OK:
		*out = shm;
		return DOCA_SUCCESS;
	case SE_PAGE_NOT_OURS:
		munmap(shm, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale or forged export: fd %d of exporter pid %d is not the page of this event",
				 memfd, (int)m->pid);
	case SE_PAGE_BROKEN:
		munmap(shm, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": exporter pid %d broke a rule of the shared page: %s; export with "
				     "doca_sync_event_export_to_remote_pci()",
				 (int)m->pid, why);
	default:
		munmap(shm, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale export: exporter pid %d destroyed the event; export again", (int)m->pid);
	}
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
								  struct doca_sync_event **event)
{
	struct doca_sync_event *se;
	struct doca_mmap *m = NULL;
	struct se_shm *shm = NULL;
	struct se_export_desc x;
	char err[240];
	doca_error_t ret;

	if (dev == NULL || data == NULL || event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, IMP ": NULL %s",
				 dev == NULL	? "device"
				 : data == NULL ? "export data"
						: "output argument");
	if (!dev->info.profile->import_pci)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 IMP
				 ": device %s may not import (profile '%s' sets import_pci = no); pick a device for "
				 "which doca_sync_event_cap_is_create_from_export_supported() succeeds",
				 priv_doca_dev_name(&dev->info), dev->info.profile->name);
	/* Decoded once into private memory: the application's buffer may change under us. */
	if (se_export_decode(data, sz, &x, err, sizeof(err)) != DOCA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, IMP ": %s", err);
	/* The mmap part carries the identity checks: pairing, pid, start time, live record, pidfd. */
	ret = doca_mmap_create_from_export(NULL, data, EXPORT_DESC_LEN, dev, &m); /* decodes it once too */
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = open_page(m, x.id, x.memfd, &shm);
	if (ret != DOCA_SUCCESS)
		goto fail;
	ret = se_alloc(&se);
	if (ret != DOCA_SUCCESS)
		goto fail;
	se->imported = true;
	se->shm = shm;
	se->imp = m;
	atomic_store(&se->shared, true);
	se->ctx.dev = dev;
	se_point_at_page(se);
	SD_DBG(COMP, "%s imported through %s", se_name(se), priv_doca_dev_name(&dev->info));
	*event = se;
	return DOCA_SUCCESS;
fail:
	if (shm != NULL)
		munmap(shm, page_size());
	doca_mmap_destroy(m);
	return ret;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_cap_is_create_from_export_supported: NULL devinfo");
	return devinfo->profile->import_pci ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_sync_event_cap_is_export_to_remote_pci_supported: NULL devinfo");
	return devinfo->profile->export_pci ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

/* ---- export ---- */

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event, struct doca_dev *dev,
								    const uint8_t **data, size_t *sz)
{
	const char *call = "doca_sync_event_export_to_remote_pci";
	struct doca_mmap *m = NULL;
	const void *desc = NULL;
	size_t len = 0;
	struct se_export *x;
	doca_error_t ret;

	if (event == NULL || dev == NULL || data == NULL || sz == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 event == NULL ? "event"
				 : dev == NULL ? "device"
					       : "output argument");
	if (event->imported)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s was itself created from an export; only the creating process exports", call,
				 se_name(event));
	if (event->user_val)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: %s keeps its value in memory given with doca_sync_event_set_addr/_set_doca_buf; "
				 "softdoca shares only its own page with a peer: do not set an address for exported "
				 "events",
				 call, se_name(event));
	if (event->pub == SE_LOC_NONE || event->sub == SE_LOC_NONE ||
	    (event->pub != SE_LOC_REMOTE_PCI && event->sub != SE_LOC_REMOTE_PCI))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s must have a publisher and a subscriber location, one of them remote PCI "
				 "(doca_sync_event_add_publisher_location_remote_pci() or "
				 "..._subscriber_location_remote_pci()), before it is exported",
				 call, se_name(event));
	if (!dev->info.profile->export_pci)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: device %s may not export (profile '%s' sets export_pci = no); pick a device for "
				 "which doca_sync_event_cap_is_export_to_remote_pci_supported() succeeds",
				 call, priv_doca_dev_name(&dev->info), dev->info.profile->name);
	for (uint32_t i = 0; i < event->nexps; i++) {
		if (event->exps[i].dev == dev) {
			*data = event->exps[i].bytes;
			*sz = SE_DESC_LEN;
			return DOCA_SUCCESS;
		}
	}
	x = realloc(event->exps, (event->nexps + 1) * sizeof(*x));
	if (x == NULL)
		return DOCA_ERROR_NO_MEMORY;
	event->exps = x;
	x = &event->exps[event->nexps];
	/* The page is exported as an mmap: export.c owns the identity record and the Yama rules. */
	ret = doca_mmap_create(&m);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(m, event->shm, page_size());
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(m, dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(m);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_export_pci(m, dev, &desc, &len);
	if (ret == DOCA_SUCCESS && len != EXPORT_DESC_LEN)
		ret = DOCA_ERROR_DRIVER;
	if (ret != DOCA_SUCCESS) {
		if (m != NULL)
			doca_mmap_destroy(m);
		return SD_REJECT(ret, COMP, "%s: %s: exporting its page through %s failed (%s)", call, se_name(event),
				 priv_doca_dev_name(&dev->info), doca_error_get_name(ret));
	}
	x->dev = dev;
	x->mmap = m;
	memcpy(x->bytes, desc, EXPORT_DESC_LEN);
	se_export_encode(event->id, event->memfd, x->bytes);
	event->nexps++;
	atomic_store(&event->shared, true);
	*data = x->bytes;
	*sz = SE_DESC_LEN;
	SD_DBG(COMP, "%s exported through %s", se_name(event), priv_doca_dev_name(&dev->info));
	return DOCA_SUCCESS;
}

/* ---- configuration ---- */

static doca_error_t check_config_call(const struct doca_sync_event *se, const char *call)
{
	if (se->imported)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s was created from an export and takes no configuration; configure the "
				 "exporting side",
				 call, se_name(se));
	if (se->started || se->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: %s is started; configure it before starting it", call,
				 se_name(se));
	return DOCA_SUCCESS;
}

static doca_error_t set_location(struct doca_sync_event *se, bool publisher, enum se_loc loc, struct doca_dev *dev,
				 const char *call)
{
	enum se_loc *slot;
	doca_error_t ret;

	if (se == NULL || (loc == SE_LOC_CPU && dev == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call, se == NULL ? "event" : "device");
	ret = check_config_call(se, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	slot = publisher ? &se->pub : &se->sub;
	if (*slot != SE_LOC_NONE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s already has a %s location (%s); an event has exactly one: create another "
				 "event for another %s",
				 call, se_name(se), publisher ? "publisher" : "subscriber",
				 *slot == SE_LOC_CPU ? "cpu" : "remote PCI", publisher ? "publisher" : "subscriber");
	*slot = loc;
	if (dev != NULL && se->ctx.dev == NULL)
		se->ctx.dev = dev;
	return DOCA_SUCCESS;
}

static doca_error_t unsupported_loc(const void *se, const void *obj, const char *call, const char *what)
{
	if (se == NULL || obj == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP, "%s: softdoca has no %s; use the cpu or remote PCI locations",
			 call, what);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event,
									  struct doca_dev *dev)
{
	return set_location(event, true, SE_LOC_CPU, dev, "doca_sync_event_add_publisher_location_cpu");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event,
									  struct doca_dpa *dpa)
{
	return unsupported_loc(event, dpa, "doca_sync_event_add_publisher_location_dpa", "DPA");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event,
									  struct doca_gpu *gpu)
{
	return unsupported_loc(event, gpu, "doca_sync_event_add_publisher_location_gpu", "GPU");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event)
{
	return set_location(event, true, SE_LOC_REMOTE_PCI, NULL, "doca_sync_event_add_publisher_location_remote_pci");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event)
{
	return unsupported_loc(event, event, "doca_sync_event_add_publisher_location_remote_net",
			       "remote-network (RDMA) sync events");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event,
									   struct doca_dev *dev)
{
	return set_location(event, false, SE_LOC_CPU, dev, "doca_sync_event_add_subscriber_location_cpu");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event,
									   struct doca_dpa *dpa)
{
	return unsupported_loc(event, dpa, "doca_sync_event_add_subscriber_location_dpa", "DPA");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event,
									   struct doca_gpu *gpu)
{
	return unsupported_loc(event, gpu, "doca_sync_event_add_subscriber_location_gpu", "GPU");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event)
{
	return set_location(event, false, SE_LOC_REMOTE_PCI, NULL,
			    "doca_sync_event_add_subscriber_location_remote_pci");
}

static doca_error_t use_user_value(struct doca_sync_event *se, uint64_t *addr, const char *call)
{
	if (se->nexps != 0)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is already exported; its value must stay in the shared page", call,
				 se_name(se));
	if (((uintptr_t)addr & 7) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %p is not 8-byte aligned; the value is updated atomically and needs an aligned "
				 "uint64_t",
				 call, (void *)addr);
	se->val = (_Atomic uint64_t *)addr;
	se->seq = &se->own_seq;
	se->sleepers = &se->own_sleepers;
	se->user_val = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event, uint64_t *addr)
{
	doca_error_t ret;

	if (event == NULL || addr == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_set_addr: NULL %s",
				 event == NULL ? "event" : "address");
	ret = check_config_call(event, "doca_sync_event_set_addr");
	if (ret != DOCA_SUCCESS)
		return ret;
	return use_user_value(event, addr, "doca_sync_event_set_addr");
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event, struct doca_buf *buf)
{
	const char *call = "doca_sync_event_set_doca_buf";
	doca_error_t ret;

	if (event == NULL || buf == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call, event == NULL ? "event" : "buf");
	ret = check_config_call(event, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (buf->mmap == NULL || !buf->is_head || buf->next != NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: buf %p is %s; pass one allocated buf, not a list",
				 call, (void *)buf, buf->mmap == NULL ? "released" : "part of a list");
	if (buf->mmap->kind != MMAP_LOCAL)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: buf %p lies in memory of another process; the value must be in this process",
				 call, (void *)buf);
	if (!(buf->mmap->access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) || buf->data_len != 8)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: buf %p must hold exactly 8 data bytes (it has %zu) in an mmap granting "
				 "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE",
				 call, (void *)buf, buf->data_len);
	return use_user_value(event, (uint64_t *)(void *)buf->data, call);
}

/* ---- stand-alone start / stop, context view ---- */

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_start(struct doca_sync_event *event)
{
	doca_error_t ret;

	if (event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_start: NULL event");
	if (event->mode == SE_MODE_CTX)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_sync_event_start: %s is used as a context (doca_sync_event_as_ctx); start it "
				 "with doca_ctx_start() instead",
				 se_name(event));
	if (event->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_sync_event_start: %s is already started",
				 se_name(event));
	ret = check_configured(event, "doca_sync_event_start");
	if (ret != DOCA_SUCCESS)
		return ret;
	event->mode = SE_MODE_STANDALONE;
	event->started = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_stop(struct doca_sync_event *event)
{
	if (event == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_stop: NULL event");
	if (event->mode == SE_MODE_CTX)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_sync_event_stop: %s is used as a context; stop it with doca_ctx_stop()",
				 se_name(event));
	if (!event->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_sync_event_stop: %s is not started (doca_sync_event_start)", se_name(event));
	event->started = false;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event)
{
	if (event == NULL)
		return NULL;
	if (event->mode == SE_MODE_STANDALONE) {
		SD_ERR(COMP,
		       "doca_sync_event_as_ctx: %s was started with doca_sync_event_start(); an event is either "
		       "stand-alone or a context: convert it before starting it",
		       se_name(event));
		return NULL;
	}
	event->mode = SE_MODE_CTX;
	return &event->ctx;
}

/* ---- synchronous operations ---- */

static inline doca_error_t check_ready(const struct doca_sync_event *se, const char *call)
{
	if (SD_UNLIKELY(se == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL event", call);
	if (SD_UNLIKELY(!se->started && !(se->mode == SE_MODE_CTX && se->ctx.state == DOCA_CTX_STATE_RUNNING)))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: %s is not started; call doca_sync_event_start() (or doca_ctx_start() on its "
				 "context) first",
				 call, se_name(se));
	if (SD_UNLIKELY(se_destroyed(se)))
		return gone(se, call, false);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value)
{
	doca_error_t ret;

	if (SD_UNLIKELY(value == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_get: NULL output argument");
	ret = check_ready(event, "doca_sync_event_get");
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	*value = atomic_load(event->val);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_add(struct doca_sync_event *event, uint64_t value,
							  uint64_t *fetched)
{
	doca_error_t ret;

	if (SD_UNLIKELY(fetched == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_sync_event_update_add: NULL fetched pointer");
	ret = check_ready(event, "doca_sync_event_update_add");
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	*fetched = atomic_fetch_add(event->val, value);
	se_changed(event);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_set(struct doca_sync_event *event, uint64_t value)
{
	doca_error_t ret = check_ready(event, "doca_sync_event_update_set");

	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	atomic_store(event->val, value);
	se_changed(event);
	return DOCA_SUCCESS;
}

/* Looks this many times (spinning, or yielding) before sleeping in the kernel until seq moves. */
#define SE_SPINS  4096
#define SE_YIELDS 64

static doca_error_t se_wait(struct doca_sync_event *se, int kind, uint64_t value, uint64_t mask, bool yield,
			    const char *call)
{
	const struct timespec peer_tick = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};
	const struct timespec user_tick = {.tv_sec = 0, .tv_nsec = 1000 * 1000};
	unsigned int looks = 0, limit = yield ? SE_YIELDS : SE_SPINS;
	doca_error_t ret = check_ready(se, call);

	if (ret != DOCA_SUCCESS)
		return ret;
	for (;;) {
		uint32_t s = atomic_load(se->seq);

		if (cond_met(kind, atomic_load(se->val), value, mask))
			return DOCA_SUCCESS;
		if (se_destroyed(se))
			return gone(se, call, false);
		if (looks < limit) {
			looks++;
			if (yield)
				sched_yield();
			else
				sd_cpu_relax();
			continue;
		}
		/*
		 * A sleep is bounded whenever a peer maps the page: a peer may write the value without
		 * moving seq, or die; and the exporter's pidfd is looked at after every sleep, whether
		 * or not seq moved (another holder of the page may keep moving it after the exporter
		 * died).
		 */
		atomic_fetch_add(se->sleepers, 1);
		if (atomic_load(se->seq) == s)
			futex_wait(se->seq, s,
				   se->user_val ? &user_tick : (atomic_load(&se->shared) ? &peer_tick : NULL));
		atomic_fetch_sub(se->sleepers, 1);
		if (se->imported && pidfd_gone(se_pidfd(se)))
			return gone(se, call, true);
	}
}

#define WAIT_CALL(name, kind, yield)                                                                                   \
	DOCA_EXPERIMENTAL doca_error_t name(struct doca_sync_event *event, uint64_t value, uint64_t mask)              \
	{                                                                                                              \
		return se_wait(event, kind, value, mask, yield, #name);                                                \
	}

WAIT_CALL(doca_sync_event_wait_gt, K_WAIT_GT, false)
WAIT_CALL(doca_sync_event_wait_gt_yield, K_WAIT_GT, true)
WAIT_CALL(doca_sync_event_wait_eq, K_WAIT_EQ, false)
WAIT_CALL(doca_sync_event_wait_eq_yield, K_WAIT_EQ, true)
WAIT_CALL(doca_sync_event_wait_neq, K_WAIT_NEQ, false)
WAIT_CALL(doca_sync_event_wait_neq_yield, K_WAIT_NEQ, true)

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
	if (se->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s is %s; configure tasks while the context is IDLE", call,
				 priv_doca_ctx_name(&se->ctx), priv_doca_ctx_state_name(se->ctx.state));
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
