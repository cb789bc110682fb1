/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * steer.c - the steering registry of the software NIC's ports (nic.h): DOCA Flow sets one
 * steering function per port, the receive path asks it where each frame goes.
 *
 * One slot per topology device. A slot holds an immutable {fn, arg} record published through
 * one atomic pointer, so a receiver on another thread reads a consistent pair without a lock.
 * Records are never freed while the process runs (at most one per set call, a handful per
 * program: a port is started a few times), which is what makes the lock-free read safe.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core.h"
#include "nic.h"

#define COMP "nic"

struct steer_rec {
	nic_steer_fn fn;
	void *arg;
	struct steer_rec *older; /* kept: a receiver may still be reading it */
};

static _Atomic(struct steer_rec *) slots[TOPO_MAX_DEVICES];
static struct steer_rec *retired[TOPO_MAX_DEVICES];
static pthread_mutex_t steer_lock = PTHREAD_MUTEX_INITIALIZER;

SD_PRIV doca_error_t priv_doca_nic_set_steer(struct doca_dev *dev, nic_steer_fn fn, void *arg)
{
	struct steer_rec *cur, *rec = NULL;
	uint32_t i;

	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "port steering: NULL device");
	i = dev->info.index;
	if (i >= TOPO_MAX_DEVICES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "port steering: device index %u out of range", i);
	if (fn != NULL) {
		rec = calloc(1, sizeof(*rec));
		if (rec == NULL)
			return DOCA_ERROR_NO_MEMORY;
		rec->fn = fn;
		rec->arg = arg;
	}
	pthread_mutex_lock(&steer_lock);
	cur = atomic_load_explicit(&slots[i], memory_order_relaxed);
	if (fn != NULL && cur != NULL) {
		pthread_mutex_unlock(&steer_lock);
		free(rec);
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "port %s already has its steering (a started DOCA Flow port); stop that port "
				 "(doca_flow_port_stop) before starting another on the same device",
				 priv_doca_dev_name(&dev->info));
	}
	atomic_store_explicit(&slots[i], rec, memory_order_release);
	if (cur != NULL) {
		cur->older = retired[i];
		retired[i] = cur;
	}
	pthread_mutex_unlock(&steer_lock);
	return DOCA_SUCCESS;
}

SD_PRIV void priv_doca_nic_steer(struct doca_dev *dev, const struct nic_frame_info *info, const uint8_t *frame,
				 struct nic_verdict *out)
{
	uint32_t i = dev->info.index;
	const struct steer_rec *rec =
	    i < TOPO_MAX_DEVICES ? atomic_load_explicit(&slots[i], memory_order_acquire) : NULL;

	if (rec == NULL) {
		*out = (struct nic_verdict){.kind = NIC_TO_QUEUE, .queue = 0};
		return;
	}
	*out = (struct nic_verdict){.kind = NIC_NO_MATCH};
	rec->fn(rec->arg, info, frame, out);
}
