/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_bench - softdoca DMA throughput, latency and CPU cost, against glibc memcpy and (when
 * built with DPDK) DPDK's software dmadev `dma_skeleton`, all measured in the same run.
 *
 *   dma_bench [--runs N] [--quick] [--engines inline,cpu,auto] [--sizes 64,512,...]
 *
 * Every cell is measured in N fresh processes (default 5) and printed as median (min-max):
 * some processes on a noisy VM run small memcpys much slower for their whole life, and the
 * cross-core round trip (printed first) swings any figure that crosses cores. The engines of a
 * row run in turn, one process each per round (N rounds), so that they share the machine's
 * drift; the main table's second-to-last column is the median over rounds of auto's GB/s over
 * the better of inline's and cpu's in the same round (the target: >= 0.95). Some figures are
 * bimodal per process on a VM (512 B at queue depth 1: 10.5 or 19.2 GB/s in fresh processes
 * of inline and auto alike), so one round's ratio can be 0.55 or 1.8 by chance; the last
 * column compares the best process of each instead: auto's best over the better of inline's
 * and cpu's best.
 *
 * hot: the same source/destination pair every time (cache resident for <= 64 KiB).
 * cold: copies walk two arenas of 16x the L3 (capped, see bench_cold_arena_bytes()).
 * qd: tasks kept in flight. Each DOCA task goes through the full API: alloc_init, submit,
 * completion callback, free.
 *
 * Application patterns: busy-polling (2 MiB copies, the thread spinning on progress) and
 * overlapping (1 MiB copies, the thread folding as many bytes of its own data between two
 * progress calls): where auto must find what is faster in this program's situation.
 *
 * Cross-process rows (last table; `--xproc` runs only those): a forked exporter process exports
 * its arena (b1:00.0) and sits in read() on a pipe; this process imports it (03:00.0) and
 * copies from it with DOCA tasks. The baseline, measured in the same run against the same
 * exporter memory, is raw process_vm_readv with one iovec per call: what a program would do by
 * hand. Targets: >= 0.95x the raw GB/s for 64 KiB and 16 MiB tasks, <= 0.35x the raw time per
 * copy for 64 B tasks at queue depth 64 (batching many small tasks into few calls).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench_util.h"

#ifdef HAVE_DPDK
double dpdk_skeleton_run(size_t size, unsigned int qd, bool cold, double secs, double *gbps, double *lat_p50,
			 double *lat_p99);
#endif

#define MEASURE_SECS 0.25
#define MAX_QD	     1024

/* ------------------------------------------------------------------------------------------ */
/* Children: each prints one line "RESULT v1 v2 v3" and exits.                                 */

struct mem_arena {
	uint8_t *src, *dst;
	size_t len;
};

static int arena_setup(struct mem_arena *a, size_t size, bool cold)
{
	a->len = cold ? bench_cold_arena_bytes() : size;
	if (a->len < size)
		a->len = size;
	a->src = bench_alloc(a->len, 0x5a);
	a->dst = bench_alloc(a->len, 0x00);
	if (a->src == NULL || a->dst == NULL)
		return -1;
	/*
	 * Touch both arenas once more, back to back, right before measuring: on some VMs memory
	 * left idle for a second after its first touch is slow to access again (the host reclaims
	 * it), which would measure the hypervisor instead of the copy.
	 */
	memset(a->src, 0x5a, a->len);
	memset(a->dst, 0x00, a->len);
	return 0;
}

struct mt_arg {
	struct mem_arena *a;
	size_t size, base, span;
	uint64_t deadline, bytes;
};

static void *memcpy_thread(void *p)
{
	struct mt_arg *m = p;
	size_t off = 0;

	while (bench_now_ns() < m->deadline) {
		for (int i = 0; i < 16; i++) {
			memcpy(m->a->dst + m->base + off, m->a->src + m->base + off, m->size);
			m->bytes += m->size;
			off += m->size;
			if (off + m->size > m->span)
				off = 0;
		}
	}
	return NULL;
}

static int child_memcpy(size_t size, bool cold, int threads)
{
	struct mem_arena a;
	struct mt_arg args[2];
	pthread_t t[2];
	uint64_t t0, bytes = 0;

	if (arena_setup(&a, size, cold) != 0)
		return 1;
	t0 = bench_now_ns();
	for (int i = 0; i < threads; i++) {
		size_t span = cold ? a.len / (size_t)threads : size / (size_t)threads;

		args[i] = (struct mt_arg){.a = &a,
					  .size = size / (size_t)threads,
					  .base = span * (size_t)i,
					  .span = span,
					  .deadline = t0 + (uint64_t)(MEASURE_SECS * 1e9)};
		pthread_create(&t[i], NULL, memcpy_thread, &args[i]);
	}
	for (int i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		bytes += args[i].bytes;
	}
	printf("RESULT %.6f 0 0\n", (double)bytes / (double)(bench_now_ns() - t0));
	return 0;
}

struct dctx {
	struct doca_dev *dev;
	struct doca_pe *pe;
	pid_t exporter; /* cross-process rows: the process owning the source arena */
	int exporter_ctl;
	struct doca_mmap *sm, *dm;
	struct doca_buf_inventory *inv;
	struct doca_dma *dma;
	struct mem_arena a;
	size_t size;
	size_t off;
	uint64_t done, submitted, target;
	struct doca_buf *sbuf[MAX_QD], *dbuf[MAX_QD];
	unsigned int free_slots[MAX_QD];
	unsigned int nfree;
	uint64_t lat_t0, lat_t1;
	bool lat_on; /* the latency child: on_done stamps lat_t1 (a clock read per task otherwise) */
	int epfd;
	int errors;
};

static void on_done(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct dctx *d = cud.ptr;

	if (d->lat_on)
		d->lat_t1 = bench_now_ns();
	d->free_slots[d->nfree++] = (unsigned int)tud.u64;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	d->done++;
}

static void on_err(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct dctx *d = cud.ptr;

	d->errors++;
	d->free_slots[d->nfree++] = (unsigned int)tud.u64;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	d->done++;
}

#define TRY(x)                                                                                                         \
	do {                                                                                                           \
		doca_error_t r_ = (x);                                                                                 \
		if (r_ != DOCA_SUCCESS) {                                                                              \
			fprintf(stderr, "%s: %s\n", #x, doca_error_get_name(r_));                                      \
			return -1;                                                                                     \
		}                                                                                                      \
	} while (0)

/* ---- the exporter process of the cross-process rows ---- */

struct export_msg {
	uint64_t addr, len;
	uint32_t desc_len;
	uint8_t desc[256];
};

static doca_error_t open_pci(const char *pci, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t ret = doca_devinfo_create_list(&list, &n);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_open(list[i], dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	return ret;
}

/*
 * Forks a process that allocates @len bytes, exports them read-only through b1:00.0 and sits in
 * read() on a pipe until this process closes it (or dies: PR_SET_PDEATHSIG). Fills @msg.
 * Returns the pid, the pipe in @ctl.
 */
static pid_t spawn_exporter(size_t len, struct export_msg *msg, int *ctl)
{
	int up[2], down[2];
	pid_t pid;

	if (pipe(up) != 0 || pipe(down) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct export_msg m = {0};
		struct doca_dev *dev = NULL;
		struct doca_mmap *mm = NULL;
		const void *desc = NULL;
		size_t dlen = 0;
		uint8_t *buf;
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(up[0]);
		close(down[1]);
		buf = bench_alloc(len, 0x5a);
		if (buf == NULL || open_pci("b1:00.0", &dev) != DOCA_SUCCESS || doca_mmap_create(&mm) != DOCA_SUCCESS ||
		    doca_mmap_set_memrange(mm, buf, len) != DOCA_SUCCESS ||
		    doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_PCI_READ_ONLY) != DOCA_SUCCESS ||
		    doca_mmap_add_dev(mm, dev) != DOCA_SUCCESS || doca_mmap_start(mm) != DOCA_SUCCESS ||
		    doca_mmap_export_pci(mm, dev, &desc, &dlen) != DOCA_SUCCESS || dlen > sizeof(m.desc))
			_exit(1);
		m.addr = (uint64_t)(uintptr_t)buf;
		m.len = len;
		m.desc_len = (uint32_t)dlen;
		memcpy(m.desc, desc, dlen);
		if (write(up[1], &m, sizeof(m)) != (ssize_t)sizeof(m))
			_exit(1);
		/* The host CPU does nothing from here on. */
		while (read(down[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	if (pid < 0 || read(up[0], msg, sizeof(*msg)) != (ssize_t)sizeof(*msg)) {
		close(up[0]);
		close(down[1]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return -1;
	}
	close(up[0]);
	*ctl = down[1];
	return pid;
}

static void reap_exporter(pid_t pid, int ctl)
{
	close(ctl);
	waitpid(pid, NULL, 0);
}

static int dctx_setup_ex(struct dctx *d, size_t size, unsigned int qd, bool cold, bool remote)
{
	struct doca_devinfo **list;
	uint32_t n;
	union doca_data ud = {.ptr = d};

	memset(d, 0, sizeof(*d));
	d->size = size;
	d->exporter = -1;
	if (remote) {
		struct export_msg msg;

		d->a.len = cold ? bench_cold_arena_bytes() : size;
		if (d->a.len < size)
			d->a.len = size;
		d->a.dst = bench_alloc(d->a.len, 0);
		if (d->a.dst == NULL)
			return -1;
		d->exporter = spawn_exporter(d->a.len, &msg, &d->exporter_ctl);
		if (d->exporter < 0)
			return -1;
		/* The exporter's address: meaningful only to the remote mmap, never dereferenced here. */
		d->a.src = (uint8_t *)(uintptr_t)msg.addr;
		memset(d->a.dst, 0, d->a.len);
		TRY(open_pci("03:00.0", &d->dev));
		TRY(doca_mmap_create_from_export(NULL, msg.desc, msg.desc_len, d->dev, &d->sm));
	} else {
		if (arena_setup(&d->a, size, cold) != 0)
			return -1;
		TRY(doca_devinfo_create_list(&list, &n));
		TRY(doca_dev_open(list[0], &d->dev));
		doca_devinfo_destroy_list(list);
		TRY(doca_mmap_create(&d->sm));
		TRY(doca_mmap_set_memrange(d->sm, d->a.src, d->a.len));
		TRY(doca_mmap_add_dev(d->sm, d->dev));
		TRY(doca_mmap_start(d->sm));
	}
	TRY(doca_mmap_create(&d->dm));
	TRY(doca_mmap_set_memrange(d->dm, d->a.dst, d->a.len));
	TRY(doca_mmap_add_dev(d->dm, d->dev));
	TRY(doca_mmap_start(d->dm));
	TRY(doca_buf_inventory_create(2 * qd, &d->inv));
	TRY(doca_buf_inventory_start(d->inv));
	for (unsigned int i = 0; i < qd; i++) {
		TRY(doca_buf_inventory_buf_get_by_addr(d->inv, d->sm, d->a.src, d->a.len, &d->sbuf[i]));
		TRY(doca_buf_set_data(d->sbuf[i], d->a.src, size));
		TRY(doca_buf_inventory_buf_get_by_addr(d->inv, d->dm, d->a.dst, d->a.len, &d->dbuf[i]));
		d->free_slots[d->nfree++] = qd - 1 - i;
	}
	TRY(doca_pe_create(&d->pe));
	TRY(doca_dma_create(d->dev, &d->dma));
	TRY(doca_pe_connect_ctx(d->pe, doca_dma_as_ctx(d->dma)));
	TRY(doca_dma_task_memcpy_set_conf(d->dma, on_done, on_err, qd));
	TRY(doca_ctx_set_user_data(doca_dma_as_ctx(d->dma), ud));
	TRY(doca_ctx_start(doca_dma_as_ctx(d->dma)));
	d->epfd = -1;
	return 0;
}

static int dctx_setup(struct dctx *d, size_t size, unsigned int qd, bool cold)
{
	return dctx_setup_ex(d, size, qd, cold, false);
}

/* Takes a free slot, points its bufs at the next copy and submits. */
static doca_error_t submit_one(struct dctx *d)
{
	unsigned int slot = d->free_slots[--d->nfree];
	struct doca_dma_task_memcpy *task;
	union doca_data ud = {.u64 = slot};
	doca_error_t r;

	if (d->a.len != d->size) {
		doca_buf_set_data(d->sbuf[slot], d->a.src + d->off, d->size);
		doca_buf_set_data(d->dbuf[slot], d->a.dst + d->off, 0);
		d->off += d->size;
		if (d->off + d->size > d->a.len)
			d->off = 0;
	}
	r = doca_dma_task_memcpy_alloc_init(d->dma, d->sbuf[slot], d->dbuf[slot], ud, &task);
	if (r != DOCA_SUCCESS) {
		d->free_slots[d->nfree++] = slot;
		return r;
	}
	r = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (r != DOCA_SUCCESS) {
		/* AGAIN: the engine queue is full; the caller progresses and comes back. */
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		d->free_slots[d->nfree++] = slot;
		return r;
	}
	d->submitted++;
	return DOCA_SUCCESS;
}

/* Waits for progress: busy polling, or sleeping on the notification fd (event mode). */
static void wait_progress(struct dctx *d, bool event)
{
	if (doca_pe_progress(d->pe))
		return;
	if (!event)
		return;
	if (d->epfd < 0) {
		struct epoll_event ev = {.events = EPOLLIN};
		doca_notification_handle_t fd;

		doca_pe_get_notification_handle(d->pe, &fd);
		d->epfd = epoll_create1(0);
		epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev);
	}
	struct epoll_event ev;
	doca_notification_handle_t fd;

	doca_pe_request_notification(d->pe);
	if (epoll_wait(d->epfd, &ev, 1, 1000) > 0) {
		doca_pe_get_notification_handle(d->pe, &fd);
		doca_pe_clear_notification(d->pe, fd);
	}
}

/*
 * The overlapping application's own work between two progress calls: it folds @len bytes of
 * its own data (a checksum, say), as doca_dma_copy does with the file it reads or writes.
 */
static volatile uint64_t own_sink;

static void own_work(size_t len)
{
	static uint64_t *buf;
	uint64_t a = 0, b = 0;

	if (buf == NULL) {
		buf = bench_alloc(len, 0);
		if (buf == NULL)
			return;
		memset(buf, 1, len);
	}
	for (size_t i = 0; i + 1 < len / 8; i += 2) {
		a += buf[i] * 0x9e3779b97f4a7c15ull;
		b ^= buf[i + 1] + (a >> 7);
	}
	own_sink = a ^ b;
}

/* @work: the application folds @work bytes of its own between progress calls (0: none). */
static int child_doca(size_t size, unsigned int qd, bool cold, bool event, bool remote, size_t work)
{
	struct dctx d;
	uint64_t t0, t1, c0, c1, deadline;

	if (dctx_setup_ex(&d, size, qd, cold, remote) != 0)
		return 1;
	/* Warm-up: one pass over the window (starts workers, faults nothing new). */
	while (d.nfree > 0)
		if (submit_one(&d) != DOCA_SUCCESS)
			break;
	while (d.done < d.submitted)
		wait_progress(&d, event);
	d.done = d.submitted = 0;
	if (work > 0)
		own_work(work); /* its buffer allocated and touched before the clock starts */

	t0 = bench_now_ns();
	c0 = bench_thread_cpu_ns();
	deadline = t0 + (uint64_t)(MEASURE_SECS * 1e9);
	for (uint64_t look = 64;;) {
		while (d.nfree > 0 && submit_one(&d) == DOCA_SUCCESS)
			;
		if (work > 0)
			own_work(work);
		wait_progress(&d, event);
		/* The clock once per 64 submissions or so. (Testing submitted % 64 == 0 instead could
		 * miss every time: submissions come in refills of any size, and a run went on for
		 * minutes when they kept to one parity.) */
		if (d.submitted >= look) {
			look = d.submitted + 64;
			if (bench_now_ns() >= deadline)
				break;
		}
		if (d.submitted >= (1ull << 40))
			break;
	}
	while (d.done < d.submitted)
		wait_progress(&d, event);
	t1 = bench_now_ns();
	c1 = bench_thread_cpu_ns();
	if (d.errors != 0) {
		fprintf(stderr, "%d task(s) failed\n", d.errors);
		return 1;
	}
	double secs = (double)(t1 - t0) / 1e9;
	double bytes = (double)d.done * (double)size;

	if (d.exporter > 0)
		reap_exporter(d.exporter, d.exporter_ctl);
	printf("RESULT %.6f %.6f %.6f\n", (double)d.done / secs / 1e6, bytes / secs / 1e9,
	       (double)(c1 - c0) / 1e9 / (bytes / 1e9));
	return 0;
}

/*
 * The baseline of the cross-process rows: process_vm_readv from the exporter, one iovec per
 * call, @size bytes per call (walking the arena when @cold). Prints GB/s and us per call.
 */
static int child_raw_pvr(size_t size, bool cold)
{
	size_t len = cold ? bench_cold_arena_bytes() : size, off = 0;
	struct export_msg msg;
	uint64_t t0, t1, calls = 0;
	uint8_t *dst;
	pid_t pid;
	int ctl;

	if (len < size)
		len = size;
	dst = bench_alloc(len, 0);
	if (dst == NULL)
		return 1;
	pid = spawn_exporter(len, &msg, &ctl);
	if (pid < 0)
		return 1;
	memset(dst, 0, len);
	/* Warm-up, as the DOCA child does one pass first. */
	for (int i = 0; i < 64; i++) {
		struct iovec l = {dst, size}, r = {(void *)(uintptr_t)msg.addr, size};

		if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)size)
			return 1;
	}
	t0 = bench_now_ns();
	uint64_t deadline = t0 + (uint64_t)(MEASURE_SECS * 1e9);

	do {
		for (int i = 0; i < 16; i++) {
			struct iovec l = {dst + off, size}, r = {(void *)(uintptr_t)(msg.addr + off), size};

			if (process_vm_readv(pid, &l, 1, &r, 1, 0) != (ssize_t)size) {
				perror("process_vm_readv");
				return 1;
			}
			calls++;
			if (cold) {
				off += size;
				if (off + size > len)
					off = 0;
			}
		}
		t1 = bench_now_ns();
	} while (t1 < deadline);
	reap_exporter(pid, ctl);
	printf("RESULT %.6f %.6f 0\n", (double)calls * (double)size / (double)(t1 - t0),
	       (double)(t1 - t0) / 1e3 / (double)calls);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int child_latency(void)
{
	enum { N = 20000 };
	static uint64_t lat[N];
	struct dctx d;

	if (dctx_setup(&d, 64, 1, false) != 0)
		return 1;
	d.lat_on = true;
	for (int i = 0; i < N + 1000; i++) {
		uint64_t before = d.done;

		d.lat_t0 = bench_now_ns();
		if (submit_one(&d) != DOCA_SUCCESS)
			return 1;
		while (d.done == before)
			doca_pe_progress(d.pe);
		if (i >= 1000)
			lat[i - 1000] = d.lat_t1 - d.lat_t0;
	}
	qsort(lat, N, sizeof(lat[0]), cmp_u64);
	printf("RESULT %.1f %.1f 0\n", (double)lat[N / 2], (double)lat[N * 99 / 100]);
	return 0;
}

static int child_main(int argc, char **argv)
{
	const char *what = argv[2];

	if (strcmp(what, "rtt") == 0) {
		printf("RESULT %.1f 0 0\n", bench_cross_core_rtt_ns());
		return 0;
	}
	if (strcmp(what, "memcpy") == 0 && argc >= 6)
		return child_memcpy(strtoull(argv[3], NULL, 0), strcmp(argv[4], "cold") == 0, atoi(argv[5]));
	if (strcmp(what, "doca") == 0 && argc >= 7)
		return child_doca(strtoull(argv[3], NULL, 0), (unsigned int)atoi(argv[4]), strcmp(argv[5], "cold") == 0,
				  strcmp(argv[6], "event") == 0 || strcmp(argv[6], "work") == 0,
				  argc >= 8 && strcmp(argv[7], "remote") == 0,
				  strcmp(argv[6], "work") == 0 ? strtoull(argv[3], NULL, 0) : 0);
	if (strcmp(what, "pvr") == 0 && argc >= 5)
		return child_raw_pvr(strtoull(argv[3], NULL, 0), strcmp(argv[4], "cold") == 0);
	if (strcmp(what, "latency") == 0)
		return child_latency();
#ifdef HAVE_DPDK
	if (strcmp(what, "dpdk") == 0 && argc >= 6) {
		double gbps = 0, p50 = 0, p99 = 0;
		double mops = dpdk_skeleton_run(strtoull(argv[3], NULL, 0), (unsigned int)atoi(argv[4]),
						strcmp(argv[5], "cold") == 0, MEASURE_SECS, &gbps, &p50, &p99);

		if (mops < 0)
			return 1;
		printf("RESULT %.6f %.6f %.1f\n", mops, gbps, p50);
		return 0;
	}
#endif
	fprintf(stderr, "bad child arguments\n");
	return 2;
}

/* ------------------------------------------------------------------------------------------ */
/* Driver.                                                                                      */

struct stat3 {
	double med, min, max;
	bool ok;
};

static int runs = 5;
static char self_path[4096];

/* Runs one child (a fresh process, SOFTDOCA_ENGINE=@engine unless NULL): its RESULT line's three
 * values in @v, false when it failed. */
static bool run_child(const char *engine, char *const args[], double v[3])
{
	int pfd[2];
	pid_t pid;
	char line[256] = "";
	FILE *f;
	int st;

	if (pipe(pfd) != 0)
		return false;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		if (engine != NULL)
			setenv("SOFTDOCA_ENGINE", engine, 1);
		execv(self_path, args);
		_exit(127);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "RESULT", 6) == 0)
			break;
	fclose(f);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 && sscanf(line, "RESULT %lf %lf %lf", &v[0], &v[1], &v[2]) == 3;
}

/* Median, min and max of @n values (sorted in place). */
static void stat_of(double *v, int n, struct stat3 *out)
{
	out->ok = n > 0;
	if (n == 0)
		return;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	out->min = v[0];
	out->max = v[n - 1];
	out->med = (n % 2) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Runs one child @runs times (fresh processes) and returns median/min/max of each value. */
static bool measure(const char *engine, char *const args[], struct stat3 out[3])
{
	double v[3][64], one[3];
	int n = 0;

	for (int r = 0; r < runs; r++) {
		if (!run_child(engine, args, one))
			continue;
		for (int c = 0; c < 3; c++)
			v[c][n] = one[c];
		n++;
	}
	for (int c = 0; c < 3; c++)
		stat_of(v[c], n, &out[c]);
	return n > 0;
}

/*
 * The same child under each engine, @runs rounds, one run of every engine per round (each round
 * starting one engine later): the rate a virtual machine gets drifts within seconds, and
 * measuring engines one after the other would give one the fast minute and another the slow
 * one. @out[e]: engine e's values. @vs_best (may be NULL): the median over rounds of auto's
 * value @col over the better of inline's and cpu's in the same round (higher is better, ok =
 * false unless all three engines ran and succeeded in some round).
 */
static void measure_engines(const char *const *engines, int nengines, char *const args[], int col,
			    struct stat3 out[][3], struct stat3 *vs_best)
{
	double v[8][3][64], ratio[64], one[8][3];
	int n[8] = {0}, nr = 0, ia = -1, ii = -1, ic = -1;

	for (int e = 0; e < nengines; e++) {
		if (strcmp(engines[e], "auto") == 0)
			ia = e;
		else if (strcmp(engines[e], "inline") == 0)
			ii = e;
		else if (strcmp(engines[e], "cpu") == 0)
			ic = e;
	}
	for (int r = 0; r < runs; r++) {
		bool ok[8] = {false};

		for (int k = 0; k < nengines; k++) {
			int e = (k + r) % nengines;

			ok[e] = run_child(engines[e], args, one[e]);
			if (!ok[e])
				continue;
			for (int c = 0; c < 3; c++)
				v[e][c][n[e]] = one[e][c];
			n[e]++;
		}
		if (ia >= 0 && ii >= 0 && ic >= 0 && ok[ia] && ok[ii] && ok[ic]) {
			double best = one[ii][col] > one[ic][col] ? one[ii][col] : one[ic][col];

			if (best > 0)
				ratio[nr++] = one[ia][col] / best;
		}
	}
	for (int e = 0; e < nengines; e++)
		for (int c = 0; c < 3; c++)
			stat_of(v[e][c], n[e], &out[e][c]);
	if (vs_best != NULL)
		stat_of(ratio, nr, vs_best);
}

/* auto's fastest process over the faster of inline's and cpu's fastest (GB/s), or "-". */
static const char *best_of_bests(const char *const *engines, int nengines, struct stat3 r[][3], char *buf, size_t len)
{
	double a = -1, other = -1;

	for (int e = 0; e < nengines; e++) {
		if (!r[e][1].ok)
			continue;
		if (strcmp(engines[e], "auto") == 0)
			a = r[e][1].max;
		else if ((strcmp(engines[e], "inline") == 0 || strcmp(engines[e], "cpu") == 0) && r[e][1].max > other)
			other = r[e][1].max;
	}
	if (a < 0 || other <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", a / other);
	return buf;
}

static const char *fmt3(char *buf, size_t len, const struct stat3 *s, const char *f)
{
	char a[24], b[24], c[24];

	if (!s->ok) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	snprintf(a, sizeof(a), f, s->med);
	snprintf(b, sizeof(b), f, s->min);
	snprintf(c, sizeof(c), f, s->max);
	snprintf(buf, len, "%.20s (%.20s-%.20s)", a, b, c);
	return buf;
}

static const char *size_name(size_t s)
{
	static char buf[4][32];
	static int k;
	char *b = buf[k++ & 3];

	if (s >= (1u << 20))
		snprintf(b, 32, "%zu MiB", s >> 20);
	else if (s >= 1024)
		snprintf(b, 32, "%zu KiB", s >> 10);
	else
		snprintf(b, 32, "%zu B", s);
	return b;
}

static void rtt_line(void)
{
	char *args[] = {self_path, "--child", "rtt", NULL};
	struct stat3 s[3];
	char b[160];

	measure(NULL, args, s);
	printf("cross-core round trip: %s ns\n", fmt3(b, sizeof(b), &s[0], "%.0f"));
}

/*
 * Cross-process rows: raw process_vm_readv (one iovec per call) and DOCA tasks reading a forked
 * exporter's memory, same run, with the ratio against each target.
 */
static void xproc_rows(const char *const *engines, int nengines)
{
	static const struct {
		size_t size;
		unsigned int qd;
		bool cold;
	} rows[] = {{64, 64, false}, {65536, 64, false}, {16u << 20, 16, true}};

	printf("\nCross-process: reading a forked exporter's memory (b1:00.0 -> 03:00.0); raw = process_vm_readv, one "
	       "iovec per call\n\n");
	printf("| size | mem | qd | raw GB/s | raw us/copy | engine | GB/s | us/task | vs raw | target |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char sz[32], qds[16], b1[160], b2[160], b3[160];
		const char *mem = rows[i].cold ? "cold" : "hot";
		bool small = rows[i].size < 4096;
		struct stat3 raw[3];
		char *rargs[] = {self_path, "--child", "pvr", sz, (char *)mem, NULL};

		snprintf(sz, sizeof(sz), "%zu", rows[i].size);
		snprintf(qds, sizeof(qds), "%u", rows[i].qd);
		char *wait = (char *)(rows[i].size >= (1u << 20) ? "event" : "poll");
		char *args[] = {self_path, "--child", "doca", sz, qds, (char *)mem, wait, "remote", NULL};
		struct stat3 rs[8][3];

		measure(NULL, rargs, raw);
		measure_engines(engines, nengines, args, 1, rs, NULL);
		for (int e = 0; e < nengines; e++) {
			struct stat3 *r = rs[e];
			double us = 0, ratio = 0;
			bool met;

			if (r[0].ok)
				us = 1.0 / r[0].med;
			if (small)
				ratio = raw[1].ok && r[0].ok ? us / raw[1].med : 0;
			else
				ratio = raw[0].ok && r[1].ok ? r[1].med / raw[0].med : 0;
			met = r[0].ok && raw[0].ok && (small ? ratio <= 0.35 : ratio >= 0.95);
			printf("| %s | %s | %u | %s | %s | %s | %s | %.3f | %.2fx %s | %s %s |\n",
			       size_name(rows[i].size), mem, rows[i].qd, fmt3(b1, sizeof(b1), &raw[0], "%.2f"),
			       fmt3(b2, sizeof(b2), &raw[1], "%.3f"), engines[e], fmt3(b3, sizeof(b3), &r[1], "%.2f"),
			       us, ratio, small ? "time" : "GB/s", small ? "<= 0.35x time" : ">= 0.95x GB/s",
			       met ? "met" : "MISSED");
			fflush(stdout);
		}
	}
}

int main(int argc, char **argv)
{
	static const size_t all_sizes[] = {64, 512, 4096, 65536, 1u << 20, 16u << 20};
	/* Every executor of this build (src/engines/meson.build, passed by bench/meson.build). */
	static char engines_default[] = SD_EXECUTORS;
	const char *engines[8];
	int nengines = 0;
	bool quick = false, xproc_only = false;
	size_t sizes[8];
	int nsizes = 0;

	if (argc >= 3 && strcmp(argv[1], "--child") == 0)
		return child_main(argc, argv);
	if (readlink("/proc/self/exe", self_path, sizeof(self_path) - 1) < 0) {
		perror("readlink");
		return 1;
	}
	{
		char *save = NULL;

		for (char *tok = strtok_r(engines_default, ",", &save); tok && nengines < 8;
		     tok = strtok_r(NULL, ",", &save))
			engines[nengines++] = tok;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
			char *end;
			long n = strtol(argv[++i], &end, 10);

			if (*end != '\0' || n < 1 || n > 64) {
				fprintf(stderr, "%s: --runs takes 1 to 64, not '%s'\n", argv[0], argv[i]);
				return 2;
			}
			runs = (int)n;
		} else if (strcmp(argv[i], "--quick") == 0) {
			quick = true;
		} else if (strcmp(argv[i], "--xproc") == 0) {
			xproc_only = true;
		} else if (strcmp(argv[i], "--engines") == 0 && i + 1 < argc) {
			char *save, *tok, *s = strdup(argv[++i]);

			nengines = 0;
			for (tok = strtok_r(s, ",", &save); tok && nengines < 8; tok = strtok_r(NULL, ",", &save))
				engines[nengines++] = tok;
		} else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
			char *save, *tok, *s = strdup(argv[++i]);

			for (tok = strtok_r(s, ",", &save); tok && nsizes < 8; tok = strtok_r(NULL, ",", &save))
				sizes[nsizes++] = strtoull(tok, NULL, 0);
		} else {
			fprintf(stderr,
				"usage: %s [--runs N] [--quick] [--xproc] [--engines inline,cpu,auto] [--sizes "
				"64,4096,...]\n",
				argv[0]);
			return 2;
		}
	}
	if (nsizes == 0)
		for (size_t i = 0; i < sizeof(all_sizes) / sizeof(all_sizes[0]); i++)
			sizes[nsizes++] = all_sizes[i];
	if (quick) {
		runs = 1;
		nsizes = nsizes > 2 ? 2 : nsizes;
	}
	setenv("SOFTDOCA_BENCH_CHILD", "1", 1);

	printf("softdoca dma_bench: %d fresh process(es) per cell, median (min-max); cold arenas %zu MiB each\n", runs,
	       bench_cold_arena_bytes() >> 20);
	if (xproc_only) {
		xproc_rows(engines, nengines);
		return 0;
	}
	rtt_line();
#ifdef HAVE_DPDK
	printf("DPDK dma_skeleton: built in\n");
#else
	printf("DPDK dma_skeleton: not built (install dpdk-dev and rebuild to compare)\n");
#endif
	printf("\n| size | mem | qd | memcpy GB/s |");
#ifdef HAVE_DPDK
	printf(" dpdk Mops/s | dpdk GB/s |");
#endif
	for (int e = 0; e < nengines; e++)
		printf(" %s Mtasks/s | %s GB/s | x memcpy |%s", engines[e], engines[e], "");
	printf(" auto x best of inline, cpu | auto's best x best of inline's, cpu's |\n|---|---|---|---|");
#ifdef HAVE_DPDK
	printf("---|---|");
#endif
	for (int e = 0; e < nengines; e++)
		printf("---|---|---|");
	printf("---|---|\n");
	for (int si = 0; si < nsizes; si++) {
		size_t size = sizes[si];
		bool cold = size >= (1u << 20);
		char sz[32], qds[8], b1[160], b2[160], b3[160];
		const char *mem = cold ? "cold" : "hot";
		struct stat3 mc[3], two[3];

		snprintf(sz, sizeof(sz), "%zu", size);
		{
			char *args[] = {self_path, "--child", "memcpy", sz, (char *)mem, "1", NULL};

			measure(NULL, args, mc);
		}
		for (int q = 0; q < 2; q++) {
			unsigned int qd = q == 0 ? 1 : 256;

			if (size >= (16u << 20) && qd > 16)
				qd = 16;
			snprintf(qds, sizeof(qds), "%u", qd);
			printf("| %s | %s | %u | %s |", size_name(size), mem, qd, fmt3(b1, sizeof(b1), &mc[0], "%.2f"));
#ifdef HAVE_DPDK
			{
				char *args[] = {self_path, "--child", "dpdk", sz, qds, (char *)mem, NULL};
				struct stat3 dp[3];

				measure(NULL, args, dp);
				printf(" %s | %s |", fmt3(b2, sizeof(b2), &dp[0], "%.2f"),
				       fmt3(b3, sizeof(b3), &dp[1], "%.2f"));
			}
#endif
			{
				char *wait = (char *)(size >= (1u << 20) ? "event" : "poll");
				char *args[] = {self_path, "--child", "doca", sz, qds, (char *)mem, wait, NULL};
				struct stat3 r[8][3], best;

				measure_engines(engines, nengines, args, 1, r, &best);
				for (int e = 0; e < nengines; e++)
					printf(" %s | %s | %.2f |", fmt3(b2, sizeof(b2), &r[e][0], "%.2f"),
					       fmt3(b3, sizeof(b3), &r[e][1], "%.2f"),
					       (r[e][1].ok && mc[0].ok) ? r[e][1].med / mc[0].med : 0.0);
				printf(" %s | %s |\n", best.ok ? fmt3(b2, sizeof(b2), &best, "%.2f") : "-",
				       best_of_bests(engines, nengines, r, b3, sizeof(b3)));
			}
			fflush(stdout);
		}
		if (size == (16u << 20)) {
			char *args[] = {self_path, "--child", "memcpy", sz, "cold", "2", NULL};

			measure(NULL, args, two);
			printf("| %s | cold | - | 2 threads: %s | (reference for the two-core target)\n",
			       size_name(size), fmt3(b1, sizeof(b1), &two[0], "%.2f"));
		}
	}

	printf("\nLatency, one 64 B task at queue depth 1, submit -> completion callback (ns)\n\n");
	printf("| engine | p50 | p99 |\n|---|---|---|\n");
	{
		char *args[] = {self_path, "--child", "latency", NULL};
		struct stat3 r[8][3];
		char b1[160], b2[160];

		measure_engines(engines, nengines, args, 0, r, NULL);
		for (int e = 0; e < nengines; e++)
			printf("| %s | %s | %s |\n", engines[e], fmt3(b1, sizeof(b1), &r[e][0], "%.0f"),
			       fmt3(b2, sizeof(b2), &r[e][1], "%.0f"));
	}
#ifdef HAVE_DPDK
	{
		char *args[] = {self_path, "--child", "dpdk", "64", "1", "hot", NULL};
		struct stat3 r[3];
		char b1[160];

		measure(NULL, args, r);
		printf("| dpdk skeleton | %s | - |\n", fmt3(b1, sizeof(b1), &r[2], "%.0f"));
	}
#endif
	printf("\nBusy-polling application: 2 MiB hot copies, one in flight, the thread spins on "
	       "doca_pe_progress()\n\n");
	printf("| engine | GB/s | ms per copy | x inline |\n|---|---|---|---|\n");
	{
		char *args[] = {self_path, "--child", "doca", "2097152", "1", "hot", "poll", NULL};
		struct stat3 r[8][3], inl[3] = {{0}};

		measure_engines(engines, nengines, args, 1, r, NULL);
		for (int e = 0; e < nengines; e++)
			if (strcmp(engines[e], "inline") == 0)
				memcpy(inl, r[e], sizeof(inl));
		for (int e = 0; e < nengines; e++) {
			char b1[160];

			printf("| %s | %s | %.3f | %.2f |\n", engines[e], fmt3(b1, sizeof(b1), &r[e][1], "%.2f"),
			       r[e][1].ok && r[e][1].med > 0 ? 2.097152 / r[e][1].med : 0.0,
			       r[e][1].ok && inl[1].ok && inl[1].med > 0 ? r[e][1].med / inl[1].med : 0.0);
		}
	}
	printf("\nOverlapping application: 1 MiB hot copies at queue depth 4; between two progress calls "
	       "the thread folds 1 MiB of its own data, and it sleeps in epoll when nothing completed\n\n");
	printf("| engine | GB/s | auto x best of inline, cpu |\n|---|---|---|\n");
	{
		char *args[] = {self_path, "--child", "doca", "1048576", "4", "hot", "work", NULL};
		struct stat3 r[8][3], vs;
		char b1[160], b2[160];

		measure_engines(engines, nengines, args, 1, r, &vs);
		for (int e = 0; e < nengines; e++)
			printf("| %s | %s | %s |\n", engines[e], fmt3(b1, sizeof(b1), &r[e][1], "%.2f"),
			       strcmp(engines[e], "auto") == 0 ? fmt3(b2, sizeof(b2), &vs, "%.2f") : "-");
	}
	printf("\nSubmitting thread CPU time per GB moved, 16 MiB cold copies at qd 16, waiting in epoll\n\n");
	printf("| engine | CPU s per GB | GB/s |\n|---|---|---|\n");
	if (!quick) {
		char *args[] = {self_path, "--child", "doca", "16777216", "16", "cold", "event", NULL};
		struct stat3 r[8][3];
		char b1[160], b2[160];

		measure_engines(engines, nengines, args, 1, r, NULL);
		for (int e = 0; e < nengines; e++)
			printf("| %s | %s | %s |\n", engines[e], fmt3(b1, sizeof(b1), &r[e][2], "%.3f"),
			       fmt3(b2, sizeof(b2), &r[e][1], "%.2f"));
	}
	if (!quick)
		xproc_rows(engines, nengines);
	return 0;
}
