/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_profile.c - Comch capabilities come from the device's profile (SOFTDOCA_CONFIG): a
 * smaller comch.max_msg_size is what doca_comch_cap_get_max_msg_size reports, what the
 * server's default and upper bound are, and what the handshake leaves the peer; the other
 * comch.* limits bound their configuration calls; comch.supported = no takes Comch away.
 */
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>

#include "comch_test.h"

#define NAME "profile"

/* 03:00.0 is limited; its peer b1:00.0 keeps the built-in default. 03:00.1 and b1:00.1 have no Comch. */
static const char config[] = "[profile small]\n"
			     "comch.max_msg_size = 100\n"
			     "comch.max_send_tasks = 8\n"
			     "comch.max_name_len = 16\n"
			     "comch.max_recv_queue_size = 32\n"
			     "comch.max_clients = 3\n"
			     "comch.producer_max_num_tasks = 4\n"
			     "comch.consumer_max_num_tasks = 5\n"
			     "comch.consumer_max_buf_size = 1K\n"
			     "comch.max_consumers = 2\n"
			     "\n"
			     "[profile nocomch]\n"
			     "comch.supported = no\n"
			     "\n"
			     "[device 03:00.0]\n"
			     "side = dpu\n"
			     "profile = small\n"
			     "representor = b1:00.0\n"
			     "\n"
			     "[device 03:00.1]\n"
			     "side = dpu\n"
			     "profile = nocomch\n"
			     "representor = b1:00.1\n"
			     "\n"
			     "[device b1:00.0]\n"
			     "side = host\n"
			     "\n"
			     "[device b1:00.1]\n"
			     "side = host\n"
			     "profile = nocomch\n";

static void write_config(char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/softdoca.ini", side_rundir());
	f = fopen(path, "w");
	CHECK(f != NULL);
	CHECK(fwrite(config, 1, sizeof(config) - 1, f) == sizeof(config) - 1);
	CHECK(fclose(f) == 0);
	CHECK(setenv("SOFTDOCA_CONFIG", path, 1) == 0);
}

static void test_caps(void)
{
	struct doca_dev *dpu = sd_open_dev(SRV_PCI), *host = sd_open_dev(HOST_PCI);
	struct doca_devinfo *d = doca_dev_as_devinfo(dpu), *h = doca_dev_as_devinfo(host);
	uint32_t v = 0;

	CHECK_OK(doca_comch_cap_server_is_supported(d));
	CHECK_OK(doca_comch_cap_get_max_msg_size(d, &v));
	CHECK(v == 100);
	CHECK_OK(doca_comch_cap_get_max_send_tasks(d, &v));
	CHECK(v == 8);
	CHECK_OK(doca_comch_cap_get_max_name_len(d, &v));
	CHECK(v == 16);
	CHECK_OK(doca_comch_cap_get_max_recv_queue_size(d, &v));
	CHECK(v == 32);
	CHECK_OK(doca_comch_cap_get_max_clients(d, &v));
	CHECK(v == 3);
	CHECK_OK(doca_comch_producer_cap_get_max_num_tasks(d, &v));
	CHECK(v == 4);
	CHECK_OK(doca_comch_consumer_cap_get_max_num_tasks(d, &v));
	CHECK(v == 5);
	CHECK_OK(doca_comch_consumer_cap_get_max_buf_size(d, &v));
	CHECK(v == 1024);
	CHECK_OK(doca_comch_consumer_cap_get_max_consumers(d, &v));
	CHECK(v == 2);
	/* Not set in the profile: the built-in defaults. */
	CHECK_OK(doca_comch_producer_cap_get_max_buf_size(d, &v));
	CHECK(v == 1u << 30);
	CHECK_OK(doca_comch_producer_cap_get_max_producers(d, &v));
	CHECK(v == 512);
	/* The host device uses the built-in default profile. */
	CHECK_OK(doca_comch_cap_client_is_supported(h));
	CHECK_OK(doca_comch_cap_get_max_msg_size(h, &v));
	CHECK(v == 4080);
	CHECK_OK(doca_comch_cap_get_max_name_len(h, &v));
	CHECK(v == 120);
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

static void test_limits_refused(void)
{
	struct doca_dev *dev = sd_open_dev(SRV_PCI);
	struct doca_dev_rep *rep = open_rep(dev, REP_PCI);
	struct doca_comch_server *srv = NULL;

	/* 16 bytes counting the NUL: 15 characters at most. */
	CHECK_ERR(doca_comch_server_create(dev, rep, "sixteen-chars-xx", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_create(dev, rep, "fifteen-chars-x", &srv));
	CHECK_ERR(doca_comch_server_set_max_msg_size(srv, 101), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_set_max_msg_size(srv, 100));
	CHECK_ERR(doca_comch_server_set_recv_queue_size(srv, 33), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_set_recv_queue_size(srv, 32));
	CHECK_ERR(doca_comch_server_task_send_set_conf(srv, side_send_done, side_send_err, 9),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_task_send_set_conf(srv, side_send_done, side_send_err, 8));
	CHECK_OK(doca_comch_server_destroy(srv));
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(dev));
}

/* The server's device allows 100 bytes; the client's allows 4080 but learns 100 at the handshake. */
static void test_small_device(void)
{
	struct side srv, cl;
	uint8_t buf[200] = {0};

	server_new(&srv, NAME, 0, 8);
	client_new(&cl, NAME, 0, 8);
	CHECK_OK(doca_ctx_start(srv.ctx));
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1, 5000));
	CHECK_OK(doca_comch_client_get_connection(cl.cl, &cl.conn));
	CHECK_ERR(side_send(&srv, srv.conn, buf, 101), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(side_send(&cl, cl.conn, buf, 101), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(side_send(&srv, srv.conn, buf, 100));
	CHECK_OK(side_send(&cl, cl.conn, buf, 100));
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.recvs == 1 && srv.recvs == 1, 5000));
	CHECK(cl.last_len == 100 && srv.last_len == 100);
	side_free(&cl);
	side_free(&srv);
}

/*
 * comch.max_clients = 3: the fourth client is turned away (it keeps retrying, STARTING) until
 * one of the three leaves, then it gets in.
 */
static void test_max_clients(void)
{
	struct side srv, cl[4];

	server_new(&srv, NAME "-busy", 0, 8);
	CHECK_OK(doca_ctx_start(srv.ctx));
	for (int i = 0; i < 4; i++) {
		client_new(&cl[i], NAME "-busy", 0, 8);
		CHECK_ERR(doca_ctx_start(cl[i].ctx), DOCA_ERROR_IN_PROGRESS);
		if (i < 3)
			CHECK(PROGRESS_UNTIL(&srv, &cl[i],
					     cl[i].state == DOCA_CTX_STATE_RUNNING && srv.connects == i + 1, 5000));
	}
	/* Several refusals and retries; never a fourth connection. */
	for (int i = 0; i < 200; i++) {
		(void)doca_pe_progress(srv.pe);
		(void)doca_pe_progress(cl[3].pe);
		usleep(500);
	}
	CHECK(srv.connects == 3 && cl[3].state == DOCA_CTX_STATE_STARTING);
	side_free(&cl[0]);
	CHECK(PROGRESS_UNTIL(&srv, &cl[3], cl[3].state == DOCA_CTX_STATE_RUNNING && srv.connects == 4, 5000));
	for (int i = 1; i < 4; i++)
		side_free(&cl[i]);
	side_free(&srv);
}

static void test_unsupported(void)
{
	struct doca_dev *dpu = sd_open_dev("03:00.1"), *host = sd_open_dev("b1:00.1");
	struct doca_dev_rep *rep = open_rep(dpu, "b1:00.1");
	struct doca_comch_server *srv = NULL;
	struct doca_comch_client *cl = NULL;

	CHECK_ERR(doca_comch_cap_server_is_supported(doca_dev_as_devinfo(dpu)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_cap_client_is_supported(doca_dev_as_devinfo(host)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_consumer_cap_is_supported(doca_dev_as_devinfo(dpu)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_producer_cap_is_supported(doca_dev_as_devinfo(host)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_server_create(dpu, rep, NAME, &srv), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_client_create(host, NAME, &cl), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(srv == NULL && cl == NULL);
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

int main(void)
{
	char path[128];

	side_rundir();
	unsetenv("SOFTDOCA_FAULT");
	write_config(path, sizeof(path));
	test_caps();
	test_limits_refused();
	test_small_device();
	test_max_clients();
	test_unsupported();
	unlink(path);
	printf("test_profile: ok\n");
	return T_EXIT_PASS;
}
