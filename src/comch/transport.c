/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport.c - comch over UNIX-domain SOCK_SEQPACKET sockets: listening, connecting, the
 * handshake, reading messages and the send engine. See comch_internal.h for the model.
 *
 * Everything here runs on the PE thread. Callbacks may call back into the API (send, stop the
 * context, disconnect the very connection being read), so after each callback the loops look
 * again at the context state and the connection generation before touching anything.
 *
 * Error choices:
 *   peer gone (EOF, reset, garbage)  server: disconnect callback; client: RUNNING -> STOPPING
 *   send on a connection that is gone    the task completes with DOCA_ERROR_NOT_CONNECTED
 *   handshake refused                    client start fails (STARTING -> IDLE), reason logged;
 *                                        a server full (BUSY) is tried again, as one not there yet
 *   the peer closed with ours unread     ECONNRESET comes first, then what it sent before: read
 *   no server after the connect timeout  client start fails (STARTING -> IDLE)
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

#include "comch_internal.h"

#define COMP "comch"

#define SRC_LISTENER  1u /* epoll data of the listening socket */
#define SRC_TIMER     2u /* epoll data of the client's retry timer */
#define EVENTS_MAX    64
#define RECV_BUDGET   64 /* messages read from one connection per progress call */
#define ACCEPT_BUDGET 16
#define HANDSHAKE_NS  (5ull * 1000000000ull)
#define RETRY_NS      (10ull * 1000000ull)
#define WAIT_WARN_NS  (2ull * 1000000000ull)

/* ---- epoll helpers ---- */

static int ep_ctl(struct comch_ep *ep, int op, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = {.events = events, .data.u64 = data};

	return epoll_ctl(ep->epfd, op, fd, &ev) == 0 ? 0 : -errno;
}

static int conn_watch(struct doca_comch_connection *c)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};

	return epoll_ctl(c->ep->epfd, EPOLL_CTL_ADD, c->fd, &ev) == 0 ? 0 : -errno;
}

static void conn_set_out(struct doca_comch_connection *c, bool on)
{
	struct epoll_event ev = {.events = EPOLLIN | (on ? EPOLLOUT : 0), .data.ptr = c};

	if (epoll_ctl(c->ep->epfd, EPOLL_CTL_MOD, c->fd, &ev) == 0)
		c->out_armed = on;
}

/* Creates the context's epoll set and makes the PE watch it. */
static doca_error_t ep_epoll_open(struct comch_ep *ep)
{
	doca_error_t ret;

	ep->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ep->epfd < 0)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: epoll_create1: %s", priv_doca_ctx_name(&ep->ctx),
				 strerror(errno));
	ret = priv_doca_pe_watch_fd(ep->ctx.pe, ep->epfd);
	if (ret != DOCA_SUCCESS) {
		close(ep->epfd);
		ep->epfd = -1;
	}
	return ret;
}

static void ep_epoll_close(struct comch_ep *ep)
{
	if (ep->epfd < 0)
		return;
	priv_doca_pe_unwatch_fd(ep->ctx.pe, ep->epfd);
	close(ep->epfd);
	ep->epfd = -1;
}

/* ---- packets ---- */

/* 0, -EAGAIN when the socket is full, or -errno (the peer is gone). All or nothing. */
static int send_pkt(int fd, const void *buf, size_t len)
{
	for (;;) {
		if (send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS)
			return -EAGAIN;
		return -errno;
	}
}

/*
 * Reads one packet into ep->rx: its length; 0 at EOF; -EAGAIN; -EMSGSIZE for a packet larger
 * than the buffer or one carrying ancillary data (softdoca never sends either); -errno.
 *
 * A peer that closes its socket with packets of ours unread makes the kernel report
 * ECONNRESET here once, ahead of the packets the peer sent before it closed, which are still
 * queued (a side that stops sends why, then exits): those are read, then EOF ends it.
 */
static ssize_t recv_pkt(struct comch_ep *ep, int fd)
{
	struct iovec iov = {.iov_base = ep->rx, .iov_len = ep->rx_size};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	bool reset = false;

	for (;;) {
		ssize_t r = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

		if (r >= 0)
			return (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ? -EMSGSIZE : r;
		if (errno == EINTR)
			continue;
		if (errno == ECONNRESET && !reset) {
			reset = true; /* reported once: what the peer sent before it closed follows */
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return reset ? -ECONNRESET : -EAGAIN;
		return -errno;
	}
}

static const char *parse_error_name(int rc)
{
	switch (rc) {
	case -EMSGSIZE:
		return "a message larger than the max message size";
	case -EPROTONOSUPPORT:
		return "a packet of another protocol version";
	default:
		return "bytes that are not a comch packet";
	}
}

/* ---- the send data path ---- */

struct ctx_dp_queue {
	struct comch_ep *ep;
};

/* Completes every send queued on @c with @status. */
static void fail_queued(struct doca_comch_connection *c, doca_error_t status)
{
	while (c->outq_head != NULL) {
		struct doca_task *task = c->outq_head;

		c->outq_head = task->dp_next;
		task->dp_next = NULL;
		priv_doca_task_complete_pe(task, status);
	}
	c->outq_tail = NULL;
	if (c->out_armed && c->fd >= 0)
		conn_set_out(c, false);
	c->out_armed = false;
}

/* Sends what waits on @c's out-queue, in order, until the socket is full. */
static unsigned int conn_flush(struct doca_comch_connection *c)
{
	unsigned int n = 0;

	while (c->outq_head != NULL) {
		struct doca_task *task = c->outq_head;
		struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
		int rc = send_pkt(c->fd, t->pkt, COMCH_WIRE_HDR_LEN + t->len);

		if (rc == -EAGAIN)
			break;
		c->outq_head = task->dp_next;
		if (c->outq_head == NULL)
			c->outq_tail = NULL;
		task->dp_next = NULL;
		if (rc == 0)
			comch_count(c, COMCH_CNT_SENT_MSGS, t->len);
		priv_doca_task_complete_pe(task, rc == 0 ? DOCA_SUCCESS : DOCA_ERROR_NOT_CONNECTED);
		n++;
		if (rc != 0) {
			/* The peer is gone; reading the socket will report it. */
			fail_queued(c, DOCA_ERROR_NOT_CONNECTED);
			break;
		}
	}
	if ((c->outq_head != NULL) != c->out_armed)
		conn_set_out(c, c->outq_head != NULL);
	return n;
}

static doca_error_t send_queue_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q)
{
	*q = calloc(1, sizeof(**q));
	if (*q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	(*q)->ep = (struct comch_ep *)attr->ctx; /* the context is the endpoint's first member */
	return DOCA_SUCCESS;
}

static void send_queue_destroy(struct ctx_dp_queue *q)
{
	free(q);
}

/*
 * The task's connection was checked by prepare(). Send now when nothing waits before this
 * task; otherwise, or when the socket is full, queue behind the others. Never -EAGAIN: the
 * out-queue holds at most the task pool.
 */
static int send_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
	struct doca_comch_connection *c = t->conn;

	(void)q;
	if (c->outq_head == NULL) {
		int rc = send_pkt(c->fd, t->pkt, COMCH_WIRE_HDR_LEN + t->len);

		if (rc == 0) {
			comch_count(c, COMCH_CNT_SENT_MSGS, t->len);
			priv_doca_task_complete_pe(task, DOCA_SUCCESS);
			return 0;
		}
		if (rc != -EAGAIN) {
			SD_DBG(COMP, "%s: send to connection %p failed: %s", priv_doca_ctx_name(&c->ep->ctx), (void *)c,
			       strerror(-rc));
			priv_doca_task_complete_pe(task, DOCA_ERROR_NOT_CONNECTED);
			return 0;
		}
	}
	task->dp_next = NULL;
	if (c->outq_tail != NULL)
		c->outq_tail->dp_next = task;
	else
		c->outq_head = task;
	c->outq_tail = task;
	if (!c->out_armed)
		conn_set_out(c, true);
	return 0;
}

static void send_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	struct comch_ep *ep = q->ep;

	if (ep->is_server) {
		struct doca_comch_server *srv = (struct doca_comch_server *)ep;

		for (struct doca_comch_connection *c = srv->live; c != NULL; c = c->next)
			fail_queued(c, status);
	} else {
		fail_queued(&((struct doca_comch_client *)ep)->conn, status);
	}
}

/* The sockets are serviced by ops->events, which runs first in every progress call: poll has
 * nothing of its own to do. */
const struct ctx_dp_ops comch_send_dp_ops = {
    .name = "comch messages over UNIX-domain sockets",
    .queue_create = send_queue_create,
    .queue_destroy = send_queue_destroy,
    .submit = send_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = priv_doca_dp_nop_pending,
    .cancel = send_cancel,
};

/* ---- delivery ---- */

static void deliver_msg(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m)
{
	if (ep->recv_cb == NULL) {
		if (!ep->warned_no_recv_cb)
			SD_WARN(COMP,
				"%s: a message arrived but no receive callback is registered; it is dropped (register "
				"one with doca_comch_%s_event_msg_recv_register() before doca_ctx_start())",
				priv_doca_ctx_name(&ep->ctx), ep->is_server ? "server" : "client");
		ep->warned_no_recv_cb = true;
		return;
	}
	comch_count(c, COMCH_CNT_RECV_MSGS, m->len);
	/* ep->rx stays untouched until the callback returns; the payload is not copied again. */
	ep->recv_cb(&ep->ev_recv, (uint8_t *)m->payload, m->len, c);
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* ---- server ---- */

static struct doca_comch_connection *conn_get(struct doca_comch_server *srv)
{
	struct doca_comch_connection *c = srv->free_conns;

	if (c != NULL) {
		srv->free_conns = c->next;
	} else {
		c = calloc(1, sizeof(*c));
		if (c == NULL)
			return NULL;
		c->ep = &srv->ep;
	}
	c->fd = -1;
	c->state = CONN_FREE;
	c->user_data.u64 = 0;
	c->outq_head = c->outq_tail = NULL;
	c->out_armed = false;
	memset(c->counters, 0, sizeof(c->counters));
	memset(c->snapshot, 0, sizeof(c->snapshot));
	c->nb_dp = 0;
	c->prev = NULL;
	c->next = srv->live;
	if (srv->live != NULL)
		srv->live->prev = c;
	srv->live = c;
	srv->nb_live++;
	return c;
}

/* Takes @c off the live list and closes its socket; its queued sends fail with @status. */
static void conn_close(struct doca_comch_server *srv, struct doca_comch_connection *c, doca_error_t status)
{
	fail_queued(c, status);
	comch_dp_conn_closed(c);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		srv->live = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	c->next = c->prev = NULL;
	srv->nb_live--;
	if (c->state == CONN_HELLO)
		srv->nb_hello--;
	if (c->fd >= 0) {
		if (srv->ep.epfd >= 0)
			(void)epoll_ctl(srv->ep.epfd, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
		c->fd = -1;
	}
	c->state = CONN_GONE;
}

/* Returns a closed @c to the free list; handles to it are stale from now on. */
static void conn_put(struct doca_comch_server *srv, struct doca_comch_connection *c)
{
	c->state = CONN_FREE;
	c->gen++;
	comch_conn_publish(c);
	c->user_data.u64 = 0;
	c->next = srv->free_conns;
	srv->free_conns = c;
}

void comch_server_drop(struct doca_comch_server *srv, struct doca_comch_connection *c, doca_error_t status)
{
	conn_close(srv, c, status);
	conn_put(srv, c);
}

/* The peer of a connection went away or broke the protocol. */
static void server_lost(struct doca_comch_server *srv, struct doca_comch_connection *c, const char *why)
{
	bool was_up = c->state == CONN_UP;

	conn_close(srv, c, DOCA_ERROR_NOT_CONNECTED);
	if (was_up) {
		struct ctx_guard *g = ctx_guard_top(&srv->ep.ctx);

		SD_DBG(COMP, "%s: client (pid %u) on connection %p %s", priv_doca_ctx_name(&srv->ep.ctx), c->peer_pid,
		       (void *)c, why);
		if (srv->disconnect_cb != NULL)
			srv->disconnect_cb(&srv->ep.ev_conn, c, 1);
		if (g != NULL && g->gone) {
			free(c); /* the callback stopped and destroyed the server; @c was on none of its lists */
			return;
		}
	} else {
		SD_DBG(COMP, "%s: a connection %s before its handshake", priv_doca_ctx_name(&srv->ep.ctx), why);
	}
	conn_put(srv, c);
}

static void send_reject(int fd, uint32_t reason)
{
	uint8_t buf[COMCH_WIRE_HDR_LEN + 4];

	(void)send_pkt(fd, buf, comch_wire_reject(buf, reason));
}

static unsigned int server_accept(struct doca_comch_server *srv)
{
	unsigned int n = 0;

	for (int k = 0; k < ACCEPT_BUDGET; k++) {
		struct doca_comch_connection *c;
		int fd = accept4(srv->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				SD_WARN(COMP, "%s: accept: %s", priv_doca_ctx_name(&srv->ep.ctx), strerror(errno));
			break;
		}
		n++;
		if (srv->nb_live >= srv->ep.caps->max_clients) {
			SD_WARN(COMP, "%s: %u connections already; refusing one more", priv_doca_ctx_name(&srv->ep.ctx),
				srv->nb_live);
			send_reject(fd, COMCH_REJECT_BUSY);
			close(fd);
			continue;
		}
		c = conn_get(srv);
		if (c == NULL) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->state = CONN_HELLO;
		c->deadline_ns = comch_now_ns() + HANDSHAKE_NS;
		srv->nb_hello++;
		if (conn_watch(c) != 0)
			comch_server_drop(srv, c, DOCA_ERROR_NOT_CONNECTED);
	}
	return n;
}

/* The first packet of a connection: a HELLO naming this server, or the connection is refused. */
static void server_hello(struct doca_comch_server *srv, struct doca_comch_connection *c, int rc,
			 const struct comch_wire_msg *m)
{
	struct comch_ep *ep = &srv->ep;
	uint8_t buf[COMCH_WIRE_HDR_LEN + 8];

	if (rc == -EPROTONOSUPPORT && m->type == COMCH_WIRE_HELLO) {
		SD_WARN(
		    COMP,
		    "%s: a client speaking comch protocol version %u was refused (this softdoca speaks version %u); "
		    "build both sides against the same softdoca",
		    priv_doca_ctx_name(&ep->ctx), m->version, COMCH_WIRE_VERSION);
		send_reject(c->fd, COMCH_REJECT_VERSION);
		comch_server_drop(srv, c, DOCA_ERROR_NOT_CONNECTED);
		return;
	}
	if (rc != 0 || m->type != COMCH_WIRE_HELLO) {
		SD_WARN(COMP, "%s: a process connected to the socket %s and sent %s instead of a HELLO; dropped",
			priv_doca_ctx_name(&ep->ctx), ep->path, rc != 0 ? parse_error_name(rc) : "another packet");
		send_reject(c->fd, COMCH_REJECT_PROTOCOL);
		comch_server_drop(srv, c, DOCA_ERROR_NOT_CONNECTED);
		return;
	}
	if (m->hello.name_len != ep->name_len || memcmp(m->hello.name, ep->name, ep->name_len) != 0) {
		SD_WARN(COMP, "%s: a client (pid %u) asked for another server name (hash collision); refused",
			priv_doca_ctx_name(&ep->ctx), m->hello.pid);
		send_reject(c->fd, COMCH_REJECT_NAME);
		comch_server_drop(srv, c, DOCA_ERROR_NOT_CONNECTED);
		return;
	}
	if (send_pkt(c->fd, buf, comch_wire_welcome(buf, ep->max_msg_size, (uint32_t)getpid())) != 0) {
		comch_server_drop(srv, c, DOCA_ERROR_NOT_CONNECTED);
		return;
	}
	c->state = CONN_UP;
	srv->nb_hello--;
	c->send_max = min_u32(ep->max_msg_size, m->hello.max_msg);
	c->peer_pid = m->hello.pid;
	comch_conn_publish(c);
	SD_DBG(COMP, "%s: client pid %u connected (connection %p, messages up to %u bytes)",
	       priv_doca_ctx_name(&ep->ctx), c->peer_pid, (void *)c, c->send_max);
	if (srv->connect_cb != NULL)
		srv->connect_cb(&ep->ev_conn, c, 1);
}

/* Runs callbacks: the caller checks ctx_guard_top(&srv->ep.ctx)->gone before touching @srv again. */
static unsigned int server_conn_io(struct doca_comch_server *srv, struct doca_comch_connection *c, uint32_t events)
{
	struct comch_ep *ep = &srv->ep;
	const struct ctx_guard *g = ctx_guard_top(&ep->ctx);
	uint32_t gen = c->gen;
	unsigned int n = 0;

	if ((events & EPOLLOUT) && c->state == CONN_UP)
		n += conn_flush(c);
	for (int k = 0; k < RECV_BUDGET; k++) {
		struct comch_wire_msg m;
		ssize_t r = recv_pkt(ep, c->fd);
		int rc;

		if (r == -EAGAIN)
			break;
		n++;
		if (r == 0) {
			server_lost(srv, c, "closed the connection");
			break;
		}
		if (r == -EMSGSIZE && c->state == CONN_UP)
			SD_WARN(COMP,
				"%s: client pid %u sent a packet larger than the max message size %u; "
				"disconnecting it",
				priv_doca_ctx_name(&ep->ctx), c->peer_pid, ep->max_msg_size);
		if (r < 0) {
			server_lost(srv, c, r == -EMSGSIZE ? "sent an oversized packet" : strerror((int)-r));
			break;
		}
		rc = comch_wire_parse(ep->rx, (size_t)r, ep->max_msg_size, &m);
		if (c->state == CONN_HELLO) {
			server_hello(srv, c, rc, &m);
		} else if (rc == 0 && m.type == COMCH_WIRE_CONSUMER) {
			comch_dp_packet(ep, c, &m);
		} else if (rc != 0 || m.type != COMCH_WIRE_MSG) {
			SD_WARN(COMP, "%s: client pid %u sent %s; disconnecting it", priv_doca_ctx_name(&ep->ctx),
				c->peer_pid, rc != 0 ? parse_error_name(rc) : "an unexpected packet");
			server_lost(srv, c, "broke the protocol");
			break;
		} else {
			deliver_msg(ep, c, &m);
		}
		if (g->gone || ep->ctx.state != DOCA_CTX_STATE_RUNNING || c->gen != gen || c->state != CONN_UP)
			break;
	}
	return n;
}

/* Drops connections whose HELLO did not come in time (a stuck or foreign process). */
static unsigned int server_sweep(struct doca_comch_server *srv)
{
	uint64_t now = comch_now_ns();
	struct doca_comch_connection *c = srv->live, *next;
	unsigned int n = 0;

	for (; c != NULL; c = next) {
		next = c->next;
		if (c->state == CONN_HELLO && now > c->deadline_ns) {
			SD_DBG(COMP, "%s: dropping a connection that sent no HELLO", priv_doca_ctx_name(&srv->ep.ctx));
			comch_server_drop(srv, c, DOCA_ERROR_NOT_CONNECTED);
			n++;
		}
	}
	return n;
}

unsigned int comch_server_events(struct doca_comch_server *srv)
{
	struct comch_ep *ep = &srv->ep;
	const struct ctx_guard *g = ctx_guard_top(&ep->ctx); /* progress holds one */
	struct epoll_event evs[EVENTS_MAX];
	unsigned int n = 0;
	int nev;

	if (ep->ctx.state != DOCA_CTX_STATE_RUNNING || ep->epfd < 0)
		return 0;
	nev = epoll_wait(ep->epfd, evs, EVENTS_MAX, 0);
	for (int i = 0; i < nev && ep->ctx.state == DOCA_CTX_STATE_RUNNING; i++) {
		struct doca_comch_connection *c = evs[i].data.ptr;

		if (evs[i].data.u64 == SRC_LISTENER) {
			n += server_accept(srv);
			continue;
		}
		/* A callback earlier in this batch may have closed (and even reused) it. */
		if (c->state == CONN_FREE || c->state == CONN_GONE)
			continue;
		n += server_conn_io(srv, c, evs[i].events);
		if (g->gone)
			return n; /* a callback destroyed the server */
	}
	if (srv->nb_hello != 0 && ep->ctx.state == DOCA_CTX_STATE_RUNNING)
		n += server_sweep(srv);
	return n;
}

/* bind() to ep->path; an existing socket there is probed: a live server refuses, a stale one is replaced. */
static doca_error_t bind_or_replace(struct doca_comch_server *srv, int lfd, const struct sockaddr_un *addr)
{
	struct comch_ep *ep = &srv->ep;
	int pfd, rc, err;

	if (bind(lfd, (const struct sockaddr *)addr, sizeof(*addr)) == 0)
		return DOCA_SUCCESS;
	if (errno != EADDRINUSE)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: cannot bind the socket %s: %s",
				 priv_doca_ctx_name(&ep->ctx), ep->path, strerror(errno));
	pfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (pfd < 0)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: socket: %s", priv_doca_ctx_name(&ep->ctx),
				 strerror(errno));
	rc = connect(pfd, (const struct sockaddr *)addr, sizeof(*addr));
	err = errno;
	if (rc == 0 || err == EAGAIN || err == EINPROGRESS) {
		struct ucred cr = {0};
		socklen_t crlen = sizeof(cr);

		if (rc == 0)
			(void)getsockopt(pfd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen);
		close(pfd);
		return SD_REJECT(DOCA_ERROR_ALREADY_EXIST, COMP,
				 "%s: server name '%s' on host function %s is already served by a running process "
				 "(pid %d, socket %s); stop that server or choose another name",
				 priv_doca_ctx_name(&ep->ctx), ep->name, ep->key, (int)cr.pid, ep->path);
	}
	close(pfd);
	if (err != ECONNREFUSED && err != ENOENT)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: cannot probe the existing socket %s: %s",
				 priv_doca_ctx_name(&ep->ctx), ep->path, strerror(err));
	/* Nobody listens: a server died without cleaning up. Take the name over. */
	SD_INFO(COMP, "%s: replacing the stale socket %s of a server that is gone", priv_doca_ctx_name(&ep->ctx),
		ep->path);
	if (unlink(ep->path) != 0 && errno != ENOENT)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: cannot remove the stale socket %s: %s",
				 priv_doca_ctx_name(&ep->ctx), ep->path, strerror(errno));
	if (bind(lfd, (const struct sockaddr *)addr, sizeof(*addr)) != 0)
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: cannot bind the socket %s: %s",
				 priv_doca_ctx_name(&ep->ctx), ep->path, strerror(errno));
	return DOCA_SUCCESS;
}

static doca_error_t rundir_error(int rc)
{
	return (rc == -EPERM || rc == -EACCES) ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_INITIALIZATION;
}

doca_error_t comch_server_listen(struct doca_comch_server *srv)
{
	struct comch_ep *ep = &srv->ep;
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	char dir[sizeof(addr.sun_path)];
	struct stat st;
	doca_error_t ret;
	int dfd, rc;

	dfd = comch_rundir_open(dir, sizeof(dir));
	if (dfd < 0)
		return rundir_error(dfd);
	rc = comch_sock_path(dir, ep->key, ep->name, ep->name_len, ep->path, sizeof(ep->path));
	if (rc != 0) {
		close(dfd);
		return DOCA_ERROR_INITIALIZATION;
	}
	memcpy(addr.sun_path, ep->path, strlen(ep->path) + 1);
	srv->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (srv->lfd < 0) {
		close(dfd);
		return SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: socket: %s", priv_doca_ctx_name(&ep->ctx),
				 strerror(errno));
	}
	/* Servers starting at once must not both decide a socket is stale and replace each other. */
	while (flock(dfd, LOCK_EX) != 0 && errno == EINTR)
		;
	ret = bind_or_replace(srv, srv->lfd, &addr);
	if (ret == DOCA_SUCCESS && listen(srv->lfd, 128) != 0)
		ret = SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: listen: %s", priv_doca_ctx_name(&ep->ctx),
				strerror(errno));
	if (ret == DOCA_SUCCESS && stat(ep->path, &st) == 0) {
		srv->sock_dev = st.st_dev;
		srv->sock_ino = st.st_ino;
	}
	close(dfd); /* drops the lock */
	if (ret == DOCA_SUCCESS)
		ret = ep_epoll_open(ep);
	if (ret == DOCA_SUCCESS && ep_ctl(ep, EPOLL_CTL_ADD, srv->lfd, EPOLLIN, SRC_LISTENER) != 0)
		ret = SD_REJECT(DOCA_ERROR_INITIALIZATION, COMP, "%s: epoll_ctl: %s", priv_doca_ctx_name(&ep->ctx),
				strerror(errno));
	if (ret != DOCA_SUCCESS) {
		comch_server_close_all(srv);
		return ret;
	}
	SD_DBG(COMP, "%s: listening on %s", priv_doca_ctx_name(&ep->ctx), ep->path);
	return DOCA_SUCCESS;
}

void comch_server_close_all(struct doca_comch_server *srv)
{
	struct comch_ep *ep = &srv->ep;
	struct stat st;

	while (srv->live != NULL)
		comch_server_drop(srv, srv->live, DOCA_ERROR_NOT_CONNECTED);
	if (srv->lfd >= 0) {
		/* Remove the name only if the socket there is still ours. */
		if (srv->sock_ino != 0 && stat(ep->path, &st) == 0 && st.st_dev == srv->sock_dev &&
		    st.st_ino == srv->sock_ino)
			(void)unlink(ep->path);
		close(srv->lfd);
		srv->lfd = -1;
		srv->sock_ino = 0;
	}
	ep_epoll_close(ep);
}

/* ---- client ---- */

static void client_close_socket(struct doca_comch_client *cl)
{
	struct doca_comch_connection *c = &cl->conn;

	fail_queued(c, DOCA_ERROR_NOT_CONNECTED);
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
	ep_epoll_close(&cl->ep);
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
	if (send_pkt(fd, buf, comch_wire_hello(buf, ep->max_msg_size, (uint32_t)getpid(), ep->name, ep->name_len)) !=
	    0) {
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
	if (conn_watch(c) != 0) {
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
		       priv_doca_ctx_name(&ep->ctx), ep->path, rc != 0 ? parse_error_name(rc) : "an unexpected packet");
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
		n += conn_flush(c);
	for (int k = 0; k < RECV_BUDGET; k++) {
		struct comch_wire_msg m;
		ssize_t r = recv_pkt(ep, c->fd);
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
				rc != 0 ? parse_error_name(rc) : "an unexpected packet");
			client_lost(cl, "broke the protocol");
			break;
		}
		deliver_msg(ep, c, &m);
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
		return rundir_error(dfd);
	close(dfd);
	if (comch_sock_path(dir, ep->key, ep->name, ep->name_len, ep->path, sizeof(ep->path)) != 0)
		return DOCA_ERROR_INITIALIZATION;
	ret = ep_epoll_open(ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	cl->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (cl->tfd < 0 || timerfd_settime(cl->tfd, 0, &its, NULL) != 0 ||
	    ep_ctl(ep, EPOLL_CTL_ADD, cl->tfd, EPOLLIN, SRC_TIMER) != 0) {
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
