/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_sync_event.c - doca_sync_event in one process: every call's argument and state checks,
 * the synchronous operations, tasks on a progress engine (in and out of submission order), the
 * notification handle waking an epoll sleeper, and an export imported by the same process.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "../common/sd_test.h"

static struct doca_dev *dpu, *host;

/* Completions seen by the callbacks. */
static int n_ok[5], n_err[5];
static doca_error_t last_err;
enum { GET, SET, ADD, EQ, NEQ };

static void get_cb(struct doca_sync_event_task_get *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_ok[GET]++;
	doca_task_free(doca_sync_event_task_get_as_doca_task(t));
}
static void get_err(struct doca_sync_event_task_get *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_err[GET]++;
	last_err = doca_task_get_status(doca_sync_event_task_get_as_doca_task(t));
	doca_task_free(doca_sync_event_task_get_as_doca_task(t));
}
static void set_cb(struct doca_sync_event_task_notify_set *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_ok[SET]++;
	doca_task_free(doca_sync_event_task_notify_set_as_doca_task(t));
}
static void set_err(struct doca_sync_event_task_notify_set *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_err[SET]++;
	last_err = doca_task_get_status(doca_sync_event_task_notify_set_as_doca_task(t));
	doca_task_free(doca_sync_event_task_notify_set_as_doca_task(t));
}
static void add_cb(struct doca_sync_event_task_notify_add *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_ok[ADD]++;
	doca_task_free(doca_sync_event_task_notify_add_as_doca_task(t));
}
static void add_err(struct doca_sync_event_task_notify_add *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_err[ADD]++;
	last_err = doca_task_get_status(doca_sync_event_task_notify_add_as_doca_task(t));
	doca_task_free(doca_sync_event_task_notify_add_as_doca_task(t));
}
static void eq_cb(struct doca_sync_event_task_wait_eq *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_ok[EQ]++;
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}
static void eq_err(struct doca_sync_event_task_wait_eq *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_err[EQ]++;
	last_err = doca_task_get_status(doca_sync_event_task_wait_eq_as_doca_task(t));
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(t));
}
static void neq_cb(struct doca_sync_event_task_wait_neq *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_ok[NEQ]++;
	doca_task_free(doca_sync_event_task_wait_neq_as_doca_task(t));
}
static void neq_err(struct doca_sync_event_task_wait_neq *t, union doca_data u, union doca_data c)
{
	(void)u, (void)c;
	n_err[NEQ]++;
	last_err = doca_task_get_status(doca_sync_event_task_wait_neq_as_doca_task(t));
	doca_task_free(doca_sync_event_task_wait_neq_as_doca_task(t));
}

static void reset_counts(void)
{
	memset(n_ok, 0, sizeof(n_ok));
	memset(n_err, 0, sizeof(n_err));
	last_err = DOCA_SUCCESS;
}

static struct doca_sync_event *configured(void)
{
	struct doca_sync_event *se;

	CHECK_OK(doca_sync_event_create(&se));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_pci(se));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dpu));
	return se;
}

static void test_caps(void)
{
	struct doca_devinfo *di = doca_dev_as_devinfo(dpu);

	CHECK_ERR(doca_sync_event_cap_is_export_to_remote_pci_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_is_create_from_export_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_cap_is_export_to_remote_pci_supported(di));
	CHECK_OK(doca_sync_event_cap_is_create_from_export_supported(doca_dev_as_devinfo(host)));
	CHECK_OK(doca_sync_event_cap_task_get_is_supported(di));
	CHECK_OK(doca_sync_event_cap_task_notify_set_is_supported(di));
	CHECK_OK(doca_sync_event_cap_task_notify_add_is_supported(di));
	CHECK_OK(doca_sync_event_cap_task_wait_eq_is_supported(di));
	CHECK_OK(doca_sync_event_cap_task_wait_neq_is_supported(di));
	CHECK_ERR(doca_sync_event_cap_task_wait_neq_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_is_export_to_dpa_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_gpu_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_remote_net_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_create_from_export_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_dpa_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_gpu_supported(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_config_rules(void)
{
	struct doca_sync_event *se;
	struct doca_dpa *dpa = (struct doca_dpa *)(uintptr_t)0x10; /* never dereferenced */
	struct doca_gpu *gpu = (struct doca_gpu *)(uintptr_t)0x10;
	const uint8_t *blob;
	size_t sz;
	uint64_t v;

	CHECK_ERR(doca_sync_event_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_create(&se));
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(se, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(NULL, dpu), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_pci(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_dpa(se, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_dpa(se, dpa), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_add_publisher_location_gpu(se, gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_net(se), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_add_subscriber_location_dpa(se, dpa), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_add_subscriber_location_gpu(se, gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_get_dpa_handle(se, dpa, &v), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_export_to_remote_net(se, &blob, &sz), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_remote_net_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	{
		struct doca_sync_event_remote_net *rn;
		doca_gpu_dev_sync_event_t *gh;
		doca_dpa_dev_sync_event_remote_net_t rd;
		doca_gpu_dev_sync_event_remote_net_t rg;
		uint8_t junk[8] = {0};

		CHECK_ERR(doca_sync_event_get_gpu_handle(se, gpu, &gh), DOCA_ERROR_NOT_SUPPORTED);
		CHECK_ERR(doca_sync_event_get_gpu_handle(se, gpu, NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_sync_event_remote_net_create_from_export(dpu, junk, sizeof(junk), &rn),
			  DOCA_ERROR_NOT_SUPPORTED);
		CHECK_ERR(doca_sync_event_remote_net_create_from_export(dpu, junk, sizeof(junk), NULL),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_sync_event_remote_net_get_dpa_handle((struct doca_sync_event_remote_net *)(void *)junk,
								    dpa, &rd),
			  DOCA_ERROR_NOT_SUPPORTED);
		CHECK_ERR(doca_sync_event_remote_net_get_gpu_handle((struct doca_sync_event_remote_net *)(void *)junk,
								    gpu, &rg),
			  DOCA_ERROR_NOT_SUPPORTED);
	}
	/* Task setters and getters tolerate NULL. */
	doca_sync_event_task_get_set_ret_val_ptr(NULL, &v);
	doca_sync_event_task_notify_set_set_set_val(NULL, 1);
	doca_sync_event_task_notify_add_set_inc_val(NULL, 1);
	doca_sync_event_task_notify_add_set_fetched_val_ptr(NULL, &v);
	doca_sync_event_task_wait_eq_set_mask(NULL, 1);
	doca_sync_event_task_wait_neq_set_wait_val(NULL, 1);
	CHECK(doca_sync_event_task_get_get_ret_val_ptr(NULL) == NULL);
	CHECK(doca_sync_event_task_notify_set_get_set_val(NULL) == 0);
	CHECK(doca_sync_event_task_notify_add_get_fetched_val_ptr(NULL) == NULL);
	CHECK(doca_sync_event_task_wait_neq_get_mask(NULL) == 0);

	/* Not started: no synchronous operation; no locations: no start, no export. */
	CHECK_ERR(doca_sync_event_get(se, &v), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_update_set(se, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_wait_eq(se, 0, UINT64_MAX), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_start(se), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_stop(se), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(se, dpu, &blob, &sz), DOCA_ERROR_NOT_PERMITTED);

	CHECK_OK(doca_sync_event_add_publisher_location_cpu(se, dpu));
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_pci(se), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dpu));
	CHECK_ERR(doca_sync_event_add_subscriber_location_cpu(se, dpu), DOCA_ERROR_BAD_STATE);
	/* Both locations on this CPU: nothing for a peer. */
	CHECK_ERR(doca_sync_event_export_to_remote_pci(se, dpu, &blob, &sz), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(se, dpu, NULL, &sz), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_sync_event_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_start(se));
	CHECK_ERR(doca_sync_event_start(se), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_remote_pci(se), DOCA_ERROR_BAD_STATE);
	CHECK(doca_sync_event_as_ctx(se) == NULL);
	CHECK(doca_sync_event_as_ctx(NULL) == NULL);
	CHECK_ERR(doca_sync_event_task_get_set_conf(se, get_cb, get_err, 4), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_stop(se));
	CHECK_ERR(doca_sync_event_stop(se), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_destroy(se));
}

static void test_sync_ops(void)
{
	struct doca_sync_event *se = configured();
	uint64_t v = 99, f = 99;

	CHECK_OK(doca_sync_event_start(se));
	CHECK_ERR(doca_sync_event_get(se, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_get(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_update_add(se, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_update_set(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_gt(NULL, 1, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 0);
	CHECK_OK(doca_sync_event_update_set(se, 5));
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 5);
	CHECK_OK(doca_sync_event_update_add(se, 3, &f));
	CHECK(f == 5);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 8);
	/* Conditions already true return at once. */
	CHECK_OK(doca_sync_event_wait_eq(se, 8, UINT64_MAX));
	CHECK_OK(doca_sync_event_wait_eq_yield(se, 8, 0xff));
	CHECK_OK(doca_sync_event_wait_gt(se, 7, UINT64_MAX));
	CHECK_OK(doca_sync_event_wait_gt_yield(se, 7, UINT64_MAX));
	CHECK_OK(doca_sync_event_wait_neq(se, 0, UINT64_MAX));
	CHECK_OK(doca_sync_event_wait_neq_yield(se, 0, UINT64_MAX));
	/* The mask applies before the comparison. */
	CHECK_OK(doca_sync_event_update_set(se, 0x1234000000000005ull));
	CHECK_OK(doca_sync_event_wait_eq(se, 5, 0xffffffff));
	CHECK_OK(doca_sync_event_wait_eq(se, 0, 0));
	/* A stand-alone started event is stopped by destroy. */
	CHECK_OK(doca_sync_event_destroy(se));
}

static void *later_set(void *arg)
{
	usleep(20000);
	CHECK_OK(doca_sync_event_update_set(arg, 42));
	return NULL;
}

/* A blocking wait that sleeps is woken by an update from another thread. */
static void test_blocking_wait(void)
{
	struct doca_sync_event *se = configured();
	pthread_t th;
	uint64_t v;

	CHECK_OK(doca_sync_event_start(se));
	CHECK(pthread_create(&th, NULL, later_set, se) == 0);
	CHECK_OK(doca_sync_event_wait_eq(se, 42, UINT64_MAX));
	CHECK(pthread_join(th, NULL) == 0);
	CHECK(pthread_create(&th, NULL, later_set, se) == 0);
	CHECK_OK(doca_sync_event_update_set(se, 1));
	CHECK_OK(doca_sync_event_wait_gt_yield(se, 41, UINT64_MAX));
	CHECK(pthread_join(th, NULL) == 0);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 42);
	CHECK_OK(doca_sync_event_destroy(se));
}

static void test_user_memory(void)
{
	struct doca_sync_event *se;
	_Alignas(8) uint8_t raw[16] = {0};
	uint64_t *slot = (uint64_t *)(void *)raw;
	const uint8_t *blob;
	size_t sz;
	uint64_t v;

	se = configured();
	CHECK_ERR(doca_sync_event_set_addr(se, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_addr(se, (uint64_t *)(void *)(raw + 4)), DOCA_ERROR_INVALID_VALUE);
	*slot = 77;
	CHECK_OK(doca_sync_event_set_addr(se, slot));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(se, dpu, &blob, &sz), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_sync_event_start(se));
	CHECK_ERR(doca_sync_event_set_addr(se, slot), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 77);
	CHECK_OK(doca_sync_event_update_set(se, 78));
	CHECK(*slot == 78);
	*slot = 90; /* written behind the event's back: still what get and wait see */
	CHECK_OK(doca_sync_event_wait_eq(se, 90, UINT64_MAX));
	CHECK_OK(doca_sync_event_destroy(se));

	/* The same through a doca_buf. */
	{
		struct doca_mmap *m;
		struct doca_buf_inventory *inv;
		struct doca_buf *buf;

		m = sd_mmap_local(dpu, raw, sizeof(raw), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		inv = sd_inventory(2);
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, raw, sizeof(raw), &buf));
		CHECK_OK(doca_buf_set_data(buf, raw, 4));
		se = configured();
		CHECK_ERR(doca_sync_event_set_doca_buf(se, NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_sync_event_set_doca_buf(se, buf), DOCA_ERROR_NOT_PERMITTED);
		CHECK_OK(doca_buf_set_data(buf, raw, 8));
		CHECK_OK(doca_sync_event_set_doca_buf(se, buf));
		CHECK_OK(doca_sync_event_start(se));
		CHECK_OK(doca_sync_event_update_set(se, 5));
		CHECK(*slot == 5);
		CHECK_OK(doca_sync_event_destroy(se));
		CHECK_OK(doca_buf_dec_refcount(buf, NULL));
		CHECK_OK(doca_buf_inventory_destroy(inv));
		CHECK_OK(doca_mmap_destroy(m));
	}
}

static struct doca_sync_event *ctx_event(struct doca_pe **pe, uint32_t n)
{
	struct doca_sync_event *se = configured();
	struct doca_ctx *ctx = doca_sync_event_as_ctx(se);

	CHECK(ctx != NULL);
	CHECK_OK(doca_pe_create(pe));
	CHECK_OK(doca_pe_connect_ctx(*pe, ctx));
	CHECK_OK(doca_sync_event_task_get_set_conf(se, get_cb, get_err, n));
	CHECK_OK(doca_sync_event_task_notify_set_set_conf(se, set_cb, set_err, n));
	CHECK_OK(doca_sync_event_task_notify_add_set_conf(se, add_cb, add_err, n));
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(se, eq_cb, eq_err, n));
	CHECK_OK(doca_sync_event_task_wait_neq_set_conf(se, neq_cb, neq_err, n));
	return se;
}

static void drain(struct doca_pe *pe)
{
	for (int i = 0; i < 1000; i++)
		doca_pe_progress(pe);
}

static void ctx_stop_destroy(struct doca_sync_event *se, struct doca_pe *pe)
{
	doca_error_t r = doca_ctx_stop(doca_sync_event_as_ctx(se));
	enum doca_ctx_states st;

	CHECK(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 100000; i++) {
		CHECK_OK(doca_ctx_get_state(doca_sync_event_as_ctx(se), &st));
		if (st == DOCA_CTX_STATE_IDLE)
			break;
		doca_pe_progress(pe);
	}
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_task_rules(void)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event *se = configured();
	struct doca_sync_event_task_get *get;
	struct doca_sync_event_task_wait_eq *eq;
	struct doca_ctx *ctx;
	struct doca_pe *pe;
	uint64_t v;

	ctx = doca_sync_event_as_ctx(se);
	CHECK(ctx != NULL);
	CHECK_ERR(doca_sync_event_start(se), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_stop(se), DOCA_ERROR_BAD_STATE);
	pe = sd_pe();
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_ERR(doca_sync_event_task_get_set_conf(NULL, get_cb, get_err, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(se, NULL, get_err, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(se, get_cb, get_err, 0), DOCA_ERROR_INVALID_VALUE);
	/* Nothing configured: nothing to start. */
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_task_get_set_conf(se, get_cb, get_err, 2));
	/* Configured but not started: no task yet. */
	CHECK_ERR(doca_sync_event_task_get_alloc_init(se, &v, ud, &get), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_start(ctx));
	/* The pool holds what was configured: 2 get tasks. */
	{
		struct doca_sync_event_task_get *g1, *g2, *g3;

		CHECK_OK(doca_sync_event_task_get_alloc_init(se, &v, ud, &g1));
		CHECK_OK(doca_sync_event_task_get_alloc_init(se, &v, ud, &g2));
		CHECK_ERR(doca_sync_event_task_get_alloc_init(se, &v, ud, &g3), DOCA_ERROR_NO_MEMORY);
		doca_task_free(doca_sync_event_task_get_as_doca_task(g1));
		doca_task_free(doca_sync_event_task_get_as_doca_task(g2));
	}
	CHECK_ERR(doca_sync_event_task_wait_eq_set_conf(se, eq_cb, eq_err, 2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_task_wait_eq_alloc_init(se, 1, UINT64_MAX, ud, &eq), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_task_get_alloc_init(se, NULL, ud, &get), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_alloc_init(se, &v, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_task_get_alloc_init(se, &v, ud, &get));
	CHECK(doca_sync_event_task_get_get_ret_val_ptr(get) == &v);
	doca_sync_event_task_get_set_ret_val_ptr(get, NULL);
	/* A NULL pointer set after alloc is a content error: try_submit returns it. */
	CHECK_ERR(doca_task_try_submit(doca_sync_event_task_get_as_doca_task(get)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_sync_event_task_get_as_doca_task(get));
	CHECK(doca_sync_event_task_get_as_doca_task(NULL) == NULL);
	CHECK(doca_sync_event_task_wait_eq_as_doca_task(NULL) == NULL);
	/* A context that is RUNNING allows the synchronous calls too. */
	CHECK_OK(doca_sync_event_update_set(se, 3));
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 3);
	CHECK_ERR(doca_sync_event_destroy(se), DOCA_ERROR_IN_USE);
	ctx_stop_destroy(se, pe);
}

static void test_tasks(void)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_get *get;
	struct doca_sync_event_task_notify_set *set;
	struct doca_sync_event_task_notify_add *add;
	struct doca_sync_event_task_wait_eq *eq, *eq2;
	struct doca_sync_event_task_wait_neq *neq;
	struct doca_pe *pe;
	struct doca_sync_event *se = ctx_event(&pe, 4);
	uint64_t got = 99, fetched = 99;

	reset_counts();
	CHECK_OK(doca_ctx_start(doca_sync_event_as_ctx(se)));

	/* Masks: 0 or whole aligned bytes of 0xff. */
	CHECK_ERR(doca_sync_event_task_wait_eq_alloc_init(se, 1, 0x1, ud, &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_wait_eq_alloc_init(se, 1, 0xff0, ud, &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_wait_neq_alloc_init(se, 1, 0xffffff, ud, &neq), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_notify_add_alloc_init(se, 1, NULL, ud, &add), DOCA_ERROR_INVALID_VALUE);

	/* A wait that is not met does not hold back the tasks submitted after it. */
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(se, 7, UINT64_MAX, ud, &eq));
	CHECK(doca_sync_event_task_wait_eq_get_wait_val(eq) == 7);
	CHECK(doca_sync_event_task_wait_eq_get_mask(eq) == UINT64_MAX);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(eq)));
	CHECK_OK(doca_sync_event_task_notify_set_alloc_init(se, 5, ud, &set));
	CHECK(doca_sync_event_task_notify_set_get_set_val(set) == 5);
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(set)));
	CHECK_OK(doca_sync_event_task_get_alloc_init(se, &got, ud, &get));
	CHECK_OK(doca_task_submit(doca_sync_event_task_get_as_doca_task(get)));
	drain(pe);
	CHECK(n_ok[SET] == 1 && n_ok[GET] == 1 && n_ok[EQ] == 0);
	CHECK(got == 5);

	/* notify-add: fetches the old value; 5 + 2 = 7 releases the waiter. */
	CHECK_OK(doca_sync_event_task_notify_add_alloc_init(se, 1, &fetched, ud, &add));
	doca_sync_event_task_notify_add_set_inc_val(add, 2);
	CHECK(doca_sync_event_task_notify_add_get_inc_val(add) == 2);
	CHECK(doca_sync_event_task_notify_add_get_fetched_val_ptr(add) == &fetched);
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_add_as_doca_task(add)));
	drain(pe);
	CHECK(fetched == 5);
	CHECK(n_ok[ADD] == 1 && n_ok[EQ] == 1);

	/* wait-neq on the low 32 bits; the setters replace what alloc_init set. */
	CHECK_OK(doca_sync_event_task_wait_neq_alloc_init(se, 1, UINT64_MAX, ud, &neq));
	doca_sync_event_task_wait_neq_set_wait_val(neq, 7);
	doca_sync_event_task_wait_neq_set_mask(neq, 0xffffffff);
	CHECK(doca_sync_event_task_wait_neq_get_wait_val(neq) == 7);
	CHECK(doca_sync_event_task_wait_neq_get_mask(neq) == 0xffffffff);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_neq_as_doca_task(neq)));
	drain(pe);
	CHECK(n_ok[NEQ] == 0);
	CHECK_OK(doca_sync_event_update_set(se, 0x100000007ull)); /* high bits only: still 7 */
	drain(pe);
	CHECK(n_ok[NEQ] == 0);
	CHECK_OK(doca_sync_event_update_set(se, 8));
	drain(pe);
	CHECK(n_ok[NEQ] == 1);

	/* A pending wait is flushed by stop with IO_FAILED through its error callback. */
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(se, 1000, UINT64_MAX, ud, &eq2));
	doca_sync_event_task_wait_eq_set_wait_val(eq2, 1001);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(eq2)));
	drain(pe);
	CHECK(n_err[EQ] == 0);
	ctx_stop_destroy(se, pe);
	CHECK(n_err[EQ] == 1 && last_err == DOCA_ERROR_IO_FAILED);
}

static void *later_update(void *arg)
{
	usleep(50000);
	CHECK_OK(doca_sync_event_update_set(arg, 1));
	return NULL;
}

/* The PE handle turns readable when a wait task's condition comes true, and not before. */
static void test_notification(void)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_wait_eq *eq;
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t h;
	struct doca_pe *pe;
	struct doca_sync_event *se = ctx_event(&pe, 2);
	pthread_t th;
	int ep, n;

	reset_counts();
	CHECK_OK(doca_ctx_start(doca_sync_event_as_ctx(se)));
	CHECK_OK(doca_pe_get_notification_handle(pe, &h));
	ep = epoll_create1(0);
	CHECK(ep >= 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, h, &ev) == 0);
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(se, 1, UINT64_MAX, ud, &eq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(eq)));
	drain(pe);
	CHECK_OK(doca_pe_request_notification(pe));
	/* Nothing changes: the handle stays quiet. */
	CHECK(epoll_wait(ep, &ev, 1, 100) == 0);
	CHECK(pthread_create(&th, NULL, later_update, se) == 0);
	n = epoll_wait(ep, &ev, 1, 30000); /* a hang guard, not a latency bound */
	CHECK(n == 1);
	CHECK_OK(doca_pe_clear_notification(pe, h));
	CHECK(pthread_join(th, NULL) == 0);
	for (int i = 0; i < 10 && n_ok[EQ] == 0; i++)
		doca_pe_progress(pe);
	CHECK(n_ok[EQ] == 1);
	close(ep);
	ctx_stop_destroy(se, pe);
}

/* An export imported by its own process (through the exporting device) shares the value. */
static void test_self_import(void)
{
	struct doca_sync_event *se = configured(), *imp, *imp2;
	uint8_t bad[256];
	const uint8_t *blob, *blob2;
	size_t sz, sz2;
	uint64_t v, f;

	CHECK_OK(doca_sync_event_start(se));
	CHECK_OK(doca_sync_event_export_to_remote_pci(se, dpu, &blob, &sz));
	CHECK_OK(doca_sync_event_export_to_remote_pci(se, dpu, &blob2, &sz2));
	CHECK(blob == blob2 && sz == sz2);
	CHECK_ERR(doca_sync_event_create_from_export(NULL, blob, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(host, blob, sz - 1, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK(sz <= sizeof(bad));
	memcpy(bad, blob, sz);
	bad[sz - 20] ^= 1; /* inside the sync event part */
	CHECK_ERR(doca_sync_event_create_from_export(host, bad, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	memcpy(bad, blob, sz);
	bad[40] ^= 1; /* inside the mmap part */
	CHECK_ERR(doca_sync_event_create_from_export(host, bad, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	/* 03:00.1 holds the representor of b1:00.1, not of b1:00.0 ... but it is a DPU device, and
	 * a DPU device's export pairs with host functions only. */
	{
		struct doca_dev *other = sd_open_dev("03:00.1");

		CHECK_ERR(doca_sync_event_create_from_export(other, blob, sz, &imp), DOCA_ERROR_NOT_PERMITTED);
		CHECK_OK(doca_dev_close(other));
	}
	CHECK_OK(doca_sync_event_create_from_export(host, blob, sz, &imp));
	CHECK_OK(doca_sync_event_create_from_export(dpu, blob, sz, &imp2));
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(imp, host), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(imp, host, &blob2, &sz2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_sync_event_start(imp));
	CHECK_OK(doca_sync_event_start(imp2));
	CHECK_OK(doca_sync_event_update_set(se, 11));
	CHECK_OK(doca_sync_event_get(imp, &v));
	CHECK(v == 11);
	CHECK_OK(doca_sync_event_update_add(imp, 4, &f));
	CHECK(f == 11);
	CHECK_OK(doca_sync_event_update_add(imp2, 1, &f));
	CHECK(f == 15);
	CHECK_OK(doca_sync_event_get(se, &v));
	CHECK(v == 16);
	CHECK_OK(doca_sync_event_destroy(imp2));
	/* The exporter destroys its event: the importer's calls fail, a new import is refused. */
	memcpy(bad, blob, sz);
	CHECK_OK(doca_sync_event_destroy(se));
	CHECK_ERR(doca_sync_event_get(imp, &v), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_wait_eq(imp, 99, UINT64_MAX), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(doca_sync_event_create_from_export(host, bad, sz, &imp2), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_destroy(imp));
}

int main(void)
{
	dpu = sd_open_dev("03:00.0");
	host = sd_open_dev("b1:00.0");
	test_caps();
	test_config_rules();
	test_sync_ops();
	test_blocking_wait();
	test_user_memory();
	test_task_rules();
	test_tasks();
	test_notification();
	test_self_import();
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
	printf("sync event: all checks passed\n");
	return T_EXIT_PASS;
}
