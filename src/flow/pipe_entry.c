/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipe_entry.c - pipe entries: add and remove (published for the lock-free receive path,
 * flow_internal.h), processing of the queues' pending results, aging, and the counter queries.
 */
#include <stdlib.h>
#include <string.h>

#include "flow_internal.h"

/* doca_flow.h checks callers' argument order (DOCA 3.2's) with a macro; this file defines the call. */
#undef doca_flow_pipe_control_add_entry

/* ---- entries ---- */

static doca_error_t entry_common_checks(const char *what, uint16_t pipe_queue, struct doca_flow_pipe *pipe,
					enum doca_flow_pipe_type type, struct doca_flow_pipe_entry **entry)
{
	if (entry == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: NULL entry pointer; pass the address of a struct doca_flow_pipe_entry *", what);
	if (!flow_pipe_is_live(pipe))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: %p is not a live pipe of a started port; pass one doca_flow_pipe_create made",
				 what, (void *)pipe);
	if (pipe->type != type)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: pipe \"%s\" is a %s pipe; use doca_flow_pipe_%s_add_entry", what, pipe->name,
				 pipe->type == DOCA_FLOW_PIPE_BASIC ? "BASIC" : "CONTROL",
				 pipe->type == DOCA_FLOW_PIPE_BASIC ? "basic" : "control");
	if (pipe_queue >= flow_g.pipe_queues)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: pipe_queue %u of %u; use a queue below doca_flow_cfg_set_pipe_queues()", what,
				 pipe_queue, flow_g.pipe_queues);
	if (pipe->nr_entries >= pipe->nr_entries_max)
		return SD_REJECT(
		    DOCA_ERROR_FULL, FLOW_COMP,
		    "%s: pipe \"%s\" holds %u entries, its maximum; raise doca_flow_pipe_cfg_set_nr_entries", what,
		    pipe->name, pipe->nr_entries);
	return DOCA_SUCCESS;
}

static void pending_push(struct doca_flow_port *port, uint16_t q, struct doca_flow_pipe_entry *e, void *usr_ctx,
			 enum doca_flow_entry_op op)
{
	struct flow_pending *n;

	if (flow_g.entry_cb == NULL)
		return;
	n = calloc(1, sizeof(*n));
	if (n == NULL) {
		SD_ERR(FLOW_COMP, "entry callback: out of memory; the %s report of entry %p is lost",
		       op == DOCA_FLOW_ENTRY_OP_ADD ? "add" : "remove", (void *)e);
		return;
	}
	n->entry = e;
	n->usr_ctx = usr_ctx;
	n->op = op;
	*port->pending_tail[q] = n;
	port->pending_tail[q] = &n->next;
}

static doca_error_t entry_fwd(const char *what, struct doca_flow_pipe *pipe, const struct doca_flow_fwd *fwd,
			      struct doca_flow_pipe_entry *e)
{
	if (!pipe->fwd_from_entry)
		return DOCA_SUCCESS; /* the pipe's forward is fixed: an entry's is ignored, as DOCA does */
	if (fwd == NULL || fwd->type == DOCA_FLOW_FWD_NONE)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: pipe \"%s\" leaves the forward to its entries; give this entry a fwd", what,
				 pipe->name);
	return flow_fwd_compile(what, pipe->port, fwd, FWD_CTX_ENTRY, &e->fwd, NULL);
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_basic_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							      const struct doca_flow_match *match, uint8_t action_idx,
							      const struct doca_flow_actions *actions,
							      const struct doca_flow_monitor *monitor,
							      const struct doca_flow_fwd *fwd, uint32_t flags,
							      void *usr_ctx, struct doca_flow_pipe_entry **entry)
{
	static const char what[] = "doca_flow_pipe_basic_add_entry";
	struct doca_flow_pipe_entry *e = NULL, *c;
	struct flow_spec vals;
	bool counted = false;
	doca_error_t err;
	uint32_t b;

	pthread_mutex_lock(&flow_lock);
	err = entry_common_checks(what, pipe_queue, pipe, DOCA_FLOW_PIPE_BASIC, entry);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (flags & ~(uint32_t)(DOCA_FLOW_ENTRY_FLAGS_NO_WAIT | DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH) ||
	    flags == (DOCA_FLOW_ENTRY_FLAGS_NO_WAIT | DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH)) {
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"%s: flags 0x%x; use 0, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT or _WAIT_FOR_BATCH", what, flags);
		goto fail;
	}
	if ((pipe->nr_actions == 0 && action_idx != 0) || (pipe->nr_actions != 0 && action_idx >= pipe->nr_actions)) {
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"%s: action_idx %u but pipe \"%s\" has %u action templates; use an index below that",
				what, action_idx, pipe->name, pipe->nr_actions);
		goto fail;
	}
	err = flow_actions_check(what, actions, "actions");
	if (err != DOCA_SUCCESS)
		goto fail;
	err = flow_monitor_compile(what, monitor, &counted);
	if (err != DOCA_SUCCESS)
		goto fail;
	err = flow_spec_compile(what, match, NULL, SPEC_VALUES, &pipe->sel, &vals);
	if (err != DOCA_SUCCESS)
		goto fail;
	e = flow_entry_alloc(pipe);
	e->usr_ctx = usr_ctx;
	e->counted = counted || pipe->counted;
	for (unsigned int i = 0; i < FLOW_KEY_WORDS; i++)
		e->key.w[i] = ((vals.val.w[i] & pipe->tmpl.chg.w[i]) | pipe->tmpl.val.w[i]) & pipe->tmpl.mask.w[i];
	e->hash = flow_key_hash(&e->key, pipe->words, pipe->nb_words);
	if (pipe->nr_actions != 0 && pipe->actions[action_idx].set) {
		e->meta.set = true;
		e->meta.mask = pipe->actions[action_idx].mask;
		e->meta.val = pipe->actions[action_idx].from_entry
				  ? (actions != NULL ? __builtin_bswap32(actions->meta.pkt_meta) & e->meta.mask : 0)
				  : pipe->actions[action_idx].val;
	}
	b = (uint32_t)(e->hash & (pipe->nb_buckets - 1));
	for (c = atomic_load(&pipe->buckets[b]); c != NULL; c = atomic_load(&c->next)) {
		if (c->hash == e->hash && memcmp(&c->key, &e->key, sizeof(e->key)) == 0) {
			err = SD_REJECT(DOCA_ERROR_ALREADY_EXIST, FLOW_COMP,
					"%s: pipe \"%s\" has an entry with the same match already; remove it first or "
					"match something else",
					what, pipe->name);
			goto fail;
		}
	}
	err = entry_fwd(what, pipe, fwd, e);
	if (err != DOCA_SUCCESS)
		goto fail;
	/* Complete before it is reachable: the release store publishes every field above. */
	atomic_store_explicit(&e->next, atomic_load(&pipe->buckets[b]), memory_order_relaxed);
	e->in_use = true;
	atomic_store_explicit(&pipe->buckets[b], e, memory_order_release);
	pipe->nr_entries++;
	pending_push(pipe->port, pipe_queue, e, usr_ctx, DOCA_FLOW_ENTRY_OP_ADD);
	*entry = e;
	pthread_mutex_unlock(&flow_lock);
	return DOCA_SUCCESS;
fail:
	if (e != NULL)
		flow_entry_free(e);
	pthread_mutex_unlock(&flow_lock);
	return err;
}

/* DOCA 3.2's name of doca_flow_pipe_basic_add_entry. */
DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							const struct doca_flow_match *match, uint8_t action_idx,
							const struct doca_flow_actions *actions,
							const struct doca_flow_monitor *monitor,
							const struct doca_flow_fwd *fwd, uint32_t flags, void *usr_ctx,
							struct doca_flow_pipe_entry **entry)
{
	return doca_flow_pipe_basic_add_entry(pipe_queue, pipe, match, action_idx, actions, monitor, fwd, flags,
					      usr_ctx, entry);
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_control_add_entry(
    uint16_t pipe_queue, struct doca_flow_pipe *pipe, const struct doca_flow_match *match,
    const struct doca_flow_match *match_mask, const struct doca_flow_match_condition *condition,
    const struct doca_flow_actions *actions, const struct doca_flow_actions *actions_mask,
    const struct doca_flow_action_descs *action_descs, const struct doca_flow_monitor *monitor, uint32_t priority,
    const struct doca_flow_fwd *fwd, void *usr_ctx, struct doca_flow_pipe_entry **entry)
{
	static const char what[] = "doca_flow_pipe_control_add_entry";
	struct doca_flow_pipe_entry *e = NULL, *c;
	_Atomic(struct doca_flow_pipe_entry *) *link;
	struct flow_spec spec;
	bool counted = false;
	doca_error_t err;

	pthread_mutex_lock(&flow_lock);
	err = entry_common_checks(what, pipe_queue, pipe, DOCA_FLOW_PIPE_CONTROL, entry);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (condition != NULL) {
		err = FLOW_NS("doca_flow_pipe_control_add_entry: match conditions (field comparisons)");
		goto fail;
	}
	if (action_descs != NULL && action_descs->nb_action_desc != 0) {
		err = FLOW_NS("doca_flow_pipe_control_add_entry: action descriptors (copy/add field operations)");
		goto fail;
	}
	err = flow_actions_check(what, actions, "actions");
	if (err == DOCA_SUCCESS)
		err = flow_actions_check(what, actions_mask, "actions_mask");
	if (err == DOCA_SUCCESS)
		err = flow_monitor_compile(what, monitor, &counted);
	if (err == DOCA_SUCCESS)
		err = flow_spec_compile(what, match, match_mask, SPEC_EXACT, NULL, &spec);
	if (err != DOCA_SUCCESS)
		goto fail;
	e = flow_entry_alloc(pipe);
	e->usr_ctx = usr_ctx;
	e->priority = priority;
	e->counted = counted || pipe->counted;
	e->key = spec.val;
	e->mask = spec.mask;
	e->nb_words = (uint8_t)flow_key_words(&e->mask, e->words);
	if (actions != NULL) {
		uint32_t v = __builtin_bswap32(actions->meta.pkt_meta);
		uint32_t m =
		    actions_mask != NULL ? __builtin_bswap32(actions_mask->meta.pkt_meta) : (v != 0 ? UINT32_MAX : 0);

		if (m != 0) {
			e->meta.set = true;
			e->meta.val = v & m;
			e->meta.mask = m;
		}
	}
	if (fwd == NULL || fwd->type == DOCA_FLOW_FWD_NONE) {
		if (pipe->fwd.kind == FWD_NONE) {
			err = SD_REJECT(
			    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			    "%s: pipe \"%s\": entry without a fwd and the pipe has none; give the entry a fwd", what,
			    pipe->name);
			goto fail;
		}
	} else {
		err = flow_fwd_compile(what, pipe->port, fwd, FWD_CTX_ENTRY, &e->fwd, NULL);
		if (err != DOCA_SUCCESS)
			goto fail;
	}
	/* Lowest priority value first; equal priorities keep their order of addition. */
	link = &pipe->head;
	for (c = atomic_load(link); c != NULL && c->priority <= priority; c = atomic_load(link))
		link = &c->next;
	atomic_store_explicit(&e->next, c, memory_order_relaxed);
	e->in_use = true;
	atomic_store_explicit(link, e, memory_order_release);
	pipe->nr_entries++;
	flow_ctl_index_republish(pipe);
	pending_push(pipe->port, pipe_queue, e, usr_ctx, DOCA_FLOW_ENTRY_OP_ADD);
	*entry = e;
	pthread_mutex_unlock(&flow_lock);
	return DOCA_SUCCESS;
fail:
	if (e != NULL)
		flow_entry_free(e);
	pthread_mutex_unlock(&flow_lock);
	return err;
}

/* Finds @e's link in its pipe: the bucket head or the previous entry's next. */
static _Atomic(struct doca_flow_pipe_entry *) *entry_link(struct doca_flow_pipe_entry *e)
{
	struct doca_flow_pipe *pipe = e->pipe;
	_Atomic(struct doca_flow_pipe_entry *) *link;

	link = pipe->type == DOCA_FLOW_PIPE_BASIC ? &pipe->buckets[e->hash & (pipe->nb_buckets - 1)] : &pipe->head;
	for (struct doca_flow_pipe_entry *c = atomic_load(link); c != NULL; c = atomic_load(link)) {
		if (c == e)
			return link;
		link = &c->next;
	}
	return NULL;
}

/* By address: a slot of a live pipe's slab that holds an entry. */
static bool entry_is_live(struct doca_flow_pipe_entry *e, _Atomic(struct doca_flow_pipe_entry *) **link)
{
	uintptr_t a = (uintptr_t)e;

	for (struct doca_flow_port *p = flow_g.ports; p != NULL; p = p->next) {
		for (struct doca_flow_pipe *pp = p->pipes; pp != NULL; pp = pp->next_in_port) {
			uintptr_t lo = (uintptr_t)pp->slab, hi = lo + (uintptr_t)pp->nr_entries_max * sizeof(*e);

			if (a < lo || a >= hi || (a - lo) % sizeof(*e) != 0)
				continue;
			if (atomic_load(&pp->dead) || !e->in_use)
				return false;
			*link = entry_link(e);
			return *link != NULL;
		}
	}
	return false;
}

DOCA_STABLE doca_error_t doca_flow_pipe_remove_entry(uint16_t pipe_queue, uint32_t flags,
						     struct doca_flow_pipe_entry *entry)
{
	_Atomic(struct doca_flow_pipe_entry *) *link;
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&flow_lock);
	/*
	 * Checking that the handle is live walks the pipes: removal is a control-path call and a
	 * stale handle must be refused, not dereferenced blindly.
	 */
	if (!entry_is_live(entry, &link)) {
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"doca_flow_pipe_remove_entry: %p is not a live entry (removed twice, or its pipe "
				"destroyed?); pass a handle an add call returned",
				(void *)entry);
		goto out;
	}
	if (pipe_queue >= flow_g.pipe_queues ||
	    flags & ~(uint32_t)(DOCA_FLOW_ENTRY_FLAGS_NO_WAIT | DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH)) {
		err =
		    SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			      "doca_flow_pipe_remove_entry: pipe_queue %u (of %u) / flags 0x%x; use a configured queue "
			      "and DOCA_FLOW_ENTRY_FLAGS_* flags",
			      pipe_queue, flow_g.pipe_queues, flags);
		goto out;
	}
	atomic_store_explicit(link, atomic_load(&entry->next), memory_order_release);
	entry->pipe->nr_entries--;
	if (entry->pipe->type == DOCA_FLOW_PIPE_CONTROL)
		flow_ctl_index_republish(entry->pipe);
	flow_slot_sync(entry->pipe->port->slot); /* unreachable through the list and the index */
	pending_push(entry->pipe->port, pipe_queue, entry, entry->usr_ctx, DOCA_FLOW_ENTRY_OP_DEL);
	flow_entry_free(entry);
out:
	pthread_mutex_unlock(&flow_lock);
	return err;
}

static doca_error_t update_ns(const char *what)
{
	return FLOW_NS(what);
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_basic_update_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
								 uint8_t action_idx,
								 const struct doca_flow_actions *actions,
								 const struct doca_flow_monitor *monitor,
								 const struct doca_flow_fwd *fwd, uint32_t flags,
								 struct doca_flow_pipe_entry *entry)
{
	(void)pipe_queue, (void)pipe, (void)action_idx, (void)actions, (void)monitor, (void)fwd, (void)flags,
	    (void)entry;
	return update_ns("doca_flow_pipe_basic_update_entry: entry updates (remove and add instead)");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_lpm_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							    const struct doca_flow_match *match,
							    const struct doca_flow_match *match_mask,
							    uint8_t action_idx, const struct doca_flow_actions *actions,
							    const struct doca_flow_monitor *monitor,
							    const struct doca_flow_fwd *fwd, uint32_t flags,
							    void *usr_ctx, struct doca_flow_pipe_entry **entry)
{
	(void)pipe_queue, (void)pipe, (void)match, (void)match_mask, (void)action_idx, (void)actions, (void)monitor,
	    (void)fwd, (void)flags, (void)usr_ctx, (void)entry;
	return FLOW_NS("doca_flow_pipe_lpm_add_entry: LPM pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_lpm_update_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							       uint8_t action_idx,
							       const struct doca_flow_actions *actions,
							       const struct doca_flow_monitor *monitor,
							       const struct doca_flow_fwd *fwd, uint32_t flags,
							       struct doca_flow_pipe_entry *entry)
{
	(void)pipe_queue, (void)pipe, (void)action_idx, (void)actions, (void)monitor, (void)fwd, (void)flags,
	    (void)entry;
	return FLOW_NS("doca_flow_pipe_lpm_update_entry: LPM pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_ordered_list_add_entry(
    uint16_t pipe_queue, struct doca_flow_pipe *pipe, uint32_t idx, const struct doca_flow_ordered_list *ordered_list,
    const struct doca_flow_fwd *fwd, uint32_t flags, void *user_ctx, struct doca_flow_pipe_entry **entry)
{
	(void)pipe_queue, (void)pipe, (void)idx, (void)ordered_list, (void)fwd, (void)flags, (void)user_ctx,
	    (void)entry;
	return FLOW_NS("doca_flow_pipe_ordered_list_add_entry: ordered list pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_acl_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							    const struct doca_flow_match *match,
							    const struct doca_flow_match *match_mask,
							    uint8_t action_idx, const struct doca_flow_actions *actions,
							    const uint32_t priority, const struct doca_flow_fwd *fwd,
							    uint32_t flags, void *usr_ctx,
							    struct doca_flow_pipe_entry **entry)
{
	(void)pipe_queue, (void)pipe, (void)match, (void)match_mask, (void)action_idx, (void)actions, (void)priority,
	    (void)fwd, (void)flags, (void)usr_ctx, (void)entry;
	return FLOW_NS("doca_flow_pipe_acl_add_entry: ACL pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_acl_update_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							       uint8_t action_idx,
							       const struct doca_flow_actions *actions,
							       const struct doca_flow_fwd *fwd, uint32_t flags,
							       struct doca_flow_pipe_entry *entry)
{
	(void)pipe_queue, (void)pipe, (void)action_idx, (void)actions, (void)fwd, (void)flags, (void)entry;
	return FLOW_NS("doca_flow_pipe_acl_update_entry: ACL pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_hash_add_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							     uint32_t entry_index, uint8_t action_idx,
							     const struct doca_flow_actions *actions,
							     const struct doca_flow_monitor *monitor,
							     const struct doca_flow_fwd *fwd, uint32_t flags,
							     void *usr_ctx, struct doca_flow_pipe_entry **entry)
{
	(void)pipe_queue, (void)pipe, (void)entry_index, (void)action_idx, (void)actions, (void)monitor, (void)fwd,
	    (void)flags, (void)usr_ctx, (void)entry;
	return FLOW_NS("doca_flow_pipe_hash_add_entry: HASH pipes");
}

DOCA_STABLE doca_error_t doca_flow_entries_process(struct doca_flow_port *port, uint16_t pipe_queue, uint64_t timeout,
						   uint32_t max_processed_entries)
{
	struct flow_pending *list = NULL, **tail = &list;
	doca_flow_entry_process_cb cb;
	uint32_t n = 0;

	(void)timeout; /* entries are in effect already: nothing to wait for */
	pthread_mutex_lock(&flow_lock);
	if (port == NULL || !flow_port_is_started(port) || pipe_queue >= flow_g.pipe_queues) {
		pthread_mutex_unlock(&flow_lock);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_entries_process: %s; pass a started port and a queue below %u",
				 port == NULL || !flow_port_is_started(port) ? "not a started port"
									     : "pipe_queue out of range",
				 flow_g.pipe_queues);
	}
	/* Take the reports out, then call back without the lock (the callback may add entries). */
	while (port->pending[pipe_queue] != NULL && (max_processed_entries == 0 || n < max_processed_entries)) {
		struct flow_pending *p = port->pending[pipe_queue];

		port->pending[pipe_queue] = p->next;
		p->next = NULL;
		*tail = p;
		tail = &p->next;
		n++;
	}
	if (port->pending[pipe_queue] == NULL)
		port->pending_tail[pipe_queue] = &port->pending[pipe_queue];
	cb = flow_g.entry_cb;
	pthread_mutex_unlock(&flow_lock);
	while (list != NULL) {
		struct flow_pending *p = list;

		list = p->next;
		if (cb != NULL)
			cb(p->entry, pipe_queue, DOCA_FLOW_ENTRY_STATUS_SUCCESS, p->op, p->usr_ctx);
		free(p);
	}
	return DOCA_SUCCESS;
}

DOCA_STABLE enum doca_flow_entry_status doca_flow_pipe_entry_get_status(struct doca_flow_pipe_entry *entry)
{
	_Atomic(struct doca_flow_pipe_entry *) *link;
	enum doca_flow_entry_status st;

	pthread_mutex_lock(&flow_lock);
	st = entry_is_live(entry, &link) ? DOCA_FLOW_ENTRY_STATUS_SUCCESS : DOCA_FLOW_ENTRY_STATUS_ERROR;
	pthread_mutex_unlock(&flow_lock);
	if (st == DOCA_FLOW_ENTRY_STATUS_ERROR)
		SD_ERR(FLOW_COMP, "doca_flow_pipe_entry_get_status: %p is not a live entry; status ERROR",
		       (void *)entry);
	return st;
}

DOCA_STABLE int doca_flow_aging_handle(struct doca_flow_port *port, uint16_t queue, uint64_t quota,
				       uint64_t max_entries)
{
	(void)port;
	(void)queue;
	(void)quota;
	(void)max_entries;
	return -1; /* no aging: every cycle is complete at once */
}

/* ---- queries ---- */

DOCA_STABLE doca_error_t doca_flow_resource_query_entry(struct doca_flow_pipe_entry *entry,
							struct doca_flow_resource_query *data)
{
	_Atomic(struct doca_flow_pipe_entry *) *link;
	doca_error_t err = DOCA_SUCCESS;

	if (data == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_resource_query_entry: NULL data; pass a struct doca_flow_resource_query");
	pthread_mutex_lock(&flow_lock);
	if (!entry_is_live(entry, &link))
		err = SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_resource_query_entry: %p is not a live entry; pass a handle an add call returned",
		    (void *)entry);
	else if (!entry->counted)
		err =
		    SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			      "doca_flow_resource_query_entry: the entry has no counter; give its pipe or the entry a "
			      "monitor with counter_type = DOCA_FLOW_RESOURCE_TYPE_NON_SHARED");
	else {
		memset(data, 0, sizeof(*data));
		data->counter.total_pkts = atomic_load_explicit(&entry->pkts, memory_order_relaxed);
		data->counter.total_bytes = atomic_load_explicit(&entry->bytes, memory_order_relaxed);
	}
	pthread_mutex_unlock(&flow_lock);
	return err;
}

DOCA_STABLE doca_error_t doca_flow_resource_query_pipe_miss(struct doca_flow_pipe *pipe,
							    struct doca_flow_resource_query *data)
{
	doca_error_t err = DOCA_SUCCESS;

	if (data == NULL)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_resource_query_pipe_miss: NULL data; pass a struct doca_flow_resource_query");
	pthread_mutex_lock(&flow_lock);
	if (!flow_pipe_is_live(pipe))
		err = SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_resource_query_pipe_miss: not a live pipe; pass one doca_flow_pipe_create made");
	else if (!pipe->miss_counted)
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"doca_flow_resource_query_pipe_miss: pipe \"%s\" counts no misses; call "
				"doca_flow_pipe_cfg_set_miss_counter(cfg, true) before creating it",
				pipe->name);
	else {
		memset(data, 0, sizeof(*data));
		data->counter.total_pkts = atomic_load_explicit(&pipe->miss_pkts, memory_order_relaxed);
		data->counter.total_bytes = atomic_load_explicit(&pipe->miss_bytes, memory_order_relaxed);
	}
	pthread_mutex_unlock(&flow_lock);
	return err;
}
