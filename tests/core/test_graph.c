/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_graph.c - task graphs: two DMA context nodes feeding one user node, the graph's
 * configuration rules, instance limits, and completion versus error reporting.
 *
 *   dma node 1 (src1 -> dst1) --\
 *                                +--> user node (checks dst1 and dst2 are filled)
 *   dma node 2 (src2 -> dst2) --/
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_graph.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../common/sd_test.h"

#define LEN 256

static uint8_t src_mem[2][LEN], dst_mem[2][LEN];

static struct doca_pe *pe;
static bool in_progress; /* the test is inside doca_pe_progress() */
static int nb_task_cbs;	 /* per-task DMA callbacks (a graph's tasks report to the graph) */
static int nb_graph_ok, nb_graph_err;
static struct doca_graph_instance *last_inst;
static uint64_t last_inst_ud, last_graph_ud;

struct user_cookie {
	bool fail;
	int runs;
	bool saw_both; /* both DMA destinations were complete when the node ran */
	bool in_progress;
};

static doca_error_t user_node(void *cookie)
{
	struct user_cookie *c = cookie;

	c->runs++;
	c->in_progress = in_progress;
	c->saw_both = memcmp(dst_mem[0], src_mem[0], LEN) == 0 && memcmp(dst_mem[1], src_mem[1], LEN) == 0;
	return c->fail ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS;
}

static doca_error_t user_node_unused(void *cookie)
{
	(void)cookie;
	return DOCA_SUCCESS;
}

static void graph_done(struct doca_graph_instance *inst, union doca_data inst_ud, union doca_data graph_ud, bool ok)
{
	if (!in_progress) {
		fprintf(stderr,
			"graph instance %s callback ran outside doca_pe_progress() (doca_graph.h: it runs "
			"from doca_pe_progress())\n",
			ok ? "completion" : "error");
		exit(T_EXIT_FAIL);
	}
	last_inst = inst;
	last_inst_ud = inst_ud.u64;
	last_graph_ud = graph_ud.u64;
	if (ok)
		nb_graph_ok++;
	else
		nb_graph_err++;
}

static void graph_comp_cb(struct doca_graph_instance *inst, union doca_data inst_ud, union doca_data graph_ud)
{
	graph_done(inst, inst_ud, graph_ud, true);
}

static void graph_err_cb(struct doca_graph_instance *inst, union doca_data inst_ud, union doca_data graph_ud)
{
	graph_done(inst, inst_ud, graph_ud, false);
}

static void task_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	(void)t;
	(void)ud;
	(void)ctx_ud;
	nb_task_cbs++;
}

static uint8_t progress(void)
{
	uint8_t r;

	in_progress = true;
	r = doca_pe_progress(pe);
	in_progress = false;
	return r;
}

static void progress_until_done(int ok, int err)
{
	for (int k = 0; nb_graph_ok < ok || nb_graph_err < err; k++) {
		CHECK(k < 100000);
		progress();
	}
	CHECK(nb_graph_ok == ok);
	CHECK(nb_graph_err == err);
}

static struct doca_dma *make_dma(struct doca_dev *dev, bool start)
{
	struct doca_dma *dma;

	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, task_cb, task_cb, 8));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	if (start)
		CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	return dma;
}

static struct doca_task *make_task(struct doca_dma *dma, struct doca_buf *src, struct doca_buf *dst)
{
	struct doca_dma_task_memcpy *t;
	union doca_data ud = {.u64 = 0};

	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, ud, &t));
	return doca_dma_task_memcpy_as_task(t);
}

static void reset_dst(struct doca_buf *dst[2])
{
	memset(dst_mem, 0, sizeof(dst_mem));
	CHECK_OK(doca_buf_reset_data_len(dst[0]));
	CHECK_OK(doca_buf_reset_data_len(dst[1]));
}

static void test_rules_without_ctx_node(struct doca_dev *dev)
{
	struct doca_graph *g;
	struct doca_graph_node *u, *n;
	struct doca_graph_instance *inst;
	struct doca_dma *idle;

	CHECK_ERR(doca_graph_create(NULL, &g), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_create(pe, NULL), DOCA_ERROR_INVALID_VALUE);

	/* Only a user node: nothing would ever run it from progress. */
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node_unused, &u));
	CHECK_OK(doca_graph_set_conf(g, graph_comp_cb, graph_err_cb, 1));
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_instance_create(g, &inst), DOCA_ERROR_BAD_STATE);

	/* A context node whose context is not started. */
	idle = make_dma(dev, false);
	CHECK_OK(doca_graph_node_create_from_ctx(g, doca_dma_as_ctx(idle), &n));
	CHECK_OK(doca_graph_add_dependency(g, n, u));
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_graph_destroy(g));
	CHECK_OK(doca_dma_destroy(idle));
}

static void test_graph(struct doca_dev *dev, struct doca_buf *src[2], struct doca_buf *dst[2])
{
	struct doca_dma *dma1 = make_dma(dev, true), *dma2 = make_dma(dev, true);
	struct doca_graph *g;
	struct doca_graph_node *n1, *n2, *u, *extra;
	struct doca_graph_instance *inst1, *inst2, *inst3;
	struct doca_task *t1, *t2, *t3, *t4, *t5, *t6;
	doca_error_t ret;
	struct user_cookie ok_cookie = {.fail = false}, bad_cookie = {.fail = true};
	union doca_data ud;

	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_node_create_from_ctx(g, doca_dma_as_ctx(dma1), &n1));
	CHECK_OK(doca_graph_node_create_from_ctx(g, doca_dma_as_ctx(dma2), &n2));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &u));
	CHECK_OK(doca_graph_add_dependency(g, n1, u));
	CHECK_OK(doca_graph_add_dependency(g, n2, u));

	/* Cycles are refused, including the shortest ones. */
	CHECK_ERR(doca_graph_add_dependency(g, u, n1), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_add_dependency(g, u, n2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_add_dependency(g, u, u), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_add_dependency(g, n1, n1), DOCA_ERROR_NOT_PERMITTED);

	CHECK_ERR(doca_graph_set_conf(g, NULL, graph_err_cb, 2), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_set_conf(g, graph_comp_cb, graph_err_cb, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_set_conf(g, graph_comp_cb, graph_err_cb, 2));
	ud.u64 = 0x6a;
	CHECK_OK(doca_graph_set_user_data(g, ud));

	CHECK_ERR(doca_graph_instance_create(g, &inst1), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_graph_start(g));
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_destroy(g), DOCA_ERROR_BAD_STATE);
	/* Frozen while started. */
	CHECK_ERR(doca_graph_node_create_from_user(g, user_node_unused, &extra), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_node_create_from_ctx(g, doca_dma_as_ctx(dma1), &extra), DOCA_ERROR_BAD_STATE);

	/* The configured number of instances, and no more. */
	CHECK_OK(doca_graph_instance_create(g, &inst1));
	CHECK_OK(doca_graph_instance_create(g, &inst2));
	CHECK_ERR(doca_graph_instance_create(g, &inst3), DOCA_ERROR_NO_MEMORY);
	CHECK_ERR(doca_graph_stop(g), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_graph_instance_destroy(inst2));
	CHECK_OK(doca_graph_instance_create(g, &inst2));

	/* Instance 1: succeeds. */
	t1 = make_task(dma1, src[0], dst[0]);
	t2 = make_task(dma2, src[1], dst[1]);
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst1, n1, t2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_instance_set_user_node_data(inst1, n1, &ok_cookie), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst1, n1, t1));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst1, n2, t2));
	CHECK_OK(doca_graph_instance_set_user_node_data(inst1, u, &ok_cookie));
	ud.u64 = 111;
	CHECK_OK(doca_graph_instance_set_user_data(inst1, ud));

	reset_dst(dst);
	CHECK_OK(doca_graph_instance_submit(inst1));
	/* Nothing completes inside submit. */
	CHECK(nb_graph_ok == 0 && nb_graph_err == 0);
	CHECK(ok_cookie.runs == 0);
	CHECK_ERR(doca_graph_instance_submit(inst1), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_graph_instance_destroy(inst1), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_graph_instance_set_user_data(inst1, ud), DOCA_ERROR_IN_USE);
	progress_until_done(1, 0);
	CHECK(ok_cookie.runs == 1);
	CHECK(ok_cookie.saw_both); /* the user node ran after both DMA nodes */
	CHECK(ok_cookie.in_progress);
	CHECK(last_inst == inst1);
	CHECK(last_inst_ud == 111);
	CHECK(last_graph_ud == 0x6a);
	CHECK(nb_task_cbs == 0);
	CHECK_MEM(dst_mem, src_mem, sizeof(dst_mem));
	CHECK(progress() == 0);
	CHECK(nb_graph_ok == 1);

	/* A finished instance runs again with the same tasks. */
	reset_dst(dst);
	CHECK_OK(doca_graph_instance_submit(inst1));
	progress_until_done(2, 0);
	CHECK(ok_cookie.runs == 2);
	CHECK(ok_cookie.saw_both);

	/* Instance 2: the user node fails, the error callback reports the instance. */
	t3 = make_task(dma1, src[0], dst[0]);
	t4 = make_task(dma2, src[1], dst[1]);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst2, n1, t3));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst2, n2, t4));
	CHECK_OK(doca_graph_instance_set_user_node_data(inst2, u, &bad_cookie));
	ud.u64 = 222;
	CHECK_OK(doca_graph_instance_set_user_data(inst2, ud));
	reset_dst(dst);
	CHECK_OK(doca_graph_instance_submit(inst2));
	CHECK(nb_graph_err == 0);
	progress_until_done(2, 1);
	CHECK(bad_cookie.runs == 1);
	CHECK(bad_cookie.saw_both);
	CHECK(last_inst == inst2);
	CHECK(last_inst_ud == 222);
	CHECK(last_graph_ud == 0x6a);
	CHECK(nb_task_cbs == 0);
	CHECK(ok_cookie.runs == 2);
	/* A failed user node does not stop the contexts. */
	{
		enum doca_ctx_states s;

		CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(dma1), &s));
		CHECK(s == DOCA_CTX_STATE_RUNNING);
	}

	/*
	 * Contexts stopping (tasks still allocated, so they stay STOPPING): the context nodes
	 * cannot be submitted. Whatever submit answers, the instance's callback must not run
	 * inside doca_graph_instance_submit() (graph_done checks it runs from progress).
	 */
	t5 = make_task(dma1, src[0], dst[0]);
	t6 = make_task(dma2, src[1], dst[1]);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst1, n1, t5));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst1, n2, t6));
	CHECK_ERR(doca_ctx_stop(doca_dma_as_ctx(dma1)), DOCA_ERROR_IN_PROGRESS);
	CHECK_ERR(doca_ctx_stop(doca_dma_as_ctx(dma2)), DOCA_ERROR_IN_PROGRESS);
	ret = doca_graph_instance_submit(inst1);
	CHECK(nb_graph_ok == 2 && nb_graph_err == 1);
	if (ret == DOCA_SUCCESS)
		progress_until_done(2, 2); /* accepted: it must then fail, from progress */
	CHECK(ok_cookie.runs == 2);

	/* Teardown: instances, then the graph, then the tasks and contexts. */
	CHECK_ERR(doca_graph_stop(g), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_graph_instance_destroy(inst1));
	CHECK_ERR(doca_graph_stop(g), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_graph_instance_destroy(inst2));
	CHECK_OK(doca_graph_stop(g));
	CHECK_OK(doca_graph_destroy(g));
	doca_task_free(t1);
	doca_task_free(t2);
	doca_task_free(t3);
	doca_task_free(t4);
	doca_task_free(t5);
	doca_task_free(t6);
	for (int k = 0; k < 10; k++)
		progress();
	{
		enum doca_ctx_states s1, s2;

		CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(dma1), &s1));
		CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(dma2), &s2));
		CHECK(s1 == DOCA_CTX_STATE_IDLE && s2 == DOCA_CTX_STATE_IDLE);
	}
	CHECK(nb_task_cbs == 0);
	CHECK_OK(doca_dma_destroy(dma1));
	CHECK_OK(doca_dma_destroy(dma2));
}

int main(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *src_map, *dst_map;
	struct doca_buf *src[2], *dst[2];
	struct doca_dev *dev;

	sd_setenv("SOFTDOCA_ENGINE", "inline");
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);

	dev = sd_open_dma_dev();
	for (size_t i = 0; i < LEN; i++) {
		src_mem[0][i] = (uint8_t)(i + 1);
		src_mem[1][i] = (uint8_t)(255 - i);
	}
	src_map = sd_mmap_local(dev, src_mem, sizeof(src_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	dst_map = sd_mmap_local(dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(4);
	for (int i = 0; i < 2; i++) {
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, src_map, src_mem[i], LEN, &src[i]));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, dst_map, dst_mem[i], LEN, &dst[i]));
	}
	pe = sd_pe();

	test_rules_without_ctx_node(dev);
	test_graph(dev, src, dst);

	CHECK_OK(doca_pe_destroy(pe));
	for (int i = 0; i < 2; i++) {
		CHECK_OK(doca_buf_dec_refcount(src[i], NULL));
		CHECK_OK(doca_buf_dec_refcount(dst[i], NULL));
	}
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(src_map));
	CHECK_OK(doca_mmap_destroy(dst_map));
	CHECK_OK(doca_dev_close(dev));
	printf("test_graph: ok\n");
	return T_EXIT_PASS;
}
