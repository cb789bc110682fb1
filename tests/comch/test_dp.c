/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dp.c - the comch fast path: consumers and producers.
 *
 *   test_comch_dp inproc      server and client in this process: lifecycle, consumer events,
 *                             ordering, content, immediate data, every error status
 *   test_comch_dp multiproc   this process serves and produces; a helper (this program,
 *                             exec'd as "consumer NAME N|die") connects and consumes; once it
 *                             finishes cleanly, once it is killed mid-stream
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/wait.h>

#include "dp_test.h"

#define NAME	"dp"
#define WAIT_MS 10000

static int nb_new, nb_expired;
static uint32_t last_new_id, last_expired_id;

static void new_consumer_cb(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	nb_new++;
	last_new_id = id;
}

static void expired_consumer_cb(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	nb_expired++;
	last_expired_id = id;
}


static void connect_pair(struct side *srv, struct side *cl)
{
	CHECK_OK(doca_ctx_start(srv->ctx));
	CHECK_ERR(doca_ctx_start(cl->ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cl->state == DOCA_CTX_STATE_RUNNING && srv->connects == 1, srv->pe, cl->pe);
	CHECK_OK(doca_comch_client_get_connection(cl->cl, &cl->conn));
}

static void test_caps_and_args(void)
{
	struct doca_dev *dev = sd_open_dev(HOST_PCI);
	struct doca_devinfo *di = doca_dev_as_devinfo(dev);
	struct doca_comch_consumer *cs;
	struct doca_comch_producer *p;
	uint32_t v;

	CHECK_OK(doca_comch_consumer_cap_is_supported(di));
	CHECK_OK(doca_comch_producer_cap_is_supported(di));
	CHECK_ERR(doca_comch_consumer_cap_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_consumer_cap_get_max_num_tasks(di, &v));
	CHECK(v == 65536);
	CHECK_OK(doca_comch_consumer_cap_get_max_buf_size(di, &v));
	CHECK(v == 1u << 30);
	CHECK_OK(doca_comch_consumer_cap_get_max_buf_list_len(di, &v));
	CHECK(v == 1);
	CHECK_OK(doca_comch_consumer_cap_get_max_consumers(di, &v));
	CHECK(v == 512);
	CHECK_OK(doca_comch_consumer_cap_get_max_imm_data_len(di, &v));
	CHECK(v == 32);
	CHECK_OK(doca_comch_producer_cap_get_max_num_tasks(di, &v));
	CHECK_OK(doca_comch_producer_cap_get_max_buf_size(di, &v));
	CHECK_OK(doca_comch_producer_cap_get_max_buf_list_len(di, &v));
	CHECK_OK(doca_comch_producer_cap_get_max_producers(di, &v));
	CHECK(v == 512);
	CHECK_ERR(doca_comch_producer_cap_get_max_producers(di, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_consumer_create(NULL, NULL, &cs), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_producer_create(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_consumer_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_producer_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_comch_consumer_as_ctx(NULL) == NULL);
	CHECK(doca_comch_producer_as_ctx(NULL) == NULL);
	CHECK(doca_comch_consumer_task_post_recv_get_buf(NULL) == NULL);
	CHECK(doca_comch_producer_task_send_get_imm_data(NULL) == NULL);
	{
		struct doca_comch_consumer_completion *cc;

		CHECK_ERR(doca_comch_consumer_completion_create(&cc), DOCA_ERROR_NOT_SUPPORTED);
		CHECK_ERR(doca_comch_consumer_completion_create(NULL), DOCA_ERROR_INVALID_VALUE);
	}
	CHECK_OK(doca_dev_close(dev));
}

static void test_inproc(void)
{
	struct side srv, cl;
	struct dp cons = {0}, prod = {0}, other = {0};
	uint32_t id, pid;
	uint64_t seq = 0;

	server_new(&srv, NAME, 0, 64);
	client_new(&cl, NAME, 0, 64);
	CHECK_OK(doca_comch_client_event_consumer_register(cl.cl, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	connect_pair(&srv, &cl);

	/* The consumer's mmap must carry the connection's device and let the peer write. */
	{
		struct doca_comch_consumer *bad;
		struct doca_mmap *m;
		static uint8_t mem[4096];

		CHECK_OK(doca_mmap_create(&m));
		CHECK_OK(doca_mmap_add_dev(m, cl.dev));
		CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
		CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
		CHECK_ERR(doca_comch_consumer_create(srv.conn, m, &bad), DOCA_ERROR_INVALID_VALUE); /* not started */
		CHECK_OK(doca_mmap_start(m));
		CHECK_ERR(doca_comch_consumer_create(srv.conn, m, &bad), DOCA_ERROR_NOT_PERMITTED); /* other device */
		CHECK_OK(doca_comch_consumer_create(cl.conn, m, &bad));
		CHECK_OK(doca_comch_consumer_destroy(bad));
		CHECK_OK(doca_mmap_stop(m));
		CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
		CHECK_OK(doca_mmap_start(m));
		CHECK_ERR(doca_comch_consumer_create(cl.conn, m, &bad), DOCA_ERROR_NOT_PERMITTED); /* no PCI write */
		CHECK_OK(doca_mmap_destroy(m));
	}

	/* A consumer on the server's connection; the client hears of it. */
	dp_mem(&cons, srv.dev, 8, 100000);
	cons.want_handle = true;
	dp_consumer(&cons, srv.conn, 8);
	CHECK_OK(doca_comch_consumer_get_id(cons.cons, &id));
	CHECK(id != 0);
	CHECK_ERR(doca_comch_consumer_set_imm_data_len(cons.cons, 8), DOCA_ERROR_BAD_STATE);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING && nb_new == 1, srv.pe, cl.pe, cons.pe);
	CHECK(last_new_id == id);

	/* A producer on the client's connection. */
	dp_mem(&prod, cl.dev, 1, 100000);
	dp_producer(&prod, cl.conn, 16);
	CHECK_OK(doca_comch_producer_get_id(prod.prod, &pid));
	CHECK_ERR(doca_comch_producer_set_dev_num_send(prod.prod, 4), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_consumer_set_dev_num_recv(cons.cons, 4), DOCA_ERROR_NOT_SUPPORTED);

	/* Nothing posted yet: submit says AGAIN and the task stays the caller's. */
	CHECK_ERR(dp_send_seq(&prod, id, 0, false), DOCA_ERROR_AGAIN);

	/* Ordering, content, immediate data: 40 messages through 8 reposted buffers. */
	cons.check = true;
	cons.repost = true;
	for (uint32_t i = 0; i < 8; i++)
		CHECK_OK(dp_post(&cons, i, 0));
	while (seq < 40) {
		doca_error_t ret = dp_send_seq(&prod, id, seq, false);

		if (ret == DOCA_ERROR_AGAIN) {
			(void)doca_pe_progress(cons.pe);
			(void)doca_pe_progress(prod.pe);
			continue;
		}
		CHECK_OK(ret);
		seq++;
	}
	SPIN(cons.recv_ok == 40 && prod.send_ok == 40, cons.pe, prod.pe);
	CHECK(cons.bad == 0 && cons.recv_err == 0 && prod.send_err == 0);
	CHECK(cons.last_producer == pid);

	/* The consumer's notification handle: quiet while nothing comes, readable when a send did. */
	{
		struct epoll_event ev = {.events = EPOLLIN}, out;
		int ep = epoll_create1(0), r;

		CHECK(ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, cons.handle, &ev) == 0);
		for (int round = 0; round < 3; round++) {
			while (doca_pe_progress(cons.pe) != 0)
				;
			CHECK_OK(doca_pe_request_notification(cons.pe));
			CHECK(epoll_wait(ep, &out, 1, 50) == 0);
			CHECK_OK(dp_send_seq(&prod, id, seq++, false));
			do {
				r = epoll_wait(ep, &out, 1, 5000);
			} while (r < 0 && errno == EINTR);
			CHECK(r == 1);
			CHECK_OK(doca_pe_clear_notification(cons.pe, cons.handle));
			SPIN(cons.recv_ok == 41 + round, cons.pe, prod.pe);
		}
		close(ep);
		CHECK(cons.bad == 0);
	}

	/* No such consumer: NOT_FOUND, as a completion or from try_submit. */
	CHECK_OK(dp_send_seq(&prod, id + 1000, seq, false));
	SPIN(prod.send_err == 1, prod.pe);
	CHECK(prod.last_send_err == DOCA_ERROR_NOT_FOUND);
	CHECK_ERR(dp_send_seq(&prod, id + 1000, seq, true), DOCA_ERROR_NOT_FOUND);

	/* Too much immediate data is refused at alloc. */
	{
		struct doca_comch_producer_task_send *t;
		struct doca_buf *buf;
		uint8_t imm[33] = {0};

		CHECK_OK(doca_buf_inventory_buf_get_by_data(prod.inv, prod.mmap, prod.mem, 8, &buf));
		CHECK_ERR(doca_comch_producer_task_send_alloc_init(prod.prod, buf, imm, 33, id, &t),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_producer_task_send_alloc_init(prod.prod, buf, NULL, 4, id, &t),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_comch_producer_task_send_alloc_init(prod.prod, buf, imm, 4, id, &t));
		CHECK(doca_comch_producer_task_send_get_imm_data_len(t) == 4);
		CHECK(doca_comch_producer_task_send_get_consumer_id(t) == id);
		doca_comch_producer_task_send_set_consumer_id(t, 77);
		CHECK(doca_comch_producer_task_send_get_consumer_id(t) == 77);
		CHECK(doca_comch_producer_task_send_get_buf(t) == buf);
		doca_task_free(doca_comch_producer_task_send_as_task(t));
		CHECK_OK(doca_buf_dec_refcount(buf, NULL));
	}

	/* Stopping the consumer: the client hears it expired. */
	{
		doca_error_t r = doca_ctx_stop(cons.ctx);

		CHECK(r == DOCA_SUCCESS || r == DOCA_ERROR_IN_PROGRESS);
	}
	SPIN(cons.state == DOCA_CTX_STATE_IDLE && nb_expired == 1, cons.pe, cl.pe, srv.pe);
	CHECK(last_expired_id == id);
	/* Its 8 posted buffers were flushed. */
	CHECK(cons.recv_err == 8 && cons.last_recv_err == DOCA_ERROR_IO_FAILED);
	cons.recv_err = 0;
	/* The consumer expired: sending to it is NOT_CONNECTED. */
	CHECK_OK(dp_send_seq(&prod, id, 0, false));
	SPIN(prod.send_err == 2, prod.pe);
	CHECK(prod.last_send_err == DOCA_ERROR_NOT_CONNECTED);

	/* Restart: a new announcement. A buffer too small for the send (16 bytes for 64): both
	 * sides fail with INVALID_VALUE. */
	cons.repost = false;
	cons.check = false;
	CHECK_ERR(doca_ctx_start(cons.ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING && nb_new == 2, srv.pe, cl.pe, cons.pe);
	CHECK_OK(dp_post(&cons, 0, 16));
	CHECK_OK(dp_send_seq(&prod, id, 0, false)); /* seq 0: 64 bytes */
	SPIN(prod.send_err == 3 && cons.recv_err == 1, prod.pe, cons.pe);
	CHECK(prod.last_send_err == DOCA_ERROR_INVALID_VALUE && cons.last_recv_err == DOCA_ERROR_INVALID_VALUE);

	/* A second consumer on the client side, fed by a producer of the server. */
	dp_mem(&other, cl.dev, 2, 4096);
	dp_consumer(&other, cl.conn, 2);
	SPIN(other.state == DOCA_CTX_STATE_RUNNING && nb_new == 3, srv.pe, cl.pe, other.pe);
	CHECK(last_new_id != id);

	/* Posted buffers of a stopping consumer are flushed. */
	CHECK_OK(dp_post(&other, 0, 0));
	CHECK_OK(dp_post(&other, 1, 0));
	dp_free(&other, &srv);
	CHECK(other.recv_err == 2 && other.last_recv_err == DOCA_ERROR_IO_FAILED);
	SPIN(nb_expired == 2, srv.pe);

	dp_free(&prod, NULL);
	/* The server's connection still has the consumer: no disconnect. */
	CHECK_ERR(doca_comch_server_disconnect(srv.srv, srv.conn), DOCA_ERROR_IN_USE);
	dp_free(&cons, &cl);
	side_free(&cl);
	side_free(&srv);
	dp_mem_free(&other);
	dp_mem_free(&prod);
	dp_mem_free(&cons);
}

/* Two producers feed one consumer; then the connection goes away under all three. */
static void test_two_producers_and_connection_lost(void)
{
	struct side srv, cl;
	struct dp cons = {0}, p1 = {0}, p2 = {0};
	uint32_t id, id1, id2;
	int from1 = 0, from2 = 0;

	nb_new = nb_expired = 0;
	server_new(&srv, NAME "-2p", 0, 16);
	client_new(&cl, NAME "-2p", 0, 16);
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	connect_pair(&srv, &cl);
	dp_mem(&cons, cl.dev, 4, 100000);
	dp_consumer(&cons, cl.conn, 4);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING && nb_new == 1, srv.pe, cl.pe, cons.pe);
	CHECK_OK(doca_comch_consumer_get_id(cons.cons, &id));
	dp_mem(&p1, srv.dev, 1, 100000);
	dp_mem(&p2, srv.dev, 1, 100000);
	dp_producer(&p1, srv.conn, 4);
	dp_producer(&p2, srv.conn, 4);
	CHECK_OK(doca_comch_producer_get_id(p1.prod, &id1));
	CHECK_OK(doca_comch_producer_get_id(p2.prod, &id2));
	CHECK(id1 != id2);
	cons.check = true;
	for (uint64_t seq = 0; seq < 20; seq++) {
		struct dp *p = (seq & 1) ? &p2 : &p1;

		CHECK_OK(dp_post(&cons, (uint32_t)(seq % 4), 0));
		CHECK_OK(dp_send_seq(p, id, seq, false));
		SPIN(cons.recv_ok == (int)seq + 1, cons.pe, p->pe);
		if (cons.last_producer == id1)
			from1++;
		else if (cons.last_producer == id2)
			from2++;
	}
	CHECK(cons.bad == 0 && from1 == 10 && from2 == 10);
	SPIN(p1.send_ok == 10 && p2.send_ok == 10, p1.pe, p2.pe);

	/* The server stops: the client follows, the consumer fails and flushes its posts, sends
	 * on the dead connection complete with NOT_CONNECTED. */
	CHECK_OK(dp_post(&cons, 0, 0));
	CHECK_OK(doca_ctx_stop(srv.ctx));
	SPIN(cl.state == DOCA_CTX_STATE_IDLE && cons.state == DOCA_CTX_STATE_IDLE, srv.pe, cl.pe, cons.pe);
	CHECK(cons.recv_err == 1 && cons.last_recv_err == DOCA_ERROR_IO_FAILED);
	CHECK_OK(dp_send_seq(&p1, id, 0, false));
	SPIN(p1.send_err == 1, p1.pe);
	CHECK(p1.last_send_err == DOCA_ERROR_NOT_CONNECTED);

	dp_free(&p1, NULL);
	dp_free(&p2, NULL);
	dp_free(&cons, NULL);
	side_free(&cl);
	side_free(&srv);
	dp_mem_free(&cons);
	dp_mem_free(&p1);
	dp_mem_free(&p2);
}

/* ---- two processes ---- */

static const char *self_exe = "/proc/self/exe";

/* consumer NAME N: receive N checked messages, then say "done"; "die" kills itself after 5. */
static int role_consumer(const char *name, const char *mode)
{
	struct side cl;
	struct dp cons = {0};
	int n = strcmp(mode, "die") == 0 ? 5 : atoi(mode);

	client_new(&cl, name, 0, 16);
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cl.state == DOCA_CTX_STATE_RUNNING, cl.pe);
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	dp_mem(&cons, cl.dev, 16, 100000);
	dp_consumer(&cons, cl.conn, 16);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING, cl.pe, cons.pe);
	cons.check = true;
	cons.repost = true;
	for (uint32_t i = 0; i < 16; i++)
		CHECK_OK(dp_post(&cons, i, 0));
	SPIN(cons.recv_ok >= n || cons.bad != 0, cl.pe, cons.pe);
	if (strcmp(mode, "die") == 0)
		raise(SIGKILL);
	{
		char msg[64];

		snprintf(msg, sizeof(msg), "done %d %d", cons.recv_ok, cons.bad);
		CHECK_OK(side_send(&cl, cl.conn, msg, (uint32_t)strlen(msg)));
	}
	SPIN(cl.send_ok == 1, cl.pe);
	dp_free(&cons, &cl);
	side_free(&cl);
	dp_mem_free(&cons);
	return cons.bad == 0 ? T_EXIT_PASS : T_EXIT_FAIL;
}

static pid_t spawn(const char *mode)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		execl(self_exe, self_exe, "consumer", NAME "-mp", mode, (char *)NULL);
		_exit(T_EXIT_FAIL);
	}
	return pid;
}

static int reap(pid_t pid)
{
	int status;

	CHECK(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

static void test_multiproc(bool die)
{
	struct side srv;
	struct dp prod = {0};
	const int n = 300;
	uint64_t seq = 0;
	pid_t child;

	nb_new = nb_expired = 0;
	server_new(&srv, NAME "-mp", 0, 16);
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	child = spawn(die ? "die" : "300");
	SPIN(nb_new == 1, srv.pe);
	dp_mem(&prod, srv.dev, 1, 100000);
	dp_producer(&prod, srv.conn, 64);
	if (!die) {
		while (seq < (uint64_t)n) {
			doca_error_t ret = dp_send_seq(&prod, last_new_id, seq, false);

			(void)doca_pe_progress(prod.pe);
			if (ret == DOCA_ERROR_AGAIN) {
				(void)doca_pe_progress(srv.pe);
				continue;
			}
			CHECK_OK(ret);
			seq++;
		}
		SPIN(prod.send_ok == n && srv.recvs == 1, prod.pe, srv.pe);
		CHECK(strncmp((const char *)srv.last, "done 300 0", srv.last_len) == 0);
		CHECK(prod.send_err == 0);
		SPIN(nb_expired == 1, srv.pe);
		CHECK(reap(child) == 0);
		printf("multiproc: %d messages checked by the consumer process\n", n);
	} else {
		/* Keep sending until the consumer's death shows; never hang. */
		uint64_t end = sd_now_ms() + WAIT_MS;

		while (prod.send_err == 0) {
			doca_error_t ret = dp_send_seq(&prod, last_new_id, seq, false);

			CHECK(sd_now_ms() < end);
			(void)doca_pe_progress(prod.pe);
			(void)doca_pe_progress(srv.pe);
			if (ret == DOCA_SUCCESS)
				seq++;
			else if (ret != DOCA_ERROR_AGAIN)
				CHECK(ret == DOCA_ERROR_NOT_CONNECTED || ret == DOCA_ERROR_NOT_FOUND);
			if (ret != DOCA_SUCCESS && ret != DOCA_ERROR_AGAIN)
				break;
		}
		CHECK(reap(child) == -SIGKILL);
		CHECK(seq >= 5);
		printf("multiproc: consumer killed after %llu sends; the producer saw %s\n", (unsigned long long)seq,
		       doca_error_get_name(prod.send_err ? prod.last_send_err : DOCA_ERROR_NOT_CONNECTED));
		CHECK(prod.send_err == 0 || prod.last_send_err == DOCA_ERROR_NOT_CONNECTED);
		SPIN(srv.disconnects == 1, srv.pe, prod.pe);
	}
	dp_free(&prod, &srv);
	side_free(&srv);
	dp_mem_free(&prod);
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 4 && strcmp(argv[1], "consumer") == 0)
		return role_consumer(argv[2], argv[3]);
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	if (argc >= 2 && strcmp(argv[1], "multiproc") == 0) {
		test_multiproc(false);
		test_multiproc(true);
	} else {
		test_caps_and_args();
		test_inproc();
		test_two_producers_and_connection_lost();
	}
	printf("test_dp: ok\n");
	return T_EXIT_PASS;
}
