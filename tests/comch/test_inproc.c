/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_inproc.c - a comch server and client in one process, each on its own progress engine:
 * the lifecycle, messages both ways, sizes, ordering, connection user data, disconnects from
 * either side, backpressure, and the PE notification handle waking on comch traffic.
 */
#include <errno.h>
#include <sys/epoll.h>

#include "comch_test.h"

#define NAME "inproc"
#define COMCH_MAX 4080 /* doca_comch_cap_get_max_msg_size of every emulated device */

/* Client STARTING -> RUNNING through progress, server connect event, both RUNNING. */
static void connect_pair(struct side *srv, struct side *cl)
{
	CHECK_OK(doca_ctx_start(srv->ctx));
	CHECK(srv->state == DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_ctx_start(cl->ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(cl->state == DOCA_CTX_STATE_STARTING);
	CHECK(PROGRESS_UNTIL(srv, cl, cl->state == DOCA_CTX_STATE_RUNNING && srv->connects == 1, 5000));
	CHECK_OK(doca_comch_client_get_connection(cl->cl, &cl->conn));
	CHECK(srv->conn != NULL);
}

static void test_lifecycle_and_messages(void)
{
	struct side srv, cl;
	struct doca_comch_connection *c;
	union doca_data ud = {.u64 = 0x1234};
	uint8_t big[COMCH_MAX + 1];
	uint32_t max;

	server_new(&srv, NAME, 0, 64);
	client_new(&cl, NAME, 0, 64);
	/* Not RUNNING yet: no connection. */
	CHECK_ERR(doca_comch_client_get_connection(cl.cl, &c), DOCA_ERROR_BAD_STATE);
	connect_pair(&srv, &cl);
	CHECK(cl.seen[0] == DOCA_CTX_STATE_STARTING && cl.seen[1] == DOCA_CTX_STATE_RUNNING);
	CHECK(doca_comch_client_get_client_ctx(cl.conn) == cl.cl);
	CHECK(doca_comch_server_get_server_ctx(cl.conn) == NULL);
	CHECK(doca_comch_server_get_server_ctx(srv.conn) == srv.srv);
	CHECK(doca_comch_client_get_client_ctx(srv.conn) == NULL);

	/* Connection user data: zero until set, per connection. */
	CHECK(doca_comch_connection_get_user_data(cl.conn).u64 == 0);
	CHECK_OK(doca_comch_connection_set_user_data(cl.conn, ud));
	CHECK(doca_comch_connection_get_user_data(cl.conn).u64 == 0x1234);
	CHECK(doca_comch_connection_get_user_data(srv.conn).u64 == 0);
	CHECK_ERR(doca_comch_connection_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);

	/* Client -> server, the payload copied at alloc: the caller's buffer changes right after. */
	{
		char msg[16] = "hello server";
		struct doca_comch_task_send *t;

		CHECK_OK(doca_comch_client_task_send_alloc_init(cl.cl, cl.conn, msg, sizeof(msg), &t));
		memset(msg, 'X', sizeof(msg));
		CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
		CHECK(PROGRESS_UNTIL(&srv, &cl, srv.recvs == 1 && cl.send_ok == 1, 5000));
		{
			uint64_t v = 99;

			/* Counters: what update_info saw, per side and direction. */
			CHECK_OK(doca_comch_connection_update_info(cl.conn));
			CHECK_OK(doca_comch_connection_update_info(srv.conn));
			CHECK_OK(doca_comch_connection_get_counter(cl.conn, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v));
			CHECK(v == 1);
			CHECK_OK(doca_comch_connection_get_counter(cl.conn, DOCA_COMCH_COUNTER_SENT_BYTES, &v));
			CHECK(v == sizeof(msg));
			CHECK_OK(doca_comch_connection_get_counter(cl.conn, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
			CHECK(v == 0);
			CHECK_OK(doca_comch_connection_get_counter(srv.conn, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
			CHECK(v == 1);
			CHECK_OK(doca_comch_connection_get_counter(srv.conn, DOCA_COMCH_COUNTER_RECV_BYTES, &v));
			CHECK(v == sizeof(msg));
			CHECK_ERR(doca_comch_connection_get_counter(srv.conn, (enum doca_comch_counter)7, &v),
				  DOCA_ERROR_INVALID_VALUE);
			CHECK_ERR(doca_comch_connection_get_counter(srv.conn, DOCA_COMCH_COUNTER_SENT_BYTES, NULL),
				  DOCA_ERROR_INVALID_VALUE);
		}
		CHECK(srv.last_len == 16 && strcmp((char *)srv.last, "hello server") == 0);
	}
	/* Server -> client. */
	CHECK_OK(side_send(&srv, srv.conn, "pong", 4));
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.recvs == 1 && srv.send_ok == 1, 5000));
	CHECK(cl.last_len == 4 && memcmp(cl.last, "pong", 4) == 0);

	/* Sizes: 0, 1, the cap; one more is INVALID_VALUE at alloc. */
	CHECK_OK(doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(cl.dev), &max));
	CHECK(max == COMCH_MAX);
	for (uint32_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + 1);
	CHECK_OK(side_send(&cl, cl.conn, NULL, 0));
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.recvs == 2, 5000));
	CHECK(srv.last_len == 0);
	CHECK_OK(side_send(&cl, cl.conn, big, 1));
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.recvs == 3, 5000));
	CHECK(srv.last_len == 1 && srv.last[0] == big[0]);
	CHECK_OK(side_send(&cl, cl.conn, big, max));
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.recvs == 4, 5000));
	CHECK(srv.last_len == max && memcmp(srv.last, big, max) == 0);
	CHECK_ERR(side_send(&cl, cl.conn, big, max + 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(side_send(&srv, srv.conn, big, max + 1), DOCA_ERROR_INVALID_VALUE);
	/* A connection of another context. */
	{
		struct doca_comch_task_send *t;

		CHECK_ERR(doca_comch_server_task_send_alloc_init(srv.srv, cl.conn, "x", 1, &t), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_client_task_send_alloc_init(cl.cl, cl.conn, NULL, 3, &t), DOCA_ERROR_INVALID_VALUE);
	}

	/* Configuration is IDLE-only. */
	CHECK_ERR(doca_comch_client_set_max_msg_size(cl.cl, 100), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_server_set_recv_queue_size(srv.srv, 10), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_start(srv.ctx), DOCA_ERROR_BAD_STATE);
	/* Destroying a running context is refused. */
	CHECK_ERR(doca_comch_server_destroy(srv.srv), DOCA_ERROR_IN_USE);

	/* The client stops: the server's disconnect callback fires, the server keeps running. */
	CHECK_OK(doca_ctx_stop(cl.ctx));
	CHECK(cl.state == DOCA_CTX_STATE_IDLE);
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.disconnects == 1, 5000));
	CHECK(srv.state == DOCA_CTX_STATE_RUNNING);
	CHECK(srv.conn == NULL);

	/* And connects again. */
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 2, 5000));
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	CHECK(doca_comch_connection_get_user_data(cl.conn).u64 == 0); /* a new connection */

	/* The server stops: the client goes RUNNING -> STOPPING -> IDLE by itself. */
	CHECK_OK(doca_ctx_stop(srv.ctx));
	CHECK(srv.state == DOCA_CTX_STATE_IDLE);
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_IDLE, 5000));
	CHECK(srv.disconnects == 1); /* a local stop does not report disconnects */

	side_free(&cl);
	side_free(&srv);
}

/* Many messages each way without progressing the receiver: the sockets fill, sends wait on the
 * out-queue, then everything arrives in order. */
static void test_order_and_backpressure(void)
{
	enum { N = 3000 };
	struct side srv, cl;
	uint8_t msg[2048];

	server_new(&srv, NAME "-bp", 0, N);
	client_new(&cl, NAME "-bp", 0, N);
	connect_pair(&srv, &cl);
	srv.seq_mode = true;
	memset(msg, 0xab, sizeof(msg));
	for (uint64_t i = 0; i < N; i++) {
		memcpy(msg, &i, sizeof(i));
		CHECK_OK(side_send(&cl, cl.conn, msg, sizeof(msg)));
	}
	/* Only the client progresses: it cannot have finished, the server reads nothing. */
	for (int i = 0; i < 100; i++)
		(void)doca_pe_progress(cl.pe);
	CHECK(cl.send_ok < N);
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.recvs == N && cl.send_ok == N, 20000));
	CHECK(cl.send_err == 0);

	/* Echo both ways at once. */
	srv.echo = true;
	srv.seq_mode = false;
	cl.seq_mode = true;
	for (uint64_t i = 0; i < 500; i++) {
		memcpy(msg, &i, sizeof(i));
		CHECK_OK(side_send(&cl, cl.conn, msg, 64));
	}
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.recvs == 500, 20000));

	/* Stop with sends still queued: they are flushed through the error callback. */
	srv.echo = false;
	for (uint64_t i = 0; i < N / 2; i++)
		CHECK_OK(side_send(&cl, cl.conn, msg, sizeof(msg)));
	{
		int ok0 = cl.send_ok, err0 = cl.send_err;
		doca_error_t ret = doca_ctx_stop(cl.ctx);

		CHECK(ret == DOCA_ERROR_IN_PROGRESS || ret == DOCA_SUCCESS);
		CHECK(PROGRESS_UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_IDLE, 5000));
		CHECK(cl.send_ok - ok0 + cl.send_err - err0 == N / 2);
		CHECK(cl.send_err > err0);
	}
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.disconnects == 1, 5000));
	side_free(&cl);
	side_free(&srv);
}

/* doca_comch_server_disconnect: the client sees the server go away; tasks for the old
 * connection fail with NOT_CONNECTED. */
static void test_server_disconnect(void)
{
	struct side srv, cl;
	struct doca_comch_connection *sc;
	struct doca_comch_task_send *t;

	server_new(&srv, NAME "-disc", 0, 16);
	client_new(&cl, NAME "-disc", 0, 16);
	connect_pair(&srv, &cl);
	sc = srv.conn;
	/* A task allocated before the disconnect, submitted after it. */
	CHECK_OK(doca_comch_server_task_send_alloc_init(srv.srv, sc, "late", 4, &t));
	CHECK_OK(doca_comch_server_disconnect(srv.srv, sc));
	CHECK_ERR(doca_comch_server_disconnect(srv.srv, sc), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_try_submit(doca_comch_task_send_as_task(t)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
	CHECK(PROGRESS_UNTIL(&srv, &cl, srv.send_err == 1 && cl.state == DOCA_CTX_STATE_IDLE, 5000));
	CHECK(srv.last_err == DOCA_ERROR_NOT_CONNECTED);
	CHECK(srv.disconnects == 0); /* the server's own disconnect is not reported back to it */
	CHECK(srv.state == DOCA_CTX_STATE_RUNNING);
	CHECK(cl.seen[2] == DOCA_CTX_STATE_STOPPING && cl.seen[3] == DOCA_CTX_STATE_IDLE);
	side_free(&cl);
	side_free(&srv);
}

/* The client starts before the server exists and connects once it does; a client whose server
 * never comes gives up after SOFTDOCA_COMCH_CONNECT_TIMEOUT. */
static void test_client_first_and_timeout(void)
{
	struct side srv, cl;
	uint64_t t0;

	client_new(&cl, NAME "-late", 0, 4);
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(!PROGRESS_UNTIL(&cl, (struct side *)NULL, cl.state != DOCA_CTX_STATE_STARTING, 100));
	server_new(&srv, NAME "-late", 0, 4);
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1, 5000));
	side_free(&cl);
	side_free(&srv);

	sd_setenv("SOFTDOCA_COMCH_CONNECT_TIMEOUT", "1");
	client_new(&cl, NAME "-nobody", 0, 4);
	t0 = sd_now_ms();
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&cl, (struct side *)NULL, cl.state == DOCA_CTX_STATE_IDLE, 5000));
	CHECK(sd_now_ms() - t0 >= 900);
	CHECK(cl.seen[0] == DOCA_CTX_STATE_STARTING && cl.seen[1] == DOCA_CTX_STATE_IDLE);
	/* Stop while STARTING. */
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_ctx_stop(cl.ctx));
	CHECK(cl.state == DOCA_CTX_STATE_IDLE);
	side_free(&cl);
	/* A value that is not a number of seconds is refused, not replaced by the default. */
	static const char *const bad[] = {"abc", "-1", "3x", " 5", "99999999999"};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sd_setenv("SOFTDOCA_COMCH_CONNECT_TIMEOUT", bad[i]);
		client_new(&cl, NAME "-badenv", 0, 4);
		CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_BAD_CONFIG);
		CHECK(cl.state == DOCA_CTX_STATE_IDLE);
		side_free(&cl);
	}
	sd_setenv("SOFTDOCA_COMCH_CONNECT_TIMEOUT", NULL);
}

/* Negotiated sizes: a client with a smaller max refuses bigger messages both ways. */
static void test_small_peer(void)
{
	struct side srv, cl;
	uint8_t buf[200] = {0};

	server_new(&srv, NAME "-small", 0, 8);
	client_new(&cl, NAME "-small", 100, 8);
	connect_pair(&srv, &cl);
	CHECK_OK(side_send(&srv, srv.conn, buf, 100));
	CHECK_ERR(side_send(&srv, srv.conn, buf, 101), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(side_send(&cl, cl.conn, buf, 101), DOCA_ERROR_INVALID_VALUE);
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.recvs == 1, 5000));
	side_free(&cl);
	side_free(&srv);
}

/* Event-driven: the notification handle becomes readable when the peer sends. */
static void test_notification(void)
{
	struct side srv, cl;
	doca_notification_handle_t h;
	struct epoll_event ev = {.events = EPOLLIN}, out;
	int ep, r;

	server_new(&srv, NAME "-notify", 0, 8);
	client_new(&cl, NAME "-notify", 0, 8);
	CHECK_OK(doca_pe_get_notification_handle(srv.pe, &h));
	connect_pair(&srv, &cl);
	ep = epoll_create1(0);
	CHECK(ep >= 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, h, &ev) == 0);
	for (int round = 0; round < 5; round++) {
		while (doca_pe_progress(srv.pe) != 0)
			;
		CHECK_OK(doca_pe_request_notification(srv.pe));
		CHECK(epoll_wait(ep, &out, 1, 50) == 0); /* quiet while nothing comes */
		CHECK_OK(side_send(&cl, cl.conn, "wake", 4));
		(void)doca_pe_progress(cl.pe);
		do {
			r = epoll_wait(ep, &out, 1, 5000);
		} while (r < 0 && errno == EINTR);
		CHECK(r == 1);
		CHECK_OK(doca_pe_clear_notification(srv.pe, h));
		CHECK(PROGRESS_UNTIL(&srv, (struct side *)NULL, srv.recvs == round + 1, 1000));
	}
	/* A client connecting wakes the server as well. */
	while (doca_pe_progress(srv.pe) != 0)
		;
	CHECK_OK(doca_pe_request_notification(srv.pe));
	CHECK_OK(doca_ctx_stop(cl.ctx));
	CHECK(epoll_wait(ep, &out, 1, 5000) == 1);
	CHECK(PROGRESS_UNTIL(&srv, (struct side *)NULL, srv.disconnects == 1, 1000));
	close(ep);
	side_free(&cl);
	side_free(&srv);
}

int main(void)
{
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	test_lifecycle_and_messages();
	test_order_and_backpressure();
	test_server_disconnect();
	test_client_first_and_timeout();
	test_small_peer();
	test_notification();
	printf("test_inproc: ok\n");
	return T_EXIT_PASS;
}
