/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * export.c - PCI export and import of mmaps between processes (model and format in export.h).
 *
 * Exporter: the first doca_mmap_export_pci() of a started map creates its export record, a
 * one-page memfd that stays open until the map stops or is destroyed, and arranges for sibling
 * processes to be allowed to reach this one (Yama, below). Each device the map is exported for
 * gets its own descriptor; all name the same record.
 *
 * Importer: doca_mmap_create_from_export() trusts nothing in the descriptor. After the pure
 * format checks (export_desc.c) it checks the device pairing, then that the process behind the
 * pid is the exporter (start time), that the record the descriptor names exists, matches it
 * field by field and is LIVE, pins the exporter with a pidfd, checks the start time once more
 * (so the pidfd names the exporter and not a later process with the same pid) and probes one
 * byte of the range to learn now, not at the first task, whether the kernel lets us in.
 *
 * Device pairing (what DOCA requires of PCIe peers): a host function's memory is imported on
 * the DPU through the DPU device that holds its representor, and a DPU device's memory on the
 * host through a host function that device represents. softdoca also accepts the exporting
 * device itself, so that two processes on one side can test with one device.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <doca_types.h>

#include "core.h"
#include "export.h"

#define COMP	   "mmap"
#define PCI_RIGHTS (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif
#ifndef PR_SET_PTRACER_ANY
#define PR_SET_PTRACER_ANY ((unsigned long)-1)
#endif

/* ---- process facts ---- */

/*
 * Reads /proc/<pid>/stat: the state letter (field 3) and the start time in clock ticks after
 * boot (field 22). 0 or -errno (-ENOENT / -ESRCH: no such process).
 */
static int proc_stat(pid_t pid, char *state, uint64_t *start)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	/* The command name (field 2) is in parentheses and may hold anything: skip past the last ')'. */
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ')
		return -EINVAL;
	p += 2;
	*state = *p;
	for (int field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (p == NULL)
			return -EINVAL;
		p++;
	}
	*start = strtoull(p, NULL, 10);
	return *start != 0 ? 0 : -EINVAL;
}

static uint64_t self_pidns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

static int random_id(uint8_t id[EXPORT_ID_LEN])
{
	size_t got = 0;

	while (got < EXPORT_ID_LEN) {
		ssize_t n = getrandom(id + got, EXPORT_ID_LEN - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -errno;
		got += (size_t)n;
	}
	return 0;
}

/* /proc/sys/kernel/yama/ptrace_scope, or -1 without Yama. */
static int yama_scope(void)
{
	char buf[8] = "";
	int fd = open("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/*
 * Yama's ptrace_scope 1 (Ubuntu's default) lets a process reach only its descendants'
 * memory, which would refuse the importer, a sibling. While this process has at least one live
 * export it declares PR_SET_PTRACER_ANY: any process of the same user may then attach to it, as
 * with ptrace_scope 0 — the whole address space, not only the exported ranges (see
 * docs/cross-process.md). The declaration is withdrawn when the last export goes. Scopes 2 and
 * 3 cannot be relaxed by the process: importers then need CAP_SYS_PTRACE.
 */
static pthread_mutex_t ptracer_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t ptracer_pid; /* process the counters below belong to (a forked child starts over) */
static unsigned int ptracer_users;
static bool ptracer_set;

static void ptracer_get(void)
{
	pthread_mutex_lock(&ptracer_lock);
	if (ptracer_pid != getpid()) {
		ptracer_pid = getpid();
		ptracer_users = 0;
		ptracer_set = false;
	}
	if (ptracer_users++ == 0) {
		int scope = yama_scope();

		if (scope == 1) {
			if (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) == 0) {
				ptracer_set = true;
				SD_DBG(COMP, "Yama ptrace_scope 1: this process now accepts any same-user process as "
					     "ptracer (PR_SET_PTRACER_ANY) while it has exports");
			} else {
				SD_WARN(COMP,
					"Yama ptrace_scope 1 and PR_SET_PTRACER failed (%s): importers will be "
					"refused unless they have CAP_SYS_PTRACE",
					strerror(errno));
			}
		} else if (scope >= 2) {
			SD_WARN(COMP,
				"Yama ptrace_scope %d: importers of this process's exports need CAP_SYS_PTRACE "
				"(a process cannot relax scope %d itself)",
				scope, scope);
		}
	}
	pthread_mutex_unlock(&ptracer_lock);
}

static void ptracer_put(void)
{
	pthread_mutex_lock(&ptracer_lock);
	if (ptracer_pid == getpid() && ptracer_users > 0 && --ptracer_users == 0 && ptracer_set) {
		prctl(PR_SET_PTRACER, 0, 0, 0, 0);
		ptracer_set = false;
	}
	pthread_mutex_unlock(&ptracer_lock);
}

/* ---- exporter ---- */

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (size_t)p : 4096;
}

/* Forgets @e; the owner marks its record REVOKED first, a forked child leaves it alone. */
static void export_free(struct mmap_export *e)
{
	if (e->owner == getpid()) {
		atomic_store_explicit(&e->rec->state, MEM_DOMAIN_REVOKED, memory_order_release);
		ptracer_put();
	}
	munmap(e->rec, page_size());
	close(e->memfd);
	free(e->descs);
	free(e);
}

static doca_error_t os_fail(int err, const char *what, const struct doca_mmap *map)
{
	return SD_REJECT(err == ENOMEM ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_DRIVER, COMP,
			 "doca_mmap_export_pci: mmap %p: %s failed: %s", (const void *)map, what, strerror(err));
}

static doca_error_t export_create(struct doca_mmap *map, struct mmap_export **out)
{
	struct mmap_export *e = calloc(1, sizeof(*e));
	struct export_record *rec;
	uint64_t start;
	char state;
	int err;

	if (e == NULL)
		return DOCA_ERROR_NO_MEMORY;
	e->owner = getpid();
	e->memfd = memfd_create("softdoca-export", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (e->memfd < 0) {
		err = errno;
		free(e);
		return os_fail(err, "memfd_create", map);
	}
	if (ftruncate(e->memfd, (off_t)page_size()) != 0) {
		err = errno;
		goto fail_fd;
	}
	/* Importers map the page: it must never shrink under them (that would be SIGBUS). */
	fcntl(e->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	rec = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_SHARED, e->memfd, 0);
	if (rec == MAP_FAILED) {
		err = errno;
		goto fail_fd;
	}
	e->rec = rec;
	err = -proc_stat(e->owner, &state, &start);
	if (err == 0)
		err = -random_id(rec->id);
	if (err != 0) {
		munmap(rec, page_size());
		goto fail_fd;
	}
	rec->magic = EXPORT_RECORD_MAGIC;
	rec->version = EXPORT_RECORD_VERSION;
	rec->pid = (int32_t)e->owner;
	rec->access = map->access & PCI_RIGHTS;
	rec->start_time = start;
	rec->addr = (uint64_t)(uintptr_t)map->addr;
	rec->len = map->len;
	rec->pidns = self_pidns();
	rec->uid = (uint32_t)getuid();
	atomic_init(&rec->ndevs, 0);
	atomic_store_explicit(&rec->state, MEM_DOMAIN_LIVE, memory_order_release);
	ptracer_get();
	*out = e;
	return DOCA_SUCCESS;

fail_fd:
	close(e->memfd);
	free(e);
	return os_fail(err, "creating the export record", map);
}

doca_error_t export_pci(struct doca_mmap *mmap, const struct doca_dev *dev, const void **desc, size_t *len)
{
	const struct topo_device *td = dev->info.tdev;
	struct mmap_export *e = mmap->exp;
	struct export_desc d;
	doca_error_t ret;

	if (e != NULL && e->owner != getpid()) {
		/* Inherited through fork: the parent's export, not ours to hand out or revoke. */
		export_free(e);
		mmap->exp = e = NULL;
	}
	if (e == NULL) {
		ret = export_create(mmap, &e);
		if (ret != DOCA_SUCCESS)
			return ret;
		mmap->exp = e;
	}
	for (uint32_t i = 0; i < e->ndescs; i++) {
		if (e->descs[i].dev->info.tdev == td) {
			*desc = e->descs[i].bytes;
			*len = EXPORT_DESC_LEN;
			return DOCA_SUCCESS;
		}
	}
	if (e->ndescs == e->cap) {
		uint32_t cap = e->cap ? 2 * e->cap : 2;
		struct export_desc_buf *b = realloc(e->descs, cap * sizeof(*b));

		if (b == NULL)
			return DOCA_ERROR_NO_MEMORY;
		e->descs = b;
		e->cap = cap;
	}
	memset(&d, 0, sizeof(d));
	memcpy(d.id, e->rec->id, EXPORT_ID_LEN);
	d.pid = e->rec->pid;
	d.memfd = e->memfd;
	d.start_time = e->rec->start_time;
	d.pidns = e->rec->pidns;
	d.addr = e->rec->addr;
	d.len = e->rec->len;
	d.access = e->rec->access;
	d.uid = e->rec->uid;
	d.domain = td->domain;
	d.bus = td->bus;
	d.dev = td->dev;
	d.fn = td->fn;
	d.side = td->side == TOPO_SIDE_HOST ? EXPORT_SIDE_HOST : EXPORT_SIDE_DPU;
	{
		/* The record lists the device before any descriptor naming it exists. */
		uint32_t n = atomic_load_explicit(&e->rec->ndevs, memory_order_relaxed);

		if (n == EXPORT_RECORD_MAX_DEVS)
			return SD_REJECT(
			    DOCA_ERROR_NO_MEMORY, COMP,
			    "doca_mmap_export_pci: mmap %p is already exported through %d devices, the most "
			    "one map can be; export another map",
			    (void *)mmap, EXPORT_RECORD_MAX_DEVS);
		e->rec->devs[n] = (struct export_record_dev){
		    .domain = d.domain, .bus = d.bus, .dev = d.dev, .fn = d.fn, .side = d.side};
		atomic_store_explicit(&e->rec->ndevs, n + 1, memory_order_release);
	}
	e->descs[e->ndescs].dev = dev;
	export_desc_encode(&d, e->descs[e->ndescs].bytes);
	*desc = e->descs[e->ndescs].bytes;
	*len = EXPORT_DESC_LEN;
	e->ndescs++;
	SD_DBG(COMP, "mmap %p [%p, +%zu) exported for %s (%s)", (void *)mmap, (void *)mmap->addr, mmap->len,
	       priv_doca_dev_name(&dev->info),
	       (d.access & DOCA_ACCESS_FLAG_PCI_READ_WRITE) ? "read-write" : "read-only");
	return DOCA_SUCCESS;
}

void export_revoke(struct doca_mmap *mmap)
{
	if (mmap->exp == NULL)
		return;
	export_free(mmap->exp);
	mmap->exp = NULL;
}

/* ---- importer ---- */

#define IMP "doca_mmap_create_from_export"

static const struct topo_device *find_device(const struct topology *t, uint16_t domain, uint8_t bus, uint8_t dev,
					     uint8_t fn)
{
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *d = &t->devices[i];

		if (d->domain == domain && d->bus == bus && d->dev == dev && d->fn == fn)
			return d;
	}
	return NULL;
}

/* True when DPU device @dpu holds a representor of host function @host. */
static bool represents(const struct topo_device *dpu, const struct topo_device *host)
{
	for (uint32_t i = 0; i < dpu->nb_reps; i++) {
		const struct topo_rep *r = &dpu->reps[i];

		if (r->domain == host->domain && r->bus == host->bus && r->dev == host->dev && r->fn == host->fn)
			return true;
	}
	return false;
}

static bool pairs(const struct topo_device *exp, const struct topo_device *imp)
{
	if (exp == imp)
		return true;
	if (exp->side == TOPO_SIDE_HOST && imp->side == TOPO_SIDE_DPU)
		return represents(imp, exp);
	if (exp->side == TOPO_SIDE_DPU && imp->side == TOPO_SIDE_HOST)
		return represents(exp, imp);
	return false;
}

static doca_error_t check_pairing(const struct export_desc *d, const struct doca_dev *dev)
{
	const struct topology *t = topo_get();
	const struct topo_device *imp = dev->info.tdev, *exp;
	char names[256] = "";
	size_t used = 0;

	exp = t ? find_device(t, d->domain, d->bus, d->dev, d->fn) : NULL;
	if (exp == NULL || (exp->side == TOPO_SIDE_HOST) != (d->side == EXPORT_SIDE_HOST))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 IMP ": the exporting device %04x:%02x:%02x.%x (%s side) is %s in this process's "
				     "topology (%s); give both processes the same SOFTDOCA_CONFIG",
				 d->domain, d->bus, d->dev, d->fn, d->side == EXPORT_SIDE_HOST ? "host" : "DPU",
				 exp == NULL ? "not" : "on the other side", t ? t->source : "none");
	if (pairs(exp, imp))
		return DOCA_SUCCESS;
	for (uint32_t i = 0; t != NULL && i < t->nb_devices; i++) {
		const struct topo_device *c = &t->devices[i];

		if (pairs(exp, c) && used < sizeof(names) - 16)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%02x:%02x.%x",
						 used ? " or " : "", c->bus, c->dev, c->fn);
	}
	return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
			 IMP ": device %s cannot reach memory exported through %s device %02x:%02x.%x: a host "
			     "function's memory is imported through the DPU device holding its representor, a DPU "
			     "device's memory through a host function it represents (or through the exporting device "
			     "itself); import through %s",
			 priv_doca_dev_name(&dev->info), exp->side == TOPO_SIDE_HOST ? "host" : "DPU", exp->bus,
			 exp->dev, exp->fn, names);
}

/* Why the kernel says no, in the words the user needs. */
static doca_error_t refused(const struct export_desc *d, int err, const char *what)
{
	uid_t me = getuid();
	int scope = yama_scope();

	if (d->uid != (uint32_t)me)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 IMP ": %s exporter pid %d: %s; it runs as uid %u and this process as uid %u: the "
				     "kernel lets a process reach another's memory only as the same user or with "
				     "CAP_SYS_PTRACE",
				 what, (int)d->pid, strerror(err), (unsigned int)d->uid, (unsigned int)me);
	return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
			 IMP ": %s exporter pid %d: %s; the kernel refused although both run as uid %u: the exporter "
			     "is not dumpable (setuid program or PR_SET_DUMPABLE 0), or the ptrace policy forbids it "
			     "(Yama ptrace_scope %d; the exporter relaxes scope 1 itself, scopes 2 and 3 need "
			     "CAP_SYS_PTRACE)",
			 what, (int)d->pid, strerror(err), (unsigned int)me, scope);
}

/*
 * The one place an OS error met during import becomes a status: gone → the descriptor is stale
 * (INVALID_VALUE), refused → NOT_PERMITTED, missing kernel feature → NOT_SUPPORTED.
 */
static doca_error_t import_os_error(const struct export_desc *d, int err, const char *what)
{
	switch (err) {
	case ENOENT:
	case ESRCH:
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale descriptor: %s exporter pid %d failed (%s): the exporter exited, or "
				     "stopped or destroyed the exported mmap; export again and pass the new descriptor",
				 what, (int)d->pid, strerror(err));
	case EPERM:
	case EACCES:
		return refused(d, err, what);
	case ENOSYS:
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 IMP ": %s exporter pid %d: this kernel lacks the call (cross-process DMA needs Linux "
				     ">= 5.3 with CONFIG_CROSS_MEMORY_ATTACH)",
				 what, (int)d->pid);
	case ENOMEM:
		return DOCA_ERROR_NO_MEMORY;
	case EFAULT:
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": the range 0x%" PRIx64 " + %" PRIu64 " is not mapped in exporter pid %d (memory "
				     "freed while exported?)",
				 d->addr, d->len, (int)d->pid);
	default:
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP, IMP ": %s exporter pid %d failed: %s", what, (int)d->pid,
				 strerror(err));
	}
}

/* The process behind d->pid is the exporter: alive (not a zombie) and started when it says. */
static doca_error_t check_same_process(const struct export_desc *d)
{
	uint64_t start = 0;
	char state = '?';
	int r = proc_stat(d->pid, &state, &start);

	if (r < 0)
		return import_os_error(d, -r, "reading /proc/<pid>/stat of");
	if (state == 'Z' || state == 'X')
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale descriptor: exporter pid %d has exited; export again", (int)d->pid);
	if (start != d->start_time)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP
				 ": stale descriptor: pid %d now belongs to another process (started at tick %" PRIu64
				 ", the exporter at tick %" PRIu64 "): the exporter has exited",
				 (int)d->pid, start, d->start_time);
	return DOCA_SUCCESS;
}

/*
 * Copies the record page at @shared into @copy, once: the importer looks at the page nowhere
 * else before it decides (the state word alone is read again, by transports, per task). The
 * device count is loaded first with acquire, so the entries below it are complete in the copy
 * (the exporter writes an entry, then release-stores the count); the count and the state
 * the copy holds are those two loads, whatever the page says by the time of the copy.
 */
static void record_read(const struct export_record *shared, struct export_record *copy)
{
	uint32_t n = atomic_load_explicit(&shared->ndevs, memory_order_acquire);
	uint32_t state = atomic_load_explicit(&shared->state, memory_order_acquire);

	memcpy(copy, (const void *)shared, sizeof(*copy));
	atomic_store_explicit(&copy->ndevs, n, memory_order_relaxed);
	atomic_store_explicit(&copy->state, state, memory_order_relaxed);
}

/* Maps the exporter's record and checks it is the export the descriptor describes. */
static doca_error_t open_record(const struct export_desc *d, const struct export_record **out)
{
	const struct export_record *rec;
	struct export_record copy;
	char path[64], why[128];
	struct stat st;
	int fd, err, seals;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)d->pid, (int)d->memfd);
	/* A forged fd number may name a FIFO or a terminal: never block on it, never adopt it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return import_os_error(d, errno, "opening the export record of");
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < page_size()) {
		close(fd);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale descriptor: fd %d of exporter pid %d is not an export record any more; "
				     "the export it named is gone",
				 (int)d->memfd, (int)d->pid);
	}
	/*
	 * The page stays mapped here and transports read its state word on every task: a file the
	 * exporter could shrink would turn that read into SIGBUS. Its own records are sealed.
	 */
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
		close(fd);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": exporter pid %d broke a rule of its export record: fd %d is not sealed against "
				     "shrinking (F_SEAL_SHRINK); export with doca_mmap_export_pci()",
				 (int)d->pid, (int)d->memfd);
	}
	rec = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	err = errno;
	close(fd);
	if (rec == MAP_FAILED)
		return import_os_error(d, err, "mapping the export record of");
	record_read(rec, &copy);
	switch (export_record_check(&copy, d, why, sizeof(why))) {
	case EXPORT_RECORD_OK:
		*out = rec;
		return DOCA_SUCCESS;
	case EXPORT_RECORD_NOT_OURS:
		munmap((void *)rec, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale or forged descriptor: exporter pid %d has no export with this id (its "
				     "fd %d now holds something else); export again",
				 (int)d->pid, (int)d->memfd);
	case EXPORT_RECORD_BROKEN:
		munmap((void *)rec, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": exporter pid %d broke a rule of its export record: %s; export with "
				     "doca_mmap_export_pci()",
				 (int)d->pid, why);
	case EXPORT_RECORD_MISMATCH:
		munmap((void *)rec, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": forged descriptor: its %s does not match the export record of "
				     "exporter pid %d (range 0x%" PRIx64 " + %" PRIu64 ", rights 0x%x); "
				     "use the descriptor doca_mmap_export_pci() returned, unmodified",
				 why, (int)d->pid, copy.addr, copy.len, copy.access);
	default:
		munmap((void *)rec, page_size());
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 IMP ": stale descriptor: exporter pid %d stopped or destroyed the exported mmap",
				 (int)d->pid);
	}
}

doca_error_t export_import(const void *bytes, size_t len, struct doca_dev *dev, struct doca_mmap *mmap)
{
	const struct export_record *rec = NULL;
	struct mmap_remote *r;
	struct export_desc d;
	char err[200];
	uint64_t ns;
	uint8_t probe;
	doca_error_t ret;
	int pidfd;

	if (export_desc_decode(bytes, len, &d, err, sizeof(err)) != DOCA_SUCCESS)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, IMP ": %s", err);
	ret = check_pairing(&d, dev);
	if (ret != DOCA_SUCCESS)
		return ret;
	ns = self_pidns();
	if (d.pidns != 0 && ns != 0 && d.pidns != ns)
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 IMP ": exporter pid %d lives in another PID namespace (container); its pid means "
				     "nothing here: run both processes in one PID namespace",
				 (int)d.pid);
	ret = check_same_process(&d);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = open_record(&d, &rec);
	if (ret != DOCA_SUCCESS)
		return ret;
	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)d.pid, 0);
	if (pidfd < 0) {
		ret = import_os_error(&d, errno, "pidfd_open() of");
		goto fail_rec;
	}
	/* The pidfd was opened after the first check: make sure it names the exporter too. */
	ret = check_same_process(&d);
	if (ret != DOCA_SUCCESS)
		goto fail_pidfd;
	{
		struct iovec l = {.iov_base = &probe, .iov_len = 1};
		struct iovec rv = {.iov_base = (void *)(uintptr_t)d.addr, .iov_len = 1};

		if (process_vm_readv((pid_t)d.pid, &l, 1, &rv, 1, 0) != 1) {
			ret = import_os_error(&d, errno, "reading the memory of");
			goto fail_pidfd;
		}
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto fail_pidfd;
	}
	r->desc = d;
	r->rec = rec;
	r->domain.kind = MEM_DOMAIN_PROCESS;
	r->domain.u.process.pid = (pid_t)d.pid;
	r->domain.u.process.pidfd = pidfd;
	r->domain.u.process.state = &rec->state;
	atomic_init(&r->domain.u.process.logged, 0);
	atomic_init(&r->domain.u.process.ended, 0);
	snprintf(r->domain.name, sizeof(r->domain.name),
		 "exporter pid %d (%02x:%02x.%x), range 0x%" PRIx64 " + %" PRIu64, (int)d.pid, d.bus, d.dev, d.fn,
		 d.addr, d.len);
	mmap->kind = MMAP_FROM_EXPORT;
	mmap->started = true;
	mmap->range_set = true;
	mmap->addr = (uint8_t *)(uintptr_t)d.addr;
	mmap->len = (size_t)d.len;
	mmap->access = d.access;
	mmap->pid = (pid_t)d.pid;
	mmap->devs[0] = dev;
	mmap->nb_devs = 1;
	mmap->remote = r;
	mmap->domain = &r->domain;
	SD_DBG(COMP, "mmap %p imported from %s through %s (%s)", (void *)mmap, r->domain.name,
	       priv_doca_dev_name(&dev->info),
	       (d.access & DOCA_ACCESS_FLAG_PCI_READ_WRITE) ? "read-write" : "read-only");
	return DOCA_SUCCESS;

fail_pidfd:
	close(pidfd);
fail_rec:
	munmap((void *)rec, page_size());
	return ret;
}

void export_remote_release(struct doca_mmap *mmap)
{
	struct mmap_remote *r = mmap->remote;

	if (r == NULL)
		return;
	close(r->domain.u.process.pidfd);
	munmap((void *)r->rec, page_size());
	free(r);
	mmap->remote = NULL;
}
