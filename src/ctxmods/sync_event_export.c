/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sync_event_export.c - a sync event across processes: export to a PCIe peer (an internal mmap
 * over the event's page, exported with doca_mmap_export_pci(), plus a trailer) and import
 * (doca_sync_event_create_from_export). The protocol: sync_event_internal.h.
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
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < se_page_size()) {
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
	shm = mmap(NULL, se_page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
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
		munmap(shm, se_page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale or forged export: fd %d of exporter pid %d is not the page of this event",
				 memfd, (int)m->pid);
	case SE_PAGE_BROKEN:
		munmap(shm, se_page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": exporter pid %d broke a rule of the shared page: %s; export with "
				     "doca_sync_event_export_to_remote_pci()",
				 (int)m->pid, why);
	default:
		munmap(shm, se_page_size());
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
		munmap(shm, se_page_size());
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
		ret = doca_mmap_set_memrange(m, event->shm, se_page_size());
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
