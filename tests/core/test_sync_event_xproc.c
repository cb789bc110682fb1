/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_sync_event_xproc.c - a sync event shared by two processes, as a DPU (03:00.0, the
 * exporter) and its host (b1:00.0, the importer): blocking waits both ways, atomic adds from
 * both sides, a wait task in the importer woken through its PE notification handle, and an
 * exporter killed while the importer waits.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "../common/sd_test.h"

#define ADDS 20000

struct blob {
	size_t len;
	uint8_t bytes[512];
};

static void put(int fd, const void *p, size_t n)
{
	CHECK(write(fd, p, n) == (ssize_t)n);
}

static void get(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		CHECK(r > 0);
		got += (size_t)r;
	}
}

static struct doca_sync_event *exporter(struct doca_dev *dpu, struct blob *b)
{
	struct doca_sync_event *se;
	const uint8_t *data;

	CHECK_OK(doca_sync_event_create(&se));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(se));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dpu));
	CHECK_OK(doca_sync_event_start(se));
	CHECK_OK(doca_sync_event_export_to_remote_pci(se, dpu, &data, &b->len));
	CHECK(b->len <= sizeof(b->bytes));
	memcpy(b->bytes, data, b->len);
	return se;
}

static int wait_child(pid_t pid)
{
	int st;

	CHECK(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Blocking waits both ways, then both sides add at once: no add is lost. */
static void test_ping_pong(void)
{
	struct doca_dev *dpu = sd_open_dev("03:00.0");
	struct doca_sync_event *se;
	struct blob b;
	int p[2];
	pid_t pid;
	uint64_t f, v;

	CHECK(pipe(p) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct doca_dev *host = sd_open_dev("b1:00.0");
		struct doca_sync_event *imp;

		close(p[1]);
		get(p[0], &b, sizeof(b));
		CHECK_OK(doca_sync_event_create_from_export(host, b.bytes, b.len, &imp));
		CHECK_OK(doca_sync_event_start(imp));
		CHECK_OK(doca_sync_event_wait_eq(imp, 1, UINT64_MAX));
		CHECK_OK(doca_sync_event_update_set(imp, 2));
		CHECK_OK(doca_sync_event_wait_gt_yield(imp, 2, UINT64_MAX)); /* the parent adds right after */
		for (int i = 0; i < ADDS; i++)
			CHECK_OK(doca_sync_event_update_add(imp, 1, &f));
		CHECK_OK(doca_sync_event_destroy(imp));
		CHECK_OK(doca_dev_close(host));
		_exit(0);
	}
	close(p[0]);
	se = exporter(dpu, &b);
	put(p[1], &b, sizeof(b));
	CHECK_OK(doca_sync_event_update_set(se, 1));
	CHECK_OK(doca_sync_event_wait_eq_yield(se, 2, UINT64_MAX));
	CHECK_OK(doca_sync_event_update_set(se, 3));
	for (int i = 0; i < ADDS; i++)
		CHECK_OK(doca_sync_event_update_add(se, 1, &f));
	CHECK_OK(doca_sync_event_wait_eq(se, 3 + 2 * ADDS, UINT64_MAX));
	CHECK(wait_child(pid) == 0);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 3 + 2 * ADDS);
	close(p[1]);
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_dev_close(dpu));
}

static int eq_done, eq_failed;
static doca_error_t eq_status;

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
	eq_status = doca_task_get_status(doca_sync_event_task_wait_eq_as_doca_task(t));
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}

/* An imported event as a context with one pending wait-equal task for @val. */
static struct doca_sync_event *import_ctx(struct doca_dev *host, const struct blob *b, struct doca_pe **pe,
					  uint64_t val)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_wait_eq *t;
	struct doca_sync_event *imp;
	struct doca_ctx *ctx;

	CHECK_OK(doca_sync_event_create_from_export(host, b->bytes, b->len, &imp));
	ctx = doca_sync_event_as_ctx(imp);
	CHECK(ctx != NULL);
	CHECK_OK(doca_pe_create(pe));
	CHECK_OK(doca_pe_connect_ctx(*pe, ctx));
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(imp, eq_cb, eq_err, 2));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(imp, val, UINT64_MAX, ud, &t));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t)));
	return imp;
}

/* Sleeps in epoll on the PE handle until a completion arrives (or the hang guard). */
static void sleep_until_completion(struct doca_pe *pe)
{
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t h;
	int ep = epoll_create1(0);

	CHECK(ep >= 0);
	CHECK_OK(doca_pe_get_notification_handle(pe, &h));
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, h, &ev) == 0);
	for (int round = 0; round < 1000 && eq_done + eq_failed == 0; round++) {
		while (doca_pe_progress(pe))
			;
		if (eq_done + eq_failed != 0)
			break;
		CHECK_OK(doca_pe_request_notification(pe));
		CHECK(epoll_wait(ep, &ev, 1, 30000) == 1); /* hang guard, not a latency bound */
		CHECK_OK(doca_pe_clear_notification(pe, h));
	}
	close(ep);
}

static void stop_destroy(struct doca_sync_event *se, struct doca_pe *pe)
{
	doca_error_t r = doca_ctx_stop(doca_sync_event_as_ctx(se));
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	CHECK(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 100000 && st != DOCA_CTX_STATE_IDLE; i++) {
		doca_pe_progress(pe);
		CHECK_OK(doca_ctx_get_state(doca_sync_event_as_ctx(se), &st));
	}
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_pe_destroy(pe));
}

/* The importer sleeps in epoll; the exporter's update wakes it and the task completes. */
static void test_task_wakes_importer(void)
{
	struct doca_dev *dpu = sd_open_dev("03:00.0");
	struct doca_sync_event *se;
	struct blob b;
	int p[2], q[2];
	char ready;
	pid_t pid;

	CHECK(pipe(p) == 0 && pipe(q) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct doca_dev *host = sd_open_dev("b1:00.0");
		struct doca_sync_event *imp;
		struct doca_pe *pe;

		get(p[0], &b, sizeof(b));
		imp = import_ctx(host, &b, &pe, 5);
		put(q[1], "r", 1);
		sleep_until_completion(pe);
		CHECK(eq_done == 1 && eq_failed == 0);
		stop_destroy(imp, pe);
		CHECK_OK(doca_dev_close(host));
		_exit(0);
	}
	se = exporter(dpu, &b);
	put(p[1], &b, sizeof(b));
	get(q[0], &ready, 1);
	usleep(20000); /* let the importer fall asleep; correctness does not depend on it */
	CHECK_OK(doca_sync_event_update_set(se, 4)); /* a change, but not the awaited value */
	CHECK_OK(doca_sync_event_update_set(se, 5));
	CHECK(wait_child(pid) == 0);
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_dev_close(dpu));
	close(p[0]), close(p[1]), close(q[0]), close(q[1]);
}

/*
 * SIGKILL of the exporter: a pending task and a blocking wait fail with IO_FAILED. With
 * @asleep the exporter dies on its own shortly after the importer armed its notification, so
 * that the importer is (most likely) asleep in epoll when it happens; the outcome must be the
 * same either way.
 */
static void test_exporter_killed(bool asleep)
{
	struct doca_dev *host = sd_open_dev("b1:00.0");
	struct doca_sync_event *imp, *imp2, *imp3;
	struct doca_pe *pe;
	struct blob b;
	int p[2], q[2];
	char go;
	pid_t pid;

	CHECK(pipe(p) == 0 && pipe(q) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct doca_dev *dpu = sd_open_dev("03:00.0");

		exporter(dpu, &b);
		put(p[1], &b, sizeof(b));
		get(q[0], &go, 1);
		usleep(20000);
		raise(SIGKILL);
		for (;;)
			pause();
	}
	get(p[0], &b, sizeof(b));
	eq_done = eq_failed = 0;
	imp = import_ctx(host, &b, &pe, 1);
	CHECK_OK(doca_sync_event_create_from_export(host, b.bytes, b.len, &imp2));
	CHECK_OK(doca_sync_event_start(imp2));
	if (asleep) {
		put(q[1], "k", 1);
	} else {
		CHECK(kill(pid, SIGKILL) == 0);
		CHECK(wait_child(pid) == 128 + SIGKILL);
	}
	sleep_until_completion(pe);
	if (asleep)
		CHECK(wait_child(pid) == 128 + SIGKILL);
	CHECK(eq_done == 0 && eq_failed == 1 && eq_status == DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_wait_eq(imp2, 1, UINT64_MAX), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_create_from_export(host, b.bytes, b.len, &imp3), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_destroy(imp2));
	stop_destroy(imp, pe);
	CHECK_OK(doca_dev_close(host));
	close(p[0]), close(p[1]), close(q[0]), close(q[1]);
}

int main(void)
{
	test_ping_pong();
	test_task_wakes_importer();
	test_exporter_killed(false);
	test_exporter_killed(true);
	printf("sync event across processes: all checks passed\n");
	return T_EXIT_PASS;
}
