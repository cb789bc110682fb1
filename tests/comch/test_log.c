/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_log.c - what a correct comch program that polls reads in the SDK log: nothing at
 * WARNING or above, and the DEBUG lines of its polls held back after the first few.
 *
 *   - a client polled with doca_comch_client_get_connection() while it connects (STARTING,
 *     as DOCA's samples do): every call refused with BAD_STATE, no line above DEBUG, at most a
 *     few DEBUG lines, and the summaries written at the state changes account for every call;
 *   - a producer whose consumer posted no buffer yet: submit answers AGAIN, no line above DEBUG;
 *   - a consumer's posted task freed while in flight (secure_channel does it before its stop, and
 *     DOCA's documentation makes it the caller's mistake): one warning, not one per task.
 *
 * The SDK log goes to a memfd at DEBUG; lines are told apart by their level tag.
 */
#include <sys/mman.h>

#include <doca_log.h>

#include "dp_test.h"

#define NAME	"logq"
#define WAIT_MS 10000

static int log_fd = -1;

static void log_capture(void)
{
	struct doca_log_backend *be = NULL;

	log_fd = memfd_create("comch-test-sdk-log", MFD_CLOEXEC);
	CHECK(log_fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(log_fd, &be));
	CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DEBUG));
}

static off_t log_mark(void)
{
	return lseek(log_fd, 0, SEEK_END);
}

/* What was logged since @mark, NUL-terminated; free() it. */
static char *log_since(off_t mark)
{
	off_t end = lseek(log_fd, 0, SEEK_END);
	size_t len = end > mark ? (size_t)(end - mark) : 0, got = 0;
	char *text = malloc(len + 1);

	CHECK(text != NULL);
	while (got < len) {
		ssize_t n = pread(log_fd, text + got, len - got, mark + (off_t)got);

		CHECK(n > 0);
		got += (size_t)n;
	}
	text[got] = '\0';
	return text;
}

/* Lines holding @a (and @b unless NULL); the lines at WARNING or above with @a = NULL. */
static int count_lines(const char *text, const char *a, const char *b)
{
	int n = 0;

	for (const char *l = text; *l != '\0';) {
		const char *nl = strchr(l, '\n');
		size_t len = nl != NULL ? (size_t)(nl - l) : strlen(l);
		char line[2048];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		if (a == NULL)
			n += strstr(line, "][WRN]") != NULL || strstr(line, "][ERR]") != NULL ||
			     strstr(line, "][CRT]") != NULL;
		else
			n += strstr(line, a) != NULL && (b == NULL || strstr(line, b) != NULL);
		l += len + (nl != NULL);
	}
	return n;
}

static void show_and_fail(const char *why, const char *text)
{
	fprintf(stderr, "%s; the SDK log said:\n%.6000s\n", why, text);
	exit(T_EXIT_FAIL);
}


/* The loop of comch_utils and the comch samples: start, then poll until the connection exists. */
static void test_poll_while_connecting(void)
{
	struct doca_comch_connection *conn = NULL;
	struct side srv, cl;
	uint64_t refused = 0, end;
	char *text;
	int first;
	off_t m;

	client_new(&cl, NAME, 0, 4);
	/* Asked while IDLE is a mistake, not a wait: an error line. */
	m = log_mark();
	CHECK_ERR(doca_comch_client_get_connection(cl.cl, &conn), DOCA_ERROR_BAD_STATE);
	text = log_since(m);
	CHECK(count_lines(text, "][ERR]", "doca_comch_client_get_connection: ") == 1);
	free(text);

	m = log_mark();
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	/* No server yet: the client stays STARTING however often it is asked. */
	for (int i = 0; i < 20000; i++) {
		CHECK_ERR(doca_comch_client_get_connection(cl.cl, &conn), DOCA_ERROR_BAD_STATE);
		refused++;
		(void)doca_pe_progress(cl.pe);
	}
	CHECK(cl.state == DOCA_CTX_STATE_STARTING);
	server_new(&srv, NAME, 0, 4);
	CHECK_OK(doca_ctx_start(srv.ctx));
	end = sd_now_ms() + WAIT_MS;
	while (doca_comch_client_get_connection(cl.cl, &conn) != DOCA_SUCCESS) {
		CHECK(cl.state == DOCA_CTX_STATE_STARTING);
		refused++;
		(void)doca_pe_progress(cl.pe);
		(void)doca_pe_progress(srv.pe);
		CHECK(sd_now_ms() < end);
	}
	CHECK(conn != NULL && cl.state == DOCA_CTX_STATE_RUNNING);

	text = log_since(m);
	if (count_lines(text, NULL, NULL) != 0)
		show_and_fail("a client polled while STARTING logged at WARNING or above", text);
	/* The first lines as precise as ever, at DEBUG; three at most between two state changes
	 * (the client's start, the server's start and its RUNNING, the client's RUNNING). */
	first = count_lines(text,
			    "doca_comch_client_get_connection: ", "the connection exists once the context is RUNNING");
	if (first < 1 || first > 9)
		show_and_fail("expected 1 to 9 full lines of the refused get_connection", text);
	CHECK(count_lines(text, "[DBG][softdoca:comch] doca_comch_client_get_connection: ", "is STARTING") ==
	      count_lines(text, "doca_comch_client_get_connection: ", NULL));
	/* Every refused call is either written or counted in a summary, once. */
	if ((uint64_t)first + sd_refused_more(text, "doca_comch_client_get_connection: ") != refused) {
		fprintf(stderr, "%llu calls refused, %d lines, summaries count %llu\n", (unsigned long long)refused,
			first, (unsigned long long)sd_refused_more(text, "doca_comch_client_get_connection: "));
		show_and_fail("the summaries do not add up", text);
	}
	printf("get_connection while STARTING: %llu calls refused, %d lines written, the rest in summaries\n",
	       (unsigned long long)refused, first);
	free(text);
	side_free(&cl);
	side_free(&srv);
}

static int nb_new;

static void new_consumer_cb(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
	nb_new++;
}

static void expired_consumer_cb(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
}

/* The producer's wait for a buffer: nothing above DEBUG; a posted task freed in flight: one warning. */
static void test_producer_waits(void)
{
	struct doca_comch_consumer_task_post_recv *t;
	struct dp cons = {0}, prod = {0};
	struct doca_buf *buf;
	struct side srv, cl;
	uint32_t id;
	char *text;
	off_t m;

	server_new(&srv, NAME "-dp", 0, 16);
	client_new(&cl, NAME "-dp", 0, 16);
	CHECK_OK(doca_comch_client_event_consumer_register(cl.cl, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1, srv.pe, cl.pe);
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	dp_mem(&cons, srv.dev, 2, 4096);
	dp_consumer(&cons, srv.conn, 4);
	CHECK_OK(doca_comch_consumer_get_id(cons.cons, &id));
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING && nb_new == 1, srv.pe, cl.pe, cons.pe);
	dp_mem(&prod, cl.dev, 1, 4096);
	dp_producer(&prod, cl.conn, 4);

	m = log_mark();
	for (int i = 0; i < 1000; i++) {
		CHECK_ERR(dp_send_seq(&prod, id, 0, false), DOCA_ERROR_AGAIN);
		(void)doca_pe_progress(prod.pe);
		(void)doca_pe_progress(cons.pe);
	}
	text = log_since(m);
	if (count_lines(text, NULL, NULL) != 0)
		show_and_fail("a producer waiting for a posted buffer logged at WARNING or above", text);
	CHECK(count_lines(text, "][DBG]", "the receiving side has no buffer posted yet") == 1);
	free(text);

	/* secure_channel's consumer frees its posted tasks right before its stop. */
	m = log_mark();
	for (uint32_t i = 0; i < cons.nbufs; i++) {
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(cons.inv, cons.mmap, cons.mem + i * cons.bufsz, cons.bufsz,
							    &buf));
		CHECK_OK(doca_comch_consumer_task_post_recv_alloc_init(cons.cons, buf, &t));
		CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)));
		doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	}
	dp_free(&cons, &cl);
	CHECK(cons.recv_err == (int)cons.nbufs);
	text = log_since(m);
	if (count_lines(text, NULL, NULL) != 1 || count_lines(text, "][WRN]", "is in flight") != 1)
		show_and_fail("a posted task freed in flight before the stop: expected its one warning", text);
	free(text);

	dp_free(&prod, NULL);
	side_free(&cl);
	side_free(&srv);
	dp_mem_free(&prod);
	dp_mem_free(&cons);
}

int main(void)
{
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	sd_setenv("SOFTDOCA_LOG_REPEATS", NULL);
	sd_setenv("DOCA_LOG_LEVEL", NULL);
	log_capture();
	test_poll_while_connecting();
	test_producer_waits();
	printf("test_log: ok\n");
	return T_EXIT_PASS;
}
