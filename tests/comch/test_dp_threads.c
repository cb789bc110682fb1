/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dp_threads.c - the fast path with a consumer and a producer on threads of their own.
 *
 *   server process                              client process (fork + exec of this file)
 *   main thread:     server ctx, its PE         main thread:     client ctx, its PE
 *   consumer thread: consumer + own PE  <------ producer thread: producer + own PE
 *   producer thread: producer + own PE  ------> consumer thread: consumer + own PE
 *
 * The shape of NVIDIA's secure_channel: the main thread only progresses the connection and
 * learns the peer's consumer id from the new-consumer event; the producer thread polls that id,
 * then submits without progressing its PE while submit returns AGAIN (busy retry), and resubmits
 * from its completion callback; the consumer thread waits for RUNNING with progress + sleep,
 * resubmits from its callback and, when done, frees its tasks while they are still posted, then
 * stops. The client's consumer thread sleeps on its PE's notification handle instead of polling,
 * so a wake-up that goes to the wrong thread (or nowhere) shows as a wait that times out. Every
 * message carries its sequence number and a pattern derived from it; the consumer
 * checks both and the order. A side that does not finish in time fails (no hang).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <errno.h>
#include <sys/epoll.h>
#include <sys/wait.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_mmap.h>

#include "comch_test.h"

#define NAME	"dp-threads"
#define N_MSGS	20000
#define N_TASKS 64
#define MSG_LEN 256
#define WAIT_MS 30000

static atomic_uint peer_consumer; /* set by the main thread's new-consumer callback */
static atomic_int threads_left;
static atomic_int failed;

static void fail(const char *what, uint64_t a, uint64_t b)
{
	fprintf(stderr, "[%d] %s (%llu, %llu)\n", (int)getpid(), what, (unsigned long long)a, (unsigned long long)b);
	atomic_store(&failed, 1);
}

static uint8_t pattern(uint64_t seq, size_t i)
{
	return (uint8_t)(seq * 131 + i * 7 + 1);
}

struct mem {
	uint8_t *base;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
};

static void mem_new(struct mem *m, struct doca_dev *dev, size_t size)
{
	m->base = calloc(1, size);
	CHECK(m->base != NULL);
	m->mmap = sd_mmap_local(dev, m->base, size, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	m->inv = sd_inventory(N_TASKS);
}

static void mem_free(struct mem *m)
{
	CHECK_OK(doca_buf_inventory_stop(m->inv));
	CHECK_OK(doca_buf_inventory_destroy(m->inv));
	CHECK_OK(doca_mmap_destroy(m->mmap));
	free(m->base);
}

static bool timed_out(uint64_t end)
{
	if (sd_now_ms() < end)
		return false;
	fail("timed out", 0, 0);
	return true;
}

static void wait_state(struct doca_ctx *ctx, struct doca_pe *pe, enum doca_ctx_states want, uint64_t end)
{
	struct timespec ts = {.tv_nsec = 10000};
	enum doca_ctx_states st;

	for (;;) {
		CHECK_OK(doca_ctx_get_state(ctx, &st));
		if (st == want || timed_out(end))
			return;
		(void)doca_pe_progress(pe);
		nanosleep(&ts, NULL);
	}
}

/* ---- consumer thread ---- */

struct cons {
	struct doca_comch_connection *conn;
	struct doca_dev *dev;
	bool sleep; /* wait on the PE's notification handle instead of polling */
	int epfd;
	doca_notification_handle_t handle;
	uint64_t next_seq, received, sleeps;
	bool done;
};

/* Sleeps until @pe's notification handle says there is work (the caller drained @pe first). */
static void sleep_on_handle(struct cons *c, struct doca_pe *pe)
{
	struct epoll_event out;
	int r;

	CHECK_OK(doca_pe_request_notification(pe));
	do {
		r = epoll_wait(c->epfd, &out, 1, 5000);
	} while (r < 0 && errno == EINTR);
	if (r == 0)
		fail("no wake-up within 5 s (messages so far, expected)", c->received, N_MSGS);
	c->sleeps++;
	CHECK_OK(doca_pe_clear_notification(pe, c->handle));
}

static void recv_done(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	struct cons *c = cud.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(t);
	void *data;
	size_t len;
	uint64_t seq;

	(void)tud;
	CHECK_OK(doca_buf_get_data(buf, &data));
	CHECK_OK(doca_buf_get_data_len(buf, &len));
	if (len != MSG_LEN)
		fail("message length", len, MSG_LEN);
	memcpy(&seq, data, sizeof(seq));
	if (seq != c->next_seq)
		fail("message out of order (got, expected)", seq, c->next_seq);
	for (size_t i = sizeof(seq); i < len; i++)
		if (((uint8_t *)data)[i] != pattern(seq, i)) {
			fail("message content (seq, offset)", seq, i);
			break;
		}
	c->next_seq = seq + 1;
	if (++c->received == N_MSGS)
		c->done = true;
	/* Like secure_channel: resubmit even the last one; the tasks are freed while posted. */
	CHECK_OK(doca_buf_reset_data_len(buf));
	CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)));
}

static void recv_err(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	struct cons *c = cud.ptr;

	(void)tud;
	/* Flushed by the stop after the last message: expected. */
	if (!c->done)
		fail("post-receive failed",
		     (uint64_t)doca_task_get_status(doca_comch_consumer_task_post_recv_as_task(t)), c->received);
}

static void *consumer_thread(void *arg)
{
	struct cons *c = arg;
	struct doca_comch_consumer_task_post_recv *tasks[N_TASKS];
	struct doca_buf *bufs[N_TASKS];
	struct doca_comch_consumer *cs;
	struct doca_pe *pe;
	struct mem m;
	uint64_t end = sd_now_ms() + WAIT_MS;

	mem_new(&m, c->dev, (size_t)N_TASKS * MSG_LEN);
	pe = sd_pe();
	if (c->sleep) {
		struct epoll_event ev = {.events = EPOLLIN};

		CHECK_OK(doca_pe_get_notification_handle(pe, &c->handle));
		c->epfd = epoll_create1(EPOLL_CLOEXEC);
		CHECK(c->epfd >= 0 && epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->handle, &ev) == 0);
	}
	CHECK_OK(doca_comch_consumer_create(c->conn, m.mmap, &cs));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_comch_consumer_as_ctx(cs)));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(cs, recv_done, recv_err, N_TASKS));
	CHECK_OK(doca_ctx_set_user_data(doca_comch_consumer_as_ctx(cs), (union doca_data){.ptr = c}));
	CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(cs)), DOCA_ERROR_IN_PROGRESS);
	if (c->sleep) {
		enum doca_ctx_states st;

		for (;;) {
			while (doca_pe_progress(pe) != 0)
				;
			CHECK_OK(doca_ctx_get_state(doca_comch_consumer_as_ctx(cs), &st));
			if (st == DOCA_CTX_STATE_RUNNING || atomic_load(&failed) || timed_out(end))
				break;
			sleep_on_handle(c, pe);
		}
	} else {
		wait_state(doca_comch_consumer_as_ctx(cs), pe, DOCA_CTX_STATE_RUNNING, end);
	}
	for (int i = 0; i < N_TASKS && !atomic_load(&failed); i++) {
		CHECK_OK(
		    doca_buf_inventory_buf_get_by_addr(m.inv, m.mmap, m.base + (size_t)i * MSG_LEN, MSG_LEN, &bufs[i]));
		CHECK_OK(doca_comch_consumer_task_post_recv_alloc_init(cs, bufs[i], &tasks[i]));
		CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(tasks[i])));
	}
	while (!c->done && !atomic_load(&failed) && !timed_out(end)) {
		if (!c->sleep) {
			(void)doca_pe_progress(pe);
			continue;
		}
		while (doca_pe_progress(pe) != 0)
			;
		if (!c->done)
			sleep_on_handle(c, pe);
	}
	for (int i = 0; i < N_TASKS; i++) {
		doca_task_free(doca_comch_consumer_task_post_recv_as_task(tasks[i]));
		CHECK_OK(doca_buf_dec_refcount(bufs[i], NULL));
	}
	(void)doca_ctx_stop(doca_comch_consumer_as_ctx(cs));
	wait_state(doca_comch_consumer_as_ctx(cs), pe, DOCA_CTX_STATE_IDLE, sd_now_ms() + 5000);
	CHECK_OK(doca_comch_consumer_destroy(cs));
	CHECK_OK(doca_pe_destroy(pe));
	if (c->sleep)
		close(c->epfd);
	mem_free(&m);
	atomic_fetch_sub(&threads_left, 1);
	return NULL;
}

/* ---- producer thread ---- */

struct prod {
	struct doca_comch_connection *conn;
	struct doca_dev *dev;
	uint8_t *base;
	uint64_t submitted, completed, again;
};

static void fill(struct prod *p, struct doca_comch_producer_task_send *t, uint64_t seq)
{
	const struct doca_buf *cbuf = doca_comch_producer_task_send_get_buf(t);
	void *data;

	CHECK_OK(doca_buf_get_data((struct doca_buf *)cbuf, &data));
	memcpy(data, &seq, sizeof(seq));
	for (size_t i = sizeof(seq); i < MSG_LEN; i++)
		((uint8_t *)data)[i] = pattern(seq, i);
	(void)p;
}

/* Busy retry without progressing the PE, as secure_channel does. */
static void submit_busy(struct prod *p, struct doca_comch_producer_task_send *t)
{
	doca_error_t ret;

	fill(p, t, p->submitted);
	while ((ret = doca_task_submit(doca_comch_producer_task_send_as_task(t))) == DOCA_ERROR_AGAIN) {
		p->again++;
		if (atomic_load(&failed))
			return;
	}
	if (ret != DOCA_SUCCESS)
		fail("producer submit", (uint64_t)ret, p->submitted);
	p->submitted++;
}

static void send_done(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	struct prod *p = cud.ptr;

	(void)tud;
	p->completed++;
	if (p->submitted < N_MSGS)
		submit_busy(p, t);
	else
		doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void send_err(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	struct prod *p = cud.ptr;

	(void)tud;
	fail("producer send failed", (uint64_t)doca_task_get_status(doca_comch_producer_task_send_as_task(t)),
	     p->completed);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void *producer_thread(void *arg)
{
	struct prod *p = arg;
	struct doca_buf *bufs[N_TASKS] = {0};
	struct doca_comch_producer *pr;
	struct doca_pe *pe;
	struct mem m;
	struct timespec ts = {.tv_nsec = 10000};
	uint64_t end = sd_now_ms() + WAIT_MS;
	uint32_t id;

	mem_new(&m, p->dev, (size_t)N_TASKS * MSG_LEN);
	pe = sd_pe();
	CHECK_OK(doca_comch_producer_create(p->conn, &pr));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_comch_producer_as_ctx(pr)));
	CHECK_OK(doca_comch_producer_task_send_set_conf(pr, send_done, send_err, N_TASKS));
	CHECK_OK(doca_ctx_set_user_data(doca_comch_producer_as_ctx(pr), (union doca_data){.ptr = p}));
	CHECK_OK(doca_ctx_start(doca_comch_producer_as_ctx(pr)));
	while ((id = atomic_load(&peer_consumer)) == 0 && !timed_out(end))
		nanosleep(&ts, NULL);
	for (int i = 0; i < N_TASKS && id != 0 && !atomic_load(&failed); i++) {
		struct doca_comch_producer_task_send *t;

		CHECK_OK(
		    doca_buf_inventory_buf_get_by_data(m.inv, m.mmap, m.base + (size_t)i * MSG_LEN, MSG_LEN, &bufs[i]));
		CHECK_OK(doca_comch_producer_task_send_alloc_init(pr, bufs[i], NULL, 0, id, &t));
		submit_busy(p, t);
	}
	while (p->completed < p->submitted && !atomic_load(&failed) && !timed_out(end))
		(void)doca_pe_progress(pe);
	(void)doca_ctx_stop(doca_comch_producer_as_ctx(pr));
	wait_state(doca_comch_producer_as_ctx(pr), pe, DOCA_CTX_STATE_IDLE, sd_now_ms() + 5000);
	for (int i = 0; i < N_TASKS; i++)
		if (bufs[i] != NULL)
			CHECK_OK(doca_buf_dec_refcount(bufs[i], NULL));
	CHECK_OK(doca_comch_producer_destroy(pr));
	CHECK_OK(doca_pe_destroy(pe));
	mem_free(&m);
	atomic_fetch_sub(&threads_left, 1);
	return NULL;
}

/* ---- the two sides ---- */

static void new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	atomic_store(&peer_consumer, id);
}

static void expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
}

static bool progress_until(struct side *s, bool (*cond)(struct side *), uint64_t end)
{
	while (!cond(s)) {
		(void)doca_pe_progress(s->pe);
		if (sd_now_ms() > end)
			return false;
	}
	return true;
}

static bool threads_done(struct side *s)
{
	(void)s;
	return atomic_load(&threads_left) == 0;
}

static bool got_done_msg(struct side *s)
{
	return s->recvs >= 1;
}

static bool peer_gone(struct side *s)
{
	return s->disconnects >= 1;
}

static bool connected(struct side *s)
{
	return s->state == DOCA_CTX_STATE_RUNNING && (s->cl != NULL || s->conn != NULL);
}

static int run_side(bool server)
{
	uint64_t end = sd_now_ms() + WAIT_MS;
	struct cons c = {0};
	struct prod p = {0};
	pthread_t tc, tp;
	struct side s;

	if (server) {
		server_new(&s, NAME, 0, 16);
		CHECK_OK(doca_comch_server_event_consumer_register(s.srv, new_consumer, expired_consumer));
		CHECK_OK(doca_ctx_start(s.ctx));
	} else {
		client_new(&s, NAME, 0, 16);
		CHECK_OK(doca_comch_client_event_consumer_register(s.cl, new_consumer, expired_consumer));
		CHECK_ERR(doca_ctx_start(s.ctx), DOCA_ERROR_IN_PROGRESS);
	}
	if (!progress_until(&s, connected, end)) {
		fail("no connection", 0, 0);
		return T_EXIT_FAIL;
	}
	if (s.cl != NULL)
		CHECK_OK(doca_comch_client_get_connection(s.cl, &s.conn));
	if (s.conn == NULL) {
		fail("no connection", 0, 0);
		return T_EXIT_FAIL;
	}
	c.conn = p.conn = s.conn;
	c.dev = p.dev = s.dev;
	c.sleep = !server;
	atomic_store(&threads_left, 2);
	CHECK(pthread_create(&tc, NULL, consumer_thread, &c) == 0);
	CHECK(pthread_create(&tp, NULL, producer_thread, &p) == 0);
	/* The main thread only progresses the connection (events, the peer's consumer). */
	if (!progress_until(&s, threads_done, end + 10000))
		fail("threads did not finish", (uint64_t)atomic_load(&threads_left), 0);
	CHECK(pthread_join(tc, NULL) == 0);
	CHECK(pthread_join(tp, NULL) == 0);
	if (c.received != N_MSGS || p.completed != N_MSGS)
		fail("messages received, sent", c.received, p.completed);
	printf("[%s] %llu messages sent (%llu AGAIN retries), %llu received in order (%llu sleeps on the PE's "
	       "notification handle)\n",
	       server ? "server" : "client", (unsigned long long)p.completed, (unsigned long long)p.again,
	       (unsigned long long)c.received, (unsigned long long)c.sleeps);
	/* The server says when its consumer has everything; the client leaves only then. */
	if (server) {
		if (s.conn == NULL || side_send(&s, s.conn, "done", 4) != DOCA_SUCCESS)
			fail("cannot tell the client", 0, 0);
		if (!progress_until(&s, peer_gone, sd_now_ms() + WAIT_MS))
			fail("the client did not leave", 0, 0);
	} else if (!progress_until(&s, got_done_msg, sd_now_ms() + WAIT_MS)) {
		fail("no word from the server", 0, 0);
	}
	side_free(&s);
	return atomic_load(&failed) ? T_EXIT_FAIL : T_EXIT_PASS;
}

int main(int argc, char **argv)
{
	int status, rc;
	pid_t child;

	signal(SIGPIPE, SIG_IGN);
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	if (argc >= 2 && strcmp(argv[1], "client") == 0)
		return run_side(false);
	side_rundir();
	fflush(stdout);
	fflush(stderr);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		execl("/proc/self/exe", argv[0], "client", (char *)NULL);
		_exit(T_EXIT_FAIL);
	}
	rc = run_side(true);
	if (rc != T_EXIT_PASS)
		kill(child, SIGKILL);
	CHECK(waitpid(child, &status, 0) == child);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "client exited with status %d\n", status);
		rc = T_EXIT_FAIL;
	}
	if (rc == T_EXIT_PASS)
		printf("test_dp_threads: ok\n");
	return rc;
}
