/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flow.c - DOCA Flow's control path: global configuration, ports, pipes, entries, queries.
 * Every call validates under flow_lock; what the receive path reads is published for
 * lock-free readers (flow_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "flow_internal.h"

pthread_mutex_t flow_lock = PTHREAD_MUTEX_INITIALIZER;
struct flow_global flow_g;

#define NS(what)                                                                                                       \
	SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, FLOW_COMP,                                                                 \
		  "%s: not supported by softdoca's DOCA Flow subset (README \"DOCA Flow\")", what)

struct doca_flow_cfg {
	uint16_t pipe_queues;
	bool mode_set;
	uint32_t nr_counters;
	doca_flow_entry_process_cb entry_cb;
	doca_flow_pipe_process_cb pipe_cb;
	bool has_key;
	uint8_t rss_key[FLOW_RSS_KEY_LEN];
};

struct doca_flow_port_cfg {
	struct doca_dev *dev;
	uint16_t port_id;
	uint16_t priv_data_size;
	bool has_devargs, has_rep;
};

/* ---- global configuration ---- */

DOCA_STABLE doca_error_t doca_flow_cfg_create(struct doca_flow_cfg **cfg)
{
	if (cfg == NULL)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_cfg_create: NULL cfg pointer; pass the address of a struct doca_flow_cfg *");
	*cfg = calloc(1, sizeof(**cfg));
	if (*cfg == NULL)
		return DOCA_ERROR_NO_MEMORY;
	(*cfg)->pipe_queues = 1;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_destroy(struct doca_flow_cfg *cfg)
{
	if (cfg == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_cfg_destroy: NULL cfg; pass the cfg doca_flow_cfg_create made");
	free(cfg);
	return DOCA_SUCCESS;
}

#define CFG_CHECK(fn)                                                                                                  \
	do {                                                                                                           \
		if (cfg == NULL)                                                                                       \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,                                          \
					 fn ": NULL cfg; create one with doca_flow_cfg_create");                       \
	} while (0)

DOCA_STABLE doca_error_t doca_flow_cfg_set_pipe_queues(struct doca_flow_cfg *cfg, uint16_t pipe_queues)
{
	CFG_CHECK("doca_flow_cfg_set_pipe_queues");
	if (pipe_queues == 0 || pipe_queues > FLOW_MAX_QUEUES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_cfg_set_pipe_queues: %u queues; use 1..%u", pipe_queues, FLOW_MAX_QUEUES);
	cfg->pipe_queues = pipe_queues;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_nr_counters(struct doca_flow_cfg *cfg, uint32_t nr_counters)
{
	CFG_CHECK("doca_flow_cfg_set_nr_counters");
	cfg->nr_counters = nr_counters; /* counters are allocated with their entries */
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_nr_meters(struct doca_flow_cfg *cfg, uint32_t nr_meters)
{
	CFG_CHECK("doca_flow_cfg_set_nr_meters");
	if (nr_meters != 0)
		return NS("doca_flow_cfg_set_nr_meters: meters");
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_nr_acl_collisions(struct doca_flow_cfg *cfg, uint8_t nr_acl_collisions)
{
	(void)nr_acl_collisions;
	CFG_CHECK("doca_flow_cfg_set_nr_acl_collisions");
	return NS("doca_flow_cfg_set_nr_acl_collisions: ACL pipes");
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_mode_args(struct doca_flow_cfg *cfg, const char *mode_args)
{
	char buf[128], *tok, *save = NULL;
	bool first = true;

	CFG_CHECK("doca_flow_cfg_set_mode_args");
	if (mode_args == NULL || mode_args[0] == '\0' || strlen(mode_args) >= sizeof(buf))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_cfg_set_mode_args: empty or over-long mode string; pass \"vnf\" "
				 "(optionally \"vnf,hws\")");
	strcpy(buf, mode_args);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save), first = false) {
		if (first) {
			if (strcmp(tok, "vnf") == 0)
				continue;
			if (strcmp(tok, "switch") == 0 || strcmp(tok, "remote_vnf") == 0)
				return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, FLOW_COMP,
						 "doca_flow_cfg_set_mode_args: mode \"%s\" is not supported; "
						 "softdoca's DOCA Flow runs \"vnf\"",
						 tok);
			return SD_REJECT(
			    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			    "doca_flow_cfg_set_mode_args: \"%s\" is not a mode; start the string with \"vnf\"", tok);
		}
		if (strcmp(tok, "hws") != 0 && strcmp(tok, "isolated") != 0 && strcmp(tok, "expert") != 0)
			return SD_REJECT(
			    DOCA_ERROR_NOT_SUPPORTED, FLOW_COMP,
			    "doca_flow_cfg_set_mode_args: option \"%s\" is not supported; use hws, isolated or expert",
			    tok);
	}
	cfg->mode_set = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_nr_shared_resource(struct doca_flow_cfg *cfg, uint32_t nr_shared_resource,
							      enum doca_flow_shared_resource_type type)
{
	(void)type;
	CFG_CHECK("doca_flow_cfg_set_nr_shared_resource");
	if (nr_shared_resource != 0)
		return NS("doca_flow_cfg_set_nr_shared_resource: shared resources");
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_queue_depth(struct doca_flow_cfg *cfg, uint32_t queue_depth)
{
	CFG_CHECK("doca_flow_cfg_set_queue_depth");
	(void)queue_depth; /* entries are processed synchronously: no queue to size */
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_cb_pipe_process(struct doca_flow_cfg *cfg, doca_flow_pipe_process_cb cb)
{
	CFG_CHECK("doca_flow_cfg_set_cb_pipe_process");
	cfg->pipe_cb = cb;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_cb_entry_process(struct doca_flow_cfg *cfg, doca_flow_entry_process_cb cb)
{
	CFG_CHECK("doca_flow_cfg_set_cb_entry_process");
	cfg->entry_cb = cb;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_cb_shared_resource_unbind(struct doca_flow_cfg *cfg,
								     doca_flow_shared_resource_unbind_cb cb)
{
	CFG_CHECK("doca_flow_cfg_set_cb_shared_resource_unbind");
	(void)cb; /* no shared resources: never called */
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_cfg_set_rss_key(struct doca_flow_cfg *cfg, const uint8_t *rss_key,
						   uint32_t rss_key_len)
{
	CFG_CHECK("doca_flow_cfg_set_rss_key");
	if (rss_key == NULL || rss_key_len != FLOW_RSS_KEY_LEN)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_cfg_set_rss_key: key %s of %u bytes; pass a %u-byte Toeplitz key",
				 rss_key == NULL ? "NULL" : "given", rss_key_len, FLOW_RSS_KEY_LEN);
	memcpy(cfg->rss_key, rss_key, FLOW_RSS_KEY_LEN);
	cfg->has_key = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_cfg_set_tune_cfg(struct doca_flow_cfg *cfg,
							  struct doca_flow_tune_cfg *tune_cfg)
{
	(void)tune_cfg;
	CFG_CHECK("doca_flow_cfg_set_tune_cfg");
	return NS("doca_flow_cfg_set_tune_cfg: DOCA Flow Tune");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_cfg_set_definitions(struct doca_flow_cfg *cfg,
							     const struct doca_flow_definitions *defs)
{
	(void)defs;
	CFG_CHECK("doca_flow_cfg_set_definitions");
	return NS("doca_flow_cfg_set_definitions: user-defined fields");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_cfg_set_resource_mode(struct doca_flow_cfg *cfg,
							       const enum doca_flow_resource_mode mode)
{
	CFG_CHECK("doca_flow_cfg_set_resource_mode");
	if (mode != DOCA_FLOW_RESOURCE_MODE_SYSTEM && mode != DOCA_FLOW_RESOURCE_MODE_PORT)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_cfg_set_resource_mode: mode %d; use DOCA_FLOW_RESOURCE_MODE_SYSTEM or _PORT", mode);
	return DOCA_SUCCESS; /* resources are not pooled: both modes behave alike */
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_cfg_create(struct doca_flow_tune_cfg **tune_cfg)
{
	(void)tune_cfg;
	return NS("doca_flow_tune_cfg_create: DOCA Flow Tune");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_cfg_destroy(struct doca_flow_tune_cfg *tune_cfg)
{
	(void)tune_cfg;
	return NS("doca_flow_tune_cfg_destroy: DOCA Flow Tune");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_cfg_set_profile(struct doca_flow_tune_cfg *tune_cfg,
							      enum doca_flow_tune_profile profile)
{
	(void)tune_cfg;
	(void)profile;
	return NS("doca_flow_tune_cfg_set_profile: DOCA Flow Tune");
}

DOCA_STABLE doca_error_t doca_flow_init(struct doca_flow_cfg *cfg)
{
	doca_error_t err = DOCA_SUCCESS;

	CFG_CHECK("doca_flow_init");
	if (!cfg->mode_set)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_init: no mode; call doca_flow_cfg_set_mode_args(cfg, \"vnf\") first");
	pthread_mutex_lock(&flow_lock);
	if (flow_g.inited) {
		err = SD_REJECT(DOCA_ERROR_BAD_STATE, FLOW_COMP,
				"doca_flow_init: DOCA Flow is initialised already; call doca_flow_destroy first");
		goto out;
	}
	memset(&flow_g, 0, sizeof(flow_g));
	flow_g.inited = true;
	flow_g.pipe_queues = cfg->pipe_queues;
	flow_g.entry_cb = cfg->entry_cb;
	flow_g.pipe_cb = cfg->pipe_cb;
	if (cfg->has_key)
		flow_rss_set_key(cfg->rss_key);
	else
		flow_rss_default_key();
out:
	pthread_mutex_unlock(&flow_lock);
	return err;
}

/* ---- forwards ---- */

doca_error_t flow_fwd_compile(const char *what, struct doca_flow_port *port, const struct doca_flow_fwd *in,
			      enum fwd_ctx ctx, struct flow_fwd *out, bool *from_entry)
{
	static const char *const ctx_name[] = {"fwd", "fwd", "fwd_miss"};
	const char *cn = ctx_name[ctx];

	memset(out, 0, sizeof(*out));
	if (from_entry != NULL)
		*from_entry = false;
	if (in == NULL || in->type == DOCA_FLOW_FWD_NONE || in->type == DOCA_FLOW_FWD_CHANGEABLE) {
		if (in != NULL && in->type == DOCA_FLOW_FWD_CHANGEABLE && ctx != FWD_CTX_PIPE)
			return SD_REJECT(
			    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			    "%s: %s type DOCA_FLOW_FWD_CHANGEABLE is for a pipe's fwd only; give the real forward",
			    what, cn);
		if (from_entry != NULL)
			*from_entry = true;
		return DOCA_SUCCESS;
	}
	switch (in->type) {
	case DOCA_FLOW_FWD_RSS: {
		const struct doca_flow_resource_rss_cfg *r = &in->rss;
		const uint32_t known = DOCA_FLOW_RSS_IPV4 | DOCA_FLOW_RSS_IPV6 | DOCA_FLOW_RSS_UDP | DOCA_FLOW_RSS_TCP |
				       DOCA_FLOW_RSS_IPV4_SRC | DOCA_FLOW_RSS_IPV4_DST | DOCA_FLOW_RSS_IPV6_SRC |
				       DOCA_FLOW_RSS_IPV6_DST | DOCA_FLOW_RSS_UDP_SRC | DOCA_FLOW_RSS_UDP_DST |
				       DOCA_FLOW_RSS_TCP_SRC | DOCA_FLOW_RSS_TCP_DST | DOCA_FLOW_RSS_AUTO;

		if (in->rss_type == DOCA_FLOW_RESOURCE_TYPE_SHARED)
			return NS("fwd RSS with rss_type SHARED (shared RSS)");
		if (in->rss_type != DOCA_FLOW_RESOURCE_TYPE_NON_SHARED)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: %s RSS: rss_type %d; set rss_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED",
					 what, cn, in->rss_type);
		if (r->queues_array == NULL || r->nr_queues <= 0 || r->nr_queues > FLOW_RSS_MAX_QUEUES)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: %s RSS: %d queues at %p; give rss.queues_array with 1..%u queue ids",
					 what, cn, r->nr_queues, (void *)r->queues_array, FLOW_RSS_MAX_QUEUES);
		if (r->outer_flags & DOCA_FLOW_RSS_ESP)
			return NS("fwd RSS over the ESP SPI (DOCA_FLOW_RSS_ESP)");
		if (r->outer_flags & ~known)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: %s RSS: unknown outer_flags bits 0x%x; use DOCA_FLOW_RSS_* values", what,
					 cn, r->outer_flags & ~known);
		if (r->inner_flags != 0)
			return NS("fwd RSS over inner headers (rss.inner_flags)");
		if (r->rss_hash_func != DOCA_FLOW_RSS_HASH_FUNCTION_TOEPLITZ &&
		    r->rss_hash_func != DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: %s RSS: rss_hash_func %d; use DOCA_FLOW_RSS_HASH_FUNCTION_*", what, cn,
					 r->rss_hash_func);
		out->queues = malloc((size_t)r->nr_queues * sizeof(uint16_t));
		if (out->queues == NULL)
			return DOCA_ERROR_NO_MEMORY;
		memcpy(out->queues, r->queues_array, (size_t)r->nr_queues * sizeof(uint16_t));
		out->nr_queues = (uint16_t)r->nr_queues;
		out->rss_flags = r->outer_flags;
		out->symmetric = r->rss_hash_func == DOCA_FLOW_RSS_HASH_FUNCTION_SYMMETRIC_TOEPLITZ;
		out->kind = FWD_RSS;
		return DOCA_SUCCESS;
	}
	case DOCA_FLOW_FWD_PIPE:
		if (in->next_pipe == NULL)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: %s PIPE without next_pipe; set fwd.next_pipe to a pipe of the same port",
					 what, cn);
		if (in->next_pipe->port != port)
			return SD_REJECT(
			    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			    "%s: %s PIPE: next_pipe \"%s\" belongs to another port; forward within one port", what, cn,
			    in->next_pipe->name);
		if (atomic_load(&in->next_pipe->dead))
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: %s PIPE: next_pipe \"%s\" was destroyed; forward to a live pipe", what,
					 cn, in->next_pipe->name);
		out->kind = FWD_PIPE;
		out->next = in->next_pipe;
		out->next->refs++;
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_DROP:
		out->kind = FWD_DROP;
		return DOCA_SUCCESS;
	case DOCA_FLOW_FWD_PORT:
		return NS("fwd PORT (hairpin / sending to a port)");
	case DOCA_FLOW_FWD_TARGET:
		return NS("fwd TARGET (kernel)");
	case DOCA_FLOW_FWD_ORDERED_LIST_PIPE:
		return NS("fwd ORDERED_LIST_PIPE");
	case DOCA_FLOW_FWD_HASH_PIPE:
		return NS("fwd HASH_PIPE");
	default:
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP, "%s: %s type %d unknown; use DOCA_FLOW_FWD_*",
				 what, cn, in->type);
	}
}

void flow_fwd_release(struct flow_fwd *f)
{
	free(f->queues);
	f->queues = NULL;
	if (f->kind == FWD_PIPE && f->next != NULL && !flow_g.tearing) {
		f->next->refs--; /* a dead pipe with no references left is freed by the port at stop */
	}
	f->kind = FWD_NONE;
}

/* ---- monitor and actions ---- */

doca_error_t flow_monitor_compile(const char *what, const struct doca_flow_monitor *m, bool *counted)
{
	*counted = false;
	if (m == NULL)
		return DOCA_SUCCESS;
	if (m->meter_type != DOCA_FLOW_RESOURCE_TYPE_NONE)
		return NS("monitor meters (meter_type)");
	if (m->aging_sec != 0)
		return NS("monitor aging (aging_sec)");
	switch (m->counter_type) {
	case DOCA_FLOW_RESOURCE_TYPE_NONE:
		return DOCA_SUCCESS;
	case DOCA_FLOW_RESOURCE_TYPE_NON_SHARED:
		*counted = true;
		return DOCA_SUCCESS;
	case DOCA_FLOW_RESOURCE_TYPE_SHARED:
		return NS("monitor shared counters (counter_type SHARED)");
	default:
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: monitor.counter_type %d; use DOCA_FLOW_RESOURCE_TYPE_NONE or _NON_SHARED", what,
				 m->counter_type);
	}
}

/* Only meta.pkt_meta may be set in an action (and its mask). */
doca_error_t flow_actions_check(const char *what, const struct doca_flow_actions *a, const char *which)
{
	struct doca_flow_actions t;
	static const struct doca_flow_actions zero;

	if (a == NULL)
		return DOCA_SUCCESS;
	t = *a;
	t.meta.pkt_meta = 0;
	if (memcmp(&t, &zero, sizeof(t)) != 0)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, FLOW_COMP,
				 "%s: %s: only meta.pkt_meta is supported (no header modify, encap, decap, push, pop, "
				 "nat64 or scratch metadata); clear the other fields",
				 what, which);
	return DOCA_SUCCESS;
}

/* ---- ports ---- */

DOCA_STABLE doca_error_t doca_flow_port_cfg_create(struct doca_flow_port_cfg **cfg)
{
	if (cfg == NULL)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_port_cfg_create: NULL cfg pointer; pass the address of a struct doca_flow_port_cfg *");
	*cfg = calloc(1, sizeof(**cfg));
	return *cfg == NULL ? DOCA_ERROR_NO_MEMORY : DOCA_SUCCESS;
}

#define PCFG_CHECK(fn)                                                                                                 \
	do {                                                                                                           \
		if (cfg == NULL)                                                                                       \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,                                          \
					 fn ": NULL port cfg; create one with doca_flow_port_cfg_create");             \
	} while (0)

DOCA_STABLE doca_error_t doca_flow_port_cfg_destroy(struct doca_flow_port_cfg *cfg)
{
	PCFG_CHECK("doca_flow_port_cfg_destroy");
	free(cfg);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_port_cfg_set_devargs(struct doca_flow_port_cfg *cfg, const char *devargs)
{
	PCFG_CHECK("doca_flow_port_cfg_set_devargs");
	if (devargs == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_port_cfg_set_devargs: NULL devargs; pass a string");
	cfg->has_devargs = true; /* refused at start unless a doca_dev names the port */
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_port_cfg_set_priv_data_size(struct doca_flow_port_cfg *cfg, uint16_t priv_data_size)
{
	PCFG_CHECK("doca_flow_port_cfg_set_priv_data_size");
	cfg->priv_data_size = priv_data_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_dev(struct doca_flow_port_cfg *cfg, struct doca_dev *dev)
{
	PCFG_CHECK("doca_flow_port_cfg_set_dev");
	if (dev == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_port_cfg_set_dev: NULL device; pass an open doca_dev");
	cfg->dev = dev;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_dev_rep(struct doca_flow_port_cfg *cfg, struct doca_dev_rep *dev)
{
	PCFG_CHECK("doca_flow_port_cfg_set_dev_rep");
	(void)dev;
	return NS("doca_flow_port_cfg_set_dev_rep: representor ports (switch mode)");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_port_id(struct doca_flow_port_cfg *cfg, uint16_t port_id)
{
	PCFG_CHECK("doca_flow_port_cfg_set_port_id");
	cfg->port_id = port_id;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_port_cfg_set_ipsec_sn_offload_disable(struct doca_flow_port_cfg *cfg)
{
	PCFG_CHECK("doca_flow_port_cfg_set_ipsec_sn_offload_disable");
	return DOCA_SUCCESS; /* no IPsec offload to disable */
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_operation_state(struct doca_flow_port_cfg *cfg,
								      enum doca_flow_port_operation_state state)
{
	PCFG_CHECK("doca_flow_port_cfg_set_operation_state");
	if (state != DOCA_FLOW_PORT_OPERATION_STATE_ACTIVE)
		return NS("doca_flow_port_cfg_set_operation_state: states other than ACTIVE (hot upgrade)");
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_actions_mem_size(struct doca_flow_port_cfg *cfg, uint32_t size)
{
	PCFG_CHECK("doca_flow_port_cfg_set_actions_mem_size");
	if (size != 0 && (size < 64 || (size & (size - 1)) != 0))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_port_cfg_set_actions_mem_size: %u bytes; use a power of two of at least 64",
				 size);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_service_threads_core(struct doca_flow_port_cfg *cfg,
									   uint32_t core)
{
	PCFG_CHECK("doca_flow_port_cfg_set_service_threads_core");
	(void)core; /* no service threads: counters are read directly */
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_service_threads_cycle(struct doca_flow_port_cfg *cfg,
									    uint32_t cycle_ms)
{
	PCFG_CHECK("doca_flow_port_cfg_set_service_threads_cycle");
	(void)cycle_ms;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_cfg_set_nr_resources(struct doca_flow_port_cfg *cfg,
								   enum doca_flow_resource resource,
								   uint32_t nr_resources)
{
	PCFG_CHECK("doca_flow_port_cfg_set_nr_resources");
	if (resource == DOCA_FLOW_RESOURCE_COUNTER)
		return DOCA_SUCCESS; /* counters come with their entries */
	if (nr_resources == 0)
		return DOCA_SUCCESS;
	return NS("doca_flow_port_cfg_set_nr_resources: meters, RSS, crypto, encap and decap resources");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_start(const struct doca_flow_port_cfg *cfg, struct doca_flow_port **port)
{
	struct doca_flow_port *p;
	struct flow_slot *slot;
	doca_error_t err;
	uint32_t idx;

	PCFG_CHECK("doca_flow_port_start");
	if (port == NULL)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_port_start: NULL port pointer; pass the address of a struct doca_flow_port *");
	if (cfg->dev == NULL)
		return cfg->has_devargs
			   ? NS("doca_flow_port_start: DPDK ports named by devargs; bind the port to a doca_dev with "
				"doca_flow_port_cfg_set_dev")
			   : SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				       "doca_flow_port_start: no device; call doca_flow_port_cfg_set_dev first");
	idx = cfg->dev->info.index;
	if (idx >= TOPO_MAX_DEVICES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_port_start: device index %u out of range", idx);
	pthread_mutex_lock(&flow_lock);
	if (!flow_g.inited) {
		err = SD_REJECT(DOCA_ERROR_BAD_STATE, FLOW_COMP,
				"doca_flow_port_start: DOCA Flow is not initialised; call doca_flow_init first");
		goto unlock;
	}
	for (p = flow_g.ports; p != NULL; p = p->next) {
		if (p->port_id == cfg->port_id) {
			err =
			    SD_REJECT(DOCA_ERROR_ALREADY_EXIST, FLOW_COMP,
				      "doca_flow_port_start: port id %u is started already; give each port its own id",
				      cfg->port_id);
			goto unlock;
		}
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL || (cfg->priv_data_size != 0 && (p->priv_data = calloc(1, cfg->priv_data_size)) == NULL)) {
		free(p);
		err = DOCA_ERROR_NO_MEMORY;
		goto unlock;
	}
	slot = &flow_slots[idx];
	p->dev = cfg->dev;
	p->slot = slot;
	p->port_id = cfg->port_id;
	for (unsigned int q = 0; q < FLOW_MAX_QUEUES; q++)
		p->pending_tail[q] = &p->pending[q];
	err = priv_doca_nic_set_steer(cfg->dev, flow_steer, slot);
	if (err != DOCA_SUCCESS) {
		free(p->priv_data);
		free(p);
		goto unlock;
	}
	atomic_store_explicit(&slot->port, p, memory_order_release);
	p->next = flow_g.ports;
	flow_g.ports = p;
	*port = p;
unlock:
	pthread_mutex_unlock(&flow_lock);
	return err;
}

static bool port_known(const struct doca_flow_port *port)
{
	for (const struct doca_flow_port *p = flow_g.ports; p != NULL; p = p->next)
		if (p == port)
			return true;
	return false;
}

static void pending_drop_all(struct doca_flow_port *port)
{
	for (unsigned int q = 0; q < FLOW_MAX_QUEUES; q++) {
		struct flow_pending *n = port->pending[q], *next;

		for (; n != NULL; n = next) {
			next = n->next;
			free(n);
		}
		port->pending[q] = NULL;
		port->pending_tail[q] = &port->pending[q];
	}
}

/* Under flow_lock. */
static void port_stop_locked(struct doca_flow_port *port)
{
	struct doca_flow_port **pp;

	(void)priv_doca_nic_set_steer(port->dev, NULL, NULL);
	atomic_store_explicit(&port->slot->port, NULL, memory_order_release);
	flow_slot_sync(port->slot);
	flow_port_free_pipes(port);
	pending_drop_all(port);
	for (pp = &flow_g.ports; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == port) {
			*pp = port->next;
			break;
		}
	}
	free(port->priv_data);
	free(port);
}

DOCA_STABLE doca_error_t doca_flow_port_stop(struct doca_flow_port *port)
{
	doca_error_t err = DOCA_SUCCESS;

	if (port == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_port_stop: NULL port; pass a started port");
	pthread_mutex_lock(&flow_lock);
	if (!port_known(port))
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"doca_flow_port_stop: port %p is not started (stopped twice?); pass a started port",
				(void *)port);
	else
		port_stop_locked(port);
	pthread_mutex_unlock(&flow_lock);
	return err;
}

DOCA_STABLE void doca_flow_destroy(void)
{
	pthread_mutex_lock(&flow_lock);
	while (flow_g.ports != NULL) {
		SD_WARN(FLOW_COMP,
			"doca_flow_destroy: port %u still started; stopping it (call doca_flow_port_stop first)",
			flow_g.ports->port_id);
		port_stop_locked(flow_g.ports);
	}
	flow_g.inited = false;
	pthread_mutex_unlock(&flow_lock);
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_pair(struct doca_flow_port *port, struct doca_flow_port *pair_port)
{
	(void)port;
	(void)pair_port;
	return NS("doca_flow_port_pair: port pairing (hairpin)");
}

DOCA_STABLE uint8_t *doca_flow_port_priv_data(struct doca_flow_port *port)
{
	return port == NULL ? NULL : port->priv_data;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_operation_state_modify(struct doca_flow_port *port,
								     enum doca_flow_port_operation_state state)
{
	if (port == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_port_operation_state_modify: NULL port");
	if (state == DOCA_FLOW_PORT_OPERATION_STATE_ACTIVE)
		return DOCA_SUCCESS;
	return NS("doca_flow_port_operation_state_modify: states other than ACTIVE (hot upgrade)");
}

DOCA_STABLE struct doca_flow_port *doca_flow_port_switch_get(const struct doca_flow_port *port)
{
	(void)port;
	SD_ERR(FLOW_COMP, "doca_flow_port_switch_get: no switch port in \"vnf\" mode; returning NULL");
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_calc_entropy(struct doca_flow_port *port,
							   struct doca_flow_entropy_format *header, uint16_t *entropy)
{
	(void)port;
	(void)header;
	(void)entropy;
	return NS("doca_flow_port_calc_entropy");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_update_default_miss(struct doca_flow_port *port,
								  enum doca_flow_port_default_miss_type default_miss,
								  bool counter_en)
{
	(void)port;
	(void)default_miss;
	(void)counter_en;
	return NS("doca_flow_port_update_default_miss");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_query_default_miss(struct doca_flow_port *port,
								 struct doca_flow_resource_query *data)
{
	(void)port;
	(void)data;
	return NS("doca_flow_port_query_default_miss");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_shared_resource_set_cfg(enum doca_flow_shared_resource_type type, uint32_t id,
								 struct doca_flow_shared_resource_cfg *cfg)
{
	(void)type;
	(void)id;
	(void)cfg;
	return NS("doca_flow_shared_resource_set_cfg: shared resources");
}

DOCA_STABLE doca_error_t doca_flow_shared_resources_bind(enum doca_flow_shared_resource_type type, uint32_t *res_array,
							 uint32_t res_array_len, void *bindable_obj)
{
	(void)type;
	(void)res_array;
	(void)res_array_len;
	(void)bindable_obj;
	return NS("doca_flow_shared_resources_bind: shared resources");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_shared_resources_query(enum doca_flow_shared_resource_type type,
								uint32_t *res_array,
								struct doca_flow_resource_query *data_array,
								uint32_t array_len)
{
	(void)type;
	(void)res_array;
	(void)data_array;
	(void)array_len;
	return NS("doca_flow_shared_resources_query: shared resources");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_shared_resource_set_cfg(struct doca_flow_port *port,
								      enum doca_flow_shared_resource_type type,
								      uint32_t shared_resource_id,
								      struct doca_flow_shared_resource_cfg *cfg)
{
	(void)port;
	(void)type;
	(void)shared_resource_id;
	(void)cfg;
	return NS("doca_flow_port_shared_resource_set_cfg: shared resources");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_shared_resource_get(struct doca_flow_port *port,
								  enum doca_flow_shared_resource_type type,
								  uint32_t *shared_resource_id)
{
	(void)port;
	(void)type;
	(void)shared_resource_id;
	return NS("doca_flow_port_shared_resource_get: shared resources");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_shared_resource_put(struct doca_flow_port *port,
								  enum doca_flow_shared_resource_type type,
								  uint32_t shared_resource_id)
{
	(void)port;
	(void)type;
	(void)shared_resource_id;
	return NS("doca_flow_port_shared_resource_put: shared resources");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_port_shared_resources_query(struct doca_flow_port *port,
								     enum doca_flow_shared_resource_type type,
								     uint32_t *res_array,
								     struct doca_flow_resource_query *data_array,
								     uint32_t array_len)
{
	(void)port;
	(void)type;
	(void)res_array;
	(void)data_array;
	(void)array_len;
	return NS("doca_flow_port_shared_resources_query: shared resources");
}
