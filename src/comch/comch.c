/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comch.c - DOCA Comch: server and client contexts, their configuration, send tasks and the
 * context hooks. The sockets themselves are transport.c's; the model is in comch_internal.h.
 *
 * Lifecycle on top of the core state machine:
 *   server  start: bind + listen (synchronous, DOCA_SUCCESS), RUNNING while it serves
 *   client  start: returns DOCA_ERROR_IN_PROGRESS; STARTING until the server's WELCOME, then
 *           RUNNING from doca_pe_progress(); IDLE again if the server refuses or never comes
 *   both    stop: queued sends are flushed, every socket is closed at once (the peer sees the
 *           disconnect), the server's name is released; IDLE once the tasks are freed
 *
 * A failed send does not stop a comch context (unlike DMA): it concerns one connection only.
 */
#include <stdlib.h>
#include <string.h>

#include "comch_internal.h"

#define COMP "comch"

static inline struct comch_ep *ep_of(struct doca_ctx *ctx)
{
	return (struct comch_ep *)ctx;
}

static void pci_key(char *key, uint16_t domain, uint8_t bus, uint8_t dev, uint8_t fn)
{
	snprintf(key, DOCA_DEVINFO_PCI_ADDR_SIZE, "%04x:%02x:%02x.%x", domain, bus, dev, fn & 7);
}

/* ---- capabilities ---- */

static doca_error_t cap_side(const struct doca_devinfo *devinfo, enum topo_side side, const char *call)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL devinfo", call);
	/* A capability answer, not a rejection: no error line (programs probe every device). */
	return devinfo->tdev->side == side && devinfo->profile->comch.supported ? DOCA_SUCCESS
										: DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_side(devinfo, TOPO_SIDE_DPU, "doca_comch_cap_server_is_supported");
}

DOCA_STABLE doca_error_t doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_side(devinfo, TOPO_SIDE_HOST, "doca_comch_cap_client_is_supported");
}

/* @off: a uint32_t of struct topo_caps_comch, read from the device's profile. */
static doca_error_t cap_u32(const struct doca_devinfo *devinfo, uint32_t *out, size_t off, const char *call)
{
	if (devinfo == NULL || out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	memcpy(out, (const uint8_t *)&devinfo->profile->comch + off, sizeof(*out));
	return DOCA_SUCCESS;
}

#define CAP(field) offsetof(struct topo_caps_comch, field)

DOCA_STABLE doca_error_t doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size)
{
	return cap_u32(devinfo, size, CAP(max_msg_size), "doca_comch_cap_get_max_msg_size");
}

DOCA_STABLE doca_error_t doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len)
{
	return cap_u32(devinfo, max_name_len, CAP(max_name_len), "doca_comch_cap_get_max_name_len");
}

DOCA_STABLE doca_error_t doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size)
{
	return cap_u32(devinfo, size, CAP(max_recv_queue_size), "doca_comch_cap_get_max_recv_queue_size");
}

DOCA_STABLE doca_error_t doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients)
{
	return cap_u32(devinfo, num_clients, CAP(max_clients), "doca_comch_cap_get_max_clients");
}

DOCA_STABLE doca_error_t doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo, uint32_t *max_send_tasks)
{
	return cap_u32(devinfo, max_send_tasks, CAP(max_send_tasks), "doca_comch_cap_get_max_send_tasks");
}

/* A device whose profile says comch.supported = no has neither server nor client. */
static doca_error_t check_supported(const struct doca_dev *dev, const char *call)
{
	if (!dev->info.profile->comch.supported)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: device %s has no Comch (profile '%s' says comch.supported = no); pick a device "
				 "for which doca_comch_cap_%s_is_supported() succeeds",
				 call, priv_doca_dev_name(&dev->info), dev->info.profile->name,
				 strstr(call, "server") ? "server" : "client");
	return DOCA_SUCCESS;
}

/* ---- context hooks ---- */

/* What server and client starts share: checks, the receive buffer. */
static doca_error_t ep_prepare_start(struct comch_ep *ep)
{
	size_t rx =
	    COMCH_WIRE_HDR_LEN + (ep->max_msg_size > COMCH_WIRE_CTRL_MAX ? ep->max_msg_size : COMCH_WIRE_CTRL_MAX);

	if (ep->send_comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s has no send task configuration; call "
				 "doca_comch_%s_task_send_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(&ep->ctx), ep->is_server ? "server" : "client");
	if (ep->rx_size != rx) {
		uint8_t *p = realloc(ep->rx, rx);

		if (p == NULL)
			return DOCA_ERROR_NO_MEMORY;
		ep->rx = p;
		ep->rx_size = rx;
	}
	ep->warned_no_recv_cb = false;
	return DOCA_SUCCESS;
}

/* The send task pool: each task carries its packet (header + up to max_msg_size bytes). */
static doca_error_t ep_pool_init(struct comch_ep *ep)
{
	doca_error_t ret;

	ret = priv_doca_ctx_pool_init(&ep->ctx,
				      sizeof(struct doca_comch_task_send) + COMCH_WIRE_HDR_LEN + ep->max_msg_size,
				      ep->num_send_tasks, ep->num_send_tasks, &comch_send_dp_ops);
	return ret;
}

static doca_error_t server_start(struct doca_ctx *ctx)
{
	struct doca_comch_server *srv = (struct doca_comch_server *)ctx;
	doca_error_t ret;

	ret = ep_prepare_start(&srv->ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = comch_server_listen(srv);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = ep_pool_init(&srv->ep);
	if (ret != DOCA_SUCCESS)
		comch_server_close_all(srv);
	return ret;
}

static doca_error_t client_start(struct doca_ctx *ctx)
{
	struct doca_comch_client *cl = (struct doca_comch_client *)ctx;
	doca_error_t ret;

	ret = ep_prepare_start(&cl->ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = comch_client_begin(cl);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = ep_pool_init(&cl->ep);
	if (ret != DOCA_SUCCESS) {
		comch_client_close(cl);
		return ret;
	}
	return DOCA_ERROR_IN_PROGRESS;
}

static unsigned int ep_events(struct doca_ctx *ctx)
{
	struct comch_ep *ep = ep_of(ctx);

	/* The last touch of @ep: its callbacks may destroy it (each step checks its guard). */
	return ep->is_server ? comch_server_events((struct doca_comch_server *)ep)
			     : comch_client_events((struct doca_comch_client *)ep);
}

/*
 * Leaving RUNNING/STARTING: every socket closes now, so the peer learns at once. There is no
 * `stopped` hook: the receive buffer and the connection objects stay until destroy, so a
 * callback that stopped the context may still read its message and its connection.
 */
static void ep_stopping(struct doca_ctx *ctx)
{
	struct comch_ep *ep = ep_of(ctx);

	if (ep->is_server)
		comch_server_close_all((struct doca_comch_server *)ep);
	else
		comch_client_close((struct doca_comch_client *)ep);
}

static doca_error_t send_prepare(struct doca_task *task)
{
	struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
	struct doca_comch_connection *c = t->conn;

	if (SD_UNLIKELY(c->gen != t->gen || c->state != CONN_UP))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "%s: send task %p: its connection went away (the peer disconnected or was "
				 "disconnected); free the task and send on a live connection",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	task->bytes = t->len;
	return DOCA_SUCCESS;
}

static void send_deliver(struct doca_task *task, bool success)
{
	struct comch_ep *ep = ep_of(task->ctx);
	doca_comch_task_send_completion_cb_t cb = success ? ep->send_comp_cb : ep->send_err_cb;

	cb((struct doca_comch_task_send *)task, task->user_data, task->ctx->user_data);
}

static const struct ctx_ops server_ops = {
    .name = "comch server",
    .policy = {.keep_running_on_error = true, .keep_done_on_stop = true},
    .start = server_start,
    .prepare = send_prepare,
    .deliver = send_deliver,
    .events = ep_events,
    .stopping = ep_stopping,
};

static const struct ctx_ops client_ops = {
    .name = "comch client",
    .policy = {.keep_running_on_error = true, .keep_done_on_stop = true},
    .start = client_start,
    .prepare = send_prepare,
    .deliver = send_deliver,
    .events = ep_events,
    .stopping = ep_stopping,
};

/* ---- common configuration ---- */

static doca_error_t ep_init(struct comch_ep *ep, const struct ctx_ops *ops, struct doca_dev *dev, const char *name,
			    const char *call)
{
	const struct topo_caps_comch *caps = &dev->info.profile->comch;
	size_t len = strnlen(name, caps->max_name_len);

	if (len == 0 || len >= caps->max_name_len)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: the server name must have 1 to %u bytes on device %s "
				 "(doca_comch_cap_get_max_name_len counts the NUL)",
				 call, caps->max_name_len - 1, priv_doca_dev_name(&dev->info));
	priv_doca_ctx_init(&ep->ctx, ops, dev);
	ep->caps = caps;
	memcpy(ep->name, name, len);
	ep->name[len] = '\0';
	ep->name_len = (uint32_t)len;
	ep->max_msg_size = caps->max_msg_size;
	ep->recv_queue_size =
	    caps->max_recv_queue_size < COMCH_DEFAULT_RECV_QUEUE ? caps->max_recv_queue_size : COMCH_DEFAULT_RECV_QUEUE;
	ep->epfd = -1;
	return DOCA_SUCCESS;
}

/* Also from a callback of its own (its IDLE state callback): the events code checks its guard. */
static doca_error_t ep_fini(struct comch_ep *ep)
{
	return priv_doca_ctx_fini(&ep->ctx);
}

static doca_error_t set_max_msg_size(struct comch_ep *ep, uint32_t size, const char *call)
{
	doca_error_t ret = priv_doca_ctx_check_idle(&ep->ctx, call, NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (size == 0 || size > ep->caps->max_msg_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u bytes; device %s allows 1..%u (doca_comch_cap_get_max_msg_size)", call, size,
				 priv_doca_dev_name(&ep->ctx.dev->info), ep->caps->max_msg_size);
	ep->max_msg_size = size;
	return DOCA_SUCCESS;
}

static doca_error_t set_recv_queue_size(struct comch_ep *ep, uint32_t size, const char *call)
{
	doca_error_t ret = priv_doca_ctx_check_idle(&ep->ctx, call, NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (size == 0 || size > ep->caps->max_recv_queue_size)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u entries; device %s allows 1..%u (doca_comch_cap_get_max_recv_queue_size)",
				 call, size, priv_doca_dev_name(&ep->ctx.dev->info), ep->caps->max_recv_queue_size);
	/* The kernel socket buffers stand in for the receive queue; the value is kept for show. */
	ep->recv_queue_size = size;
	return DOCA_SUCCESS;
}

static doca_error_t task_send_set_conf(struct comch_ep *ep, doca_comch_task_send_completion_cb_t comp_cb,
				       doca_comch_task_send_completion_cb_t err_cb, uint32_t num, const char *call)
{
	doca_error_t ret = priv_doca_ctx_check_idle(&ep->ctx, call, NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (comp_cb == NULL || err_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL callback; pass both callbacks", call);
	if (num == 0 || num > ep->caps->max_send_tasks)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u tasks requested; device %s allows 1..%u (doca_comch_cap_get_max_send_tasks)",
				 call, num, priv_doca_dev_name(&ep->ctx.dev->info), ep->caps->max_send_tasks);
	ep->send_comp_cb = comp_cb;
	ep->send_err_cb = err_cb;
	ep->num_send_tasks = num;
	return DOCA_SUCCESS;
}

static doca_error_t msg_recv_register(struct comch_ep *ep, doca_comch_event_msg_recv_cb_t cb, const char *call)
{
	doca_error_t ret = priv_doca_ctx_check_idle(&ep->ctx, call, NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL callback", call);
	ep->recv_cb = cb;
	return DOCA_SUCCESS;
}

static doca_error_t consumer_register(struct comch_ep *ep, doca_comch_event_consumer_cb_t new_cb,
				      doca_comch_event_consumer_cb_t expired_cb, const char *call)
{
	doca_error_t ret = priv_doca_ctx_check_idle(&ep->ctx, call, NULL);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (new_cb == NULL || expired_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL callback; pass both callbacks", call);
	/* Kept for the consumer/producer data path; no consumer exists yet to announce. */
	ep->new_consumer_cb = new_cb;
	ep->expired_consumer_cb = expired_cb;
	return DOCA_SUCCESS;
}

static doca_error_t task_send_alloc(struct comch_ep *ep, struct doca_comch_connection *peer, const void *msg,
				    uint32_t len, struct doca_comch_task_send **task, const char *call)
{
	struct doca_comch_task_send *t;
	struct doca_task *base = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(peer == NULL || task == NULL || (msg == NULL && len != 0)))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 peer == NULL	? "connection"
				 : task == NULL ? "output argument"
						: "message");
	if (SD_UNLIKELY(len > ep->max_msg_size))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %s: a message of %u bytes exceeds the max message size %u; split it or raise it "
				 "with doca_comch_%s_set_max_msg_size() (at most doca_comch_cap_get_max_msg_size)",
				 call, priv_doca_ctx_name(&ep->ctx), len, ep->max_msg_size,
				 ep->is_server ? "server" : "client");
	if (SD_UNLIKELY(peer->ep != ep))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: connection %p belongs to another context than %s",
				 call, (void *)peer, priv_doca_ctx_name(&ep->ctx));
	ret = priv_doca_task_alloc(&ep->ctx, &base);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	if (SD_UNLIKELY(peer->state != CONN_UP)) {
		doca_task_free(base);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: connection %p of %s is not connected (the peer went away); use a connection "
				 "from a connect event or doca_comch_client_get_connection()",
				 call, (void *)peer, priv_doca_ctx_name(&ep->ctx));
	}
	if (SD_UNLIKELY(len > peer->send_max)) {
		doca_task_free(base);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %s: a message of %u bytes exceeds %u, the max message size the peer (pid %u) "
				 "accepts; split it",
				 call, priv_doca_ctx_name(&ep->ctx), len, peer->send_max, peer->peer_pid);
	}
	t = (struct doca_comch_task_send *)base;
	t->conn = peer;
	t->gen = peer->gen;
	t->len = len;
	base->user_data.u64 = 0;
	comch_wire_put_hdr(t->pkt, COMCH_WIRE_MSG, len);
	if (len != 0)
		memcpy(t->pkt + COMCH_WIRE_HDR_LEN, msg, len);
	*task = t;
	return DOCA_SUCCESS;
}

/* ---- server ---- */

DOCA_STABLE doca_error_t doca_comch_server_create(struct doca_dev *dev, struct doca_dev_rep *repr, const char *name,
						  struct doca_comch_server **comch_server)
{
	const struct topo_rep *r;
	struct doca_comch_server *srv;
	doca_error_t ret;

	if (dev == NULL || repr == NULL || name == NULL || comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_server_create: NULL argument");
	if (dev->info.tdev->side != TOPO_SIDE_DPU)
		return SD_REJECT(
		    DOCA_ERROR_NOT_SUPPORTED, COMP,
		    "doca_comch_server_create: device %s is a host-side device; a server runs on a DPU-side "
		    "device (doca_comch_cap_server_is_supported), a host program creates a client",
		    priv_doca_dev_name(&dev->info));
	ret = check_supported(dev, "doca_comch_server_create");
	if (ret != DOCA_SUCCESS)
		return ret;
	if (repr->info.parent != dev->info.tdev)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_comch_server_create: the representor is not one of device %s; open it from "
				 "doca_devinfo_rep_create_list() of that device",
				 priv_doca_dev_name(&dev->info));
	srv = calloc(1, sizeof(*srv));
	if (srv == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = ep_init(&srv->ep, &server_ops, dev, name, "doca_comch_server_create");
	if (ret != DOCA_SUCCESS) {
		free(srv);
		return ret;
	}
	srv->ep.is_server = true;
	srv->lfd = -1;
	srv->repr = repr;
	r = repr->info.trep;
	pci_key(srv->ep.key, r->domain, r->bus, r->dev, r->fn);
	*comch_server = srv;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_server_destroy(struct doca_comch_server *comch_server)
{
	doca_error_t ret;

	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_server_destroy: NULL server");
	ret = ep_fini(&comch_server->ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	while (comch_server->free_conns != NULL) {
		struct doca_comch_connection *c = comch_server->free_conns;

		comch_server->free_conns = c->next;
		free(c);
	}
	free(comch_server->ep.rx);
	free(comch_server);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_comch_server_as_ctx(struct doca_comch_server *comch_server)
{
	return comch_server ? &comch_server->ep.ctx : NULL;
}

DOCA_STABLE doca_error_t doca_comch_server_set_max_msg_size(struct doca_comch_server *comch_server, uint32_t size)
{
	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_server_set_max_msg_size: NULL server");
	return set_max_msg_size(&comch_server->ep, size, "doca_comch_server_set_max_msg_size");
}

DOCA_STABLE doca_error_t doca_comch_server_set_recv_queue_size(struct doca_comch_server *comch_server, uint32_t size)
{
	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_server_set_recv_queue_size: NULL server");
	return set_recv_queue_size(&comch_server->ep, size, "doca_comch_server_set_recv_queue_size");
}

DOCA_STABLE doca_error_t doca_comch_server_task_send_set_conf(struct doca_comch_server *comch_server,
							      doca_comch_task_send_completion_cb_t task_completion_cb,
							      doca_comch_task_send_completion_cb_t task_error_cb,
							      uint32_t num_send_tasks)
{
	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_server_task_send_set_conf: NULL server");
	return task_send_set_conf(&comch_server->ep, task_completion_cb, task_error_cb, num_send_tasks,
				  "doca_comch_server_task_send_set_conf");
}

DOCA_STABLE doca_error_t doca_comch_server_event_msg_recv_register(struct doca_comch_server *comch_server,
								   doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_comch_server_event_msg_recv_register: NULL server");
	return msg_recv_register(&comch_server->ep, recv_event_cb, "doca_comch_server_event_msg_recv_register");
}

DOCA_STABLE doca_error_t doca_comch_server_event_connection_status_changed_register(
    struct doca_comch_server *comch_server, doca_comch_event_connection_status_changed_cb_t connect_event_cb,
    doca_comch_event_connection_status_changed_cb_t disconnect_event_cb)
{
	const char *call = "doca_comch_server_event_connection_status_changed_register";
	doca_error_t ret;

	if (comch_server == NULL || connect_event_cb == NULL || disconnect_event_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: NULL argument; pass the server and both callbacks", call);
	ret = ctx_check_idle(&comch_server->ep.ctx, NULL);
	if (ret != DOCA_SUCCESS)
		return ret;
	comch_server->connect_cb = connect_event_cb;
	comch_server->disconnect_cb = disconnect_event_cb;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_server_event_consumer_register(
    struct doca_comch_server *comch_server, doca_comch_event_consumer_cb_t new_consumer_event_cb,
    doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_comch_server_event_consumer_register: NULL server");
	return consumer_register(&comch_server->ep, new_consumer_event_cb, expired_consumer_event_cb,
				 "doca_comch_server_event_consumer_register");
}

DOCA_STABLE doca_error_t doca_comch_server_task_send_alloc_init(struct doca_comch_server *comch_server,
								struct doca_comch_connection *peer, const void *msg,
								uint32_t len, struct doca_comch_task_send **task)
{
	if (comch_server == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_server_task_send_alloc_init: NULL server");
	return task_send_alloc(&comch_server->ep, peer, msg, len, task, "doca_comch_server_task_send_alloc_init");
}

DOCA_STABLE doca_error_t doca_comch_server_disconnect(struct doca_comch_server *comch_server,
						      struct doca_comch_connection *connection)
{
	const char *call = "doca_comch_server_disconnect";

	if (comch_server == NULL || connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (connection->ep != &comch_server->ep)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: connection %p does not belong to %s", call,
				 (void *)connection, priv_doca_ctx_name(&comch_server->ep.ctx));
	if (connection->state != CONN_UP && connection->state != CONN_HELLO)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: connection %p of %s is already disconnected",
				 call, (void *)connection, priv_doca_ctx_name(&comch_server->ep.ctx));
	if (connection->nb_dp != 0)
		return SD_REJECT(DOCA_ERROR_IN_USE, COMP,
				 "%s: connection %p of %s still has %u consumers/producers; destroy them first", call,
				 (void *)connection, priv_doca_ctx_name(&comch_server->ep.ctx), connection->nb_dp);
	SD_DBG(COMP, "%s: disconnecting client pid %u (connection %p)", priv_doca_ctx_name(&comch_server->ep.ctx),
	       connection->peer_pid, (void *)connection);
	comch_server_drop(comch_server, connection, DOCA_ERROR_NOT_CONNECTED);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_comch_server *doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection)
{
	if (connection == NULL || !connection->ep->is_server)
		return NULL;
	return (struct doca_comch_server *)connection->ep;
}

#define GETTER_ARGS(obj, out, call)                                                                                    \
	do {                                                                                                           \
		if ((obj) == NULL || (out) == NULL)                                                                    \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);                   \
	} while (0)

DOCA_STABLE doca_error_t doca_comch_server_get_max_msg_size(const struct doca_comch_server *comch_server,
							    uint32_t *size)
{
	GETTER_ARGS(comch_server, size, "doca_comch_server_get_max_msg_size");
	*size = comch_server->ep.max_msg_size;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_server_get_recv_queue_size(const struct doca_comch_server *comch_server,
							       uint32_t *size)
{
	GETTER_ARGS(comch_server, size, "doca_comch_server_get_recv_queue_size");
	*size = comch_server->ep.recv_queue_size;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_server_get_device(const struct doca_comch_server *comch_server,
						      struct doca_dev **dev)
{
	GETTER_ARGS(comch_server, dev, "doca_comch_server_get_device");
	*dev = comch_server->ep.ctx.dev;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_server_get_device_repr(const struct doca_comch_server *comch_server,
							   struct doca_dev_rep **repr)
{
	GETTER_ARGS(comch_server, repr, "doca_comch_server_get_device_repr");
	*repr = comch_server->repr;
	return DOCA_SUCCESS;
}

/* ---- client ---- */

DOCA_STABLE doca_error_t doca_comch_client_create(struct doca_dev *dev, const char *name,
						  struct doca_comch_client **comch_client)
{
	const struct topo_device *td;
	struct doca_comch_client *cl;
	doca_error_t ret;

	if (dev == NULL || name == NULL || comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_create: NULL argument");
	td = dev->info.tdev;
	if (td->side != TOPO_SIDE_HOST)
		return SD_REJECT(
		    DOCA_ERROR_NOT_SUPPORTED, COMP,
		    "doca_comch_client_create: device %s is a DPU-side device; a client runs on a host-side "
		    "device (doca_comch_cap_client_is_supported), the DPU program creates the server",
		    priv_doca_dev_name(&dev->info));
	ret = check_supported(dev, "doca_comch_client_create");
	if (ret != DOCA_SUCCESS)
		return ret;
	cl = calloc(1, sizeof(*cl));
	if (cl == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = ep_init(&cl->ep, &client_ops, dev, name, "doca_comch_client_create");
	if (ret != DOCA_SUCCESS) {
		free(cl);
		return ret;
	}
	cl->conn.ep = &cl->ep;
	cl->conn.fd = -1;
	cl->tfd = -1;
	pci_key(cl->ep.key, td->domain, td->bus, td->dev, td->fn);
	*comch_client = cl;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_client_destroy(struct doca_comch_client *comch_client)
{
	doca_error_t ret;

	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_destroy: NULL client");
	ret = ep_fini(&comch_client->ep);
	if (ret != DOCA_SUCCESS)
		return ret;
	free(comch_client->ep.rx);
	free(comch_client);
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_comch_client_as_ctx(struct doca_comch_client *comch_client)
{
	return comch_client ? &comch_client->ep.ctx : NULL;
}

DOCA_STABLE doca_error_t doca_comch_client_set_max_msg_size(struct doca_comch_client *comch_client, uint32_t size)
{
	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_set_max_msg_size: NULL client");
	return set_max_msg_size(&comch_client->ep, size, "doca_comch_client_set_max_msg_size");
}

DOCA_STABLE doca_error_t doca_comch_client_set_recv_queue_size(struct doca_comch_client *comch_client, uint32_t size)
{
	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_set_recv_queue_size: NULL client");
	return set_recv_queue_size(&comch_client->ep, size, "doca_comch_client_set_recv_queue_size");
}

DOCA_STABLE doca_error_t doca_comch_client_get_max_msg_size(const struct doca_comch_client *comch_client,
							    uint32_t *size)
{
	GETTER_ARGS(comch_client, size, "doca_comch_client_get_max_msg_size");
	*size = comch_client->ep.max_msg_size;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_client_get_recv_queue_size(const struct doca_comch_client *comch_client,
							       uint32_t *size)
{
	GETTER_ARGS(comch_client, size, "doca_comch_client_get_recv_queue_size");
	*size = comch_client->ep.recv_queue_size;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_client_get_device(const struct doca_comch_client *comch_client,
						      struct doca_dev **dev)
{
	GETTER_ARGS(comch_client, dev, "doca_comch_client_get_device");
	*dev = comch_client->ep.ctx.dev;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_client_task_send_set_conf(struct doca_comch_client *comch_client,
							      doca_comch_task_send_completion_cb_t task_completion_cb,
							      doca_comch_task_send_completion_cb_t task_error_cb,
							      uint32_t num_send_tasks)
{
	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_task_send_set_conf: NULL client");
	return task_send_set_conf(&comch_client->ep, task_completion_cb, task_error_cb, num_send_tasks,
				  "doca_comch_client_task_send_set_conf");
}

DOCA_STABLE doca_error_t doca_comch_client_event_msg_recv_register(struct doca_comch_client *comch_client,
								   doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_comch_client_event_msg_recv_register: NULL client");
	return msg_recv_register(&comch_client->ep, recv_event_cb, "doca_comch_client_event_msg_recv_register");
}

DOCA_STABLE doca_error_t doca_comch_client_event_consumer_register(
    struct doca_comch_client *comch_client, doca_comch_event_consumer_cb_t new_consumer_event_cb,
    doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_comch_client_event_consumer_register: NULL client");
	return consumer_register(&comch_client->ep, new_consumer_event_cb, expired_consumer_event_cb,
				 "doca_comch_client_event_consumer_register");
}

DOCA_STABLE doca_error_t doca_comch_client_task_send_alloc_init(struct doca_comch_client *comch_client,
								struct doca_comch_connection *peer, const void *msg,
								uint32_t len, struct doca_comch_task_send **task)
{
	if (comch_client == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_task_send_alloc_init: NULL client");
	return task_send_alloc(&comch_client->ep, peer, msg, len, task, "doca_comch_client_task_send_alloc_init");
}

DOCA_STABLE doca_error_t doca_comch_client_get_connection(const struct doca_comch_client *comch_client,
							  struct doca_comch_connection **connection)
{
	if (comch_client == NULL || connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_client_get_connection: NULL argument");
	/* STARTING: the caller polls while the client connects, as DOCA's samples do; said at DEBUG. */
	if (comch_client->ep.ctx.state == DOCA_CTX_STATE_STARTING)
		return SD_REJECT_DBG(DOCA_ERROR_BAD_STATE, COMP,
				     "doca_comch_client_get_connection: %s is STARTING; the connection exists once "
				     "the context is RUNNING (progress after doca_ctx_start() until it is)",
				     priv_doca_ctx_name(&comch_client->ep.ctx));
	if (comch_client->ep.ctx.state != DOCA_CTX_STATE_RUNNING || comch_client->conn.state != CONN_UP)
		return SD_REJECT(
		    DOCA_ERROR_BAD_STATE, COMP,
		    "doca_comch_client_get_connection: %s is %s; the connection exists once the context is "
		    "RUNNING (progress after doca_ctx_start() until it is)",
		    priv_doca_ctx_name(&comch_client->ep.ctx), priv_doca_ctx_state_name(comch_client->ep.ctx.state));
	*connection = (struct doca_comch_connection *)&comch_client->conn;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_comch_client *doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection)
{
	if (connection == NULL || connection->ep->is_server)
		return NULL;
	return (struct doca_comch_client *)connection->ep;
}

/* ---- connections and tasks ---- */

DOCA_STABLE doca_error_t doca_comch_connection_set_user_data(struct doca_comch_connection *connection,
							     union doca_data user_data)
{
	if (connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "doca_comch_connection_set_user_data: NULL connection");
	connection->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE union doca_data doca_comch_connection_get_user_data(const struct doca_comch_connection *connection)
{
	union doca_data none = {.u64 = 0};

	return connection ? connection->user_data : none;
}

DOCA_STABLE struct doca_task *doca_comch_task_send_as_task(struct doca_comch_task_send *task)
{
	return task ? &task->base : NULL;
}

DOCA_STABLE doca_error_t doca_comch_connection_update_info(struct doca_comch_connection *comch_connection)
{
	if (comch_connection == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_connection_update_info: NULL connection");
	if (comch_connection->state == CONN_HELLO || comch_connection->state == CONN_WAIT_WELCOME)
		return DOCA_ERROR_CONNECTION_INPROGRESS;
	if (comch_connection->state != CONN_UP)
		return SD_REJECT(
		    DOCA_ERROR_CONNECTION_ABORTED, COMP,
		    "doca_comch_connection_update_info: connection %p went away; its counters are gone with "
		    "it",
		    (void *)comch_connection);
	memcpy(comch_connection->snapshot, comch_connection->counters, sizeof(comch_connection->snapshot));
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_connection_get_counter(const struct doca_comch_connection *comch_connection,
							   enum doca_comch_counter counter_type,
							   uint64_t *counter_value)
{
	if (comch_connection == NULL || counter_value == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_connection_get_counter: NULL argument");
	if (counter_type < DOCA_COMCH_COUNTER_SENT_MESSAGES || counter_type > DOCA_COMCH_COUNTER_RECV_BYTES)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "doca_comch_connection_get_counter: unknown counter %d; pass a DOCA_COMCH_COUNTER_* value",
		    (int)counter_type);
	*counter_value = comch_connection->snapshot[counter_type - DOCA_COMCH_COUNTER_SENT_MESSAGES];
	return DOCA_SUCCESS;
}
