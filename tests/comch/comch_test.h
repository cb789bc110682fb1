/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comch_test.h - helpers shared by the comch tests: one `struct side` per server or client,
 * with counters its callbacks fill, and a progress loop with a deadline.
 *
 * Every test process first calls side_rundir(), which points XDG_RUNTIME_DIR at the test's
 * own temporary directory (removed at exit), so tests running in parallel (and a developer's
 * own servers) never meet.
 */
#ifndef COMCH_TEST_H_
#define COMCH_TEST_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>

#include "../common/sd_test.h"

#define SRV_PCI	 "03:00.0"
#define REP_PCI	 "b1:00.0"
#define HOST_PCI "b1:00.0"

struct side {
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_ctx *ctx;
	/* filled by the callbacks */
	enum doca_ctx_states state;
	int nb_transitions;
	enum doca_ctx_states seen[16];
	int connects, disconnects, recvs, send_ok, send_err;
	doca_error_t last_err;
	struct doca_comch_connection *conn; /* server: latest connected; client: its connection */
	uint8_t last[8192];
	uint32_t last_len;
	uint64_t recv_seq; /* next expected sequence number (ordering checks) */
	bool seq_mode;
	bool echo;	    /* send every received message back */
	bool stop_on_recv;  /* stop the context in the receive callback */
	bool free_in_cb;    /* free send tasks in their callbacks (default) */
};

static inline const char *side_rundir(void)
{
	const char *dir = sd_tmpdir();

	sd_setenv("XDG_RUNTIME_DIR", dir);
	return dir;
}

static inline struct side *side_of_ctx(struct doca_ctx *ctx)
{
	union doca_data ud;

	CHECK_OK(doca_ctx_get_user_data(ctx, &ud));
	return ud.ptr;
}

static inline struct side *side_of_conn(struct doca_comch_connection *c)
{
	struct doca_comch_server *s = doca_comch_server_get_server_ctx(c);

	if (s != NULL)
		return side_of_ctx(doca_comch_server_as_ctx(s));
	return side_of_ctx(doca_comch_client_as_ctx(doca_comch_client_get_client_ctx(c)));
}

static inline void side_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
				 enum doca_ctx_states next)
{
	struct side *s = ud.ptr;

	(void)ctx;
	CHECK(prev == s->state);
	s->state = next;
	if (s->nb_transitions < 16)
		s->seen[s->nb_transitions] = next;
	s->nb_transitions++;
}

static inline void side_send_done(struct doca_comch_task_send *t, union doca_data tud, union doca_data cud)
{
	struct side *s = cud.ptr;

	(void)tud;
	s->send_ok++;
	if (s->free_in_cb)
		doca_task_free(doca_comch_task_send_as_task(t));
}

static inline void side_send_err(struct doca_comch_task_send *t, union doca_data tud, union doca_data cud)
{
	struct side *s = cud.ptr;

	(void)tud;
	s->send_err++;
	s->last_err = doca_task_get_status(doca_comch_task_send_as_task(t));
	if (s->free_in_cb)
		doca_task_free(doca_comch_task_send_as_task(t));
}

static inline doca_error_t side_send(struct side *s, struct doca_comch_connection *c, const void *msg, uint32_t len)
{
	struct doca_comch_task_send *t;
	doca_error_t ret;

	if (s->srv != NULL)
		ret = doca_comch_server_task_send_alloc_init(s->srv, c, msg, len, &t);
	else
		ret = doca_comch_client_task_send_alloc_init(s->cl, c, msg, len, &t);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_task_submit(doca_comch_task_send_as_task(t));
	if (ret != DOCA_SUCCESS)
		doca_task_free(doca_comch_task_send_as_task(t));
	return ret;
}

static inline void side_recv_cb(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
				struct doca_comch_connection *c)
{
	struct side *s = side_of_conn(c);

	CHECK(ev != NULL);
	CHECK(len <= sizeof(s->last));
	memcpy(s->last, buf, len);
	s->last_len = len;
	s->recvs++;
	if (s->seq_mode) {
		uint64_t seq;

		CHECK(len >= sizeof(seq));
		memcpy(&seq, buf, sizeof(seq));
		if (seq != s->recv_seq) {
			fprintf(stderr, "message %llu arrived when %llu was expected\n", (unsigned long long)seq,
				(unsigned long long)s->recv_seq);
			exit(T_EXIT_FAIL);
		}
		s->recv_seq++;
	}
	if (s->echo)
		CHECK_OK(side_send(s, c, buf, len));
	if (s->stop_on_recv)
		(void)doca_ctx_stop(s->ctx);
}

static inline void side_connect_cb(struct doca_comch_event_connection_status_changed *ev,
				   struct doca_comch_connection *c, uint8_t ok)
{
	struct side *s = side_of_conn(c);

	CHECK(ev != NULL);
	CHECK(ok == 1);
	s->connects++;
	s->conn = c;
}

static inline void side_disconnect_cb(struct doca_comch_event_connection_status_changed *ev,
				      struct doca_comch_connection *c, uint8_t ok)
{
	struct side *s = side_of_conn(c);

	CHECK(ev != NULL);
	CHECK(ok == 1);
	s->disconnects++;
	if (s->conn == c)
		s->conn = NULL;
}

static inline void side_common(struct side *s, uint32_t max_msg, uint32_t ntasks)
{
	union doca_data ud = {.ptr = s};

	s->free_in_cb = true;
	s->pe = sd_pe();
	CHECK_OK(doca_pe_connect_ctx(s->pe, s->ctx));
	CHECK_OK(doca_ctx_set_state_changed_cb(s->ctx, side_state_cb));
	CHECK_OK(doca_ctx_set_user_data(s->ctx, ud));
	if (max_msg != 0) {
		if (s->srv != NULL)
			CHECK_OK(doca_comch_server_set_max_msg_size(s->srv, max_msg));
		else
			CHECK_OK(doca_comch_client_set_max_msg_size(s->cl, max_msg));
	}
	if (s->srv != NULL) {
		CHECK_OK(doca_comch_server_task_send_set_conf(s->srv, side_send_done, side_send_err, ntasks));
		CHECK_OK(doca_comch_server_event_msg_recv_register(s->srv, side_recv_cb));
		CHECK_OK(doca_comch_server_event_connection_status_changed_register(s->srv, side_connect_cb,
										    side_disconnect_cb));
	} else {
		CHECK_OK(doca_comch_client_task_send_set_conf(s->cl, side_send_done, side_send_err, ntasks));
		CHECK_OK(doca_comch_client_event_msg_recv_register(s->cl, side_recv_cb));
	}
}

static inline struct doca_dev_rep *open_rep(struct doca_dev *dev, const char *pci)
{
	struct doca_devinfo_rep **list;
	struct doca_dev_rep *rep = NULL;
	uint32_t n;

	CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n));
	for (uint32_t i = 0; i < n && rep == NULL; i++) {
		uint8_t eq = 0;

		CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(list[i], pci, &eq));
		if (eq)
			CHECK_OK(doca_dev_rep_open(list[i], &rep));
	}
	CHECK_OK(doca_devinfo_rep_destroy_list(list));
	CHECK(rep != NULL);
	return rep;
}

/* A configured, IDLE server named @name on 03:00.0 for representor b1:00.0. */
static inline void server_new(struct side *s, const char *name, uint32_t max_msg, uint32_t ntasks)
{
	memset(s, 0, sizeof(*s));
	s->dev = sd_open_dev(SRV_PCI);
	s->rep = open_rep(s->dev, REP_PCI);
	CHECK_OK(doca_comch_server_create(s->dev, s->rep, name, &s->srv));
	s->ctx = doca_comch_server_as_ctx(s->srv);
	side_common(s, max_msg, ntasks);
}

/* A configured, IDLE client on b1:00.0 for the server @name. */
static inline void client_new(struct side *s, const char *name, uint32_t max_msg, uint32_t ntasks)
{
	memset(s, 0, sizeof(*s));
	s->dev = sd_open_dev(HOST_PCI);
	CHECK_OK(doca_comch_client_create(s->dev, name, &s->cl));
	s->ctx = doca_comch_client_as_ctx(s->cl);
	side_common(s, max_msg, ntasks);
}

/* Stops (progressing until IDLE) and destroys everything of @s. */
static inline void side_free(struct side *s)
{
	sd_ctx_stop_idle(s->ctx, s->pe, NULL, 5000);
	if (s->srv != NULL)
		CHECK_OK(doca_comch_server_destroy(s->srv));
	else
		CHECK_OK(doca_comch_client_destroy(s->cl));
	CHECK_OK(doca_pe_destroy(s->pe));
	if (s->rep != NULL)
		CHECK_OK(doca_dev_rep_close(s->rep));
	CHECK_OK(doca_dev_close(s->dev));
}

/*
 * Progresses every PE given until @cond; a test failure after WAIT_MS (defined by the test) ms.
 * A turn in which no PE had anything to do sleeps 50 us.
 */
#define SPIN(cond, ...)                                                                                                \
	do {                                                                                                           \
		struct doca_pe *pes_[] = {__VA_ARGS__};                                                                \
		uint64_t end_ = sd_now_ms() + WAIT_MS;                                                                 \
		while (!(cond)) {                                                                                      \
			uint8_t any_ = 0;                                                                              \
			for (size_t i_ = 0; i_ < sizeof(pes_) / sizeof(pes_[0]); i_++)                                 \
				any_ |= doca_pe_progress(pes_[i_]);                                                    \
			if (sd_now_ms() > end_) {                                                                      \
				fprintf(stderr, "%s:%d: timeout waiting for %s\n", __FILE__, __LINE__, #cond);         \
				exit(T_EXIT_FAIL);                                                                     \
			}                                                                                              \
			if (!any_)                                                                                     \
				usleep(50);                                                                            \
		}                                                                                                      \
	} while (0)

/* Progresses the PEs of @a and @b (either may be NULL) until *@flag is true; false on timeout. */
#define PROGRESS_UNTIL(a, b, cond, ms)                                                                                 \
	({                                                                                                             \
		uint64_t end_ = sd_now_ms() + (ms);                                                                       \
		bool ok_ = true;                                                                                       \
		while (!(cond)) {                                                                                      \
			uint8_t any_ = 0;                                                                              \
			if ((a) != NULL)                                                                               \
				any_ |= doca_pe_progress((a)->pe);                                                     \
			if ((b) != NULL)                                                                               \
				any_ |= doca_pe_progress((b)->pe);                                                     \
			if (sd_now_ms() > end_) {                                                                         \
				ok_ = false;                                                                           \
				break;                                                                                 \
			}                                                                                              \
			if (!any_)                                                                                     \
				usleep(100);                                                                           \
		}                                                                                                      \
		ok_;                                                                                                   \
	})

#endif /* COMCH_TEST_H_ */
