/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mmap.c - doca_mmap: a memory range, the devices allowed to reach it and the access rights.
 *
 * Rules enforced here (each rejection logs the rule and the fix):
 *   - configuration (range, permissions, devices, user data) only while stopped;
 *   - the range is set once; start needs a range;
 *   - stop/destroy refused while bufs still point into the map (NOT_PERMITTED);
 *   - from-export maps cannot be configured, started or exported.
 *
 * Export and import across processes live in export.c (model in export.h); this file checks
 * the API rules around them: export needs a started local map with a PCI right and a device
 * added and able to export; stop and destroy revoke the export.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_mmap.h>

#include "core.h"
#include "gpu_hook.h"
#include "export.h"

#define COMP "mmap"
#define ACCESS_ALL                                                                                                     \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |                \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC | DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE |             \
	 DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING)

SD_PRIV bool priv_doca_mmap_has_dev(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	for (uint32_t i = 0; i < mmap->nb_devs; i++)
		if (mmap->devs[i] == dev || mmap->devs[i]->info.tdev == dev->info.tdev)
			return true;
	return false;
}

/*
 * mkeys: a counter in bits 8..31 (the low byte is the "variant" byte of real keys, 0 here),
 * so two live maps never share one. Started local maps sit on one list under mkey_lock for
 * priv_doca_mmap_by_mkey(); mkey_epoch moves with every change of that list.
 */
static atomic_uint mkey_next_id;
static pthread_mutex_t mkey_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_mmap *mkey_maps;
static atomic_uint mkey_epoch;

static uint32_t mkey_new(void)
{
	uint32_t id;

	do
		id = (atomic_fetch_add_explicit(&mkey_next_id, 1, memory_order_relaxed) + 1) & 0xffffffu;
	while (id == 0);
	return id << 8;
}

static void mkey_register(struct doca_mmap *m)
{
	pthread_mutex_lock(&mkey_lock);
	m->mkey_next = mkey_maps;
	mkey_maps = m;
	atomic_fetch_add_explicit(&mkey_epoch, 1, memory_order_release);
	pthread_mutex_unlock(&mkey_lock);
}

static void mkey_unregister(struct doca_mmap *m)
{
	pthread_mutex_lock(&mkey_lock);
	for (struct doca_mmap **pp = &mkey_maps; *pp != NULL; pp = &(*pp)->mkey_next)
		if (*pp == m) {
			*pp = m->mkey_next;
			break;
		}
	m->mkey_next = NULL;
	atomic_fetch_add_explicit(&mkey_epoch, 1, memory_order_release);
	pthread_mutex_unlock(&mkey_lock);
}

SD_PRIV bool priv_doca_mmap_by_mkey(uint32_t mkey, struct priv_doca_mkey_range *out)
{
	bool found = false;

	pthread_mutex_lock(&mkey_lock);
	for (const struct doca_mmap *m = mkey_maps; m != NULL; m = m->mkey_next)
		if (m->mkey == mkey) {
			*out = (struct priv_doca_mkey_range){
			    .mmap = m,
			    .addr = m->addr,
			    .len = m->len,
			    .read_devs = m->read_devs,
			    .write_devs = m->write_devs,
			};
			found = true;
			break;
		}
	pthread_mutex_unlock(&mkey_lock);
	return found;
}

SD_PRIV unsigned int priv_doca_mmap_mkey_epoch(void)
{
	return atomic_load_explicit(&mkey_epoch, memory_order_acquire);
}

DOCA_STABLE doca_error_t doca_mmap_create(struct doca_mmap **mmap)
{
	struct doca_mmap *m;

	if (mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_create: NULL output argument");
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	m->max_devs = MMAP_MAX_DEVS_DEFAULT;
	m->devs = calloc(m->max_devs, sizeof(*m->devs));
	if (m->devs == NULL) {
		free(m);
		return DOCA_ERROR_NO_MEMORY;
	}
	m->kind = MMAP_LOCAL;
	m->domain = &mem_domain_local;
	m->access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	m->mkey = mkey_new();
	atomic_init(&m->nb_bufs, 0);
	*mmap = m;
	return DOCA_SUCCESS;
}

static doca_error_t check_configurable(const struct doca_mmap *mmap, const char *call)
{
	if (mmap->kind == MMAP_FROM_EXPORT)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: mmap %p was created from an export and cannot be configured; configure the "
				 "exporting mmap instead",
				 call, (const void *)mmap);
	if (mmap->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: mmap %p is started; call doca_mmap_stop() first (configuration is only "
				 "accepted before doca_mmap_start)",
				 call, (const void *)mmap);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len)
{
	doca_error_t ret;

	if (mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_set_memrange: NULL mmap");
	if (addr == NULL || len == 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_set_memrange: mmap %p: address %p / length %zu; pass a non-NULL address "
				 "and a non-zero length",
				 (void *)mmap, addr, len);
	if ((uintptr_t)addr + len < (uintptr_t)addr)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_set_memrange: mmap %p: range %p + %zu wraps around the address space",
				 (void *)mmap, addr, len);
	ret = check_configurable(mmap, "doca_mmap_set_memrange");
	if (ret != DOCA_SUCCESS)
		return ret;
	if (mmap->range_set)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_set_memrange: mmap %p already has the range %p+%zu; an mmap holds one "
				 "range: create another mmap for a second one",
				 (void *)mmap, (void *)mmap->addr, mmap->len);
	mmap->addr = addr;
	mmap->len = len;
	mmap->range_set = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr,
						       size_t dmabuf_offset, size_t len)
{
	(void)dmabuf_fd;
	(void)addr;
	(void)dmabuf_offset;
	(void)len;
	if (mmap == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "doca_mmap_set_dmabuf_memrange: mmap %p: dmabuf memory is not supported by softdoca; use "
			 "doca_mmap_set_memrange() with a CPU address",
			 (void *)mmap);
}

DOCA_STABLE doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len)
{
	if (mmap == NULL || addr == NULL || len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_get_memrange: NULL argument");
	if (!mmap->range_set)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_mmap_get_memrange: mmap %p has no range; call doca_mmap_set_memrange() first",
				 (const void *)mmap);
	*addr = mmap->addr;
	*len = mmap->len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask)
{
	doca_error_t ret;

	if (mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_set_permissions: NULL mmap");
	if (access_mask & ~(uint32_t)ACCESS_ALL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_set_permissions: mmap %p: unknown access bits 0x%x; use an OR of "
				 "enum doca_access_flag values",
				 (void *)mmap, access_mask & ~(uint32_t)ACCESS_ALL);
	ret = check_configurable(mmap, "doca_mmap_set_permissions");
	if (ret != DOCA_SUCCESS)
		return ret;
	mmap->access = access_mask;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	if (mmap == NULL || dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_add_dev: NULL argument");
	if (mmap->kind == MMAP_FROM_EXPORT || mmap->started)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_add_dev: mmap %p is %s; add devices before doca_mmap_start()", (void *)mmap,
				 mmap->kind == MMAP_FROM_EXPORT ? "created from an export" : "started");
	if (priv_doca_mmap_has_dev(mmap, dev))
		return SD_REJECT(DOCA_ERROR_ALREADY_EXIST, COMP, "doca_mmap_add_dev: device %s is already in mmap %p",
				 priv_doca_dev_name(&dev->info), (void *)mmap);
	if (mmap->nb_devs == mmap->max_devs)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP,
				 "doca_mmap_add_dev: mmap %p already has %u devices; raise the limit with "
				 "doca_mmap_set_max_num_devices() before adding more",
				 (void *)mmap, mmap->max_devs);
	mmap->devs[mmap->nb_devs++] = dev;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	if (mmap == NULL || dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_rm_dev: NULL argument");
	if (mmap->kind == MMAP_FROM_EXPORT || mmap->started)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_rm_dev: mmap %p is %s; remove devices while it is stopped", (void *)mmap,
				 mmap->kind == MMAP_FROM_EXPORT ? "created from an export" : "started");
	for (uint32_t i = 0; i < mmap->nb_devs; i++) {
		if (mmap->devs[i] == dev) {
			mmap->devs[i] = mmap->devs[--mmap->nb_devs];
			return DOCA_SUCCESS;
		}
	}
	return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP, "doca_mmap_rm_dev: device %s was never added to mmap %p",
			 priv_doca_dev_name(&dev->info), (void *)mmap);
}

DOCA_STABLE doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices)
{
	struct doca_dev **devs;

	if (mmap == NULL || max_num_devices == 0 || max_num_devices < mmap->nb_devs)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "doca_mmap_set_max_num_devices: limit %u is zero or below the %u devices already added",
		    max_num_devices, mmap ? mmap->nb_devs : 0);
	if (mmap->kind == MMAP_FROM_EXPORT || mmap->started)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_set_max_num_devices: mmap %p is not configurable now; call it before "
				 "doca_mmap_start()",
				 (void *)mmap);
	devs = realloc(mmap->devs, max_num_devices * sizeof(*devs));
	if (devs == NULL)
		return DOCA_ERROR_NO_MEMORY;
	mmap->devs = devs;
	mmap->max_devs = max_num_devices;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data)
{
	doca_error_t ret;

	if (mmap == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ret = check_configurable(mmap, "doca_mmap_set_user_data");
	if (ret != DOCA_SUCCESS)
		return ret;
	mmap->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data)
{
	if (mmap == NULL || user_data == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*user_data = mmap->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs)
{
	if (mmap == NULL || num_bufs == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*num_bufs = atomic_load_explicit(&((struct doca_mmap *)mmap)->nb_bufs, memory_order_relaxed);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_start(struct doca_mmap *mmap)
{
	if (mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_start: NULL mmap");
	if (mmap->kind == MMAP_FROM_EXPORT)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_start: mmap %p was created from an export and is usable as is; do not "
				 "start it",
				 (void *)mmap);
	if (mmap->started)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_mmap_start: mmap %p is already started",
				 (void *)mmap);
	if (!mmap->range_set)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_start: mmap %p has no memory range; call doca_mmap_set_memrange() before "
				 "doca_mmap_start()",
				 (void *)mmap);
	{
		struct doca_gpu *gpu = NULL;
		int where = priv_doca_gpu_mem_find(mmap->addr, mmap->len, &gpu);

		if (where < 0)
			return SD_REJECT(
			    DOCA_ERROR_INVALID_VALUE, COMP,
			    "doca_mmap_start: mmap %p's range %p+%zu covers GPU memory (doca_gpu_mem_alloc "
			    "DOCA_GPU_MEM_TYPE_GPU) and memory outside it; give GPU memory a map of its own",
			    (void *)mmap, (void *)mmap->addr, mmap->len);
		if (where > 0) {
			const struct priv_doca_gpu_base *b = priv_doca_gpu_base(gpu);

			mmap->gpu_dom.kind = MEM_DOMAIN_GPU;
			mmap->gpu_dom.u.gpu.gpu = gpu;
			snprintf(mmap->gpu_dom.name, sizeof(mmap->gpu_dom.name), "GPU %s, range %p+%zu",
				 b != NULL ? b->ops->name(gpu) : "?", (void *)mmap->addr, mmap->len);
			mmap->domain = &mmap->gpu_dom;
		}
	}
	/* The map's rights per device are fixed now, for as long as it is started (core.h). */
	mmap->read_devs = mmap->write_devs = 0;
	for (uint32_t i = 0; i < mmap->nb_devs; i++) {
		uint64_t bit = UINT64_C(1) << (mmap->devs[i]->info.index & 63u);

		mmap->read_devs |= bit;
		if (priv_doca_mmap_local_writable(mmap))
			mmap->write_devs |= bit;
	}
	mmap->cpu_read_devs = mmap->domain->kind == MEM_DOMAIN_LOCAL ? mmap->read_devs : 0;
	mmap->cpu_write_devs = mmap->domain->kind == MEM_DOMAIN_LOCAL ? mmap->write_devs : 0;
	mmap->started = true;
	mkey_register(mmap);
	return DOCA_SUCCESS;
}

static doca_error_t check_no_bufs(struct doca_mmap *mmap, const char *call)
{
	unsigned int n = atomic_load_explicit(&mmap->nb_bufs, memory_order_relaxed);

	if (n != 0)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: mmap %p still has %u doca_buf(s) pointing into it; release them with "
				 "doca_buf_dec_refcount() first",
				 call, (void *)mmap, n);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_stop(struct doca_mmap *mmap)
{
	doca_error_t ret;

	if (mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_stop: NULL mmap");
	if (mmap->kind == MMAP_FROM_EXPORT)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_stop: mmap %p was created from an export; destroy it with "
				 "doca_mmap_destroy() instead",
				 (void *)mmap);
	ret = check_no_bufs(mmap, "doca_mmap_stop");
	if (ret != DOCA_SUCCESS)
		return ret;
	mkey_unregister(mmap);
	mmap->started = false;
	mmap->domain = &mem_domain_local;
	mmap->read_devs = mmap->write_devs = 0;
	mmap->cpu_read_devs = mmap->cpu_write_devs = 0;
	/* Importers' tasks fail from now on (export.h); the descriptors handed out are freed. */
	export_revoke(mmap);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_destroy(struct doca_mmap *mmap)
{
	doca_error_t ret;

	if (mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_destroy: NULL mmap");
	ret = check_no_bufs(mmap, "doca_mmap_destroy");
	if (ret != DOCA_SUCCESS)
		return ret;
	if (mmap->kind == MMAP_FROM_EXPORT)
		export_remote_release(mmap);
	else
		export_revoke(mmap);
	if (mmap->started)
		mkey_unregister(mmap);
	free(mmap->devs);
	free(mmap);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev,
					      const void **export_desc, size_t *export_desc_len)
{
	if (mmap == NULL || dev == NULL || export_desc == NULL || export_desc_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_export_pci: NULL argument");
	if (mmap->kind == MMAP_FROM_EXPORT)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_export_pci: mmap %p was created from an export and cannot be exported "
				 "again; export the original mmap in its own process",
				 (void *)mmap);
	if (!mmap->started)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_export_pci: mmap %p is not started; call doca_mmap_start() before "
				 "exporting it",
				 (void *)mmap);
	if (!(mmap->access & (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "doca_mmap_export_pci: mmap %p grants no PCI access (permissions 0x%x); pass "
				 "DOCA_ACCESS_FLAG_PCI_READ_ONLY or DOCA_ACCESS_FLAG_PCI_READ_WRITE to "
				 "doca_mmap_set_permissions() before doca_mmap_start()",
				 (void *)mmap, mmap->access);
	if (!priv_doca_mmap_has_dev(mmap, dev))
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "doca_mmap_export_pci: device %s was not added to mmap %p; call "
				 "doca_mmap_add_dev() before doca_mmap_start()",
				 priv_doca_dev_name(&dev->info), (void *)mmap);
	if (!dev->info.profile->export_pci)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_mmap_export_pci: device %s cannot export (profile '%s' sets export_pci = no); "
				 "export through a device for which doca_mmap_cap_is_export_pci_supported() says yes",
				 priv_doca_dev_name(&dev->info), dev->info.profile->name);
	return export_pci(mmap, dev, export_desc, export_desc_len);
}

DOCA_STABLE doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev,
					       const void **export_desc, size_t *export_desc_len)
{
	if (mmap == NULL || dev == NULL || export_desc == NULL || export_desc_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_mmap_export_rdma: NULL argument");
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "doca_mmap_export_rdma: mmap %p: RDMA export is not supported by softdoca; use "
			 "doca_mmap_export_pci()",
			 (void *)mmap);
}

DOCA_STABLE doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc,
						      size_t export_desc_len, struct doca_dev *dev,
						      struct doca_mmap **mmap)
{
	struct doca_mmap *m;
	doca_error_t ret;

	if (export_desc == NULL || export_desc_len == 0 || dev == NULL || mmap == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_mmap_create_from_export: NULL or empty argument");
	if (!dev->info.profile->import_pci)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "doca_mmap_create_from_export: device %s cannot import PCI exports (profile '%s' sets "
				 "import_pci = no); import through a device for which "
				 "doca_mmap_cap_is_create_from_export_pci_supported() says yes",
				 priv_doca_dev_name(&dev->info), dev->info.profile->name);
	ret = doca_mmap_create(&m);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = export_import(export_desc, export_desc_len, dev, m);
	if (ret != DOCA_SUCCESS) {
		free(m->devs);
		free(m);
		return ret;
	}
	if (user_data != NULL)
		m->user_data = *user_data;
	*mmap = m;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_mkey(const struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey)
{
	if (mmap == NULL || dev == NULL || mkey == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!mmap->started && mmap->kind == MMAP_LOCAL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "doca_mmap_get_mkey: mmap %p is not started",
				 (const void *)mmap);
	if (!priv_doca_mmap_has_dev(mmap, dev))
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "doca_mmap_get_mkey: device %s was not added to mmap %p; call doca_mmap_add_dev() "
				 "before doca_mmap_start()",
				 priv_doca_dev_name(&dev->info), (const void *)mmap);
	/* A stable per-map key, unique among live maps: GPU DMA descriptors name their map by it. */
	*mkey = mmap->mkey;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *mmap_export)
{
	if (devinfo == NULL || mmap_export == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*mmap_export = devinfo->profile->export_pci;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo,
									   uint8_t *from_export)
{
	if (devinfo == NULL || from_export == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*from_export = devinfo->profile->import_pci;
	return DOCA_SUCCESS;
}
