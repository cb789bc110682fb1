/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc_hostile.c - a peer that breaks the rules of the pages two processes share never crashes
 * or hangs the other side: the import (or the later use) fails with the documented status and
 * one line naming the peer and the rule.
 *
 *   the PCI export record (export.h), against the importer:
 *     record memfd not sealed against shrinking (truncating it would fault every task)
 *     device count beyond the array, record version, a state word that is no state
 *     state flipped after the import: REVOKED, then LIVE again (the end is final), or garbage
 *     device count rewritten after the import (not read again: still works)
 *   the sync event page (sync_event_desc.h):
 *     importer side: page not sealed, a state word that is no state, DESTROYED then LIVE again,
 *       the exporter killed while another holder of the page keeps moving seq
 *     creator side: an importer that writes the value without moving seq and clears sleepers
 *       (seen by a blocking wait and by wait tasks, busy-polling and asleep on the PE handle),
 *       or a state word only the creator may write (one line, and the end is final)
 *
 * The hostile exporter ("rogue") is a forked child that builds its record, page and descriptors
 * by hand (export_desc.c and sync_event_desc.c are compiled in) and then only waits; this
 * process plays its hand, writing into the pages through /proc/<rogue>/fd. Every case that
 * could crash or hang runs in a forked child under a deadline (alarm): a crash or a hang is a
 * failure of that case, never of the whole run.
 */
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/futex.h>

#include <doca_ctx.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "../dma/dma_test.h"
#include "export.h"
#include "sync_event_desc.h"
#include "xproc.h"

#define SEED	 3
#define DEADLINE 20 /* seconds a case may take before it counts as hung */

/* ---- the rogue exporter ---- */

struct rogue_opts {
	bool sync_event;    /* also a sync event page; the record then covers that page */
	bool unsealed_rec;  /* the record memfd can shrink */
	bool unsealed_page; /* the sync event page memfd can shrink */
	uint32_t ndevs;	    /* 0: 1 */
	uint32_t version;   /* 0: EXPORT_RECORD_VERSION */
	uint32_t rec_state; /* 0: MEM_DOMAIN_LIVE */
	uint32_t se_state;  /* 0: SE_LIVE */
};

struct rogue {
	pid_t pid;
	int rec_fd, page_fd;
	uint64_t addr;
	size_t blob_len;
	uint8_t blob[SE_DESC_LEN];
};

static uint64_t self_start_time(void)
{
	char buf[1024];
	const char *p;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	for (int field = 2; p != NULL && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p != NULL ? strtoull(p + 1, NULL, 10) : 0;
}

static int page_memfd(bool sealed)
{
	int fd = memfd_create("rogue", MFD_ALLOW_SEALING);

	if (fd < 0 || ftruncate(fd, 4096) != 0)
		return -1;
	if (sealed && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
		return -1;
	return fd;
}

/* The rogue's body: builds the export, sends it on @out, then waits to be killed. */
static void __attribute__((noreturn)) rogue_main(const struct rogue_opts *o, int out)
{
	struct rogue r = {.pid = getpid(), .page_fd = -1};
	struct export_record *rec;
	struct export_desc d = {0};
	struct stat st;
	uint8_t *range;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	r.rec_fd = page_memfd(!o->unsealed_rec);
	rec = r.rec_fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r.rec_fd, 0);
	if (rec == MAP_FAILED)
		_exit(2);
	if (o->sync_event) {
		struct se_shm *page;

		r.page_fd = page_memfd(!o->unsealed_page);
		page = r.page_fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r.page_fd, 0);
		if (page == MAP_FAILED || getrandom(page->id, SE_ID_LEN, 0) != SE_ID_LEN)
			_exit(2);
		page->magic = SE_SHM_MAGIC;
		page->self_addr = (uint64_t)(uintptr_t)page;
		atomic_store(&page->state, o->se_state ? o->se_state : SE_LIVE);
		range = (uint8_t *)page;
	} else {
		range = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (range == MAP_FAILED)
			_exit(2);
		xp_fill(range, 0, 4096, SEED);
	}
	if (getrandom(d.id, EXPORT_ID_LEN, 0) != EXPORT_ID_LEN)
		_exit(2);
	d.pid = r.pid;
	d.memfd = r.rec_fd;
	d.start_time = self_start_time();
	d.pidns = stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
	d.addr = (uint64_t)(uintptr_t)range;
	d.len = 4096;
	d.access = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	d.uid = (uint32_t)getuid();
	d.bus = 0xb1;
	d.side = EXPORT_SIDE_HOST;
	rec->magic = EXPORT_RECORD_MAGIC;
	rec->version = o->version ? o->version : EXPORT_RECORD_VERSION;
	memcpy(rec->id, d.id, EXPORT_ID_LEN);
	rec->pid = d.pid;
	rec->access = d.access;
	rec->start_time = d.start_time;
	rec->addr = d.addr;
	rec->len = d.len;
	rec->pidns = d.pidns;
	rec->uid = d.uid;
	rec->devs[0] = (struct export_record_dev){.bus = 0xb1, .side = EXPORT_SIDE_HOST};
	atomic_store(&rec->ndevs, o->ndevs ? o->ndevs : 1);
	atomic_store(&rec->state, o->rec_state ? o->rec_state : MEM_DOMAIN_LIVE);
	export_desc_encode(&d, r.blob);
	r.blob_len = EXPORT_DESC_LEN;
	if (o->sync_event) {
		se_export_encode(((struct se_shm *)range)->id, r.page_fd, r.blob);
		r.blob_len = SE_DESC_LEN;
	}
	r.addr = d.addr;
	if (write(out, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(2);
	for (;;)
		pause();
}

static int rogue_start(const struct rogue_opts *o, struct rogue *r)
{
	int p[2];
	size_t got = 0;

	CHECK(pipe(p) == 0);
	fflush(stdout);
	fflush(stderr);
	r->pid = fork();
	CHECK(r->pid >= 0);
	if (r->pid == 0) {
		close(p[0]);
		rogue_main(o, p[1]);
	}
	close(p[1]);
	while (got < sizeof(*r)) {
		ssize_t n = read(p[0], (uint8_t *)r + got, sizeof(*r) - got);

		CHECK(n > 0);
		got += (size_t)n;
	}
	close(p[0]);
	return 0;
}

static void rogue_kill(struct rogue *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
	}
}

/* The rogue's hand: its page @fd mapped here read-write, or NULL. */
static void *peer_page(pid_t pid, int fd)
{
	char path[64];
	void *p;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	f = open(path, O_RDWR);
	if (f < 0)
		return NULL;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	close(f);
	return p == MAP_FAILED ? NULL : p;
}

static int peer_truncate(pid_t pid, int fd)
{
	char path[64];
	int f, r;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	f = open(path, O_RDWR);
	if (f < 0)
		return -1;
	r = ftruncate(f, 0);
	close(f);
	return r;
}

/* ---- cases, each run in a forked child under a deadline ---- */

static int in_child_fn(void *arg)
{
	int (*fn)(void) = (int (*)(void))arg;

	alarm(DEADLINE); /* a hang dies of SIGALRM: a failure of this case */
	if (log_capture_init() != 0)
		return 1;
	return fn();
}

static int failures;

static void run_case(int (*fn)(void), const char *name)
{
	if (check_run_child(in_child_fn, (void *)fn, name) != 0) {
		fprintf(stderr, "case '%s' failed\n", name);
		failures++;
	} else {
		printf("ok: %s\n", name);
	}
}

/* ---- the export record ---- */

struct side {
	struct dma_fix f;
	struct doca_mmap *rm;
	struct rogue r;
};

/* Imports the rogue's export through the DPU device that represents its host function. */
static doca_error_t side_open(struct side *s, const struct rogue_opts *o)
{
	struct dma_fix_cfg cfg = {.pci = "03:00.0", .arena_len = 1u << 20, .num_tasks = 8};

	memset(s, 0, sizeof(*s));
	if (rogue_start(o, &s->r) != 0 || fix_open(&s->f, &cfg) != 0)
		return DOCA_ERROR_UNEXPECTED;
	return doca_mmap_create_from_export(NULL, s->r.blob, s->r.blob_len, s->f.dev, &s->rm);
}

static int side_close(struct side *s)
{
	int rc = 0;

	if (s->rm != NULL && doca_mmap_destroy(s->rm) != DOCA_SUCCESS)
		rc = 1;
	rc |= fix_close(&s->f);
	rogue_kill(&s->r);
	return rc;
}

/* One read of the rogue's page; the task's status (the context is started again when idle). */
static int copy_once(struct side *s, doca_error_t *status)
{
	struct doca_buf *r = NULL, *l = NULL;
	size_t ok = s->f.c.ok, err = s->f.c.err;

	enum doca_ctx_states st;

	CHECK_OK(doca_ctx_get_state(s->f.ctx, &st));
	if (st == DOCA_CTX_STATE_IDLE)
		CHECK_OK(doca_ctx_start(s->f.ctx));
	memset(s->f.arena, 0, 4096);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(s->f.inv, s->rm, (void *)(uintptr_t)s->r.addr, 4096, &r));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(s->f.inv, s->f.mmap, s->f.arena, 4096, &l));
	CHECK_OK(fix_submit(&s->f, r, l, 0, NULL));
	while (s->f.c.ok == ok && s->f.c.err == err)
		doca_pe_progress(s->f.pe);
	*status = s->f.c.ok > ok ? DOCA_SUCCESS : s->f.c.last_err;
	if (*status == DOCA_SUCCESS)
		CHECK_EQ(xp_check(s->f.arena, 0, 4096, SEED), 4096);
	else
		CHECK(pe_wait_state(s->f.pe, s->f.ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_OK(doca_buf_dec_refcount(r, NULL));
	CHECK_OK(doca_buf_dec_refcount(l, NULL));
	return 0;
}

/* An import the rogue's record must fail: @want, one line naming the rogue's pid and @rule. */
static int expect_import_refused(const struct rogue_opts *o, const char *rule)
{
	struct side s;
	char pid[32];
	off_t mark = log_mark();
	doca_error_t ret = side_open(&s, o);

	snprintf(pid, sizeof(pid), "exporter pid %d", (int)s.r.pid);
	if (ret == DOCA_SUCCESS && o->unsealed_rec) {
		doca_error_t st = DOCA_SUCCESS;

		/* What the import let in: the record shrinks, the next task reads its state word. */
		CHECK(peer_truncate(s.r.pid, s.r.rec_fd) == 0);
		copy_once(&s, &st);
	}
	CHECK_ERR(ret, DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, pid, rule);
	CHECK(side_close(&s) == 0);
	return 0;
}

static int case_record_unsealed(void)
{
	return expect_import_refused(&(struct rogue_opts){.unsealed_rec = true}, "not sealed against shrinking");
}

static int case_record_ndevs(void)
{
	CHECK(expect_import_refused(&(struct rogue_opts){.ndevs = 33}, "device count 33") == 0);
	return expect_import_refused(&(struct rogue_opts){.ndevs = UINT32_MAX}, "device count 4294967295");
}

static int case_record_version(void)
{
	return expect_import_refused(&(struct rogue_opts){.version = 7}, "record version 7");
}

static int case_record_state_garbage(void)
{
	return expect_import_refused(&(struct rogue_opts){.rec_state = 0x55}, "state word 85");
}

/* After a good import the rogue revokes, then says LIVE again: the end is final. */
static int case_record_revoked_then_live(void)
{
	struct side s;
	struct export_record *rec;
	doca_error_t st = DOCA_ERROR_UNEXPECTED;

	CHECK_OK(side_open(&s, &(struct rogue_opts){0}));
	rec = peer_page(s.r.pid, s.r.rec_fd);
	CHECK(rec != NULL);
	CHECK(copy_once(&s, &st) == 0);
	CHECK_OK(st);
	atomic_store(&rec->state, MEM_DOMAIN_REVOKED);
	CHECK(copy_once(&s, &st) == 0);
	CHECK_ERR(st, DOCA_ERROR_IO_FAILED);
	atomic_store(&rec->state, MEM_DOMAIN_LIVE);
	CHECK(copy_once(&s, &st) == 0);
	CHECK_ERR(st, DOCA_ERROR_IO_FAILED);
	munmap(rec, 4096);
	CHECK(side_close(&s) == 0);
	return 0;
}

/* After a good import the state word turns to garbage: the task fails, the line names the rule. */
static int case_record_state_flipped(void)
{
	struct side s;
	struct export_record *rec;
	doca_error_t st = DOCA_ERROR_UNEXPECTED;
	off_t mark;

	CHECK_OK(side_open(&s, &(struct rogue_opts){0}));
	rec = peer_page(s.r.pid, s.r.rec_fd);
	CHECK(rec != NULL);
	CHECK(copy_once(&s, &st) == 0);
	CHECK_OK(st);
	mark = log_mark();
	atomic_store(&rec->state, 0xdead);
	CHECK(copy_once(&s, &st) == 0);
	CHECK_ERR(st, DOCA_ERROR_IO_FAILED);
	CHECK_LOG(mark, "exporter pid", "neither LIVE nor REVOKED");
	munmap(rec, 4096);
	CHECK(side_close(&s) == 0);
	return 0;
}

/* The device list is read once, at import: a count rewritten afterwards changes nothing. */
static int case_record_ndevs_flipped(void)
{
	struct side s;
	struct export_record *rec;
	doca_error_t st = DOCA_ERROR_UNEXPECTED;

	CHECK_OK(side_open(&s, &(struct rogue_opts){0}));
	rec = peer_page(s.r.pid, s.r.rec_fd);
	CHECK(rec != NULL);
	atomic_store(&rec->ndevs, UINT32_MAX);
	memset(rec->devs, 0xff, sizeof(rec->devs));
	CHECK(copy_once(&s, &st) == 0);
	CHECK_OK(st);
	munmap(rec, 4096);
	CHECK(side_close(&s) == 0);
	return 0;
}

/* ---- the sync event page ---- */

static doca_error_t se_import(const struct rogue_opts *o, struct rogue *r, struct doca_dev **dev,
			      struct doca_sync_event **se)
{
	*se = NULL;
	if (rogue_start(o, r) != 0 || sd_dev_open("03:00.0", dev) != DOCA_SUCCESS)
		return DOCA_ERROR_UNEXPECTED;
	return doca_sync_event_create_from_export(*dev, r->blob, r->blob_len, se);
}

static int se_close(struct rogue *r, struct doca_dev *dev, struct doca_sync_event *se)
{
	if (se != NULL)
		CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_dev_close(dev));
	rogue_kill(r);
	return 0;
}

static int case_se_unsealed(void)
{
	struct rogue r;
	struct doca_dev *dev = NULL;
	struct doca_sync_event *se = NULL;
	char pid[32];
	off_t mark = log_mark();
	doca_error_t ret = se_import(&(struct rogue_opts){.sync_event = true, .unsealed_page = true}, &r, &dev, &se);

	snprintf(pid, sizeof(pid), "exporter pid %d", (int)r.pid);
	if (ret == DOCA_SUCCESS) {
		uint64_t v;

		/* What the import let in: the page shrinks under the next read. */
		CHECK(peer_truncate(r.pid, r.page_fd) == 0);
		CHECK_OK(doca_sync_event_start(se));
		doca_sync_event_get(se, &v);
	}
	CHECK_ERR(ret, DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG(mark, pid, "not sealed against shrinking");
	return se_close(&r, dev, se);
}

static int case_se_state_garbage(void)
{
	struct rogue r;
	struct doca_dev *dev = NULL;
	struct doca_sync_event *se = NULL;
	char pid[32];
	off_t mark = log_mark();

	CHECK_ERR(se_import(&(struct rogue_opts){.sync_event = true, .se_state = 9}, &r, &dev, &se),
		  DOCA_ERROR_INVALID_VALUE);
	snprintf(pid, sizeof(pid), "exporter pid %d", (int)r.pid);
	CHECK_LOG(mark, pid, "state word 9");
	return se_close(&r, dev, se);
}

/* DESTROYED, then LIVE again: the importer does not believe the second word. */
static int case_se_destroyed_then_live(void)
{
	struct rogue r;
	struct doca_dev *dev = NULL;
	struct doca_sync_event *se = NULL;
	struct se_shm *page;
	uint64_t v = 0;
	off_t mark;

	CHECK_OK(se_import(&(struct rogue_opts){.sync_event = true}, &r, &dev, &se));
	CHECK_OK(doca_sync_event_start(se));
	page = peer_page(r.pid, r.page_fd);
	CHECK(page != NULL);
	atomic_store(&page->value, 5);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK_EQ(v, 5);
	atomic_store(&page->state, SE_DESTROYED);
	CHECK_ERR(doca_sync_event_get(se, &v), DOCA_ERROR_IO_FAILED);
	atomic_store(&page->state, SE_LIVE);
	CHECK_ERR(doca_sync_event_get(se, &v), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_wait_eq(se, 5, UINT64_MAX), DOCA_ERROR_IO_FAILED);
	/* A state word that is no state: the line names the rule. */
	munmap(page, 4096);
	CHECK(se_close(&r, dev, se) == 0);
	CHECK_OK(se_import(&(struct rogue_opts){.sync_event = true}, &r, &dev, &se));
	CHECK_OK(doca_sync_event_start(se));
	page = peer_page(r.pid, r.page_fd);
	CHECK(page != NULL);
	mark = log_mark();
	atomic_store(&page->state, 77);
	CHECK_ERR(doca_sync_event_update_set(se, 1), DOCA_ERROR_IO_FAILED);
	CHECK_LOG(mark, "exporter broke a rule of the shared page", "state word 77");
	munmap(page, 4096);
	return se_close(&r, dev, se);
}

/* Bumps seq of @page forever (a holder of the page that outlives the exporter). */
static void __attribute__((noreturn)) spin_seq(struct se_shm *page)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		atomic_fetch_add(&page->seq, 1);
		syscall(SYS_futex, (uint32_t *)&page->seq, FUTEX_WAKE, 1 << 20, NULL, NULL, 0);
		usleep(1000);
	}
}

/* The exporter is killed while another holder keeps moving seq: the wait fails, it never hangs. */
static int case_se_exporter_dead_seq_spun(void)
{
	struct rogue r;
	struct doca_dev *dev = NULL;
	struct doca_sync_event *se = NULL;
	struct se_shm *page;
	pid_t spinner;

	CHECK_OK(se_import(&(struct rogue_opts){.sync_event = true}, &r, &dev, &se));
	CHECK_OK(doca_sync_event_start(se));
	page = peer_page(r.pid, r.page_fd);
	CHECK(page != NULL);
	spinner = fork();
	CHECK(spinner >= 0);
	if (spinner == 0)
		spin_seq(page);
	rogue_kill(&r);
	CHECK_ERR(doca_sync_event_wait_eq(se, 12345, UINT64_MAX), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_wait_neq_yield(se, atomic_load(&page->value), UINT64_MAX), DOCA_ERROR_IO_FAILED);
	kill(spinner, SIGKILL);
	waitpid(spinner, NULL, 0);
	munmap(page, 4096);
	return se_close(&r, dev, se);
}

/*
 * The creator's side: an importer writes the value without moving seq and clears sleepers (so
 * no update of it would ever wake the creator): a creator asleep in a wait still returns.
 */
static int case_se_creator_value_behind_seq(void)
{
	struct doca_dev *dpu = sd_open_dev("03:00.0");
	struct doca_sync_event *se;
	const uint8_t *data;
	struct se_shm *page;
	size_t len;
	pid_t hand;

	CHECK_OK(doca_sync_event_create(&se));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(se));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dpu));
	CHECK_OK(doca_sync_event_start(se));
	CHECK_OK(doca_sync_event_export_to_remote_pci(se, dpu, &data, &len));
	CHECK_EQ(len, SE_DESC_LEN);
	{
		struct se_export_desc x;
		char err[128];

		CHECK_OK(se_export_decode(data, len, &x, err, sizeof(err)));
		page = (struct se_shm *)(uintptr_t)x.mmap.addr; /* this process's own page */
	}
	fflush(stdout);
	fflush(stderr);
	hand = fork(); /* the importer's hand: the page is shared with the child */
	CHECK(hand >= 0);
	if (hand == 0) {
		usleep(300 * 1000); /* the creator is asleep by now */
		atomic_store(&page->sleepers, 0);
		atomic_store(&page->value, 1);
		_exit(0);
	}
	CHECK_OK(doca_sync_event_wait_eq(se, 1, UINT64_MAX));
	CHECK(waitpid(hand, NULL, 0) == hand);
	/* Garbage in sleepers only costs a wake-up call: updates still work. */
	atomic_store(&page->sleepers, UINT32_MAX);
	CHECK_OK(doca_sync_event_update_set(se, 2));
	/* A state word only the creator may write: the event is over, said once. */
	{
		off_t mark = log_mark();
		uint64_t v;
		char *more;

		atomic_store(&page->state, 3);
		CHECK_ERR(doca_sync_event_get(se, &v), DOCA_ERROR_IO_FAILED);
		CHECK_LOG(mark, "an importer broke a rule of the shared page", "state word 3");
		mark = log_mark();
		atomic_store(&page->state, SE_LIVE);
		CHECK_ERR(doca_sync_event_update_set(se, 4), DOCA_ERROR_IO_FAILED);
		CHECK_ERR(doca_sync_event_wait_eq(se, 4, UINT64_MAX), DOCA_ERROR_IO_FAILED);
		more = log_since(mark);
		CHECK(more != NULL && more[0] == '\0');
		free(more);
	}
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_dev_close(dpu));
	return 0;
}

static int eq_done, eq_failed;

static void eq_cb(struct doca_sync_event_task_wait_eq *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	eq_done++;
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}

static void eq_err(struct doca_sync_event_task_wait_eq *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	eq_failed++;
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}

static int submit_wait_eq(struct doca_sync_event *se, uint64_t val)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_wait_eq *t;

	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(se, val, UINT64_MAX, ud, &t));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t)));
	return 0;
}

/*
 * The same with wait tasks: the importer's hand writes the value without moving seq, first while
 * the creator polls its PE, then while it sleeps on the PE's notification handle.
 */
static int case_se_creator_task_value_behind_seq(void)
{
	struct doca_dev *dpu = sd_open_dev("03:00.0");
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t h;
	struct doca_sync_event *se;
	struct se_export_desc x;
	struct doca_ctx *ctx;
	struct doca_pe *pe;
	const uint8_t *data;
	struct se_shm *page;
	char err[128];
	size_t len;
	pid_t hand;
	int ep;

	CHECK_OK(doca_sync_event_create(&se));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(se));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dpu));
	ctx = doca_sync_event_as_ctx(se);
	CHECK(ctx != NULL);
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(se, eq_cb, eq_err, 2));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_sync_event_export_to_remote_pci(se, dpu, &data, &len));
	CHECK_OK(se_export_decode(data, len, &x, err, sizeof(err)));
	page = (struct se_shm *)(uintptr_t)x.mmap.addr;
	CHECK(submit_wait_eq(se, 1) == 0);
	CHECK(submit_wait_eq(se, 2) == 0);
	fflush(stdout);
	fflush(stderr);
	hand = fork();
	CHECK(hand >= 0);
	if (hand == 0) {
		usleep(300 * 1000);
		atomic_store(&page->sleepers, 0);
		atomic_store(&page->value, 1);
		usleep(300 * 1000);
		atomic_store(&page->sleepers, 0);
		atomic_store(&page->value, 2);
		_exit(0);
	}
	while (eq_done + eq_failed == 0)
		doca_pe_progress(pe); /* busy-polling: the deadline turns a hang into a failure */
	CHECK(eq_done == 1 && eq_failed == 0);
	ep = epoll_create1(0);
	CHECK(ep >= 0);
	CHECK_OK(doca_pe_get_notification_handle(pe, &h));
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, h, &ev) == 0);
	while (eq_done + eq_failed < 2) {
		while (doca_pe_progress(pe))
			;
		if (eq_done + eq_failed == 2)
			break;
		CHECK_OK(doca_pe_request_notification(pe));
		CHECK(epoll_wait(ep, &ev, 1, -1) == 1); /* the deadline again */
		CHECK_OK(doca_pe_clear_notification(pe, h));
	}
	CHECK(eq_done == 2 && eq_failed == 0);
	close(ep);
	CHECK(waitpid(hand, NULL, 0) == hand);
	{
		doca_error_t r = doca_ctx_stop(ctx);
		enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

		CHECK(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
		while (st != DOCA_CTX_STATE_IDLE) {
			doca_pe_progress(pe);
			CHECK_OK(doca_ctx_get_state(ctx, &st));
		}
	}
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dpu));
	return 0;
}

int main(void)
{
	/* Start times in /proc/<pid>/stat count clock ticks: rogues start in a later tick than this. */
	usleep(30 * 1000);
	run_case(case_record_unsealed, "record memfd not sealed");
	run_case(case_record_ndevs, "record device count out of range");
	run_case(case_record_version, "record version");
	run_case(case_record_state_garbage, "record state word garbage at import");
	run_case(case_record_revoked_then_live, "record REVOKED then LIVE after import");
	run_case(case_record_state_flipped, "record state word garbage after import");
	run_case(case_record_ndevs_flipped, "record device count rewritten after import");
	run_case(case_se_unsealed, "sync event page not sealed");
	run_case(case_se_state_garbage, "sync event state word garbage at import");
	run_case(case_se_destroyed_then_live, "sync event DESTROYED then LIVE, garbage state");
	run_case(case_se_exporter_dead_seq_spun, "sync event exporter killed, seq kept moving");
	run_case(case_se_creator_value_behind_seq, "sync event value written behind seq");
	run_case(case_se_creator_task_value_behind_seq, "sync event wait tasks, value written behind seq");
	if (failures != 0) {
		fprintf(stderr, "%d case(s) failed\n", failures);
		return T_EXIT_FAIL;
	}
	printf("xproc_hostile: ok\n");
	return T_EXIT_PASS;
}
