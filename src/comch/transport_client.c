/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport_client.c - the client side of the socket transport: connecting (retried until the
 * connect timeout), the handshake, reading the server's messages, and losing the server (error
 * choices: transport.c). Runs on the client's PE thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "transport_internal.h"

#define COMP "comch"

#define SRC_TIMER    2u /* epoll data of the client's retry timer */
#define RETRY_NS     (10ull * 1000000ull)
#define WAIT_WARN_NS (2ull * 1000000000ull)

/* ---- client ---- */

static void client_close_socket(struct doca_comch_client *cl)
{
	struct doca_comch_connection *c = &cl->conn;

	comch_fail_queued(c, DOCA_ERROR_NOT_CONNECTED);
	comch_dp_conn_closed(c);
	if (c->fd >= 0) {
		if (cl->ep.epfd >= 0)
			(void)epoll_ctl(cl->ep.epfd, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
		c->fd = -1;
	}
	if (c->state != CONN_FREE)
		c->gen++;
	c->state = CONN_FREE;
	comch_conn_publish(c);
}

static void client_stop_timer(struct doca_comch_client *cl)
{
	if (cl->tfd < 0)
		return;
	if (cl->ep.epfd >= 0)
		(void)epoll_ctl(cl->ep.epfd, EPOLL_CTL_DEL, cl->tfd, NULL);
	close(cl->tfd);
	cl->tfd = -1;
}

void comch_client_close(struct doca_comch_client *cl)
{
	client_close_socket(cl);
	client_stop_timer(cl);
	comch_ep_epoll_close(&cl->ep);
}

/* One connection attempt. 0 when connected (HELLO sent) or the server is not there yet; -errno
 * for an error that retrying cannot fix. */
static int client_try_connect(struct doca_comch_client *cl)
{
	struct comch_ep *ep = &cl->ep;
	struct doca_comch_connection *c = &cl->conn;
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	uint8_t buf[COMCH_WIRE_HDR_LEN + COMCH_WIRE_CTRL_MAX];
	int fd, err;

	memcpy(addr.sun_path, ep->path, strlen(ep->path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	cl->attempts++;
	if (connect(fd, (const struct sockaddr *)&addr, sizeof(addr)) != 0) {
		err = errno;
		close(fd);
		/* No server yet, a stale socket, or a full backlog: try again on the next tick. */
		if (err == ENOENT || err == ECONNREFUSED || err == EAGAIN || err == EINTR)
			return 0;
		SD_ERR(COMP, "%s: cannot connect to %s: %s", priv_doca_ctx_name(&ep->ctx), ep->path, strerror(err));
		return -err;
	}
	if (comch_send_pkt(fd, buf,
			   comch_wire_hello(buf, ep->max_msg_size, (uint32_t)getpid(), ep->name, ep->name_len)) != 0) {
		close(fd);
		return 0;
	}
	c->fd = fd;
	c->state = CONN_WAIT_WELCOME;
	c->nb_dp = 0;
	memset(c->counters, 0, sizeof(c->counters));
	memset(c->snapshot, 0, sizeof(c->snapshot));
	c->outq_head = c->outq_tail = NULL;
	c->out_armed = false;
	if (comch_conn_watch(c) != 0) {
		client_close_socket(cl);
		return 0;
	}
	return 0;
}

/* The last touch of @cl: its IDLE callback may destroy it. */
static unsigned int client_start_failed(struct doca_comch_client *cl, doca_error_t err)
{
	(void)priv_doca_ctx_start_done(&cl->ep.ctx, err);
	return 1;
}

/* The retry timer: reconnect while no server answered; give up after the timeout. */
static unsigned int client_tick(struct doca_comch_client *cl)
{
	struct comch_ep *ep = &cl->ep;
	uint64_t ticks, waited;
	int rc;

	if (read(cl->tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		SD_DBG(COMP, "%s: timerfd read: %s", priv_doca_ctx_name(&ep->ctx), strerror(errno));
	if (ep->ctx.state != DOCA_CTX_STATE_STARTING)
		return 0;
	waited = comch_now_ns() - cl->start_ns;
	if (cl->timeout_ns != 0 && waited > cl->timeout_ns) {
		SD_ERR(COMP,
		       "%s: no comch server named '%s' answered on host function %s within %llu s (socket %s); start "
		       "the server first, or raise SOFTDOCA_COMCH_CONNECT_TIMEOUT (seconds, 0 = wait forever)",
		       priv_doca_ctx_name(&ep->ctx), ep->name, ep->key,
		       (unsigned long long)(cl->timeout_ns / 1000000000ull), ep->path);
		return client_start_failed(cl, DOCA_ERROR_TIME_OUT);
	}
	if (waited > WAIT_WARN_NS && !cl->warned_waiting) {
		cl->warned_waiting = true;
		SD_INFO(COMP, "%s: still waiting for a comch server named '%s' on host function %s (socket %s)",
			priv_doca_ctx_name(&ep->ctx), ep->name, ep->key, ep->path);
	}
	if (cl->conn.state != CONN_FREE)
		return 0;
	rc = client_try_connect(cl);
	if (rc != 0)
		return client_start_failed(cl, DOCA_ERROR_CONNECTION_ABORTED);
	return 0;
}

/* The server's answer to our HELLO. */
static unsigned int client_welcome(struct doca_comch_client *cl, int rc, const struct comch_wire_msg *m)
{
	struct comch_ep *ep = &cl->ep;
	struct doca_comch_connection *c = &cl->conn;

	if (rc == -EPROTONOSUPPORT) {
		SD_ERR(COMP,
		       "%s: the server '%s' speaks comch protocol version %u, this softdoca speaks version %u; build "
		       "both sides against the same softdoca",
		       priv_doca_ctx_name(&ep->ctx), ep->name, m->version, COMCH_WIRE_VERSION);
		return client_start_failed(cl, DOCA_ERROR_UNSUPPORTED_VERSION);
	}
	if (rc == 0 && m->type == COMCH_WIRE_REJECT && m->reject.reason == COMCH_REJECT_BUSY) {
		/* Full for now: tried again, as a server not listening yet is, until a client leaves. */
		SD_DBG(COMP, "%s: the server '%s' has as many connections as it takes; trying again",
		       priv_doca_ctx_name(&ep->ctx), ep->name);
		client_close_socket(cl);
		return 1;
	}
	if (rc == 0 && m->type == COMCH_WIRE_REJECT) {
		SD_ERR(COMP, "%s: the server '%s' refused the connection: %s", priv_doca_ctx_name(&ep->ctx), ep->name,
		       comch_reject_reason_name(m->reject.reason));
		return client_start_failed(cl, m->reject.reason == COMCH_REJECT_VERSION
						   ? DOCA_ERROR_UNSUPPORTED_VERSION
						   : DOCA_ERROR_CONNECTION_ABORTED);
	}
	if (rc != 0 || m->type != COMCH_WIRE_WELCOME) {
		SD_ERR(COMP, "%s: the process listening on %s answered with %s; it is not a softdoca comch server",
		       priv_doca_ctx_name(&ep->ctx), ep->path,
		       rc != 0 ? comch_parse_error_name(rc) : "an unexpected packet");
		return client_start_failed(cl, DOCA_ERROR_CONNECTION_ABORTED);
	}
	c->state = CONN_UP;
	c->send_max = min_u32(ep->max_msg_size, m->welcome.max_msg);
	c->peer_pid = m->welcome.pid;
	comch_conn_publish(c);
	c->user_data.u64 = 0;
	client_stop_timer(cl);
	SD_DBG(COMP, "%s: connected to server '%s' (pid %u, messages up to %u bytes)", priv_doca_ctx_name(&ep->ctx),
	       ep->name, c->peer_pid, c->send_max);
	(void)priv_doca_ctx_start_done(&ep->ctx, DOCA_SUCCESS); /* the last touch: callbacks may destroy it */
	return 1;
}

/* The server went away or broke the protocol: the client stops (RUNNING -> STOPPING -> IDLE). */
static void client_lost(struct doca_comch_client *cl, const char *why)
{
	SD_INFO(COMP, "%s: the server '%s' (pid %u) %s; stopping the client", priv_doca_ctx_name(&cl->ep.ctx),
		cl->ep.name, cl->conn.peer_pid, why);
	client_close_socket(cl);
	(void)priv_doca_ctx_fail(&cl->ep.ctx); /* the last touch */
}

/* Runs callbacks: the caller checks ctx_guard_top(&cl->ep.ctx)->gone before touching @cl again. */
static unsigned int client_conn_io(struct doca_comch_client *cl, uint32_t events)
{
	struct comch_ep *ep = &cl->ep;
	const struct ctx_guard *g = ctx_guard_top(&ep->ctx);
	struct doca_comch_connection *c = &cl->conn;
	uint32_t gen = c->gen;
	unsigned int n = 0;

	if ((events & EPOLLOUT) && c->state == CONN_UP)
		n += comch_conn_flush(c);
	for (int k = 0; k < RECV_BUDGET; k++) {
		struct comch_wire_msg m;
		ssize_t r = comch_recv_pkt(ep, c->fd);
		int rc;

		if (r == -EAGAIN)
			break;
		n++;
		if (r <= 0 && c->state == CONN_WAIT_WELCOME) {
			/* The server closed during the handshake (e.g. it was stopping): try again. */
			client_close_socket(cl);
			break;
		}
		if (r == 0) {
			client_lost(cl, "closed the connection");
			break;
		}
		if (r == -EMSGSIZE)
			SD_WARN(COMP, "%s: the server sent a packet larger than the max message size %u",
				priv_doca_ctx_name(&ep->ctx), ep->max_msg_size);
		if (r < 0) {
			client_lost(cl, r == -EMSGSIZE ? "sent an oversized packet" : strerror((int)-r));
			break;
		}
		rc = comch_wire_parse(ep->rx, (size_t)r, ep->max_msg_size, &m);
		if (c->state == CONN_WAIT_WELCOME) {
			n += client_welcome(cl, rc, &m);
			break;
		}
		if (rc == 0 && m.type == COMCH_WIRE_CONSUMER) {
			comch_dp_packet(ep, c, &m);
			if (g->gone || ep->ctx.state != DOCA_CTX_STATE_RUNNING || c->gen != gen || c->state != CONN_UP)
				break;
			continue;
		}
		if (rc != 0 || m.type != COMCH_WIRE_MSG) {
			SD_WARN(COMP, "%s: the server sent %s", priv_doca_ctx_name(&ep->ctx),
				rc != 0 ? comch_parse_error_name(rc) : "an unexpected packet");
			client_lost(cl, "broke the protocol");
			break;
		}
		comch_deliver_msg(ep, c, &m);
		if (g->gone || ep->ctx.state != DOCA_CTX_STATE_RUNNING || c->gen != gen || c->state != CONN_UP)
			break;
	}
	return n;
}

unsigned int comch_client_events(struct doca_comch_client *cl)
{
	struct comch_ep *ep = &cl->ep;
	const struct ctx_guard *g = ctx_guard_top(&ep->ctx); /* progress holds one */
	struct epoll_event evs[8];
	unsigned int n = 0;
	int nev;

	if ((ep->ctx.state != DOCA_CTX_STATE_STARTING && ep->ctx.state != DOCA_CTX_STATE_RUNNING) || ep->epfd < 0)
		return 0;
	nev = epoll_wait(ep->epfd, evs, (int)SD_ARRAY_SIZE(evs), 0);
	for (int i = 0; i < nev; i++) {
		if (ep->ctx.state != DOCA_CTX_STATE_STARTING && ep->ctx.state != DOCA_CTX_STATE_RUNNING)
			break;
		if (evs[i].data.u64 == SRC_TIMER) {
			if (cl->tfd >= 0) /* not stopped earlier in this batch */
				n += client_tick(cl);
		} else if (cl->conn.state != CONN_FREE)
			n += client_conn_io(cl, evs[i].events);
		if (g->gone)
			return n; /* a state or event callback destroyed the client */
	}
	return n;
}

/* SOFTDOCA_COMCH_CONNECT_TIMEOUT in seconds (default 30, 0 = forever); a bad value is refused. */
static doca_error_t connect_timeout_ns(uint64_t *ns)
{
	const char *env = getenv("SOFTDOCA_COMCH_CONNECT_TIMEOUT");
	uint64_t v = 30;
	int rc;

	if (env != NULL && env[0] != '\0') {
		rc = priv_sd_parse_u64(env, 0, 86400ull * 365, &v);
		if (rc != 0)
			return SD_REJECT(
			    DOCA_ERROR_BAD_CONFIG, COMP,
			    "doca_ctx_start: SOFTDOCA_COMCH_CONNECT_TIMEOUT='%.64s': %s; expected seconds in "
			    "0..31536000 (0 = wait forever); fix the value or unset the variable",
			    env, priv_sd_parse_error(rc));
	}
	*ns = v * 1000000000ull;
	return DOCA_SUCCESS;
}

doca_error_t comch_client_begin(struct doca_comch_client *cl)
{
	struct comch_ep *ep = &cl->ep;
	char dir[sizeof(ep->path)];
	struct itimerspec its = {.it_interval = {.tv_nsec = RETRY_NS}, .it_value = {.tv_nsec = RETRY_NS}};
	doca_error_t ret;
	int dfd;

	ret = connect_timeout_ns(&cl->timeout_ns);
	if (ret != DOCA_SUCCESS)
		return ret;
	dfd = comch_rundir_open(dir, sizeof(dir));
	if (dfd < 0)
		return comch_rundir_error(dfd);
	close(dfd);
	if (comch_sock_path(dir, ep->key, ep->name, ep->name_len, ep->path, sizeof(ep->path)) != 0)
		return DOCA_ERROR_INITIALIZATION;
	ret = comch_ep_epoll_open(ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	cl->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (cl->tfd < 0 || timerfd_settime(cl->tfd, 0, &its, NULL) != 0 ||
	    comch_ep_ctl(ep, EPOLL_CTL_ADD, cl->tfd, EPOLLIN, SRC_TIMER) != 0) {
		ret = SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: retry timer: %s", priv_doca_ctx_name(&ep->ctx),
				strerror(errno));
		goto fail;
	}
	cl->start_ns = comch_now_ns();
	cl->warned_waiting = false;
	cl->attempts = 0;
	if (client_try_connect(cl) != 0) {
		ret = DOCA_ERROR_CONNECTION_ABORTED;
		goto fail;
	}
	return DOCA_SUCCESS;
fail:
	comch_client_close(cl);
	return ret;
}
