/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport_server.c - the server side of the socket transport: the listening socket, accepting,
 * the handshake of each connection, reading its messages, and closing connections (error
 * choices: transport.c). Runs on the server's PE thread.
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

#define SRC_LISTENER  1u /* epoll data of the listening socket */
#define EVENTS_MAX    64
#define ACCEPT_BUDGET 16
#define HANDSHAKE_NS  (5ull * 1000000000ull)

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
	comch_fail_queued(c, status);
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

	(void)comch_send_pkt(fd, buf, comch_wire_reject(buf, reason));
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
		if (comch_conn_watch(c) != 0)
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
			priv_doca_ctx_name(&ep->ctx), ep->path,
			rc != 0 ? comch_parse_error_name(rc) : "another packet");
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
	if (comch_send_pkt(c->fd, buf, comch_wire_welcome(buf, ep->max_msg_size, (uint32_t)getpid())) != 0) {
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
		n += comch_conn_flush(c);
	for (int k = 0; k < RECV_BUDGET; k++) {
		struct comch_wire_msg m;
		ssize_t r = comch_recv_pkt(ep, c->fd);
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
				c->peer_pid, rc != 0 ? comch_parse_error_name(rc) : "an unexpected packet");
			server_lost(srv, c, "broke the protocol");
			break;
		} else {
			comch_deliver_msg(ep, c, &m);
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
		return comch_rundir_error(dfd);
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
		ret = comch_ep_epoll_open(ep);
	if (ret == DOCA_SUCCESS && comch_ep_ctl(ep, EPOLL_CTL_ADD, srv->lfd, EPOLLIN, SRC_LISTENER) != 0)
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
	comch_ep_epoll_close(ep);
}
