/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * transport_internal.h - what the three files of the socket transport share: transport.c (epoll,
 * packets, the send data path, delivery), transport_server.c and transport_client.c. All of it
 * runs on the PE thread of the context (the model: comch_internal.h; error choices: transport.c).
 */
#ifndef SD_COMCH_TRANSPORT_INTERNAL_H
#define SD_COMCH_TRANSPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "comch_internal.h"

#define RECV_BUDGET 64 /* messages read from one connection per progress call */

/* epoll_ctl on the context's epoll set; 0 or -errno. */
int comch_ep_ctl(struct comch_ep *ep, int op, int fd, uint32_t events, uint64_t data);
/* Adds @c's socket to its context's epoll set (EPOLLIN); 0 or -errno. */
int comch_conn_watch(struct doca_comch_connection *c);
/* Creates the context's epoll set and makes the PE watch it. */
doca_error_t comch_ep_epoll_open(struct comch_ep *ep);
void comch_ep_epoll_close(struct comch_ep *ep);
/* 0, -EAGAIN when the socket is full, or -errno (the peer is gone). All or nothing. */
int comch_send_pkt(int fd, const void *buf, size_t len);
/* Reads one packet into ep->rx: its length; 0 at EOF; -EAGAIN; -EMSGSIZE; -errno (transport.c). */
ssize_t comch_recv_pkt(struct comch_ep *ep, int fd);
/* What a packet parse error code says about the bytes, for log lines. */
const char *comch_parse_error_name(int rc);
/* Completes every send queued on @c with @status. */
void comch_fail_queued(struct doca_comch_connection *c, doca_error_t status);
/* Sends what is queued on @c while the socket takes it; how many went. */
unsigned int comch_conn_flush(struct doca_comch_connection *c);
/* Hands message @m of @c to the context's receive callback (or drops it, warning once). */
void comch_deliver_msg(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m);
/* The error of a runtime directory that cannot be opened (-errno @rc of comch_rundir_open). */
doca_error_t comch_rundir_error(int rc);

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

#endif
