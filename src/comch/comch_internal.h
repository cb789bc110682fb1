/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comch_internal.h - DOCA Comch on UNIX-domain sockets, driven from doca_pe_progress().
 *
 *   server process (DPU role)                          client process (host role)
 *   -------------------------                          --------------------------
 *   doca_comch_server (ctx)                            doca_comch_client (ctx)
 *     listener  <-- <rundir>/<host fn>-<name>-<hash>.sock -- connect(), retried while STARTING
 *     connection --------- SOCK_SEQPACKET socket -------- connection (embedded in the client)
 *     connection ...
 *     private epoll set: listener + connections           private epoll set: socket + retry timer
 *          |                                                   |
 *          +--> watched by the PE's notification handle <------+  (priv_doca_pe_watch_fd)
 *
 * Everything runs on the thread that calls doca_pe_progress(): ops->events (comch.c) takes
 * the ready fds of the context's epoll set with a zero timeout, accepts, handshakes (wire.h),
 * reads messages and runs the callbacks. There is no thread and no userspace receive queue: a
 * message is read from the socket and handed to the callback in the same progress call, so a
 * peer that sends faster than the application progresses fills the kernel socket buffers
 * and then waits.
 *
 * Send tasks go through the core like DMA tasks (pool, FIFO, in-order completion), with the
 * module's own data-path ops (comch_send_dp_ops): submit() writes the
 * packet to the socket at once, or parks it on the connection's out-queue while the socket is
 * full (EPOLLOUT then wakes progress). The payload was copied into the task at alloc time,
 * behind a prebuilt header, so the caller's buffer is free as soon as alloc_init returns.
 *
 * Consumers and producers (dp.c) are contexts of their own on top of a connection: a consumer
 * announces itself with a CONSUMER packet on the connection's socket, and the bytes then move
 * through a shared ring and process_vm_writev, never through the socket (see dp.c).
 *
 * Connection objects stay allocated until the context is destroyed: a connection that goes
 * away is recycled for the next one with its generation bumped. Send tasks remember the
 * generation of the connection they were allocated for, so a task aimed at a connection that
 * is gone fails with DOCA_ERROR_NOT_CONNECTED instead of reaching a newcomer.
 */
#ifndef SD_COMCH_INTERNAL_H_
#define SD_COMCH_INTERNAL_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <doca_comch.h>

#include "core.h"
#include "wire.h"

/*
 * What the implementation can honour. A device's capabilities are its profile's comch.* values
 * (topology.h), which the parser keeps within these bounds; buffers sized for every device
 * (the name in struct comch_ep) use the bound.
 */
#define COMCH_CAP_MAX_MSG_SIZE	 TOPO_COMCH_MAX_MSG_SIZE
#define COMCH_CAP_MAX_NAME_LEN	 TOPO_COMCH_MAX_NAME_LEN /* counting the NUL */
#define COMCH_CAP_MAX_RECV_QUEUE TOPO_COMCH_MAX_RECV_QUEUE
#define COMCH_CAP_MAX_SEND_TASKS TOPO_COMCH_MAX_SEND_TASKS
#define COMCH_DEFAULT_RECV_QUEUE 64
#define COMCH_CAP_MAX_CLIENTS	 TOPO_COMCH_MAX_CLIENTS /* connections one server holds */

enum { COMCH_CNT_SENT_MSGS, COMCH_CNT_SENT_BYTES, COMCH_CNT_RECV_MSGS, COMCH_CNT_RECV_BYTES };

enum conn_state {
	CONN_FREE = 0,	   /* not in use (client: not connected) */
	CONN_HELLO,	   /* server: accepted, waiting for the client's HELLO */
	CONN_WAIT_WELCOME, /* client: HELLO sent, waiting for WELCOME or REJECT */
	CONN_UP,	   /* handshake done: messages flow */
	CONN_GONE,	   /* closed; still readable inside its disconnect callback */
};

struct comch_ep;
struct dp_remote;

struct doca_comch_connection {
	struct comch_ep *ep;
	int fd;
	uint32_t gen; /* bumped whenever the object is recycled */
	enum conn_state state;
	uint32_t send_max; /* largest payload both sides accept */
	uint32_t peer_pid;
	union doca_data user_data;
	/* Submitted sends waiting for room in the socket, in order (linked through dp_next). */
	struct doca_task *outq_head, *outq_tail;
	bool out_armed;	      /* EPOLLOUT requested in the context's epoll set */
	uint64_t deadline_ns; /* CONN_HELLO: when an unfinished handshake is dropped */
	/* Counters (doca_comch_counter order, from 0) and the snapshot update_info took. */
	uint64_t counters[4];
	uint64_t snapshot[4];
	/*
	 * Shared with the threads that progress this connection's consumers and producers (dp.c):
	 * dp_word is (gen << 1 | up), published by the connection's thread whenever gen or the
	 * CONN_UP state changes; remotes is written under dp.c's lock by the connection's thread
	 * only; nb_dp is counted by whichever thread creates or destroys a consumer/producer.
	 */
	_Atomic uint64_t dp_word;
	struct dp_remote *remotes;		   /* consumers of the peer announced on this connection */
	atomic_uint nb_dp;			   /* this side's consumers and producers on it (not destroyed yet) */
	struct doca_comch_connection *next, *prev; /* server: live list or free list */
};

/* Event objects handed to callbacks; applications only pass them around. */
struct doca_comch_event_msg_recv {
	int unused;
};
struct doca_comch_event_connection_status_changed {
	int unused;
};
struct doca_comch_event_consumer {
	int unused;
};

/* What server and client share; the first member of both. */
struct comch_ep {
	struct doca_ctx ctx; /* first: as_ctx is a cast both ways */
	bool is_server;
	const struct topo_caps_comch *caps; /* of the context's device */
	char name[COMCH_CAP_MAX_NAME_LEN];
	uint32_t name_len;
	char key[DOCA_DEVINFO_PCI_ADDR_SIZE]; /* the host function: rendezvous together with the name */
	uint32_t max_msg_size;
	uint32_t recv_queue_size;
	doca_comch_task_send_completion_cb_t send_comp_cb;
	doca_comch_task_send_completion_cb_t send_err_cb;
	uint32_t num_send_tasks;
	doca_comch_event_msg_recv_cb_t recv_cb;
	doca_comch_event_consumer_cb_t new_consumer_cb;
	doca_comch_event_consumer_cb_t expired_consumer_cb;
	bool warned_no_recv_cb;

	int epfd; /* private epoll set, watched by the PE; -1 unless STARTING/RUNNING */
	char path[108];
	uint8_t *rx; /* one received packet; valid during the msg-recv callback only */
	size_t rx_size;

	struct doca_comch_event_msg_recv ev_recv;
	struct doca_comch_event_connection_status_changed ev_conn;
	struct doca_comch_event_consumer ev_consumer;
};

struct doca_comch_server {
	struct comch_ep ep;
	doca_comch_event_connection_status_changed_cb_t connect_cb;
	doca_comch_event_connection_status_changed_cb_t disconnect_cb;
	struct doca_dev_rep *repr;
	int lfd;
	dev_t sock_dev;
	ino_t sock_ino;
	struct doca_comch_connection *live; /* handshaking and connected */
	struct doca_comch_connection *free_conns;
	uint32_t nb_live;
	uint32_t nb_hello;
};

struct doca_comch_client {
	struct comch_ep ep;
	struct doca_comch_connection conn;
	int tfd;	     /* retry timer while STARTING; -1 otherwise */
	uint64_t start_ns;   /* when doca_ctx_start() was called */
	uint64_t timeout_ns; /* 0: wait for the server forever */
	bool warned_waiting; /* "still waiting for the server" logged */
	uint32_t attempts;
};

struct doca_comch_task_send {
	struct doca_task base; /* first: the generic view */
	struct doca_comch_connection *conn;
	uint32_t gen;  /* conn->gen at allocation */
	uint32_t len;  /* payload bytes */
	uint8_t pkt[]; /* header + payload, as sent */
};

/* Counts one message of @len bytes in direction @first (COMCH_CNT_SENT_MSGS or _RECV_MSGS). */
static inline void comch_count(struct doca_comch_connection *c, int first, uint32_t len)
{
	c->counters[first]++;
	c->counters[first + 1] += len;
}

/* Publishes @c's gen and whether it is CONN_UP to the threads of its consumers/producers. */
static inline void comch_conn_publish(struct doca_comch_connection *c)
{
	atomic_store_explicit(&c->dp_word, ((uint64_t)c->gen << 1) | (c->state == CONN_UP), memory_order_release);
}

/* dp.c: the producer/consumer fast path. */
/* A CONSUMER packet arrived on @c (CONN_UP). Runs the peer's consumer callbacks of @ep. */
void comch_dp_packet(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m);
/* @c is closing (its socket is still open): consumers and producers on other threads see it
 * gone from here on, and the peer's consumers are forgotten (no callbacks). */
void comch_dp_conn_closed(struct doca_comch_connection *c);

/* rundir.c */
/* Creates or checks the private runtime directory; returns an fd on it, or -errno (logged). */
int comch_rundir_open(char *dir, size_t dir_len);
/* The socket path for (@key, @name) inside @dir; 0 or -ENAMETOOLONG (logged). */
int comch_sock_path(const char *dir, const char *key, const char *name, size_t name_len, char *path, size_t path_len);

/* transport.c: socket work of ops->events and the send data path. */
extern const struct ctx_dp_ops comch_send_dp_ops;
unsigned int comch_server_events(struct doca_comch_server *srv);
unsigned int comch_client_events(struct doca_comch_client *cl);
doca_error_t comch_server_listen(struct doca_comch_server *srv);
doca_error_t comch_client_begin(struct doca_comch_client *cl);
void comch_server_close_all(struct doca_comch_server *srv);
void comch_client_close(struct doca_comch_client *cl);
/* Closes @c (server side) without callbacks; its queued sends fail with @status. */
void comch_server_drop(struct doca_comch_server *srv, struct doca_comch_connection *c, doca_error_t status);

static inline uint64_t comch_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif /* SD_COMCH_INTERNAL_H_ */
