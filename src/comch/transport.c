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

#include "transport_internal.h"

#define COMP "comch"

/* ---- epoll helpers ---- */

int comch_ep_ctl(struct comch_ep *ep, int op, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = {.events = events, .data.u64 = data};

	return epoll_ctl(ep->epfd, op, fd, &ev) == 0 ? 0 : -errno;
}

int comch_conn_watch(struct doca_comch_connection *c)
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
doca_error_t comch_ep_epoll_open(struct comch_ep *ep)
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

void comch_ep_epoll_close(struct comch_ep *ep)
{
	if (ep->epfd < 0)
		return;
	priv_doca_pe_unwatch_fd(ep->ctx.pe, ep->epfd);
	close(ep->epfd);
	ep->epfd = -1;
}

/* ---- packets ---- */

/* 0, -EAGAIN when the socket is full, or -errno (the peer is gone). All or nothing. */
int comch_send_pkt(int fd, const void *buf, size_t len)
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
ssize_t comch_recv_pkt(struct comch_ep *ep, int fd)
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

const char *comch_parse_error_name(int rc)
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
void comch_fail_queued(struct doca_comch_connection *c, doca_error_t status)
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
unsigned int comch_conn_flush(struct doca_comch_connection *c)
{
	unsigned int n = 0;

	while (c->outq_head != NULL) {
		struct doca_task *task = c->outq_head;
		struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
		int rc = comch_send_pkt(c->fd, t->pkt, COMCH_WIRE_HDR_LEN + t->len);

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
			comch_fail_queued(c, DOCA_ERROR_NOT_CONNECTED);
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
		int rc = comch_send_pkt(c->fd, t->pkt, COMCH_WIRE_HDR_LEN + t->len);

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
			comch_fail_queued(c, status);
	} else {
		comch_fail_queued(&((struct doca_comch_client *)ep)->conn, status);
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

void comch_deliver_msg(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m)
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

/* ---- what both sides share ---- */

doca_error_t comch_rundir_error(int rc)
{
	return (rc == -EPERM || rc == -EACCES) ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_INITIALIZATION;
}
