/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event_internal.h - DOCA Sync Event (sync_event*.c): a 64-bit value updated, read and waited on by this process
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
 *
 * Files: sync_event.c (the object: create, destroy, locations, stand-alone start, synchronous
 * get / update / wait), sync_event_export.c (export to a PCIe peer, import), sync_event_tasks.c
 * (the context: its data path, watcher thread and tasks), sync_event_page.c (what they all use
 * of the page; it calls none of them).
 */
#ifndef SD_SYNC_EVENT_INTERNAL_H_
#define SD_SYNC_EVENT_INTERNAL_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <doca_sync_event.h>

#include "core.h"
#include "export.h"
#include "sync_event_desc.h"

#define COMP "sync_event"

enum se_mode { SE_MODE_UNSET, SE_MODE_STANDALONE, SE_MODE_CTX };
enum se_loc { SE_LOC_NONE, SE_LOC_CPU, SE_LOC_REMOTE_PCI };
/* Task types; K_WAIT_GT exists only for the blocking calls. */
enum se_kind { K_GET, K_SET, K_ADD, K_WAIT_EQ, K_WAIT_NEQ, K_NB, K_WAIT_GT = K_NB };

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
	uint8_t said;	       /* causes of the end already logged (se_gone()) */
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

/* sync_event_page.c: helpers of every file. */
size_t se_page_size(void);
long se_futex_wait(_Atomic uint32_t *addr, uint32_t expect, const struct timespec *ts);
void se_futex_wake_all(_Atomic uint32_t *addr);
bool se_pidfd_gone(int pidfd);
const char *se_name(const struct doca_sync_event *se);
/*
 * The event is over: IO_FAILED, and one line per cause and event (not one per call). Only the
 * creator destroys an event: a creator that reads a state word it did not write, or an importer
 * that reads one that is no state, names the peer that broke the page's rule.
 */
doca_error_t se_gone(const struct doca_sync_event *cse, const char *call, bool killed);
/* BAD_STATE (logged, naming @call) until both locations are set or the event is imported. */
doca_error_t se_check_configured(const struct doca_sync_event *se, const char *call);
/* Points the value and its futex words at the event's page. */
void se_point_at_page(struct doca_sync_event *se);

/* sync_event_tasks.c: a new event, a context in IDLE with no page yet (NO_MEMORY). */
doca_error_t se_alloc(struct doca_sync_event **out);

/* After every change of the value: waiters (here or in the peer) look again. */
static inline void value_changed(_Atomic uint32_t *seq, _Atomic uint32_t *sleepers)
{
	atomic_fetch_add(seq, 1);
	if (SD_UNLIKELY(atomic_load(sleepers) != 0))
		se_futex_wake_all(seq);
}

static inline void se_changed(struct doca_sync_event *se)
{
	value_changed(se->seq, se->sleepers);
}

static inline int se_pidfd(const struct doca_sync_event *se)
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

#endif /* SD_SYNC_EVENT_INTERNAL_H_ */
