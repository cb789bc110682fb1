/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_notify_wake.c - an armed notification handle wakes for work submitted *after* arming.
 *
 * The order DOCA programs use in event loops is not always "drain, submit, arm": many arm
 * first and submit afterwards (or submit from another part of the loop), then sleep on the
 * handle. On hardware the completion arrives asynchronously and wakes them; here the inline
 * engine copies only inside doca_pe_progress(), so the core itself must write the handle.
 *
 * For every engine (one forked child each) and every size class (inline sizes, auto's worker
 * threshold, the cpu engine's chunked copies), repeatedly: drain, arm, then submit one task,
 * and wait on the handle in epoll for up to 3 s. Also after arming: a task refused at submit
 * (its error completion is deliverable at once), a stop with tasks in flight (flushed tasks
 * are deliverable) and a task submitted from a callback of a progress call made while armed.
 * Finally, with nothing in flight, an armed handle stays quiet (no busy wake-ups), and with
 * SOFTDOCA_FAULT delays it fires when a held-back completion is due, not in a loop before.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../common/sd_test.h"

#define WAIT_MS	   3000
#define ROUNDS	   8
#define MAX_SIZE   (4u * 1024 * 1024)
#define NB_SLOTS   4

static const uint32_t sizes[] = {64, 4096, 65536, 1024 * 1024, MAX_SIZE};

static struct doca_pe *pe;
static struct doca_dma *dma;
static struct doca_mmap *src_map, *dst_map;
static struct doca_buf_inventory *inv;
static uint8_t *src_mem, *dst_mem;
static int ep;
static int nb_ok, nb_err, nb_resubmit;
static doca_error_t last_err;

static void comp_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	const struct doca_buf *dst = doca_dma_task_memcpy_get_dst(t);
	const struct doca_buf *src = doca_dma_task_memcpy_get_src(t);
	struct doca_task *task = doca_dma_task_memcpy_as_task(t);
	void *d, *s;
	size_t len;

	(void)ctx_ud;
	CHECK_OK(doca_buf_get_data(dst, &d));
	CHECK_OK(doca_buf_get_data(src, &s));
	CHECK_OK(doca_buf_get_data_len(src, &len));
	CHECK_MEM(d, s, len);
	nb_ok++;
	if (ud.u64 == 1) {
		/* Resubmitted once from the callback (of a progress call made while armed). */
		union doca_data none = {.u64 = 0};

		doca_task_set_user_data(task, none);
		CHECK_OK(doca_buf_reset_data_len((struct doca_buf *)dst));
		CHECK_OK(doca_task_submit(task));
		nb_resubmit++;
		return;
	}
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)src, NULL));
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)dst, NULL));
	doca_task_free(task);
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	struct doca_task *task = doca_dma_task_memcpy_as_task(t);

	(void)ud;
	(void)ctx_ud;
	last_err = doca_task_get_status(task);
	nb_err++;
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(t), NULL));
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_dst(t), NULL));
	doca_task_free(task);
}

static struct doca_dev *check_open_dev_cached(void)
{
	static struct doca_dev *dev;

	if (dev == NULL)
		dev = sd_open_dma_dev();
	return dev;
}

static void drain(void)
{
	int guard = 0;

	while (doca_pe_progress(pe) != 0)
		CHECK(guard++ < 10000000);
}

/* True when the handle became readable within @ms. */
static bool wait_handle(int ms)
{
	struct epoll_event out;
	int r;

	do {
		r = epoll_wait(ep, &out, 1, ms);
	} while (r < 0 && errno == EINTR);
	CHECK(r >= 0);
	return r == 1;
}

static struct doca_task *make_task(uint32_t slot, uint32_t len, uint32_t dst_len, uint64_t ud)
{
	struct doca_buf *src, *dst;
	struct doca_dma_task_memcpy *t;
	union doca_data d = {.u64 = ud};

	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_map, src_mem + (size_t)slot * MAX_SIZE, len, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dst_map, dst_mem + (size_t)slot * MAX_SIZE, dst_len, &dst));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, d, &t));
	return doca_dma_task_memcpy_as_task(t);
}

static void start_ctx(void)
{
	CHECK_OK(doca_dma_create(check_open_dev_cached(), &dma));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, comp_cb, err_cb, 16));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
}

static void stop_ctx(void)
{
	enum doca_ctx_states st;
	int guard = 0;

	(void)doca_ctx_stop(doca_dma_as_ctx(dma));
	do {
		doca_pe_progress(pe);
		CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(dma), &st));
		CHECK(guard++ < 10000000);
	} while (st != DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_dma_destroy(dma));
	dma = NULL;
}

/* @slots source and destination slots of MAX_SIZE bytes, an inventory, a PE with its handle in
 * an epoll set (@fd), and a started DMA context. */
static void setup(uint32_t slots, doca_notification_handle_t *fd)
{
	struct epoll_event ev = {.events = EPOLLIN};

	src_mem = malloc((size_t)slots * MAX_SIZE);
	dst_mem = calloc(slots, MAX_SIZE);
	CHECK(src_mem != NULL && dst_mem != NULL);
	for (size_t i = 0; i < (size_t)slots * MAX_SIZE; i++)
		src_mem[i] = (uint8_t)(i * 7 + 3);
	src_map = sd_mmap_local(check_open_dev_cached(), src_mem, (size_t)slots * MAX_SIZE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	dst_map = sd_mmap_local(check_open_dev_cached(), dst_mem, (size_t)slots * MAX_SIZE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(64);
	pe = sd_pe();
	CHECK_OK(doca_pe_get_notification_handle(pe, fd));
	ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK(ep >= 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, *fd, &ev) == 0);
	start_ctx();
}

/* After stop_ctx(): everything setup() made. */
static void teardown(void)
{
	CHECK_OK(doca_pe_destroy(pe));
	close(ep);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(src_map));
	CHECK_OK(doca_mmap_destroy(dst_map));
	free(src_mem);
	free(dst_mem);
}

static int run_body(const char *engine)
{
	doca_notification_handle_t fd;
	int wakes = 0;

	setup(NB_SLOTS, &fd);

	/* 1. Arm first, then submit one task: every size class must wake the sleeper. */
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (int r = 0; r < ROUNDS; r++) {
			int before = nb_ok, guard = 0;

			drain();
			memset(dst_mem, 0, sizes[s]);
			CHECK_OK(doca_pe_request_notification(pe));
			CHECK_OK(doca_task_submit(make_task(0, sizes[s], sizes[s], 0)));
			if (!wait_handle(WAIT_MS)) {
				fprintf(stderr, "[%s] %u B task submitted after arming: no wakeup in %d ms\n", engine,
					sizes[s], WAIT_MS);
				return T_EXIT_FAIL;
			}
			CHECK_OK(doca_pe_clear_notification(pe, fd));
			wakes++;
			/* A wakeup may come before a worker finished the copy (it must not be lost
			 * either way): progress until the callback ran. */
			while (nb_ok == before) {
				doca_pe_progress(pe);
				CHECK(guard++ < 100000000);
			}
		}
	}

	/* 2. Nothing in flight, armed: no wakeup (a busy handle would spin the application). */
	drain();
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(!wait_handle(200));
	CHECK_OK(doca_pe_clear_notification(pe, fd));

	/* 3. Arm, then submit a task that breaks a rule: its error completion must wake. */
	drain();
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK_OK(doca_task_submit(make_task(1, 4096, 64, 0))); /* destination too small */
	CHECK(wait_handle(WAIT_MS));
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	drain();
	CHECK(nb_err == 1 && last_err == DOCA_ERROR_INVALID_VALUE);
	/* The failed task stopped the context: restart it. */
	stop_ctx();
	start_ctx();

	/* 4. Arm, then progress (some loops do): a task resubmitted from a callback still wakes. */
	drain();
	CHECK_OK(doca_task_submit(make_task(2, 4096, 4096, 1)));
	CHECK_OK(doca_pe_request_notification(pe));
	{
		int before = nb_ok, guard = 0;

		while (nb_ok == before) { /* runs the callback, which resubmits */
			doca_pe_progress(pe);
			CHECK(guard++ < 100000000);
		}
	}
	CHECK(nb_resubmit == 1);
	if (nb_ok < 2) {
		if (!wait_handle(WAIT_MS)) {
			fprintf(stderr, "[%s] task resubmitted from a callback while armed: no wakeup\n", engine);
			return T_EXIT_FAIL;
		}
	}
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	drain();
	CHECK(nb_ok >= 2);

	/* 5. Tasks in flight, arm, stop: the flushed tasks and the way to IDLE must wake. */
	drain();
	for (uint32_t i = 0; i < NB_SLOTS; i++)
		CHECK_OK(doca_task_submit(make_task(i, MAX_SIZE, MAX_SIZE, 0)));
	CHECK_OK(doca_pe_request_notification(pe));
	{
		doca_error_t st = doca_ctx_stop(doca_dma_as_ctx(dma));

		CHECK(st == DOCA_ERROR_IN_PROGRESS || st == DOCA_SUCCESS);
	}
	if (!wait_handle(WAIT_MS)) {
		fprintf(stderr, "[%s] stop with tasks in flight after arming: no wakeup\n", engine);
		return T_EXIT_FAIL;
	}
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	stop_ctx();

	teardown();
	printf("test_notify_wake[%s]: %d wakeups for tasks submitted after arming, %d ok, %d errors\n", engine, wakes,
	       nb_ok, nb_err);
	return T_EXIT_PASS;
}

/*
 * SOFTDOCA_FAULT=delay_us holds each completion back: an armed handle must wake when it is
 * due, not before (a wakeup after which progress delivers nothing is a busy wake-up).
 */
static int run_delayed(void)
{
	doca_notification_handle_t fd;
	int useless = 0;

	setup(1, &fd);
	for (int i = 0; i < 10; i++) {
		int before = nb_ok;

		drain();
		CHECK_OK(doca_task_submit(make_task(0, 4096, 4096, 0)));
		while (nb_ok == before) {
			CHECK_OK(doca_pe_request_notification(pe));
			if (!wait_handle(WAIT_MS)) {
				fprintf(stderr, "[delay] delayed completion: no wakeup in %d ms\n", WAIT_MS);
				return T_EXIT_FAIL;
			}
			CHECK_OK(doca_pe_clear_notification(pe, fd));
			if (doca_pe_progress(pe) == 0)
				useless++;
		}
	}
	/* One wakeup per task may find nothing to deliver: the one for the copy itself (the inline
	 * engine copies inside that progress call), before the delay ends. More means the armed
	 * handle fired while the delayed completion was not yet due: a busy loop. */
	if (useless > 10) {
		fprintf(stderr, "[delay] %d wakeups with nothing to deliver for 10 tasks: the handle fired before the delay ended\n",
			useless);
		return T_EXIT_FAIL;
	}
	stop_ctx();
	teardown();
	printf("test_notify_wake[delay]: 10 delayed completions, %d wakeup(s) before a delay ended\n", useless);
	return T_EXIT_PASS;
}

static int child_body(void *arg)
{
	const char *engine = arg;

	if (strcmp(engine, "delay") == 0) {
		sd_setenv("SOFTDOCA_ENGINE", "inline");
		sd_setenv("SOFTDOCA_FAULT", "delay_us=20000");
		return run_delayed();
	}
	sd_setenv("SOFTDOCA_ENGINE", engine);
	return run_body(engine);
}

static int run_with_engine(const char *engine)
{
	return check_run_child(child_body, (void *)engine, engine);
}

int main(void)
{
	static const char *const engines[] = {"inline", "cpu", "auto", "delay"};
	int rc = T_EXIT_PASS;

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (run_with_engine(engines[i]) != 0) {
			fprintf(stderr, "engine %s: FAILED\n", engines[i]);
			rc = T_EXIT_FAIL;
		}
	return rc;
}
