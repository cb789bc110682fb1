/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reentrancy.c - the contexts of DOCA Core and DOCA DMA (dma, mmap advise, sync event)
 * stopped from each of their callbacks and destroyed from their IDLE callback (reentry.h); and
 * the progress engine: a callback that destroys another context of the same engine, and one
 * that tries to destroy the engine itself.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_mmap_advise.h>
#include <doca_sync_event.h>

#include "../common/reentry.h"

#define LEN 4096

static uint8_t src_mem[8 * LEN], dst_mem[8 * LEN];
static struct doca_dev *dev;
static struct doca_mmap *src_mm, *dst_mm;
static struct doca_buf_inventory *inv;
static int cases;

/* ---- DMA ---- */

static void dma_done(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	(void)tud;
	s->callbacks++;
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(t), NULL));
	CHECK_OK(doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(t), NULL));
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void dma_ok(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud)
{
	dma_done(t, tud, cud, true);
}

static void dma_err(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud)
{
	dma_done(t, tud, cud, false);
}

static void dma_destroy(struct re_subject *s)
{
	CHECK_OK(doca_dma_destroy(s->obj));
}

/* @ntasks copies in flight; with @bad the first one's destination is too small (error callback). */
static void dma_case(enum re_stop stop, int ntasks, bool bad)
{
	struct re_subject s = {.what = "dma", .stop = stop, .destroy = dma_destroy};
	struct doca_pe *pe = sd_pe();
	struct doca_dma *dma;

	CHECK_OK(doca_dma_create(dev, &dma));
	s.obj = dma;
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, dma_ok, dma_err, 8));
	re_install(&s, doca_dma_as_ctx(dma));
	s.started = true;
	CHECK_OK(doca_ctx_start(s.ctx));
	for (int i = 0; i < ntasks && !s.destroyed && s.state == DOCA_CTX_STATE_RUNNING; i++) {
		struct doca_buf *src, *dst;
		struct doca_dma_task_memcpy *t;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_mm, src_mem + i * LEN, LEN, &src));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dst_mm, dst_mem + i * LEN, bad && i == 0 ? 16 : LEN,
							    &dst));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, (union doca_data){0}, &t));
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	re_wait_destroyed(&s, pe, NULL);
	CHECK(stop == RE_STOP_RUNNING || s.callbacks >= 1);
	CHECK_OK(doca_pe_destroy(pe));
	cases++;
}

/* ---- mmap advise ---- */

static void adv_done(struct doca_mmap_advise_task_invalidate_cache *t, union doca_data tud, union doca_data cud,
		     bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	(void)tud;
	s->callbacks++;
	CHECK_OK(doca_buf_dec_refcount(doca_mmap_advise_task_invalidate_cache_get_buf(t), NULL));
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void adv_ok(struct doca_mmap_advise_task_invalidate_cache *t, union doca_data tud, union doca_data cud)
{
	adv_done(t, tud, cud, true);
}

static void adv_err(struct doca_mmap_advise_task_invalidate_cache *t, union doca_data tud, union doca_data cud)
{
	adv_done(t, tud, cud, false);
}

static void adv_destroy(struct re_subject *s)
{
	CHECK_OK(doca_mmap_advise_destroy(s->obj));
}

static void advise_case(enum re_stop stop, int ntasks)
{
	struct re_subject s = {.what = "mmap advise", .stop = stop, .destroy = adv_destroy};
	struct doca_pe *pe = sd_pe();
	struct doca_mmap_advise *ma;

	CHECK_OK(doca_mmap_advise_create(dev, &ma));
	s.obj = ma;
	CHECK_OK(doca_pe_connect_ctx(pe, doca_mmap_advise_as_ctx(ma)));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(ma, adv_ok, adv_err, 8));
	re_install(&s, doca_mmap_advise_as_ctx(ma));
	s.started = true;
	CHECK_OK(doca_ctx_start(s.ctx));
	for (int i = 0; i < ntasks && !s.destroyed && s.state == DOCA_CTX_STATE_RUNNING; i++) {
		struct doca_mmap_advise_task_invalidate_cache *t;
		struct doca_buf *buf;

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_mm, src_mem + i * LEN, LEN, &buf));
		CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(ma, buf, (union doca_data){0}, &t));
		CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
	}
	re_wait_destroyed(&s, pe, NULL);
	CHECK_OK(doca_pe_destroy(pe));
	cases++;
}

/* ---- sync event ---- */

static void se_done(struct doca_sync_event_task_notify_set *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	(void)tud;
	s->callbacks++;
	doca_task_free(doca_sync_event_task_notify_set_as_doca_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void se_ok(struct doca_sync_event_task_notify_set *t, union doca_data tud, union doca_data cud)
{
	se_done(t, tud, cud, true);
}

static void se_err(struct doca_sync_event_task_notify_set *t, union doca_data tud, union doca_data cud)
{
	se_done(t, tud, cud, false);
}

static void se_destroy(struct re_subject *s)
{
	CHECK_OK(doca_sync_event_destroy(s->obj));
}

static void sync_event_case(enum re_stop stop, int ntasks)
{
	struct re_subject s = {.what = "sync event", .stop = stop, .destroy = se_destroy};
	struct doca_pe *pe = sd_pe();
	struct doca_sync_event *se;

	CHECK_OK(doca_sync_event_create(&se));
	s.obj = se;
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(se, dev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(se, dev));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sync_event_as_ctx(se)));
	CHECK_OK(doca_sync_event_task_notify_set_set_conf(se, se_ok, se_err, 8));
	re_install(&s, doca_sync_event_as_ctx(se));
	s.started = true;
	CHECK_OK(doca_ctx_start(s.ctx));
	for (int i = 0; i < ntasks && !s.destroyed && s.state == DOCA_CTX_STATE_RUNNING; i++) {
		struct doca_sync_event_task_notify_set *t;

		CHECK_OK(doca_sync_event_task_notify_set_alloc_init(se, (uint64_t)i + 1, (union doca_data){0}, &t));
		CHECK_OK(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(t)));
	}
	re_wait_destroyed(&s, pe, NULL);
	CHECK_OK(doca_pe_destroy(pe));
	cases++;
}

/* ---- the progress engine ---- */

static struct doca_dma *victim;
static struct doca_pe *victim_pe;
static doca_error_t pe_destroy_ret;

static void killer_ok(struct doca_dma_task_memcpy *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(t), NULL));
	CHECK_OK(doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(t), NULL));
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	/* The context progressed after this one, IDLE: destroyed under the engine's loop. */
	CHECK_OK(doca_dma_destroy(victim));
	victim = NULL;
	pe_destroy_ret = doca_pe_destroy(victim_pe);
}

static void pe_case(void)
{
	struct doca_pe *pe = sd_pe();
	struct doca_dma *killer;
	struct doca_buf *src, *dst;
	struct doca_dma_task_memcpy *t;

	victim_pe = pe;
	CHECK_OK(doca_dma_create(dev, &killer));
	CHECK_OK(doca_dma_create(dev, &victim));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(killer)));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(victim)));
	CHECK_OK(doca_dma_task_memcpy_set_conf(killer, killer_ok, killer_ok, 2));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(killer)));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_mm, src_mem, LEN, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dst_mm, dst_mem, LEN, &dst));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(killer, src, dst, (union doca_data){0}, &t));
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	for (uint64_t end = sd_now_ms() + 10000; victim != NULL;) {
		CHECK(sd_now_ms() < end);
		(void)doca_pe_progress(pe);
	}
	/* The engine may not go while it runs a callback of its own. */
	CHECK(pe_destroy_ret == DOCA_ERROR_IN_USE);
	for (int i = 0; i < 10; i++)
		(void)doca_pe_progress(pe);
	sd_ctx_stop_idle(doca_dma_as_ctx(killer), pe, NULL, 5000);
	CHECK_OK(doca_dma_destroy(killer));
	CHECK_OK(doca_pe_destroy(pe));
	printf("  progress engine: a callback destroyed the next context; destroying the engine was refused\n");
	cases++;
}

int main(void)
{
	dev = sd_open_dma_dev();
	src_mm = sd_mmap_local(dev, src_mem, sizeof(src_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	dst_mm = sd_mmap_local(dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(64);

	dma_case(RE_STOP_RUNNING, 0, false);
	dma_case(RE_STOP_TASK, 1, false); /* IDLE inside the completion callback */
	dma_case(RE_STOP_TASK, 4, false); /* IDLE once the three flushed tasks are back */
	dma_case(RE_STOP_ERROR, 1, true);
	dma_case(RE_STOP_ERROR, 4, true);
	if (doca_mmap_advise_cap_task_cache_invalidate_is_supported(doca_dev_as_devinfo(dev)) == DOCA_SUCCESS) {
		advise_case(RE_STOP_RUNNING, 0);
		advise_case(RE_STOP_TASK, 1);
		advise_case(RE_STOP_TASK, 4);
	}
	sync_event_case(RE_STOP_RUNNING, 0);
	sync_event_case(RE_STOP_TASK, 1);
	sync_event_case(RE_STOP_TASK, 4);
	pe_case();

	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(src_mm));
	CHECK_OK(doca_mmap_destroy(dst_mm));
	CHECK_OK(doca_dev_close(dev));
	printf("reentrancy: %d cases\n", cases);
	return T_EXIT_PASS;
}
