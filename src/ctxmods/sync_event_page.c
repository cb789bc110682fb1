/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event_page.c - what every sync event file needs of the shared page: its size, the futex
 * calls on its words, the liveness of the exporter, and the event's name and end for log lines.
 * Calls nothing of the other sync_event*.c files.
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

size_t se_page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

/* ---- futex and liveness ---- */

long se_futex_wait(_Atomic uint32_t *addr, uint32_t expect, const struct timespec *ts)
{
	return syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, expect, ts, NULL, 0);
}

void se_futex_wake_all(_Atomic uint32_t *addr)
{
	syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

bool se_pidfd_gone(int pidfd)
{
	struct pollfd p = {.fd = pidfd, .events = POLLIN};

	return pidfd >= 0 && poll(&p, 1, 0) == 1;
}

const char *se_name(const struct doca_sync_event *se)
{
	static _Thread_local char name[96];

	if (se->imported)
		snprintf(name, sizeof(name), "sync event %p (imported from pid %d)", (const void *)se,
			 (int)se->imp->pid);
	else
		snprintf(name, sizeof(name), "sync event %p", (const void *)se);
	return name;
}

doca_error_t se_gone(const struct doca_sync_event *cse, const char *call, bool killed)
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

doca_error_t se_check_configured(const struct doca_sync_event *se, const char *call)
{
	if (se->imported || (se->pub != SE_LOC_NONE && se->sub != SE_LOC_NONE))
		return DOCA_SUCCESS;
	return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
			 "%s: %s has no %s location; call doca_sync_event_add_%s_location_cpu() or _remote_pci() "
			 "first",
			 call, se_name(se), se->pub == SE_LOC_NONE ? "publisher" : "subscriber",
			 se->pub == SE_LOC_NONE ? "publisher" : "subscriber");
}

/* ---- creation and destruction ---- */

void se_point_at_page(struct doca_sync_event *se)
{
	se->val = &se->shm->value;
	se->seq = &se->shm->seq;
	se->sleepers = &se->shm->sleepers;
}
