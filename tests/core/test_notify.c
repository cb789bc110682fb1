/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_notify.c - event-driven progress through doca_pe_get_notification_handle() and epoll,
 * the loop doca_pe.h documents: drain with doca_pe_progress() until it returns 0, arm with
 * doca_pe_request_notification(), wait, doca_pe_clear_notification().
 *
 * The engine is chosen once per process, so the body runs in one forked child per engine:
 * inline (copies happen inside progress, so arming must notice work that is already queued)
 * and cpu (a worker thread completes tasks while the application sleeps in epoll_wait).
 * A wait that times out means a lost wakeup; a wakeup with nothing in flight is spurious.
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

/* Copies long enough (1 MiB) that the cpu worker is usually still busy when the application
 * arms the notification: the wakeup must then come from the completing thread. */
#define NB_TOTAL    400 /* tasks completed per engine */
#define NB_INFLIGHT 8	/* slots, each with its own source and destination */
#define SEG	    (1024 * 1024)
#define WAIT_MS	    5000

static struct doca_pe *pe;
static struct doca_dma *dma;
static uint8_t *src_mem, *dst_mem;
static struct doca_buf *src_buf[NB_INFLIGHT], *dst_buf[NB_INFLIGHT];
static int nb_submitted, nb_completed, nb_errors;

static bool slot_busy[NB_INFLIGHT];

static void comp_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	CHECK(ud.u64 < NB_INFLIGHT && slot_busy[ud.u64]);
	CHECK_MEM(dst_mem + ud.u64 * SEG, src_mem + ud.u64 * SEG, SEG);
	slot_busy[ud.u64] = false;
	nb_completed++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static void err_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	fprintf(stderr, "task failed: %s\n",
		doca_error_get_name(doca_task_get_status(doca_dma_task_memcpy_as_task(t))));
	slot_busy[ud.u64] = false;
	nb_errors++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

/*
 * The application (not a callback) submits a task into every free slot. Each submission
 * stamps its number at both ends of the slot's source, so a copy that did not happen shows;
 * the stamp is cheap, which keeps the time between the drain and the arm short.
 */
static void refill(void)
{
	for (uint64_t i = 0; i < NB_INFLIGHT && nb_submitted < NB_TOTAL; i++) {
		struct doca_dma_task_memcpy *t;
		union doca_data ud = {.u64 = i};
		uint64_t stamp = (uint64_t)nb_submitted + 1;

		if (slot_busy[i])
			continue;
		memcpy(src_mem + i * SEG, &stamp, sizeof(stamp));
		memcpy(src_mem + (i + 1) * SEG - sizeof(stamp), &stamp, sizeof(stamp));
		CHECK_OK(doca_buf_reset_data_len(dst_buf[i]));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src_buf[i], dst_buf[i], ud, &t));
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
		slot_busy[i] = true;
		nb_submitted++;
	}
}

static void drain(void)
{
	int guard = 0;

	while (doca_pe_progress(pe) != 0)
		CHECK(guard++ < 10000000);
}

static int run_body(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *src_map, *dst_map;
	struct epoll_event ev = {.events = EPOLLIN}, out;
	doca_notification_handle_t fd = -1, fd2 = -1;
	struct doca_dev *dev;
	int ep, waits = 0;
	size_t inflight;

	dev = sd_open_dma_dev();
	src_mem = malloc((size_t)NB_INFLIGHT * SEG);
	dst_mem = calloc(NB_INFLIGHT, SEG);
	CHECK(src_mem != NULL && dst_mem != NULL);
	for (size_t i = 0; i < (size_t)NB_INFLIGHT * SEG; i++)
		src_mem[i] = (uint8_t)(i * 13 + 5);
	src_map = sd_mmap_local(dev, src_mem, (size_t)NB_INFLIGHT * SEG, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	dst_map = sd_mmap_local(dev, dst_mem, (size_t)NB_INFLIGHT * SEG, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(2 * NB_INFLIGHT);
	for (int i = 0; i < NB_INFLIGHT; i++) {
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_map, src_mem + (size_t)i * SEG, SEG, &src_buf[i]));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dst_map, dst_mem + (size_t)i * SEG, SEG, &dst_buf[i]));
	}

	pe = sd_pe();
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, comp_cb, err_cb, NB_INFLIGHT));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));

	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	CHECK(fd >= 0);
	CHECK_OK(doca_pe_get_notification_handle(pe, &fd2));
	CHECK(fd2 == fd); /* one handle per engine */
	CHECK_ERR(doca_pe_get_notification_handle(pe, NULL), DOCA_ERROR_INVALID_VALUE);
	ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK(ep >= 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);

	/* Nothing submitted yet: armed and idle, the handle stays quiet. */
	drain();
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(epoll_wait(ep, &out, 1, 100) == 0);
	CHECK_OK(doca_pe_clear_notification(pe, fd));

	while (nb_completed + nb_errors < NB_TOTAL) {
		int r;

		drain();
		if (nb_completed + nb_errors >= NB_TOTAL)
			break;
		/* Submitted after the drain: with the inline engine this work is only queued, and
		 * arming must notice it rather than sleep on it. */
		refill();
		CHECK_OK(doca_pe_request_notification(pe));
		do {
			r = epoll_wait(ep, &out, 1, WAIT_MS);
		} while (r < 0 && errno == EINTR);
		if (r == 0) {
			fprintf(stderr, "epoll_wait timed out after %d ms with %d of %d tasks completed: lost wakeup\n",
				WAIT_MS, nb_completed + nb_errors, NB_TOTAL);
			exit(T_EXIT_FAIL);
		}
		CHECK(r == 1);
		CHECK(out.events & EPOLLIN);
		CHECK_OK(doca_pe_clear_notification(pe, fd));
		waits++;
	}
	CHECK(nb_errors == 0);
	CHECK(nb_completed == NB_TOTAL);
	CHECK(waits > 0);

	/* Everything drained, nothing in flight: an armed handle must not fire. */
	drain();
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &inflight));
	CHECK(inflight == 0);
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(epoll_wait(ep, &out, 1, 100) == 0);
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	/* Clearing twice is harmless. */
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	CHECK(epoll_wait(ep, &out, 1, 0) == 0);

	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	close(ep);
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_pe_destroy(pe));
	for (int i = 0; i < NB_INFLIGHT; i++) {
		CHECK_OK(doca_buf_dec_refcount(src_buf[i], NULL));
		CHECK_OK(doca_buf_dec_refcount(dst_buf[i], NULL));
	}
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(src_map));
	CHECK_OK(doca_mmap_destroy(dst_map));
	CHECK_OK(doca_dev_close(dev));
	free(src_mem);
	free(dst_mem);
	printf("test_notify[%s]: %d tasks, %d waits\n", getenv("SOFTDOCA_ENGINE"), NB_TOTAL, waits);
	return T_EXIT_PASS;
}

static int child_body(void *engine)
{
	sd_setenv("SOFTDOCA_ENGINE", engine);
	return run_body();
}

static int run_with_engine(const char *engine)
{
	int rc = check_run_child(child_body, (void *)engine, engine);

	if (rc != 0)
		fprintf(stderr, "engine %s: failed (exit %d)\n", engine, rc);
	return rc;
}

int main(void)
{
	int rc_inline, rc_cpu;

	/* No DOCA call in this process before the forks: each child picks its own engine. */
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	rc_inline = run_with_engine("inline");
	rc_cpu = run_with_engine("cpu");
	if (rc_inline != 0 || rc_cpu != 0)
		return T_EXIT_FAIL;
	printf("test_notify: ok\n");
	return T_EXIT_PASS;
}
