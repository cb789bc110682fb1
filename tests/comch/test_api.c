/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_api.c - the comch API contract without a second process: capabilities, argument and
 * state checks, the runtime directory's safety rules, server names that need escaping, and
 * the single-connection server of DOCA's comch_utils (it disconnects every extra client from
 * its connect callback).
 */
#include <sys/stat.h>

#include "comch_test.h"

static void test_caps(void)
{
	struct doca_dev *dpu = sd_open_dev(SRV_PCI), *host = sd_open_dev(HOST_PCI);
	struct doca_devinfo *di = doca_dev_as_devinfo(dpu), *hi = doca_dev_as_devinfo(host);
	uint32_t v;

	CHECK_OK(doca_comch_cap_server_is_supported(di));
	CHECK_ERR(doca_comch_cap_server_is_supported(hi), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_comch_cap_client_is_supported(hi));
	CHECK_ERR(doca_comch_cap_client_is_supported(di), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_cap_server_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_client_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_cap_get_max_msg_size(di, &v));
	CHECK(v == 4080);
	CHECK_OK(doca_comch_cap_get_max_msg_size(hi, &v));
	CHECK(v == 4080);
	CHECK_OK(doca_comch_cap_get_max_name_len(hi, &v));
	CHECK(v == 120);
	CHECK_OK(doca_comch_cap_get_max_recv_queue_size(hi, &v));
	CHECK(v == 8192);
	CHECK_ERR(doca_comch_cap_get_max_msg_size(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_get_max_msg_size(di, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_get_max_name_len(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_get_max_recv_queue_size(di, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_cap_get_max_clients(di, &v));
	CHECK(v == 512);
	CHECK_OK(doca_comch_cap_get_max_send_tasks(hi, &v));
	CHECK(v == 65536);
	CHECK_ERR(doca_comch_cap_get_max_clients(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_get_max_send_tasks(di, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(dpu));
	CHECK_OK(doca_dev_close(host));
}

static void test_create_and_config(void)
{
	struct doca_dev *dpu = sd_open_dev(SRV_PCI), *dpu1 = sd_open_dev("03:00.1");
	struct doca_dev *host = sd_open_dev(HOST_PCI);
	struct doca_dev_rep *rep = open_rep(dpu, REP_PCI), *rep1 = open_rep(dpu1, "b1:00.1");
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_pe *pe;
	char name[200];

	CHECK_ERR(doca_comch_server_create(NULL, rep, "x", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dpu, NULL, "x", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dpu, rep, NULL, &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dpu, rep, "x", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(host, rep, "x", &srv), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_server_create(dpu, rep1, "x", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dpu, rep, "", &srv), DOCA_ERROR_INVALID_VALUE);
	memset(name, 'n', sizeof(name));
	name[120] = '\0';
	CHECK_ERR(doca_comch_server_create(dpu, rep, name, &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_create(host, name, &cl), DOCA_ERROR_INVALID_VALUE);
	name[119] = '\0';
	CHECK_OK(doca_comch_server_create(dpu, rep, name, &srv));
	CHECK_OK(doca_comch_server_destroy(srv));
	CHECK_ERR(doca_comch_client_create(dpu, "x", &cl), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_comch_client_create(NULL, "x", &cl), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_create(host, NULL, &cl), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_comch_server_create(dpu, rep, "cfg", &srv));
	CHECK_OK(doca_comch_client_create(host, "cfg", &cl));
	/* The representor may be closed once the server exists. */
	CHECK_OK(doca_dev_rep_close(rep1));

	CHECK_ERR(doca_comch_server_set_max_msg_size(srv, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_set_max_msg_size(srv, 4081), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_set_max_msg_size(srv, 4080));
	CHECK_ERR(doca_comch_client_set_max_msg_size(cl, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_client_set_max_msg_size(cl, 1));
	CHECK_ERR(doca_comch_server_set_max_msg_size(NULL, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_set_recv_queue_size(srv, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_set_recv_queue_size(srv, 8193), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_set_recv_queue_size(srv, 10));
	CHECK_OK(doca_comch_client_set_recv_queue_size(cl, 8192));
	{
		struct doca_dev *d = NULL;
		struct doca_dev_rep *r = NULL;
		uint32_t v = 0;

		CHECK_OK(doca_comch_server_get_max_msg_size(srv, &v));
		CHECK(v == 4080);
		CHECK_OK(doca_comch_client_get_max_msg_size(cl, &v));
		CHECK(v == 1);
		CHECK_OK(doca_comch_server_get_recv_queue_size(srv, &v));
		CHECK(v == 10);
		CHECK_OK(doca_comch_client_get_recv_queue_size(cl, &v));
		CHECK(v == 8192);
		CHECK_OK(doca_comch_server_get_device(srv, &d));
		CHECK(d == dpu);
		CHECK_OK(doca_comch_server_get_device_repr(srv, &r));
		CHECK(r == rep);
		CHECK_OK(doca_comch_client_get_device(cl, &d));
		CHECK(d == host);
		CHECK_ERR(doca_comch_server_get_max_msg_size(NULL, &v), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_client_get_recv_queue_size(cl, NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_server_get_device(srv, NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_server_get_device_repr(NULL, &r), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_client_get_device(NULL, &d), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_connection_update_info(NULL), DOCA_ERROR_INVALID_VALUE);
	}
	CHECK_ERR(doca_comch_client_set_recv_queue_size(NULL, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_task_send_set_conf(srv, NULL, side_send_err, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_task_send_set_conf(srv, side_send_done, side_send_err, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_task_send_set_conf(cl, side_send_done, NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_event_msg_recv_register(srv, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_event_msg_recv_register(NULL, side_recv_cb), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_event_connection_status_changed_register(srv, side_connect_cb, NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_event_consumer_register(srv, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_event_consumer_register(cl, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_client_event_msg_recv_register(cl, side_recv_cb));

	/* Start needs a PE, then a send task configuration. */
	CHECK_ERR(doca_ctx_start(doca_comch_server_as_ctx(srv)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_comch_server_as_ctx(srv)));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_comch_client_as_ctx(cl)));
	CHECK_ERR(doca_ctx_start(doca_comch_server_as_ctx(srv)), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_start(doca_comch_client_as_ctx(cl)), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_pe_destroy(pe), DOCA_ERROR_IN_USE);

	/* NULL handles. */
	CHECK(doca_comch_server_as_ctx(NULL) == NULL);
	CHECK(doca_comch_client_as_ctx(NULL) == NULL);
	CHECK(doca_comch_server_get_server_ctx(NULL) == NULL);
	CHECK(doca_comch_client_get_client_ctx(NULL) == NULL);
	CHECK(doca_comch_connection_get_user_data(NULL).u64 == 0);
	CHECK(doca_comch_task_send_as_task(NULL) == NULL);
	CHECK_ERR(doca_comch_server_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_disconnect(srv, NULL), DOCA_ERROR_INVALID_VALUE);
	{
		struct doca_comch_connection *c;

		CHECK_ERR(doca_comch_client_get_connection(cl, NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_comch_client_get_connection(cl, &c), DOCA_ERROR_BAD_STATE);
	}
	/* Stopping an IDLE context is harmless. */
	CHECK_OK(doca_ctx_stop(doca_comch_server_as_ctx(srv)));

	CHECK_OK(doca_comch_server_destroy(srv));
	CHECK_OK(doca_comch_client_destroy(cl));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_rep_close(rep));
	CHECK_OK(doca_dev_close(dpu));
	CHECK_OK(doca_dev_close(dpu1));
	CHECK_OK(doca_dev_close(host));
}

/* The runtime directory must be ours and private; a start refuses anything else. */
static void test_rundir_rules(void)
{
	char sub[128], cmd[1024];
	const char *dir = side_rundir();
	struct side srv, cl;

	snprintf(sub, sizeof(sub), "%s/softdoca", dir);
	CHECK(mkdir(sub, 0755) == 0 || chmod(sub, 0755) == 0);
	server_new(&srv, "rundir", 0, 4);
	CHECK_ERR(doca_ctx_start(srv.ctx), DOCA_ERROR_NOT_PERMITTED);
	CHECK(srv.state == DOCA_CTX_STATE_IDLE);
	client_new(&cl, "rundir", 0, 4);
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_NOT_PERMITTED);
	CHECK(cl.state == DOCA_CTX_STATE_IDLE && cl.nb_transitions == 0);

	/* A symlink, even to a private directory, is refused. */
	snprintf(cmd, sizeof(cmd), "rmdir '%s' && mkdir -m 700 '%s/elsewhere' && ln -s elsewhere '%s'", sub, dir, sub);
	CHECK(system(cmd) == 0);
	CHECK_ERR(doca_ctx_start(srv.ctx), DOCA_ERROR_INITIALIZATION);

	/* Owned by someone else (needs root to arrange). */
	if (geteuid() == 0) {
		snprintf(cmd, sizeof(cmd), "rm '%s' && mkdir -m 700 '%s' && chown 65534 '%s'", sub, sub, sub);
		CHECK(system(cmd) == 0);
		CHECK_ERR(doca_ctx_start(srv.ctx), DOCA_ERROR_NOT_PERMITTED);
		snprintf(cmd, sizeof(cmd), "rmdir '%s'", sub);
	} else {
		snprintf(cmd, sizeof(cmd), "rm '%s'", sub);
	}
	CHECK(system(cmd) == 0);

	/* Fixed: the start creates the directory itself, 0700. */
	CHECK_OK(doca_ctx_start(srv.ctx));
	{
		struct stat st;

		CHECK(lstat(sub, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);
	}
	CHECK_ERR(doca_ctx_start(cl.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&srv, &cl, cl.state == DOCA_CTX_STATE_RUNNING, 5000));
	side_free(&cl);
	side_free(&srv);

	/* A runtime directory too long for a socket path. */
	{
		char longdir[200];

		snprintf(longdir, sizeof(longdir), "%s/%s", dir,
			 "a-directory-name-long-enough-that-no-socket-path-fits-below-it-at-all-xxxxxxxxxxxxxxxx");
		CHECK(mkdir(longdir, 0700) == 0);
		sd_setenv("XDG_RUNTIME_DIR", longdir);
		server_new(&srv, "long", 0, 4);
		CHECK_ERR(doca_ctx_start(srv.ctx), DOCA_ERROR_INITIALIZATION);
		side_free(&srv);
		sd_setenv("XDG_RUNTIME_DIR", dir);
	}
}

/* Names with bytes a file name cannot hold, and names that escape to the same text. */
static void test_odd_names(void)
{
	static const char *names[] = {"a/b", "a_b", "../../etc/passwd", "name with spaces", "\xe5\x90\x8d\xe5\x89\x8d",
				      "a-very-long-name-that-does-not-fit-in-the-socket-file-name-and-is-cut-there-1",
				      "a-very-long-name-that-does-not-fit-in-the-socket-file-name-and-is-cut-there-2"};
	enum { N = sizeof(names) / sizeof(names[0]) };
	struct side srv[N], cl[N];

	for (int i = 0; i < N; i++) {
		server_new(&srv[i], names[i], 0, 4);
		CHECK_OK(doca_ctx_start(srv[i].ctx));
	}
	for (int i = 0; i < N; i++) {
		client_new(&cl[i], names[i], 0, 4);
		CHECK_ERR(doca_ctx_start(cl[i].ctx), DOCA_ERROR_IN_PROGRESS);
		CHECK(PROGRESS_UNTIL(&srv[i], &cl[i], cl[i].state == DOCA_CTX_STATE_RUNNING, 5000));
		CHECK_OK(doca_comch_client_get_connection(cl[i].cl, &cl[i].conn));
		CHECK_OK(side_send(&cl[i], cl[i].conn, names[i], (uint32_t)strlen(names[i])));
		CHECK(PROGRESS_UNTIL(&srv[i], &cl[i], srv[i].recvs == 1, 5000));
		CHECK(srv[i].last_len == strlen(names[i]) && memcmp(srv[i].last, names[i], srv[i].last_len) == 0);
	}
	for (int i = 0; i < N; i++) {
		CHECK(srv[i].connects == 1 && srv[i].recvs == 1);
		side_free(&cl[i]);
		side_free(&srv[i]);
	}
}

/* comch_utils' server: one connection; its connect callback disconnects any further one. */
static struct side *single_srv;

static void single_connect_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			      uint8_t ok)
{
	side_connect_cb(ev, c, ok);
	if (single_srv->connects > 1) {
		CHECK_OK(doca_comch_server_disconnect(single_srv->srv, c));
		/* Gone at once: no send to it. */
		CHECK_ERR(side_send(single_srv, c, "x", 1), DOCA_ERROR_INVALID_VALUE);
	}
}

static bool destroyed_in_cb;

static void destroying_recv_cb(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			       struct doca_comch_connection *c)
{
	struct side *s = side_of_conn(c);

	side_recv_cb(ev, buf, len, c);
	/* Stop and destroy from its own callback: nothing in flight, so IDLE at once. */
	CHECK_OK(doca_ctx_stop(s->ctx));
	CHECK(s->state == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_server_destroy(s->srv));
	s->srv = NULL;
	s->ctx = NULL;
	destroyed_in_cb = true;
}

static void test_single_connection_server(void)
{
	struct side srv, a, b;

	server_new(&srv, "single", 0, 4);
	single_srv = &srv;
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(srv.srv, single_connect_cb,
									    side_disconnect_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	client_new(&a, "single", 0, 4);
	client_new(&b, "single", 0, 4);
	CHECK_ERR(doca_ctx_start(a.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&srv, &a, a.state == DOCA_CTX_STATE_RUNNING && srv.connects == 1, 5000));
	CHECK_ERR(doca_ctx_start(b.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&srv, &b, b.state == DOCA_CTX_STATE_IDLE, 5000));
	CHECK(srv.connects == 2 && srv.disconnects == 0);
	/* The first connection is unaffected. */
	CHECK_OK(doca_comch_client_get_connection(a.cl, &a.conn));
	CHECK_OK(side_send(&a, a.conn, "still here", 10));
	CHECK(PROGRESS_UNTIL(&srv, &a, srv.recvs == 1, 5000));

	/* A server that stops itself from its receive callback, and destroys itself there. */
	CHECK_ERR(doca_comch_server_event_msg_recv_register(srv.srv, destroying_recv_cb), DOCA_ERROR_BAD_STATE);
	side_free(&a);
	side_free(&b);
	side_free(&srv);

	server_new(&srv, "selfstop", 0, 4);
	CHECK_OK(doca_comch_server_event_msg_recv_register(srv.srv, destroying_recv_cb));
	CHECK_OK(doca_ctx_start(srv.ctx));
	client_new(&a, "selfstop", 0, 4);
	CHECK_ERR(doca_ctx_start(a.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&srv, &a, a.state == DOCA_CTX_STATE_RUNNING, 5000));
	CHECK_OK(doca_comch_client_get_connection(a.cl, &a.conn));
	CHECK_OK(side_send(&a, a.conn, "bye", 3));
	CHECK(PROGRESS_UNTIL(&srv, &a, srv.state == DOCA_CTX_STATE_IDLE && a.state == DOCA_CTX_STATE_IDLE, 5000));
	CHECK(destroyed_in_cb);
	side_free(&a);
	CHECK_OK(doca_pe_destroy(srv.pe));
	CHECK_OK(doca_dev_rep_close(srv.rep));
	CHECK_OK(doca_dev_close(srv.dev));
}

int main(void)
{
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	test_caps();
	test_create_and_config();
	test_rundir_rules();
	test_odd_names();
	test_single_connection_server();
	printf("test_api: ok\n");
	return T_EXIT_PASS;
}
