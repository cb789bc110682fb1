/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dev.c - emulated devices from the topology (topology.h).
 *
 * A devinfo list is a malloc'ed array of pointers followed by the devinfo structs themselves,
 * freed in one go. Open devices are reference counted per topology index and live until the
 * last doca_dev_close(), independent of any list.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>

#include "core.h"

#define COMP "dev"

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_dev *open_devs;

static void fmt_pci(char *out, uint16_t domain, uint8_t bus, uint8_t dev, uint8_t fn)
{
	/* dev <= 0x1f and fn <= 7 by construction (topo_parse_pci), so 12 characters always fit. */
	snprintf(out, DOCA_DEVINFO_PCI_ADDR_SIZE, "%04x:%02x:%02x.%x", domain, bus, dev & 0x1fu, fn & 7u);
}

SD_PRIV const char *priv_doca_dev_name(const struct doca_devinfo *info)
{
	static _Thread_local char name[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (info == NULL || info->tdev == NULL)
		return "(no device)";
	snprintf(name, sizeof(name), "%02x:%02x.%x", info->tdev->bus, info->tdev->dev, info->tdev->fn);
	return name;
}

SD_PRIV const struct topo_profile *priv_doca_devinfo_profile(const struct doca_devinfo *devinfo)
{
	return devinfo != NULL ? devinfo->profile : NULL;
}

SD_PRIV const struct topo_device *priv_doca_devinfo_topo_device(const struct doca_devinfo *devinfo)
{
	return devinfo != NULL ? devinfo->tdev : NULL;
}

static doca_error_t get_topology(const struct topology **out)
{
	const struct topology *t = topo_get();

	if (t == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_CONFIG, COMP,
				 "no devices: the file named by SOFTDOCA_CONFIG was refused (see the line above); "
				 "fix it or unset SOFTDOCA_CONFIG");
	*out = t;
	return DOCA_SUCCESS;
}

/*
 * Which devices a process lists. A real host sees its own PCI functions and a BlueField its
 * own; a program built against softdoca's host or dpu personality registers that side before
 * main() (doca_build_config.h). SOFTDOCA_SIDE overrides it; softdoca's own tools register none
 * and see the whole emulated machine.
 */
enum side_view { SIDE_VIEW_ALL = -1, SIDE_VIEW_DPU = TOPO_SIDE_DPU, SIDE_VIEW_HOST = TOPO_SIDE_HOST };

static atomic_int program_side = SIDE_VIEW_ALL;
/* Objects of both personalities registered (constructors run before logging is set up: the
 * warning waits for the first device list). */
static atomic_bool side_conflict;

SD_PRIV void priv_doca_program_side(int side)
{
	int was;

	if (side != TOPO_SIDE_DPU && side != TOPO_SIDE_HOST)
		return;
	was = atomic_exchange_explicit(&program_side, side, memory_order_relaxed);
	if (was != SIDE_VIEW_ALL && was != side)
		atomic_store_explicit(&side_conflict, true, memory_order_relaxed);
}

static const char *side_view_name(int v)
{
	return v == SIDE_VIEW_DPU ? "dpu" : v == SIDE_VIEW_HOST ? "host" : "all";
}

/* The side this process lists; BAD_CONFIG (logged) when SOFTDOCA_SIDE cannot be used. */
static doca_error_t side_view(int *view, const char **why)
{
	const char *env = getenv("SOFTDOCA_SIDE");

	if (env == NULL || *env == '\0') { /* empty: not set, as every SOFTDOCA_* variable */
		static atomic_flag warned = ATOMIC_FLAG_INIT;

		*view = atomic_load_explicit(&program_side, memory_order_relaxed);
		if (atomic_load_explicit(&side_conflict, memory_order_relaxed) && !atomic_flag_test_and_set(&warned))
			SD_WARN(COMP,
				"this program links objects built with both the host and the dpu personality "
				"(pkg-config directories pkgconfig/host and pkgconfig/dpu); it lists the %s side's "
				"devices, the last registered: build every object with one personality, or set "
				"SOFTDOCA_SIDE=host|dpu|all",
				side_view_name(*view));
		*why = *view == SIDE_VIEW_ALL ? "no personality registered" : "the program's build personality";
		return DOCA_SUCCESS;
	}
	*why = "SOFTDOCA_SIDE";
	if (strcmp(env, "host") == 0)
		*view = SIDE_VIEW_HOST;
	else if (strcmp(env, "dpu") == 0)
		*view = SIDE_VIEW_DPU;
	else if (strcmp(env, "all") == 0)
		*view = SIDE_VIEW_ALL;
	else
		return SD_REJECT(DOCA_ERROR_BAD_CONFIG, COMP,
				 "doca_devinfo_create_list: SOFTDOCA_SIDE='%s' is not a side; use host, dpu or all "
				 "(or unset it to list the side the program was built for)",
				 env);
	return DOCA_SUCCESS;
}

/*
 * Programs find their device by asking every devinfo of a list whether it has the PCI address
 * the user gave (doca_devinfo_is_equal_pci_addr). When the answer was "no" from every device,
 * the program's own message is often vague; the list remembers the addresses asked, and
 * doca_devinfo_destroy_list() logs one line naming an address no device matched and the
 * devices that exist. Representor lists do the same (doca_devinfo_rep_is_equal_pci_addr,
 * doca_devinfo_rep_destroy_list).
 */
#define LOOKUPS_MAX 4

struct devinfo_lookups {
	uint32_t nb_devs;
	uint32_t n;
	struct {
		uint16_t domain;
		uint8_t bus, dev, fn;
		bool matched;
		uint64_t asked; /* bit i: asked of list element i (lists hold at most 64 devices) */
	} q[LOOKUPS_MAX];
};

static void note_lookup(struct devinfo_lookups *l, uint32_t pos, const char *str, bool equal)
{
	uint16_t d;
	uint8_t b, v, f;
	uint32_t i;

	if (l == NULL || topo_parse_pci(str, &d, &b, &v, &f) != 0)
		return;
	for (i = 0; i < l->n; i++)
		if (l->q[i].domain == d && l->q[i].bus == b && l->q[i].dev == v && l->q[i].fn == f)
			break;
	if (i == l->n) {
		if (l->n == LOOKUPS_MAX)
			return;
		l->n++;
		l->q[i].domain = d;
		l->q[i].bus = b;
		l->q[i].dev = v;
		l->q[i].fn = f;
		l->q[i].matched = false;
		l->q[i].asked = 0;
	}
	l->q[i].matched |= equal;
	if (pos < 64)
		l->q[i].asked |= 1ull << pos;
}

/* The mask of all the elements of a list (0: a list there is nothing to say of). */
static uint64_t lookups_all(const struct devinfo_lookups *l)
{
	if (l == NULL || l->nb_devs == 0 || l->nb_devs > 64)
		return 0;
	return l->nb_devs == 64 ? ~0ull : (1ull << l->nb_devs) - 1;
}

/* Whether an address was asked of every element of a list and matched none. */
static bool lookups_missed(const struct devinfo_lookups *l)
{
	uint64_t all = lookups_all(l);

	for (uint32_t i = 0; all != 0 && i < l->n; i++)
		if (!l->q[i].matched && l->q[i].asked == all)
			return true;
	return false;
}

/* One line for each such address, naming what the list holds (@have: the elements' addresses;
 * @what: "device" or "representor"). */
static void report_lookups(const struct devinfo_lookups *l, const char *what, const char *have, const char *hint)
{
	uint64_t all = lookups_all(l);

	for (uint32_t i = 0; all != 0 && i < l->n; i++)
		if (!l->q[i].matched && l->q[i].asked == all)
			SD_WARN(COMP,
				"no %s has PCI address %04x:%02x:%02x.%x (asked of every %s listed); the %ss here are "
				"%s; %s",
				what, l->q[i].domain, l->q[i].bus, l->q[i].dev, l->q[i].fn, what, what, have, hint);
}

static void report_dev_lookups(struct doca_devinfo **list)
{
	const struct devinfo_lookups *l = list[0] != NULL ? list[0]->lookups : NULL;
	char have[512];
	size_t k = 0;

	if (!lookups_missed(l))
		return;
	have[0] = '\0';
	for (uint32_t j = 0; j < l->nb_devs && k < sizeof(have); j++) {
		const struct topo_device *td = list[j]->tdev;

		k += (size_t)snprintf(have + k, sizeof(have) - k, "%s%04x:%02x:%02x.%x (%s)", j ? ", " : "", td->domain,
				      td->bus, td->dev, td->fn, td->side == TOPO_SIDE_DPU ? "dpu" : "host");
	}
	report_lookups(l, "device", have, "see doca_caps --list-devs, or SOFTDOCA_CONFIG to add one");
}

DOCA_STABLE doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs)
{
	const struct topology *t = NULL;
	struct doca_devinfo **list;
	struct doca_devinfo *infos;
	struct devinfo_lookups *lookups;
	const char *why;
	uint32_t n = 0;
	doca_error_t ret;
	int view = SIDE_VIEW_ALL;

	if (dev_list == NULL || nb_devs == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_devinfo_create_list: NULL output argument");
	ret = get_topology(&t);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = side_view(&view, &why);
	if (ret != DOCA_SUCCESS)
		return ret;
	list = calloc(1, (t->nb_devices + 1) * sizeof(*list) + t->nb_devices * sizeof(*infos) +
			     sizeof(struct devinfo_lookups));
	if (list == NULL)
		return DOCA_ERROR_NO_MEMORY;
	infos = (struct doca_devinfo *)(list + t->nb_devices + 1);
	lookups = (struct devinfo_lookups *)(infos + t->nb_devices);
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		if (view != SIDE_VIEW_ALL && (int)t->devices[i].side != view)
			continue;
		infos[n].tdev = &t->devices[i];
		infos[n].profile = &t->profiles[t->devices[i].profile];
		infos[n].index = i;
		infos[n].pos = n;
		infos[n].lookups = lookups;
		list[n] = &infos[n];
		n++;
	}
	lookups->nb_devs = n;
	SD_DBG(COMP, "doca_devinfo_create_list: %u of %u device(s), side %s (%s)", n, t->nb_devices,
	       side_view_name(view), why);
	*dev_list = list;
	*nb_devs = n;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	if (dev_list == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	report_dev_lookups(dev_list);
	free(dev_list);
	return DOCA_SUCCESS;
}

static int pci_equal(uint16_t domain, uint8_t bus, uint8_t dev, uint8_t fn, const char *str, uint8_t *is_equal)
{
	uint16_t d;
	uint8_t b, v, f;

	if (topo_parse_pci(str, &d, &b, &v, &f) != 0)
		return -1;
	*is_equal = (d == domain && b == bus && v == dev && f == fn);
	return 0;
}

DOCA_STABLE doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
							uint8_t *is_equal)
{
	const struct topo_device *td;

	if (devinfo == NULL || pci_addr_str == NULL || is_equal == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_devinfo_is_equal_pci_addr: NULL argument");
	td = devinfo->tdev;
	if (pci_equal(td->domain, td->bus, td->dev, td->fn, pci_addr_str, is_equal) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_devinfo_is_equal_pci_addr: '%s' is not a PCI address; use 'BB:DD.F' or "
				 "'DDDD:BB:DD.F' (hex), e.g. 03:00.0",
				 pci_addr_str);
	note_lookup(devinfo->lookups, devinfo->pos, pci_addr_str, *is_equal != 0);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str)
{
	if (devinfo == NULL || pci_addr_str == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	fmt_pci(pci_addr_str, devinfo->tdev->domain, devinfo->tdev->bus, devinfo->tdev->dev, devinfo->tdev->fn);
	return DOCA_SUCCESS;
}

static doca_error_t copy_name(const char *what, const char *src, char *dst, uint32_t size, uint32_t min)
{
	if (dst == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL output buffer", what);
	if (size < min)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: buffer of %u bytes is too small; pass at least %u", what, size, min);
	snprintf(dst, size, "%s", src);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name,
						     uint32_t size)
{
	if (devinfo == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return copy_name("doca_devinfo_get_ibdev_name", devinfo->tdev->ibdev, ibdev_name, size,
			 DOCA_DEVINFO_IBDEV_NAME_SIZE);
}

DOCA_STABLE doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name,
						     uint32_t size)
{
	if (devinfo == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return copy_name("doca_devinfo_get_iface_name", devinfo->tdev->iface, iface_name, size,
			 DOCA_DEVINFO_IFACE_NAME_SIZE);
}

DOCA_STABLE doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size)
{
	if (devinfo == NULL || mac_addr == NULL || size < DOCA_DEVINFO_MAC_ADDR_SIZE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_devinfo_get_mac_addr: NULL argument or size below DOCA_DEVINFO_MAC_ADDR_SIZE");
	memcpy(mac_addr, devinfo->tdev->mac, DOCA_DEVINFO_MAC_ADDR_SIZE);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo,
							enum doca_pci_func_type *pci_func_type)
{
	if (devinfo == NULL || pci_func_type == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*pci_func_type = devinfo->tdev->func;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index)
{
	if (devinfo == NULL || sf_index == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (devinfo->tdev->func != DOCA_PCI_FUNC_TYPE_SF)
		return DOCA_ERROR_NOT_SUPPORTED;
	*sf_index = devinfo->tdev->sf_index;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	struct doca_dev *d;

	if (devinfo == NULL || dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dev_open: NULL argument");
	pthread_mutex_lock(&dev_lock);
	for (d = open_devs; d != NULL; d = d->next)
		if (d->info.tdev == devinfo->tdev)
			break;
	if (d != NULL) {
		d->refcount++;
	} else {
		d = calloc(1, sizeof(*d));
		if (d == NULL) {
			pthread_mutex_unlock(&dev_lock);
			return DOCA_ERROR_NO_MEMORY;
		}
		d->info = *devinfo;
		d->info.lookups = NULL; /* the list goes away; the device stays */
		d->info.pos = 0;
		d->refcount = 1;
		d->next = open_devs;
		open_devs = d;
	}
	pthread_mutex_unlock(&dev_lock);
	*dev = d;
	return DOCA_SUCCESS;
}

/* Whether @dev is on the list of open devices; the caller holds dev_lock. */
static bool dev_is_open(const struct doca_dev *dev)
{
	for (const struct doca_dev *d = open_devs; d != NULL; d = d->next)
		if (d == dev)
			return true;
	return false;
}

SD_PRIV doca_error_t priv_doca_dev_attach(struct doca_dev *dev, const struct dev_backend_ops *ops)
{
	uint64_t said;
	doca_error_t ret = DOCA_SUCCESS;
	void *priv = NULL;
	uint32_t n;

	if (dev == NULL || ops == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "device backend attach: NULL %s; pass %s",
				 dev == NULL ? "device" : "ops",
				 dev == NULL ? "an open device" : "a backend ops table");
	if (ops->name == NULL || ops->open == NULL || ops->close == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "device %s: backend ops %p lack a name, open() or close(); fill all three",
				 priv_doca_dev_name(&dev->info), (const void *)ops);
	pthread_mutex_lock(&dev_lock);
	if (!dev_is_open(dev)) {
		pthread_mutex_unlock(&dev_lock);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "device backend '%s': %p is not an open device; attach after doca_dev_open()",
				 ops->name, (void *)dev);
	}
	n = atomic_load_explicit(&dev->nb_backends, memory_order_relaxed);
	for (uint32_t i = 0; i < n; i++) {
		if (dev->backends[i].ops == ops || strcmp(dev->backends[i].ops->name, ops->name) == 0) {
			ret = SD_REJECT(DOCA_ERROR_ALREADY_EXIST, COMP,
					"device %s: backend '%s' is already attached; look it up with "
					"priv_doca_dev_backend() instead",
					priv_doca_dev_name(&dev->info), ops->name);
			goto out;
		}
	}
	if (n == DEV_MAX_BACKENDS) {
		ret = SD_REJECT(DOCA_ERROR_FULL, COMP,
				"device %s: backend '%s' refused, %d backends attached already (DEV_MAX_BACKENDS); "
				"raise the limit in core.h",
				priv_doca_dev_name(&dev->info), ops->name, DEV_MAX_BACKENDS);
		goto out;
	}
	said = priv_doca_errors_said();
	ret = ops->open(dev, &priv);
	if (ret != DOCA_SUCCESS) {
		if (priv_doca_errors_said() == said) /* else the backend said why */
			SD_ERR(COMP, "device %s: backend '%s' failed to open: %s; nothing attached",
			       priv_doca_dev_name(&dev->info), ops->name, doca_error_get_name(ret));
		goto out;
	}
	dev->backends[n].ops = ops;
	dev->backends[n].priv = priv;
	atomic_store_explicit(&dev->nb_backends, n + 1, memory_order_release);
out:
	pthread_mutex_unlock(&dev_lock);
	return ret;
}

SD_PRIV void *priv_doca_dev_backend(const struct doca_dev *dev, const struct dev_backend_ops *ops)
{
	uint32_t n;

	if (dev == NULL || ops == NULL)
		return NULL;
	n = atomic_load_explicit(&((struct doca_dev *)dev)->nb_backends, memory_order_acquire);
	for (uint32_t i = 0; i < n; i++)
		if (dev->backends[i].ops == ops)
			return dev->backends[i].priv;
	return NULL;
}

/* Last reference gone: backends close in reverse attach order, each seeing the others it
 * was attached after still open. */
static void dev_release(struct doca_dev *dev)
{
	for (uint32_t i = atomic_load_explicit(&dev->nb_backends, memory_order_relaxed); i-- > 0;)
		dev->backends[i].ops->close(dev, dev->backends[i].priv);
	free(dev);
}

DOCA_STABLE doca_error_t doca_dev_close(struct doca_dev *dev)
{
	struct doca_dev **pp;

	/* DOCA's own sample cleanup closes the same device twice, the second time as NULL (the first
	 * close cleared its pointer) and expects success: closing nothing is a no-op. */
	if (dev == NULL)
		return DOCA_SUCCESS;
	pthread_mutex_lock(&dev_lock);
	for (pp = &open_devs; *pp != NULL && *pp != dev; pp = &(*pp)->next)
		;
	if (*pp == NULL) {
		pthread_mutex_unlock(&dev_lock);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dev_close: %p is not an open device",
				 (void *)dev);
	}
	if (--dev->refcount == 0) {
		*pp = dev->next;
		dev_release(dev);
	}
	pthread_mutex_unlock(&dev_lock);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev)
{
	if (dev == NULL)
		return NULL;
	return (struct doca_devinfo *)&dev->info;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev, int filter,
						      struct doca_devinfo_rep ***dev_list_rep, uint32_t *nb_devs_rep)
{
	const struct topo_device *td;
	struct doca_devinfo_rep **list;
	struct doca_devinfo_rep *infos;
	struct devinfo_lookups *lookups;

	if (dev == NULL || dev_list_rep == NULL || nb_devs_rep == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_devinfo_rep_create_list: NULL argument");
	if (filter & ~(DOCA_DEVINFO_REP_FILTER_NET | DOCA_DEVINFO_REP_FILTER_EMULATED))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_devinfo_rep_create_list: unknown filter bits 0x%x", (unsigned int)filter);
	td = dev->info.tdev;
	if (td->side != TOPO_SIDE_DPU)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "device %s is a host-side device and has no representors; open a DPU-side device "
				 "(e.g. 03:00.0) to list representors",
				 priv_doca_dev_name(&dev->info));
	/* Every emulated representor is a network representor; EMULATED alone matches none. */
	uint32_t n = (filter == DOCA_DEVINFO_REP_FILTER_EMULATED) ? 0 : td->nb_reps;

	list = calloc(1, (n + 1) * sizeof(*list) + n * sizeof(*infos) + sizeof(struct devinfo_lookups));
	if (list == NULL)
		return DOCA_ERROR_NO_MEMORY;
	infos = (struct doca_devinfo_rep *)(list + n + 1);
	lookups = (struct devinfo_lookups *)(infos + n);
	lookups->nb_devs = n;
	for (uint32_t i = 0; i < n; i++) {
		infos[i].parent = td;
		infos[i].trep = &td->reps[i];
		infos[i].pos = i;
		infos[i].lookups = lookups;
		list[i] = &infos[i];
	}
	*dev_list_rep = list;
	*nb_devs_rep = n;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep)
{
	const struct devinfo_lookups *l;

	if (dev_list_rep == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	l = dev_list_rep[0] != NULL ? dev_list_rep[0]->lookups : NULL;
	if (lookups_missed(l)) {
		char have[512];
		size_t k = 0;

		have[0] = '\0';
		for (uint32_t j = 0; j < l->nb_devs && k < sizeof(have); j++) {
			const struct topo_rep *r = dev_list_rep[j]->trep;

			k += (size_t)snprintf(have + k, sizeof(have) - k, "%s%04x:%02x:%02x.%x", j ? ", " : "",
					      r->domain, r->bus, r->dev, r->fn);
		}
		report_lookups(l, "representor", have, "see doca_caps --list-rep-devs");
	}
	free(dev_list_rep);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid,
						   uint32_t size)
{
	if (devinfo_rep == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return copy_name("doca_devinfo_rep_get_vuid", devinfo_rep->trep->vuid, rep_vuid, size,
			 DOCA_DEVINFO_REP_VUID_SIZE);
}

DOCA_STABLE doca_error_t doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep,
							   char *pci_addr_str)
{
	const struct topo_rep *r;

	if (devinfo_rep == NULL || pci_addr_str == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	r = devinfo_rep->trep;
	fmt_pci(pci_addr_str, r->domain, r->bus, r->dev, r->fn);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep,
							    const char *pci_addr_str, uint8_t *is_equal)
{
	const struct topo_rep *r;

	if (devinfo_rep == NULL || pci_addr_str == NULL || is_equal == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_devinfo_rep_is_equal_pci_addr: NULL argument");
	r = devinfo_rep->trep;
	if (pci_equal(r->domain, r->bus, r->dev, r->fn, pci_addr_str, is_equal) != 0)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_devinfo_rep_is_equal_pci_addr: '%s' is not a PCI address; use 'BB:DD.F' or "
				 "'DDDD:BB:DD.F' (hex), e.g. b1:00.0",
				 pci_addr_str);
	note_lookup(devinfo_rep->lookups, devinfo_rep->pos, pci_addr_str, *is_equal != 0);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo, struct doca_dev_rep **dev_rep)
{
	struct doca_dev_rep *r;

	if (devinfo == NULL || dev_rep == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_dev_rep_open: NULL argument");
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return DOCA_ERROR_NO_MEMORY;
	r->info = *devinfo;
	r->info.lookups = NULL; /* the list goes away; the representor stays */
	*dev_rep = r;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev)
{
	if (dev == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	free(dev);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep)
{
	if (dev_rep == NULL)
		return NULL;
	return &dev_rep->info;
}
