/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pe.c - the progress engine: runs completions and state changes of its contexts.
 *
 * Notification: an eventfd, created on first request. The application drains with
 * doca_pe_progress(), arms with doca_pe_request_notification() and sleeps on the fd.
 * Arming sets notify.armed and then checks whether work is already deliverable (and writes the
 * fd itself if so); an engine completing a job from another thread writes the fd when it finds
 * armed set; work that becomes deliverable on the application thread outside progress (a submit
 * to the inline engine, a stop, a refused task) writes it through priv_doca_pe_kick(). Both
 * sides use sequentially consistent operations on `armed` and `done`, so a completion racing
 * with the arm is never missed.
 *
 * The handle the application sleeps on is an epoll set, not the eventfd itself:
 *
 *   handle (epoll) --+-- notify.efd     written by engines and by arming (task completions)
 *                    +-- watched fd ... added by modules (comch: one epoll set per context
 *                                        holding its sockets), readable when a peer sent
 *                                        something, connected or went away
 *
 * Watched fds are level-triggered: progress consumes what made them readable, so after a
 * drain only new traffic makes the handle readable again. Nested epoll sets propagate
 * readiness, so the application may put the handle into its own epoll set.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <doca_pe.h>

#include "core.h"

#define COMP "pe"

DOCA_STABLE doca_error_t doca_pe_create(struct doca_pe **pe)
{
	struct doca_pe *p;

	if (pe == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_create: NULL output argument");
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->notify.efd = -1;
	p->epfd = -1;
	p->tfd = -1;
	atomic_init(&p->notify.armed, 0);
	*pe = p;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_destroy(struct doca_pe *pe)
{
	if (pe == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_destroy: NULL progress engine");
	if (pe->in_progress)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_pe_destroy: progress engine %p is running a callback of its own progress; "
				 "destroy it after doca_pe_progress() returns",
				 (void *)pe);
	if (pe->nb_ctxs != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "doca_pe_destroy: progress engine %p still has %u context(s) connected; destroy them "
				 "(e.g. doca_dma_destroy) first",
				 (void *)pe, pe->nb_ctxs);
	if (pe->notify.efd >= 0 && !pe->user_handle)
		close(pe->notify.efd);
	if (pe->epfd >= 0)
		close(pe->epfd);
	if (pe->tfd >= 0)
		close(pe->tfd);
	free(pe->watch);
	free(pe);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	if (pe == NULL || ctx == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_connect_ctx: NULL argument");
	if (ctx->pe != NULL)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_pe_connect_ctx: %s is already connected to progress engine %p; a context "
				 "belongs to one progress engine until it is destroyed",
				 priv_doca_ctx_name(ctx), (void *)ctx->pe);
	if (ctx_check_idle(ctx, "connect a context to its progress engine while it is IDLE") != DOCA_SUCCESS)
		return DOCA_ERROR_BAD_STATE;
	if (ctx->datapath_external && !ctx->ops->policy.pe_with_gpu)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_pe_connect_ctx: %s has its data path on the GPU (doca_ctx_set_datapath_on_gpu); "
				 "a context is driven by a progress engine or by the GPU, not both",
				 priv_doca_ctx_name(ctx));
	ctx->pe = pe;
	ctx->pe_next = NULL;
	/* Keep connection order: progress visits contexts in the order they were connected. */
	struct doca_ctx **pp = &pe->ctxs;

	while (*pp != NULL)
		pp = &(*pp)->pe_next;
	*pp = ctx;
	pe->nb_ctxs++;
	return DOCA_SUCCESS;
}

DOCA_STABLE uint8_t doca_pe_progress(struct doca_pe *pe)
{
	unsigned int n = 0;

	if (SD_UNLIKELY(pe == NULL))
		return 0;
	if (SD_UNLIKELY(pe->in_progress)) {
		SD_ERR(COMP,
		       "doca_pe_progress: called from inside a callback of progress engine %p; return from the "
		       "callback instead (nested progress is not allowed)",
		       (void *)pe);
		return 0;
	}
	pe->in_progress = true;
	/* A callback may destroy the context being visited or the next one: iter_next follows. */
	for (struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = pe->iter_next) {
		pe->iter_next = ctx->pe_next;
		n += ctx_progress(ctx);
	}
	pe->iter_next = NULL;
	/* Work queued outside progress (a graph instance that finished inside its submit). */
	while (SD_UNLIKELY(pe->deferred != NULL)) {
		struct pe_deferred *d = pe->deferred;

		pe->deferred = d->next;
		d->run(d);
		n++;
	}
	pe->in_progress = false;
	/* Armed before this call (unusual, but allowed): what callbacks submitted must still wake. */
	if (SD_UNLIKELY(atomic_load_explicit(&pe->notify.armed, memory_order_relaxed)))
		pe_kick_if_work(pe);
	return n != 0;
}

DOCA_STABLE doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks)
{
	size_t n = 0;

	if (pe == NULL || num_inflight_tasks == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_get_num_inflight_tasks: NULL argument");
	for (const struct doca_ctx *ctx = pe->ctxs; ctx != NULL; ctx = ctx->pe_next)
		n += ctx->inflight;
	*num_inflight_tasks = n;
	return DOCA_SUCCESS;
}

static int epoll_add_in(int epfd, int fd)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) == 0 ? 0 : -errno;
}

/* The eventfd and the epoll handle over it and every watched fd. */
static doca_error_t ensure_efd(struct doca_pe *pe)
{
	int efd, epfd, rc;

	if (pe->notify.efd >= 0)
		return DOCA_SUCCESS;
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0)
		return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP, "progress engine %p: eventfd() failed: %s",
				 (void *)pe, strerror(errno));
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		rc = -errno;
		goto fail;
	}
	rc = epoll_add_in(epfd, efd);
	if (rc == 0 && fault_enabled()) {
		pe->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		rc = pe->tfd < 0 ? -errno : epoll_add_in(epfd, pe->tfd);
	}
	for (uint32_t i = 0; rc == 0 && i < pe->nb_watch; i++)
		rc = epoll_add_in(epfd, pe->watch[i]);
	if (rc != 0)
		goto fail;
	pe->epfd = epfd;
	pe->notify.efd = efd;
	return DOCA_SUCCESS;
fail:
	if (epfd >= 0)
		close(epfd);
	if (pe->tfd >= 0)
		close(pe->tfd);
	pe->tfd = -1;
	close(efd);
	return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP,
			 "progress engine %p: cannot build the notification handle: %s", (void *)pe, strerror(-rc));
}

SD_PRIV doca_error_t priv_doca_pe_watch_fd(struct doca_pe *pe, int fd)
{
	int rc;

	for (uint32_t i = 0; i < pe->nb_watch; i++)
		if (pe->watch[i] == fd)
			return SD_REJECT(DOCA_ERROR_ALREADY_EXIST, COMP, "progress engine %p already watches fd %d",
					 (void *)pe, fd);
	if (pe->nb_watch == pe->watch_cap) {
		uint32_t cap = pe->watch_cap ? 2 * pe->watch_cap : 8;
		int *w = realloc(pe->watch, cap * sizeof(*w));

		if (w == NULL)
			return DOCA_ERROR_NO_MEMORY;
		pe->watch = w;
		pe->watch_cap = cap;
	}
	if (pe->epfd >= 0) {
		rc = epoll_add_in(pe->epfd, fd);
		if (rc != 0)
			return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP,
					 "progress engine %p: cannot add fd %d to the notification handle: %s",
					 (void *)pe, fd, strerror(-rc));
	} else if (pe->user_handle) {
		SD_WARN(COMP,
			"progress engine %p uses a handle from doca_pe_set_notification_handle(); comch traffic "
			"will not make it readable, so keep calling doca_pe_progress() or use "
			"doca_pe_get_notification_handle() instead",
			(void *)pe);
	}
	pe->watch[pe->nb_watch++] = fd;
	return DOCA_SUCCESS;
}

SD_PRIV void priv_doca_pe_unwatch_fd(struct doca_pe *pe, int fd)
{
	for (uint32_t i = 0; i < pe->nb_watch; i++) {
		if (pe->watch[i] != fd)
			continue;
		if (pe->epfd >= 0)
			(void)epoll_ctl(pe->epfd, EPOLL_CTL_DEL, fd, NULL);
		pe->watch[i] = pe->watch[--pe->nb_watch];
		return;
	}
}

DOCA_STABLE doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle)
{
	struct doca_pe *p = (struct doca_pe *)pe;
	doca_error_t ret;

	if (pe == NULL || handle == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_get_notification_handle: NULL argument");
	ret = ensure_efd(p);
	if (ret != DOCA_SUCCESS)
		return ret;
	*handle = p->user_handle ? p->notify.efd : p->epfd;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_set_notification_handle(struct doca_pe *pe, doca_notification_handle_t handle,
							 union doca_data completion_key)
{
	(void)completion_key;
	if (pe == NULL || handle < 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_set_notification_handle: bad argument");
	if (pe->notify.efd >= 0)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_pe_set_notification_handle: progress engine %p already has a handle",
				 (void *)pe);
	/* The handle must be an eventfd (softdoca writes an 8-byte counter to it). */
	pe->notify.efd = handle;
	pe->user_handle = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_request_notification(struct doca_pe *pe)
{
	doca_error_t ret;

	if (pe == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_request_notification: NULL progress engine");
	ret = ensure_efd(pe);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (pe->tfd >= 0) {
		struct itimerspec off = {0};

		(void)timerfd_settime(pe->tfd, 0, &off, NULL); /* pe_kick_if_work sets it anew if needed */
	}
	atomic_store(&pe->notify.armed, 1);
	pe_kick_if_work(pe);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle)
{
	uint64_t v;

	(void)handle;
	if (pe == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_clear_notification: NULL progress engine");
	atomic_store(&pe->notify.armed, 0);
	if (pe->notify.efd < 0)
		return DOCA_SUCCESS;
	if (pe->tfd >= 0) {
		struct itimerspec off = {0};

		(void)timerfd_settime(pe->tfd, 0, &off, NULL); /* disarms and clears expirations */
	}
	if (read(pe->notify.efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return SD_REJECT(DOCA_ERROR_OPERATING_SYSTEM, COMP, "doca_pe_clear_notification: read failed: %s",
				 strerror(errno));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode)
{
	if (pe == NULL ||
	    (event_mode != DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE && event_mode != DOCA_PE_EVENT_MODE_PROGRESS_ALL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_pe_set_event_mode: bad argument");
	/* Progress always visits every context; both modes behave the same. */
	return DOCA_SUCCESS;
}
