/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cma.c - the cross-process transport (src/engines/cma) on its own: jobs whose source or
 * destination is in a memory domain of kind MEM_DOMAIN_PROCESS, handed to
 * engine_job_copy_batch() and engine_job_copy_range() the way an executor does.
 *
 * The "other process" is this one (process_vm_readv on oneself is allowed) or a forked child,
 * so every byte can be checked here:
 *   - many small jobs in one batch, both directions; a large job in chunks; segment lists
 *   - a job whose memory is not mapped fails alone (IO_FAILED), the rest of its batch succeeds
 *   - a revoked export (state word) fails every job, before any system call
 *   - an exporter that exited fails every job (its pidfd is readable)
 *   - the probe says the transport works here, and the registry picks it for both pairs
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/sd_test.h"
#include "engine.h"

static _Atomic uint32_t live = MEM_DOMAIN_LIVE;

static void domain_init(struct mem_domain *d, pid_t pid, const _Atomic uint32_t *state)
{
	memset(d, 0, sizeof(*d));
	d->kind = MEM_DOMAIN_PROCESS;
	snprintf(d->name, sizeof(d->name), "test process %d", (int)pid);
	d->u.process.pid = pid;
	d->u.process.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	d->u.process.state = state;
	atomic_init(&d->u.process.logged, 0);
	CHECK(d->u.process.pidfd >= 0);
}

struct item {
	struct engine_job job;
	struct engine_completion comp;
	struct engine_seg src[3], dst[3];
};

static void item_set(struct item *it, const struct engine_xfer *x, struct mem_domain *sd, struct mem_domain *dd,
		     void *dst, const void *src, uint64_t len)
{
	memset(it, 0, sizeof(*it));
	it->src[0] = (struct engine_seg){(void *)src, len};
	it->dst[0] = (struct engine_seg){dst, len};
	it->job = (struct engine_job){.src = it->src,
				      .dst = it->dst,
				      .nsrc = 1,
				      .ndst = 1,
				      .len = len,
				      .src_dom = sd,
				      .dst_dom = dd,
				      .xfer = x,
				      .comp = &it->comp};
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 13u + seed);
}

int main(void)
{
	enum { N = ENGINE_XFER_BATCH, LEN = 200 };
	static uint8_t src[N][LEN], dst[N][LEN];
	static struct item its[N];
	struct engine_job *jobs[N];
	doca_error_t st[N];
	const struct engine_backend *cma = engine_backend_find("cma");
	const struct engine_xfer *x;
	struct mem_domain self;
	char why[192];

	CHECK(cma != NULL && cma->kind == ENGINE_TRANSPORT && cma->xfer != NULL);
	if (!engine_backend_usable(cma, why, sizeof(why))) {
		printf("skip: cma does not work here: %s\n", why);
		return T_EXIT_SKIP;
	}
	x = engine_transport_for(MEM_DOMAIN_PROCESS, MEM_DOMAIN_LOCAL, NULL, 0);
	CHECK(x == cma->xfer);
	CHECK(engine_transport_for(MEM_DOMAIN_LOCAL, MEM_DOMAIN_PROCESS, NULL, 0) == cma->xfer);
	domain_init(&self, getpid(), &live);

	/* Many small jobs, one batch, each direction. */
	for (int dir = 0; dir < 2; dir++) {
		for (int i = 0; i < N; i++) {
			fill(src[i], LEN, (unsigned int)(i + dir));
			memset(dst[i], 0, LEN);
			item_set(&its[i], x, dir == 0 ? &self : NULL, dir == 1 ? &self : NULL, dst[i], src[i],
				 (uint64_t)(1 + i * 3 % LEN));
			jobs[i] = &its[i].job;
		}
		for (int i = 1; i < N; i++)
			CHECK(engine_job_batchable(jobs[0], jobs[i]));
		engine_job_copy_batch(jobs, N, st, "test");
		for (int i = 0; i < N; i++) {
			CHECK_ERR(st[i], DOCA_SUCCESS);
			CHECK(memcmp(src[i], dst[i], jobs[i]->len) == 0);
			CHECK(dst[i][jobs[i]->len % LEN] == 0 || jobs[i]->len == LEN); /* nothing past len */
		}
	}
	/* Reads and writes, or two exporters, never share a call. */
	item_set(&its[0], x, &self, NULL, dst[0], src[0], 8);
	item_set(&its[1], x, NULL, &self, dst[1], src[1], 8);
	CHECK(!engine_job_batchable(&its[0].job, &its[1].job));

	/* A large job with segment lists, in chunks (several 4 MiB calls). */
	{
		const size_t len = (10u << 20) + 4097;
		uint8_t *a = malloc(len), *b = malloc(len);
		struct item it;

		CHECK(a != NULL && b != NULL);
		fill(a, len, 5);
		memset(b, 0, len);
		item_set(&it, x, &self, NULL, b, a, len);
		it.src[0].len = 1000;
		it.src[1] = (struct engine_seg){a + 1000, len - 1000};
		it.job.nsrc = 2;
		it.dst[0].len = 5u << 20;
		it.dst[1] = (struct engine_seg){b + (5u << 20), len - (5u << 20)};
		it.job.ndst = 2;
		CHECK_ERR(engine_job_copy_range(&it.job, 0, len, "test"), DOCA_SUCCESS);
		CHECK(memcmp(a, b, len) == 0);
		/* A middle range only. */
		memset(b, 0, len);
		CHECK_ERR(engine_job_copy_range(&it.job, 999, 3u << 20, "test"), DOCA_SUCCESS);
		CHECK(b[998] == 0 && memcmp(a + 999, b + 999, 3u << 20) == 0 && b[999 + (3u << 20)] == 0);
		free(a);
		free(b);
	}

	/* A job over unmapped memory fails alone; the others of its batch still arrive. */
	{
		long pg = sysconf(_SC_PAGESIZE);
		uint8_t *hole = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		CHECK(hole != MAP_FAILED);
		CHECK(munmap(hole, (size_t)pg) == 0);
		for (int i = 0; i < 8; i++) {
			fill(src[i], LEN, (unsigned int)i);
			memset(dst[i], 0, LEN);
			item_set(&its[i], x, &self, NULL, dst[i], i == 3 ? hole : src[i], LEN);
			jobs[i] = &its[i].job;
		}
		engine_job_copy_batch(jobs, 8, st, "test");
		for (int i = 0; i < 8; i++) {
			if (i == 3) {
				CHECK_ERR(st[i], DOCA_ERROR_IO_FAILED);
				continue;
			}
			CHECK_ERR(st[i], DOCA_SUCCESS);
			CHECK(memcmp(src[i], dst[i], LEN) == 0);
		}
	}

	/* A revoked export: every job fails, nothing is copied. */
	{
		static _Atomic uint32_t revoked = MEM_DOMAIN_REVOKED;
		struct mem_domain gone;

		domain_init(&gone, getpid(), &revoked);
		for (int i = 0; i < 4; i++) {
			memset(dst[i], 0, LEN);
			item_set(&its[i], x, &gone, NULL, dst[i], src[i], LEN);
			jobs[i] = &its[i].job;
		}
		engine_job_copy_batch(jobs, 4, st, "test");
		for (int i = 0; i < 4; i++) {
			CHECK_ERR(st[i], DOCA_ERROR_IO_FAILED);
			CHECK(dst[i][0] == 0 && dst[i][LEN - 1] == 0);
		}
		close(gone.u.process.pidfd);
	}

	/* An exporter that exited: its pidfd is readable, every job fails. */
	{
		struct mem_domain dead;
		pid_t child = fork();

		CHECK(child >= 0);
		if (child == 0) {
			pause();
			_exit(0);
		}
		domain_init(&dead, child, &live);
		CHECK(kill(child, SIGKILL) == 0);
		CHECK(waitpid(child, NULL, 0) == child);
		for (int i = 0; i < 4; i++) {
			item_set(&its[i], x, &dead, NULL, dst[i], src[i], LEN);
			jobs[i] = &its[i].job;
		}
		engine_job_copy_batch(jobs, 4, st, "test");
		for (int i = 0; i < 4; i++)
			CHECK_ERR(st[i], DOCA_ERROR_IO_FAILED);
		close(dead.u.process.pidfd);
	}
	close(self.u.process.pidfd);
	printf("cma transport: batches, chunks, faults, revocation and exit checked\n");
	return T_EXIT_PASS;
}
