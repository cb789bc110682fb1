/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_reentrancy.c - comch servers, clients, consumers and producers stopped from each of their
 * callbacks (state, task completion, message, connection and consumer events) and destroyed from
 * their IDLE state callback (tests/common/reentry.h). The other end of each case is an ordinary
 * struct side (comch_test.h) in the same process.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_mmap.h>

#include "../common/reentry.h"
#include "comch_test.h"

#define NAME "reent"

enum ev { EV_NONE, EV_CONNECT, EV_DISCONNECT, EV_RECV, EV_NEW_CONSUMER };

/* One case: the subject (first: the context's user data points here) and its peers. */
struct cs {
	struct re_subject re;
	enum ev ev;	   /* with RE_STOP_EVENT: which event stops it */
	struct side *own;  /* the subject's dev, rep and PE (a server or client subject) */
	struct side *peer; /* the ordinary other end */
	uint8_t mem[4][4096];
	struct doca_mmap *mm;
	struct doca_buf_inventory *inv;
};

static int cases;
static const char *const ev_names[] = {"", " (connect)", " (disconnect)", " (message)", " (new consumer)"};
static char what[64];

static struct cs *cs_of_ctx(struct doca_ctx *ctx)
{
	union doca_data ud;

	CHECK_OK(doca_ctx_get_user_data(ctx, &ud));
	return ud.ptr;
}

static struct cs *cs_of_conn(struct doca_comch_connection *c)
{
	struct doca_comch_server *s = doca_comch_server_get_server_ctx(c);

	if (s != NULL)
		return cs_of_ctx(doca_comch_server_as_ctx(s));
	return cs_of_ctx(doca_comch_client_as_ctx(doca_comch_client_get_client_ctx(c)));
}

static void on_event(struct cs *c, enum ev ev)
{
	c->re.callbacks++;
	if (c->ev == ev)
		re_stop_here(&c->re, RE_STOP_EVENT);
}

static void subj_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len, struct doca_comch_connection *c)
{
	(void)ev;
	(void)buf;
	(void)len;
	on_event(cs_of_conn(c), EV_RECV);
}

static void subj_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			 uint8_t ok)
{
	(void)ev;
	(void)ok;
	on_event(cs_of_conn(c), EV_CONNECT);
}

static void subj_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			    uint8_t ok)
{
	(void)ev;
	(void)ok;
	on_event(cs_of_conn(c), EV_DISCONNECT);
}

static void subj_new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)id;
	on_event(cs_of_conn(c), EV_NEW_CONSUMER);
}

static void subj_expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
}

static void subj_send_done(struct doca_comch_task_send *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	(void)tud;
	s->callbacks++;
	doca_task_free(doca_comch_task_send_as_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void subj_send_ok(struct doca_comch_task_send *t, union doca_data tud, union doca_data cud)
{
	subj_send_done(t, tud, cud, true);
}

static void subj_send_err(struct doca_comch_task_send *t, union doca_data tud, union doca_data cud)
{
	subj_send_done(t, tud, cud, false);
}

static void destroy_server(struct re_subject *s)
{
	CHECK_OK(doca_comch_server_destroy(s->obj));
}

static void destroy_client(struct re_subject *s)
{
	CHECK_OK(doca_comch_client_destroy(s->obj));
}

/* Makes @own's server or client (created by server_new/client_new) the subject of @c. */
static void take_over(struct cs *c, struct side *own)
{
	c->own = own;
	snprintf(what, sizeof(what), "comch %s%s", own->srv != NULL ? "server" : "client", ev_names[c->ev]);
	c->re.what = what;
	if (own->srv != NULL) {
		c->re.obj = own->srv;
		c->re.destroy = destroy_server;
		CHECK_OK(doca_comch_server_task_send_set_conf(own->srv, subj_send_ok, subj_send_err, 4));
		CHECK_OK(doca_comch_server_event_msg_recv_register(own->srv, subj_recv));
		CHECK_OK(doca_comch_server_event_connection_status_changed_register(own->srv, subj_connect,
										    subj_disconnect));
		CHECK_OK(doca_comch_server_event_consumer_register(own->srv, subj_new_consumer, subj_expired_consumer));
	} else {
		c->re.obj = own->cl;
		c->re.destroy = destroy_client;
		CHECK_OK(doca_comch_client_task_send_set_conf(own->cl, subj_send_ok, subj_send_err, 4));
		CHECK_OK(doca_comch_client_event_msg_recv_register(own->cl, subj_recv));
	}
	re_install(&c->re, own->ctx);
	c->re.started = true;
}

/* What is left of a side whose context the subject's destroy took. */
static void side_rest_free(struct side *s)
{
	CHECK_OK(doca_pe_destroy(s->pe));
	if (s->rep != NULL)
		CHECK_OK(doca_dev_rep_close(s->rep));
	CHECK_OK(doca_dev_close(s->dev));
}

/* Progresses both sides until @cond; a test failure after 10 s. */
#define UNTIL(a, b, cond) CHECK(PROGRESS_UNTIL(a, b, cond, 10000))

static void server_case(enum re_stop stop, enum ev ev)
{
	struct side srv, cl;
	struct cs c = {.re = {.stop = stop}, .ev = ev};
	struct doca_comch_consumer *cons = NULL;

	server_new(&srv, NAME, 0, 4);
	client_new(&cl, NAME, 0, 4);
	take_over(&c, &srv);
	CHECK(doca_ctx_start(srv.ctx) == DOCA_SUCCESS || c.re.destroyed);
	if (!c.re.destroyed) {
		CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
		UNTIL(&srv, &cl, c.re.destroyed || cl.state == DOCA_CTX_STATE_RUNNING);
	}
	if (!c.re.destroyed && cl.state == DOCA_CTX_STATE_RUNNING) {
		CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
		if (ev == EV_RECV)
			CHECK_OK(side_send(&cl, cl.conn, "stop", 4));
		else if (ev == EV_DISCONNECT)
			CHECK_OK(doca_ctx_stop(cl.ctx));
		else if (ev == EV_NEW_CONSUMER) {
			c.mm = sd_mmap_local(cl.dev, c.mem, sizeof(c.mem), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
			CHECK_OK(doca_comch_consumer_create(cl.conn, c.mm, &cons));
			CHECK_OK(doca_pe_connect_ctx(cl.pe, doca_comch_consumer_as_ctx(cons)));
			CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(
			    cons, (doca_comch_consumer_task_post_recv_completion_cb_t)(void (*)(void))abort,
			    (doca_comch_consumer_task_post_recv_completion_cb_t)(void (*)(void))abort, 4));
			CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(cons)), DOCA_ERROR_IN_PROGRESS);
		}
	}
	re_wait_destroyed(&c.re, srv.pe, cl.pe);
	if (cons != NULL) {
		sd_ctx_stop_idle(doca_comch_consumer_as_ctx(cons), cl.pe, NULL, 5000);
		CHECK_OK(doca_comch_consumer_destroy(cons));
		CHECK_OK(doca_mmap_destroy(c.mm));
	}
	side_rest_free(&srv);
	side_free(&cl);
	cases++;
}

static void client_case(enum re_stop stop, enum ev ev)
{
	struct side srv, cl;
	struct cs c = {.re = {.stop = stop}, .ev = ev};

	server_new(&srv, NAME, 0, 4);
	client_new(&cl, NAME, 0, 4);
	take_over(&c, &cl);
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	UNTIL(&srv, &cl, c.re.destroyed || (c.re.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1));
	if (!c.re.destroyed) {
		struct doca_comch_connection *conn;

		CHECK_OK(doca_comch_client_get_connection(cl.cl, &conn));
		if (ev == EV_RECV)
			CHECK_OK(side_send(&srv, srv.conn, "stop", 4));
		if (stop == RE_STOP_TASK) {
			struct doca_comch_task_send *t;

			CHECK_OK(doca_comch_client_task_send_alloc_init(cl.cl, conn, "x", 1, &t));
			CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
		}
	}
	re_wait_destroyed(&c.re, srv.pe, cl.pe);
	side_rest_free(&cl);
	side_free(&srv);
	cases++;
}

/* ---- consumers and producers ---- */

static void post_done(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	(void)tud;
	s->callbacks++;
	CHECK_OK(doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL));
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void post_ok(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	post_done(t, tud, cud, true);
}

static void post_err(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	post_done(t, tud, cud, false);
}

static void prod_done(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud, bool ok)
{
	struct re_subject *s = re_of_ud(cud);

	(void)tud;
	s->callbacks++;
	CHECK_OK(doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL));
	doca_task_free(doca_comch_producer_task_send_as_task(t));
	re_stop_here(s, ok ? RE_STOP_TASK : RE_STOP_ERROR);
}

static void prod_ok(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	prod_done(t, tud, cud, true);
}

static void prod_err(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	prod_done(t, tud, cud, false);
}

static void destroy_consumer(struct re_subject *s)
{
	CHECK_OK(doca_comch_consumer_destroy(s->obj));
}

static void destroy_producer(struct re_subject *s)
{
	CHECK_OK(doca_comch_producer_destroy(s->obj));
}

static uint32_t new_id;

static void note_new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	new_id = id;
}

/*
 * @consumer_subject: the consumer (on the client's connection) is the subject, else the
 * producer (on the server's). The other one is an ordinary context on the same PE as its
 * side's connection. One buffer is posted and one message sent when the subject is stopped in
 * a task callback.
 */
static void dp_case(bool consumer_subject, enum re_stop stop)
{
	struct side srv, cl;
	struct cs c = {.re = {.stop = stop}};
	struct doca_comch_consumer *cons;
	struct doca_comch_producer *prod;
	struct doca_pe *cpe = sd_pe(), *ppe = sd_pe();
	struct doca_mmap *pmm;
	static uint8_t pmem[4096];

	server_new(&srv, NAME, 0, 4);
	client_new(&cl, NAME, 0, 4);
	new_id = 0;
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, note_new_consumer, subj_expired_consumer));
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1);
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	c.mm = sd_mmap_local(cl.dev, c.mem, sizeof(c.mem), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	pmm = sd_mmap_local(srv.dev, pmem, sizeof(pmem), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	c.inv = sd_inventory(8);

	CHECK_OK(doca_comch_consumer_create(cl.conn, c.mm, &cons));
	CHECK_OK(doca_pe_connect_ctx(cpe, doca_comch_consumer_as_ctx(cons)));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(cons, post_ok, post_err, 4));
	CHECK_OK(doca_comch_producer_create(srv.conn, &prod));
	CHECK_OK(doca_pe_connect_ctx(ppe, doca_comch_producer_as_ctx(prod)));
	CHECK_OK(doca_comch_producer_task_send_set_conf(prod, prod_ok, prod_err, 4));
	if (consumer_subject) {
		c.re.what = "comch consumer";
		c.re.obj = cons;
		c.re.destroy = destroy_consumer;
		re_install(&c.re, doca_comch_consumer_as_ctx(cons));
		CHECK_OK(doca_ctx_set_user_data(doca_comch_producer_as_ctx(prod), (union doca_data){.ptr = &c.re}));
		c.re.started = true;
		CHECK_ERR(doca_ctx_start(c.re.ctx), DOCA_ERROR_IN_PROGRESS);
		CHECK_OK(doca_ctx_start(doca_comch_producer_as_ctx(prod)));
	} else {
		c.re.what = "comch producer";
		c.re.obj = prod;
		c.re.destroy = destroy_producer;
		CHECK_OK(doca_ctx_set_user_data(doca_comch_consumer_as_ctx(cons), (union doca_data){.ptr = &c.re}));
		CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(cons)), DOCA_ERROR_IN_PROGRESS);
		re_install(&c.re, doca_comch_producer_as_ctx(prod));
		c.re.started = true;
		CHECK(doca_ctx_start(c.re.ctx) == DOCA_SUCCESS || c.re.destroyed);
	}
	if (stop != RE_STOP_RUNNING) {
		struct doca_comch_consumer_task_post_recv *pt;
		struct doca_comch_producer_task_send *st;
		struct doca_buf *rb, *sb;
		enum doca_ctx_states cst = DOCA_CTX_STATE_IDLE;

		for (uint64_t end = sd_now_ms() + 10000; cst != DOCA_CTX_STATE_RUNNING || new_id == 0;) {
			CHECK(sd_now_ms() < end);
			(void)doca_pe_progress(srv.pe);
			(void)doca_pe_progress(cl.pe);
			(void)doca_pe_progress(cpe);
			CHECK_OK(doca_ctx_get_state(doca_comch_consumer_as_ctx(cons), &cst));
		}
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(c.inv, c.mm, c.mem[0], sizeof(c.mem[0]), &rb));
		CHECK_OK(doca_comch_consumer_task_post_recv_alloc_init(cons, rb, &pt));
		CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(pt)));
		CHECK_OK(doca_buf_inventory_buf_get_by_data(c.inv, pmm, pmem, 64, &sb));
		for (uint64_t end = sd_now_ms() + 10000;;) {
			doca_error_t r;

			CHECK_OK(doca_comch_producer_task_send_alloc_init(prod, sb, NULL, 0, new_id, &st));
			r = doca_task_submit(doca_comch_producer_task_send_as_task(st));
			if (r == DOCA_SUCCESS)
				break;
			doca_task_free(doca_comch_producer_task_send_as_task(st));
			CHECK(r == DOCA_ERROR_AGAIN && sd_now_ms() < end);
			(void)doca_pe_progress(cpe);
		}
	}
	{
		uint64_t end = sd_now_ms() + 10000;

		while (!c.re.destroyed) {
			CHECK(sd_now_ms() < end);
			(void)doca_pe_progress(cpe);
			(void)doca_pe_progress(ppe);
			(void)doca_pe_progress(srv.pe);
			(void)doca_pe_progress(cl.pe);
		}
		printf("  %s, stopped in its %s, destroyed in its IDLE callback\n", c.re.what, re_stop_names[stop]);
	}
	if (consumer_subject) {
		sd_ctx_stop_idle(doca_comch_producer_as_ctx(prod), ppe, NULL, 5000);
		CHECK_OK(doca_comch_producer_destroy(prod));
	} else {
		sd_ctx_stop_idle(doca_comch_consumer_as_ctx(cons), cpe, cl.pe, 5000);
		CHECK_OK(doca_comch_consumer_destroy(cons));
	}
	CHECK_OK(doca_pe_destroy(cpe));
	CHECK_OK(doca_pe_destroy(ppe));
	CHECK_OK(doca_buf_inventory_destroy(c.inv));
	CHECK_OK(doca_mmap_destroy(c.mm));
	CHECK_OK(doca_mmap_destroy(pmm));
	side_free(&cl);
	side_free(&srv);
	cases++;
}

int main(void)
{
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);

	server_case(RE_STOP_RUNNING, EV_NONE);
	server_case(RE_STOP_EVENT, EV_CONNECT);
	server_case(RE_STOP_EVENT, EV_RECV);
	server_case(RE_STOP_EVENT, EV_DISCONNECT);
	server_case(RE_STOP_EVENT, EV_NEW_CONSUMER);
	client_case(RE_STOP_RUNNING, EV_NONE);
	client_case(RE_STOP_EVENT, EV_RECV);
	client_case(RE_STOP_TASK, EV_NONE);
	dp_case(true, RE_STOP_RUNNING);
	dp_case(true, RE_STOP_TASK);
	dp_case(false, RE_STOP_RUNNING);
	dp_case(false, RE_STOP_TASK);
	printf("reentrancy: %d cases\n", cases);
	return T_EXIT_PASS;
}
