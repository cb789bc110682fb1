/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event.c - DOCA Sync Event, the object: create and destroy, publisher / subscriber
 * locations, stand-alone start and stop, and the synchronous get / update / wait calls. The
 * shared page, its futex words and the protocol with a peer: sync_event_internal.h.
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
	if (ftruncate(se->memfd, (off_t)se_page_size()) != 0) {
		err = errno;
		goto fail;
	}
	/* The peer maps the page: it must never shrink under it. */
	fcntl(se->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	shm = mmap(NULL, se_page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, se->memfd, 0);
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
		munmap(se->shm, se_page_size());
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
			se_futex_wake_all(&se->shm->seq); /* sleepers in the peer see the end now */
		}
		munmap(se->shm, se_page_size());
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

/* ---- configuration ---- */

static doca_error_t check_config_call(const struct doca_sync_event *se, const char *call)
{
	if (se->imported)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: %s was created from an export and takes no configuration; configure the "
				 "exporting side",
				 call, se_name(se));
	if (se->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: %s is started; configure it before starting it", call,
				 se_name(se));
	return priv_doca_ctx_check_idle(&se->ctx, call, "configure it before starting it");
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
	ret = se_check_configured(event, "doca_sync_event_start");
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
		return se_gone(se, call, false);
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
			return se_gone(se, call, false);
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
			se_futex_wait(se->seq, s,
				      se->user_val ? &user_tick : (atomic_load(&se->shared) ? &peer_tick : NULL));
		atomic_fetch_sub(se->sleepers, 1);
		if (se->imported && se_pidfd_gone(se_pidfd(se)))
			return se_gone(se, call, true);
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
