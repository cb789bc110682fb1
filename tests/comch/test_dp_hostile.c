/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dp_hostile.c - a consumer that writes its own shared ring page after the producer
 * attached must not crash, stall or fool the producer's process.
 *
 *   test_comch_dp_hostile           this process serves and produces; a consumer process (this
 *                                   program, exec'd as "consumer NAME MODE") posts 4 buffers,
 *                                   then breaks its page by MODE and says "ready":
 *     ring      the ring's size becomes 2^30 entries (24 GiB past the mapping)
 *     lock      1 in the word where version 1 of the page kept the producers' spin lock
 *     head      the post index jumps 2^40 ahead
 *     scribble  0xff over the whole header
 *   and once more in one process ("inproc"): the ring's size changed under both sides.
 *
 *   test_comch_dp_hostile dump DIR  writes pages of a run in one process into DIR (the seeds of
 *                                   tests/comch/corpus/dp_page): posted, completed, reaped.
 *
 * The producer's process must finish each case by itself (an alarm turns a hang into a
 * failure): the 4 real posts are filled where the page's rule still holds (ring, lock), every
 * send fails with IO_FAILED once the consumer broke it (head), and no send succeeds into a
 * consumer that says it is gone (scribble).
 *
 * The page's layout (src/comch/dp.c, struct dp_shm, version 2) is written here from the
 * outside, as a hostile peer would: magic, version, id, ring at 0, 4, 8, 12; post_head at 128.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "dp_test.h"

#define NAME	   "dph"
#define WAIT_MS	   10000
#define OFF_VER	   4
#define OFF_RING   12
#define OFF_LOCKV1 64
#define OFF_HEAD   128
#define HDR_LEN	   384

static int nb_new;
static uint32_t last_new_id;

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
	(void)id;
}


/* The consumer's ring page as this process maps it (the first mapping of its memfd). */
static uint8_t *find_ring_page(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	uint8_t *page = NULL;

	CHECK(f != NULL);
	while (page == NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo;

		if (strstr(line, "softdoca-comch-consumer") != NULL && sscanf(line, "%lx-", &lo) == 1)
			page = (uint8_t *)(uintptr_t)lo;
	}
	fclose(f);
	CHECK(page != NULL);
	return page;
}

static void put32(uint8_t *page, size_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(page + off), v, __ATOMIC_SEQ_CST);
}

static void put64(uint8_t *page, size_t off, uint64_t v)
{
	__atomic_store_n((uint64_t *)(void *)(page + off), v, __ATOMIC_SEQ_CST);
}

static void break_page(const char *mode)
{
	uint8_t *page = find_ring_page();
	uint32_t ver;

	memcpy(&ver, page + OFF_VER, sizeof(ver));
	CHECK_EQ(ver, 2); /* the layout this test writes */
	if (strcmp(mode, "ring") == 0) {
		put32(page, OFF_RING, 1u << 30);
	} else if (strcmp(mode, "lock") == 0) {
		put32(page, OFF_LOCKV1, 1);
	} else if (strcmp(mode, "head") == 0) {
		put64(page, OFF_HEAD, 1ull << 40);
	} else {
		CHECK(strcmp(mode, "scribble") == 0);
		for (size_t i = 0; i < HDR_LEN; i += 4)
			put32(page, i, 0xffffffffu);
	}
}

/* consumer NAME MODE: 4 posts, the page broken by MODE, "ready"; exits at the producer's "bye". */
static int role_consumer(const char *name, const char *mode)
{
	struct side cl;
	struct dp cons = {0};

	client_new(&cl, name, 0, 16);
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cl.state == DOCA_CTX_STATE_RUNNING, cl.pe);
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	dp_mem(&cons, cl.dev, 16, 4096);
	dp_consumer(&cons, cl.conn, 16);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING, cl.pe, cons.pe);
	for (uint32_t i = 0; i < 4; i++)
		CHECK_OK(dp_post(&cons, i, 0));
	break_page(mode);
	CHECK_OK(side_send(&cl, cl.conn, "ready", 5));
	/* Only the connection is progressed from now on: this side's own page is not to be trusted. */
	SPIN(cl.recvs >= 1 || cl.state != DOCA_CTX_STATE_RUNNING, cl.pe);
	_exit(T_EXIT_PASS);
}

static pid_t spawn(const char *name, const char *mode)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		execl("/proc/self/exe", "/proc/self/exe", "consumer", name, mode, (char *)NULL);
		_exit(T_EXIT_FAIL);
	}
	return pid;
}

static void test_mode(const char *mode)
{
	char name[64];
	struct side srv;
	struct dp prod = {0};
	int outcomes = 0, want = strcmp(mode, "ring") == 0 || strcmp(mode, "lock") == 0 ? 4 : 8, status;
	uint64_t end;
	pid_t child;

	snprintf(name, sizeof(name), NAME "-%s", mode);
	nb_new = 0;
	alarm(30); /* a producer stuck on the peer's page fails the test instead of hanging it */
	server_new(&srv, name, 0, 16);
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	child = spawn(name, mode);
	SPIN(nb_new == 1 && srv.recvs == 1, srv.pe);
	CHECK(srv.last_len == 5 && memcmp(srv.last, "ready", 5) == 0);
	dp_mem(&prod, srv.dev, 1, 4096);
	dp_producer(&prod, srv.conn, 16);
	end = sd_now_ms() + WAIT_MS;
	while (outcomes < want) {
		doca_error_t ret = dp_send_seq(&prod, last_new_id, (uint64_t)outcomes, false);

		CHECK(sd_now_ms() < end);
		(void)doca_pe_progress(prod.pe);
		(void)doca_pe_progress(srv.pe);
		if (ret == DOCA_ERROR_AGAIN)
			continue;
		if (ret != DOCA_SUCCESS) {
			printf("%s: submit returned %s\n", mode, doca_error_get_name(ret));
			CHECK(ret == DOCA_ERROR_NOT_CONNECTED || ret == DOCA_ERROR_NOT_FOUND);
		}
		outcomes++;
	}
	SPIN(prod.send_ok + prod.send_err >= want || prod.send_ok + prod.send_err >= outcomes, prod.pe, srv.pe);
	printf("%s: %d sends completed, %d failed (last %s)\n", mode, prod.send_ok, prod.send_err,
	       prod.send_err ? doca_error_get_name(prod.last_send_err) : "-");
	if (strcmp(mode, "ring") == 0 || strcmp(mode, "lock") == 0) {
		/* What the producer relies on is its own: the 4 real posts are filled. */
		CHECK_EQ(prod.send_ok, 4);
	} else if (strcmp(mode, "head") == 0) {
		CHECK_EQ(prod.send_ok, 0);
		CHECK_EQ(prod.send_err, want);
		CHECK(prod.last_send_err == DOCA_ERROR_IO_FAILED);
	} else {
		CHECK_EQ(prod.send_ok, 0);
	}
	(void)side_send(&srv, srv.conn, "bye", 3);
	SPIN(srv.send_ok + srv.send_err >= 1 || srv.disconnects >= 1, srv.pe, prod.pe);
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	dp_free(&prod, &srv);
	side_free(&srv);
	dp_mem_free(&prod);
	alarm(0);
}

/* Both sides in one process: the ring's size changes under the producer and the consumer. */
static void test_inproc(void)
{
	struct side srv, cl;
	struct dp cons = {0}, prod = {0};
	uint64_t seq = 0;

	alarm(30);
	server_new(&srv, NAME "-inproc", 0, 16);
	client_new(&cl, NAME "-inproc", 0, 16);
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1, srv.pe, cl.pe);
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	dp_mem(&cons, cl.dev, 4, 100000);
	nb_new = 0;
	dp_consumer(&cons, cl.conn, 4);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING && nb_new == 1, srv.pe, cl.pe, cons.pe);
	cons.check = true;
	cons.repost = true;
	for (uint32_t i = 0; i < 4; i++)
		CHECK_OK(dp_post(&cons, i, 0));
	put32(find_ring_page(), OFF_RING, 1u << 30);
	dp_mem(&prod, srv.dev, 1, 100000);
	dp_producer(&prod, srv.conn, 16);
	while (seq < 64) {
		doca_error_t ret = dp_send_seq(&prod, last_new_id, seq, false);

		(void)doca_pe_progress(prod.pe);
		(void)doca_pe_progress(cons.pe);
		if (ret == DOCA_ERROR_AGAIN)
			continue;
		CHECK_OK(ret);
		seq++;
	}
	SPIN(prod.send_ok == 64 && cons.recv_ok == 64, prod.pe, cons.pe, srv.pe, cl.pe);
	CHECK_EQ(cons.bad, 0);
	dp_free(&cons, &cl);
	dp_free(&prod, &srv);
	side_free(&cl);
	side_free(&srv);
	dp_mem_free(&cons);
	dp_mem_free(&prod);
	alarm(0);
}

/* The ring page of the one consumer of this process, @len bytes of it, into DIR/NAME. */
static void dump_page(const char *dir, const char *name, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK(fwrite(find_ring_page(), 1, len, f) == len);
	CHECK(fclose(f) == 0);
}

static int dump(const char *dir)
{
	struct side srv, cl;
	struct dp cons = {0}, prod = {0};
	const size_t len = 384 + 16 * (24 + 56); /* ring of 16: header, posts, completions */
	uint64_t seq = 0;

	side_rundir();
	server_new(&srv, NAME "-dump", 0, 16);
	client_new(&cl, NAME "-dump", 0, 16);
	CHECK_OK(doca_comch_server_event_consumer_register(srv.srv, new_consumer_cb, expired_consumer_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	SPIN(cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1, srv.pe, cl.pe);
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	dp_mem(&cons, cl.dev, 16, 4096);
	dp_consumer(&cons, cl.conn, 16);
	SPIN(cons.state == DOCA_CTX_STATE_RUNNING && nb_new == 1, srv.pe, cl.pe, cons.pe);
	for (uint32_t i = 0; i < 8; i++)
		CHECK_OK(dp_post(&cons, i, 0));
	dump_page(dir, "posted", len);
	dp_mem(&prod, srv.dev, 1, 4096);
	dp_producer(&prod, srv.conn, 16);
	while (seq < 3)
		if (dp_send_seq(&prod, last_new_id, seq, false) == DOCA_SUCCESS)
			seq++;
	dump_page(dir, "completed", len);
	SPIN(prod.send_ok == 3 && cons.recv_ok == 3, prod.pe, cons.pe);
	while (seq < 8)
		if (dp_send_seq(&prod, last_new_id, seq, false) == DOCA_SUCCESS)
			seq++;
	SPIN(cons.recv_ok == 8, prod.pe, cons.pe);
	dump_page(dir, "reaped", len);
	dp_free(&cons, &cl);
	dp_free(&prod, &srv);
	side_free(&cl);
	side_free(&srv);
	dp_mem_free(&cons);
	dp_mem_free(&prod);
	return T_EXIT_PASS;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 4 && strcmp(argv[1], "consumer") == 0)
		return role_consumer(argv[2], argv[3]);
	if (argc >= 3 && strcmp(argv[1], "dump") == 0)
		return dump(argv[2]);
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	test_mode("ring");
	test_mode("lock");
	test_mode("head");
	test_mode("scribble");
	test_inproc();
	printf("test_dp_hostile: ok\n");
	return T_EXIT_PASS;
}
