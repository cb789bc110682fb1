/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipe.c - pipes and their entries: configuration, creation, entry add/remove (published for
 * the lock-free receive path, flow_internal.h), processing, queries.
 */
#include <stdlib.h>
#include <string.h>

#include "flow_internal.h"

#define NS(what)                                                                                                       \
	SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, FLOW_COMP,                                                                 \
		  "%s: not supported by softdoca's DOCA Flow subset (README \"DOCA Flow\")", what)

#define FLOW_DEFAULT_ENTRIES 8192
#define FLOW_MAX_ENTRIES     (1u << 24)

struct doca_flow_pipe_cfg {
	struct doca_flow_port *port;
	char name[64];
	enum doca_flow_pipe_type type;
	bool is_root;
	bool has_match, has_mask;
	struct doca_flow_match match, mask;
	uint32_t nr_actions;
	struct doca_flow_actions actions[FLOW_MAX_ACTIONS];
	bool has_amask[FLOW_MAX_ACTIONS];
	struct doca_flow_actions amask[FLOW_MAX_ACTIONS];
	bool has_monitor;
	struct doca_flow_monitor monitor;
	uint32_t nr_entries;
	bool miss_counter;
	void *user_ctx;
};

#define PIPE_CFG_CHECK(fn)                                                                                             \
	do {                                                                                                           \
		if (cfg == NULL)                                                                                       \
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,                                          \
					 fn ": NULL pipe cfg; create one with doca_flow_pipe_cfg_create");             \
	} while (0)

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_create(struct doca_flow_pipe_cfg **cfg, struct doca_flow_port *port)
{
	if (cfg == NULL || port == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_create: NULL %s; pass a cfg pointer and a started port",
				 cfg == NULL ? "cfg pointer" : "port");
	*cfg = calloc(1, sizeof(**cfg));
	if (*cfg == NULL)
		return DOCA_ERROR_NO_MEMORY;
	(*cfg)->port = port;
	(*cfg)->nr_entries = FLOW_DEFAULT_ENTRIES;
	strcpy((*cfg)->name, "pipe");
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_destroy(struct doca_flow_pipe_cfg *cfg)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_destroy");
	free(cfg);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_match(struct doca_flow_pipe_cfg *cfg,
						      const struct doca_flow_match *match,
						      const struct doca_flow_match *match_mask)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_match");
	cfg->has_match = match != NULL;
	if (match != NULL)
		cfg->match = *match;
	else
		memset(&cfg->match, 0, sizeof(cfg->match));
	cfg->has_mask = match_mask != NULL;
	if (match_mask != NULL)
		cfg->mask = *match_mask;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_actions(struct doca_flow_pipe_cfg *cfg,
							struct doca_flow_actions *const *actions,
							struct doca_flow_actions *const *actions_masks,
							struct doca_flow_action_descs *const *action_descs,
							size_t nr_actions)
{
	doca_error_t err;

	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_actions");
	if (actions == NULL || nr_actions == 0 || nr_actions > FLOW_MAX_ACTIONS)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_set_actions: %zu actions%s; pass 1..%u action templates",
				 nr_actions, actions == NULL ? " (NULL array)" : "", FLOW_MAX_ACTIONS);
	for (size_t i = 0; i < nr_actions; i++) {
		if (actions[i] == NULL)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "doca_flow_pipe_cfg_set_actions: actions[%zu] is NULL; give every template",
					 i);
		if (action_descs != NULL && action_descs[i] != NULL && action_descs[i]->nb_action_desc != 0)
			return NS("doca_flow_pipe_cfg_set_actions: action descriptors (copy/add field operations)");
		err = flow_actions_check("doca_flow_pipe_cfg_set_actions", actions[i], "actions");
		if (err == DOCA_SUCCESS && actions_masks != NULL)
			err = flow_actions_check("doca_flow_pipe_cfg_set_actions", actions_masks[i], "actions_masks");
		if (err != DOCA_SUCCESS)
			return err;
	}
	cfg->nr_actions = (uint32_t)nr_actions;
	for (size_t i = 0; i < nr_actions; i++) {
		cfg->actions[i] = *actions[i];
		cfg->has_amask[i] = actions_masks != NULL && actions_masks[i] != NULL;
		if (cfg->has_amask[i])
			cfg->amask[i] = *actions_masks[i];
	}
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_monitor(struct doca_flow_pipe_cfg *cfg,
							const struct doca_flow_monitor *monitor)
{
	bool counted;
	doca_error_t err;

	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_monitor");
	if (monitor == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_set_monitor: NULL monitor; pass one");
	err = flow_monitor_compile("doca_flow_pipe_cfg_set_monitor", monitor, &counted);
	if (err != DOCA_SUCCESS)
		return err;
	cfg->has_monitor = true;
	cfg->monitor = *monitor;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_ordered_lists(struct doca_flow_pipe_cfg *cfg,
							      struct doca_flow_ordered_list *const *ordered_lists,
							      size_t nr_ordered_lists)
{
	(void)ordered_lists;
	(void)nr_ordered_lists;
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_ordered_lists");
	return NS("doca_flow_pipe_cfg_set_ordered_lists: ordered list pipes");
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_name(struct doca_flow_pipe_cfg *cfg, const char *name)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_name");
	if (name == NULL || name[0] == '\0')
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_set_name: empty name; pass a string");
	snprintf(cfg->name, sizeof(cfg->name), "%s", name);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_cfg_set_label(struct doca_flow_pipe_cfg *cfg, const char *label)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_label");
	if (label == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_set_label: NULL label; pass a string");
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_type(struct doca_flow_pipe_cfg *cfg, enum doca_flow_pipe_type type)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_type");
	if (type == DOCA_FLOW_PIPE_BASIC || type == DOCA_FLOW_PIPE_CONTROL) {
		cfg->type = type;
		return DOCA_SUCCESS;
	}
	if (type >= DOCA_FLOW_PIPE_LPM && type <= DOCA_FLOW_PIPE_HASH)
		return NS("doca_flow_pipe_cfg_set_type: LPM, CT, ACL, ORDERED_LIST and HASH pipes");
	return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
			 "doca_flow_pipe_cfg_set_type: type %d unknown; use DOCA_FLOW_PIPE_*", type);
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_domain(struct doca_flow_pipe_cfg *cfg,
						       enum doca_flow_pipe_domain domain)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_domain");
	if (domain == DOCA_FLOW_PIPE_DOMAIN_DEFAULT)
		return DOCA_SUCCESS;
	if (domain <= DOCA_FLOW_PIPE_DOMAIN_SECURE_EGRESS)
		return NS("doca_flow_pipe_cfg_set_domain: egress and secure domains (steering is ingress only)");
	return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP, "doca_flow_pipe_cfg_set_domain: domain %d unknown",
			 domain);
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_is_root(struct doca_flow_pipe_cfg *cfg, bool is_root)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_is_root");
	cfg->is_root = is_root;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_nr_entries(struct doca_flow_pipe_cfg *cfg, uint32_t nr_entries)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_nr_entries");
	if (nr_entries == 0 || nr_entries > FLOW_MAX_ENTRIES)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_set_nr_entries: %u entries; use 1..%u", nr_entries,
				 FLOW_MAX_ENTRIES);
	cfg->nr_entries = nr_entries;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_is_resizable(struct doca_flow_pipe_cfg *cfg, bool is_resizable)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_is_resizable");
	if (is_resizable)
		return NS("doca_flow_pipe_cfg_set_is_resizable: resizable pipes");
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_cfg_set_excluded_queue(struct doca_flow_pipe_cfg *cfg,
								     uint16_t pipe_queue)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_excluded_queue");
	(void)pipe_queue; /* every queue is served the same way */
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_miss_counter(struct doca_flow_pipe_cfg *cfg, bool miss_counter)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_miss_counter");
	cfg->miss_counter = miss_counter;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_congestion_level_threshold(struct doca_flow_pipe_cfg *cfg,
									   uint8_t congestion_level_threshold)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_congestion_level_threshold");
	if (congestion_level_threshold > 100)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_pipe_cfg_set_congestion_level_threshold: %u%%; use 0..100",
				 congestion_level_threshold);
	return DOCA_SUCCESS; /* pipes are not resized: the level is never reached */
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_user_ctx(struct doca_flow_pipe_cfg *cfg, void *user_ctx)
{
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_user_ctx");
	cfg->user_ctx = user_ctx;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_cfg_set_hash_map_algorithm(struct doca_flow_pipe_cfg *cfg,
								   uint32_t algorithm_flags)
{
	(void)algorithm_flags;
	PIPE_CFG_CHECK("doca_flow_pipe_cfg_set_hash_map_algorithm");
	return NS("doca_flow_pipe_cfg_set_hash_map_algorithm: HASH pipes");
}

/* ---- pipes ---- */

static bool port_is_started(const struct doca_flow_port *port)
{
	for (const struct doca_flow_port *p = flow_g.ports; p != NULL; p = p->next)
		if (p == port)
			return true;
	return false;
}

static unsigned int key_words(const struct flow_key *mask, uint8_t *words)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < FLOW_KEY_WORDS; i++)
		if (mask->w[i] != 0)
			words[n++] = (uint8_t)i;
	return n;
}

static struct doca_flow_pipe_entry *entry_alloc(struct doca_flow_pipe *pipe)
{
	struct doca_flow_pipe_entry *e = pipe->free_list;

	if (e == NULL)
		return NULL;
	pipe->free_list = e->free_next;
	memset(e, 0, sizeof(*e));
	e->pipe = pipe;
	return e;
}

/* Back to its slab; unreachable for receivers already (unlinked, then a slot sync). */
static void entry_free(struct doca_flow_pipe_entry *e)
{
	struct doca_flow_pipe *pipe = e->pipe;

	flow_fwd_release(&e->fwd);
	e->in_use = false;
	e->free_next = pipe->free_list;
	pipe->free_list = e;
}

static void ctl_index_free(struct ctl_index *ix);

/* Frees what the pipe owns; its entries must be unreachable already. */
static void pipe_free(struct doca_flow_pipe *pipe)
{
	if (pipe->type == DOCA_FLOW_PIPE_BASIC && pipe->buckets != NULL) {
		for (uint32_t b = 0; b < pipe->nb_buckets; b++) {
			struct doca_flow_pipe_entry *e = atomic_load(&pipe->buckets[b]), *n;

			for (; e != NULL; e = n) {
				n = atomic_load(&e->next);
				entry_free(e);
			}
		}
	} else {
		struct doca_flow_pipe_entry *e = atomic_load(&pipe->head), *n;

		for (; e != NULL; e = n) {
			n = atomic_load(&e->next);
			entry_free(e);
		}
	}
	flow_fwd_release(&pipe->fwd);
	flow_fwd_release(&pipe->miss);
	ctl_index_free(atomic_exchange(&pipe->index, NULL));
	free(pipe->buckets);
	free(pipe->slab);
	free(pipe);
}

void flow_port_free_pipes(struct doca_flow_port *port)
{
	struct doca_flow_pipe *p, *n;

	flow_g.tearing = true;
	for (p = port->pipes; p != NULL; p = n) {
		n = p->next_in_port;
		pipe_free(p);
	}
	flow_g.tearing = false;
	port->pipes = NULL;
	atomic_store(&port->root, NULL);
}

static doca_error_t pipe_actions(const struct doca_flow_pipe_cfg *cfg, struct doca_flow_pipe *pipe)
{
	pipe->nr_actions = cfg->nr_actions;
	for (uint32_t i = 0; i < cfg->nr_actions; i++) {
		uint32_t v = __builtin_bswap32(cfg->actions[i].meta.pkt_meta);
		uint32_t m = cfg->has_amask[i] ? __builtin_bswap32(cfg->amask[i].meta.pkt_meta) : UINT32_MAX;

		if (cfg->has_amask[i] ? m == 0 : v == 0)
			continue;
		pipe->actions[i].set = true;
		pipe->actions[i].from_entry = v == UINT32_MAX;
		pipe->actions[i].val = v & m;
		pipe->actions[i].mask = m;
	}
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_flow_pipe_create(const struct doca_flow_pipe_cfg *cfg, const struct doca_flow_fwd *fwd,
					       const struct doca_flow_fwd *fwd_miss, struct doca_flow_pipe **pipe)
{
	static const char what[] = "doca_flow_pipe_create";
	struct doca_flow_pipe *p = NULL;
	doca_error_t err;

	if (cfg == NULL || pipe == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP, "%s: NULL %s; pass a pipe cfg and a pipe pointer",
				 what, cfg == NULL ? "cfg" : "pipe pointer");
	pthread_mutex_lock(&flow_lock);
	if (!port_is_started(cfg->port)) {
		err = SD_REJECT(
		    DOCA_ERROR_BAD_STATE, FLOW_COMP,
		    "%s: pipe \"%s\": its port is not started; create pipes between doca_flow_port_start and _stop",
		    what, cfg->name);
		goto fail;
	}
	if (cfg->is_root && atomic_load(&cfg->port->root) != NULL) {
		err = SD_REJECT(DOCA_ERROR_ALREADY_EXIST, FLOW_COMP,
				"%s: pipe \"%s\": port %u has a root pipe (\"%s\") already; make this one non-root and "
				"forward to it",
				what, cfg->name, cfg->port->port_id, atomic_load(&cfg->port->root)->name);
		goto fail;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		err = DOCA_ERROR_NO_MEMORY;
		goto fail;
	}
	p->port = cfg->port;
	memcpy(p->name, cfg->name, sizeof(p->name));
	p->type = cfg->type;
	p->is_root = cfg->is_root;
	p->nr_entries_max = cfg->nr_entries;
	p->miss_counted = cfg->miss_counter;
	p->user_ctx = cfg->user_ctx;
	err = flow_monitor_compile(what, cfg->has_monitor ? &cfg->monitor : NULL, &p->counted);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (cfg->type == DOCA_FLOW_PIPE_BASIC) {
		err = flow_spec_compile(what, cfg->has_match ? &cfg->match : NULL, cfg->has_mask ? &cfg->mask : NULL,
					SPEC_TEMPLATE, NULL, &p->tmpl);
		if (err != DOCA_SUCCESS)
			goto fail;
		if (cfg->has_match) {
			p->sel.l3_type = cfg->match.outer.l3_type;
			p->sel.l4_type_ext = cfg->match.outer.l4_type_ext;
			p->sel.l2_valid_headers = cfg->match.outer.l2_valid_headers;
		}
		p->nb_words = (uint8_t)key_words(&p->tmpl.mask, p->words);
		p->nb_buckets = 16;
		while (p->nb_buckets < 2 * p->nr_entries_max && p->nb_buckets < (1u << 21))
			p->nb_buckets <<= 1;
		p->buckets = calloc(p->nb_buckets, sizeof(*p->buckets));
		if (p->buckets == NULL) {
			err = DOCA_ERROR_NO_MEMORY;
			goto fail;
		}
		err = pipe_actions(cfg, p);
		if (err != DOCA_SUCCESS)
			goto fail;
	} else if (cfg->nr_actions != 0) {
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"%s: CONTROL pipe \"%s\" with action templates; give each entry its actions instead",
				what, cfg->name);
		goto fail;
	}
	p->slab = sd_calloc_lines(p->nr_entries_max, sizeof(*p->slab));
	if (p->slab == NULL) {
		err = DOCA_ERROR_NO_MEMORY;
		goto fail;
	}
	for (uint32_t i = p->nr_entries_max; i-- > 0;) {
		p->slab[i].pipe = p;
		p->slab[i].free_next = p->free_list;
		p->free_list = &p->slab[i];
	}
	err = flow_fwd_compile(what, p->port, fwd, FWD_CTX_PIPE, &p->fwd, &p->fwd_from_entry);
	if (err != DOCA_SUCCESS)
		goto fail;
	err = flow_fwd_compile(what, p->port, fwd_miss, FWD_CTX_MISS, &p->miss, NULL);
	if (err != DOCA_SUCCESS)
		goto fail;
	p->next_in_port = p->port->pipes;
	p->port->pipes = p;
	if (p->is_root)
		atomic_store_explicit(&p->port->root, p, memory_order_release);
	*pipe = p;
	pthread_mutex_unlock(&flow_lock);
	return DOCA_SUCCESS;
fail:
	if (p != NULL) {
		flow_fwd_release(&p->fwd);
		flow_fwd_release(&p->miss);
		free(p->buckets);
		free(p->slab);
		free(p);
	}
	pthread_mutex_unlock(&flow_lock);
	return err;
}

/* By address only: a stale handle is never read. */
static bool pipe_is_live(const struct doca_flow_pipe *pipe)
{
	for (const struct doca_flow_port *port = flow_g.ports; port != NULL; port = port->next)
		for (const struct doca_flow_pipe *p = port->pipes; p != NULL; p = p->next_in_port)
			if (p == pipe)
				return !atomic_load(&p->dead);
	return false;
}

static void unlink_all_entries(struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry **list)
{
	*list = NULL;
	if (pipe->type == DOCA_FLOW_PIPE_BASIC) {
		for (uint32_t b = 0; b < pipe->nb_buckets; b++) {
			struct doca_flow_pipe_entry *e = atomic_exchange(&pipe->buckets[b], NULL), *n;

			for (; e != NULL; e = n) {
				n = atomic_load(&e->next);
				atomic_store(&e->next, *list);
				*list = e;
			}
		}
	} else {
		*list = atomic_exchange(&pipe->head, NULL);
	}
	pipe->nr_entries = 0;
}

DOCA_STABLE void doca_flow_pipe_destroy(struct doca_flow_pipe *pipe)
{
	struct doca_flow_pipe_entry *list, *n;
	struct doca_flow_port *port;
	struct ctl_index *index;

	pthread_mutex_lock(&flow_lock);
	if (!pipe_is_live(pipe)) {
		SD_ERR(FLOW_COMP,
		       "doca_flow_pipe_destroy: %p is not a live pipe of a started port (destroyed twice?); "
		       "ignored",
		       (void *)pipe);
		goto out;
	}
	port = pipe->port;
	atomic_store(&pipe->dead, true);
	if (atomic_load(&port->root) == pipe)
		atomic_store(&port->root, NULL);
	unlink_all_entries(pipe, &list);
	index = atomic_exchange(&pipe->index, NULL);
	flow_slot_sync(port->slot);
	ctl_index_free(index);
	for (; list != NULL; list = n) {
		n = atomic_load(&list->next);
		entry_free(list);
	}
	/*
	 * Its own forwards go now; the pipe itself stays (dropping what still reaches it) while
	 * other pipes forward to it, and is freed with the port.
	 */
	flow_fwd_release(&pipe->fwd);
	flow_fwd_release(&pipe->miss);
	if (pipe->refs == 0) {
		struct doca_flow_pipe **pp;

		for (pp = &port->pipes; *pp != pipe; pp = &(*pp)->next_in_port)
			;
		*pp = pipe->next_in_port;
		free(pipe->buckets);
		free(pipe->slab);
		free(pipe);
	}
out:
	pthread_mutex_unlock(&flow_lock);
}

DOCA_STABLE void doca_flow_port_pipes_flush(struct doca_flow_port *port)
{
	pthread_mutex_lock(&flow_lock);
	if (port == NULL || !port_is_started(port)) {
		SD_ERR(FLOW_COMP, "doca_flow_port_pipes_flush: %p is not a started port; ignored", (void *)port);
	} else {
		atomic_store(&port->root, NULL);
		for (struct doca_flow_pipe *p = port->pipes; p != NULL; p = p->next_in_port)
			atomic_store(&p->dead, true);
		flow_slot_sync(port->slot);
		flow_port_free_pipes(port);
	}
	pthread_mutex_unlock(&flow_lock);
}

DOCA_STABLE doca_error_t doca_flow_pipe_resize(struct doca_flow_pipe *pipe, uint8_t new_congestion_level,
					       doca_flow_pipe_resize_nr_entries_changed_cb nr_entries_changed_cb,
					       doca_flow_pipe_resize_entry_relocate_cb entry_relocation_cb)
{
	(void)pipe;
	(void)new_congestion_level;
	(void)nr_entries_changed_cb;
	(void)entry_relocation_cb;
	return NS("doca_flow_pipe_resize: resizable pipes");
}

DOCA_EXPERIMENTAL void doca_flow_pipe_dump(struct doca_flow_pipe *pipe, FILE *f)
{
	pthread_mutex_lock(&flow_lock);
	if (f != NULL && pipe_is_live(pipe))
		fprintf(f, "pipe \"%s\": %s%s, %u entries of %u, fwd %d, miss %d\n", pipe->name,
			pipe->type == DOCA_FLOW_PIPE_BASIC ? "basic" : "control", pipe->is_root ? " root" : "",
			pipe->nr_entries, pipe->nr_entries_max, pipe->fwd.kind, pipe->miss.kind);
	pthread_mutex_unlock(&flow_lock);
}

DOCA_STABLE doca_error_t doca_flow_pipe_update_miss(struct doca_flow_pipe *pipe, const struct doca_flow_fwd *fwd_miss)
{
	struct flow_fwd nf, old;
	doca_error_t err;

	pthread_mutex_lock(&flow_lock);
	if (!pipe_is_live(pipe)) {
		err = SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				"doca_flow_pipe_update_miss: not a live pipe; pass one doca_flow_pipe_create made");
		goto out;
	}
	err = flow_fwd_compile("doca_flow_pipe_update_miss", pipe->port, fwd_miss, FWD_CTX_MISS, &nf, NULL);
	if (err != DOCA_SUCCESS)
		goto out;
	/* Receivers read the miss forward as a whole: make it unreachable, wait, swap, publish. */
	old = pipe->miss;
	atomic_store(&pipe->dead, true);
	flow_slot_sync(pipe->port->slot);
	pipe->miss = nf;
	atomic_store(&pipe->dead, false);
	flow_fwd_release(&old);
out:
	pthread_mutex_unlock(&flow_lock);
	return err;
}

DOCA_STABLE doca_error_t doca_flow_pipe_calc_hash(struct doca_flow_pipe *pipe, const struct doca_flow_match *match,
						  uint32_t *hash)
{
	(void)pipe;
	(void)match;
	(void)hash;
	return NS("doca_flow_pipe_calc_hash: HASH pipes");
}

/* ---- CONTROL index ---- */

struct ctl_index *flow_ctl_index_build(const struct doca_flow_pipe *pipe)
{
	struct doca_flow_pipe_entry *e;
	struct ctl_index *ix;
	uint32_t n = 0, ng = 0, *gof = NULL, *gsize = NULL, *tail = NULL, nb_b = 0;
	struct doca_flow_pipe_entry **list = NULL;

	for (e = atomic_load(&pipe->head); e != NULL; e = atomic_load(&e->next))
		n++;
	if (n == 0)
		return NULL; /* nothing to index: a scan of the empty list is as fast */
	ix = calloc(1, sizeof(*ix));
	list = calloc(n + 1, sizeof(*list));
	gof = calloc(n + 1, sizeof(*gof)); /* each entry's group */
	if (ix == NULL || list == NULL || gof == NULL)
		goto fail;
	ix->groups = calloc(n + 1, sizeof(*ix->groups));
	gsize = calloc(n + 1, sizeof(*gsize));
	if (ix->groups == NULL || gsize == NULL)
		goto fail;
	n = 0;
	for (e = atomic_load(&pipe->head); e != NULL; e = atomic_load(&e->next)) {
		uint32_t g;

		for (g = 0; g < ng; g++)
			if (memcmp(&ix->groups[g].mask, &e->mask, sizeof(e->mask)) == 0)
				break;
		if (g == ng) {
			ix->groups[g].mask = e->mask;
			memcpy(ix->groups[g].words, e->words, sizeof(e->words));
			ix->groups[g].nb_words = e->nb_words;
			ix->groups[g].min_rank = n; /* the list is in rank order: the first entry is the best */
			ng++;
		}
		gof[n] = g;
		gsize[g]++;
		list[n++] = e;
	}
	for (uint32_t g = 0; g < ng; g++) {
		uint32_t b = 4;

		while (b < 2 * gsize[g])
			b <<= 1;
		ix->groups[g].nb_buckets = b;
		nb_b += b;
	}
	ix->slots = calloc(n + 1, sizeof(*ix->slots));
	tail = malloc(((size_t)nb_b + 1) * sizeof(*tail));
	ix->bucket_mem = malloc((size_t)nb_b * sizeof(uint32_t));
	if (ix->slots == NULL || tail == NULL || ix->bucket_mem == NULL)
		goto fail;
	memset(ix->bucket_mem, 0xff, (size_t)nb_b * sizeof(uint32_t));
	memset(tail, 0xff, ((size_t)nb_b + 1) * sizeof(*tail));
	ix->groups[0].buckets = ix->bucket_mem;
	for (uint32_t g = 1; g < ng; g++)
		ix->groups[g].buckets = ix->groups[g - 1].buckets + ix->groups[g - 1].nb_buckets;
	for (uint32_t i = 0; i < n; i++) {
		struct ctl_group *gr = &ix->groups[gof[i]];
		struct ctl_slot *sl = &ix->slots[i];
		uint32_t b, tb;

		sl->key = list[i]->key;
		sl->hash = flow_key_hash(&sl->key, gr->words, gr->nb_words);
		sl->rank = i;
		sl->next = UINT32_MAX;
		sl->entry = list[i];
		b = (uint32_t)(sl->hash & (gr->nb_buckets - 1));
		tb = (uint32_t)(gr->buckets - ix->bucket_mem) + b;
		/* Appended in rank order: each chain stays sorted by rank. */
		if (tail[tb] == UINT32_MAX)
			gr->buckets[b] = i;
		else
			ix->slots[tail[tb]].next = i;
		tail[tb] = i;
	}
	/* Groups by their best rank (insertion sort: few groups). */
	for (uint32_t g = 1; g < ng; g++) {
		struct ctl_group t = ix->groups[g];
		uint32_t j = g;

		for (; j > 0 && ix->groups[j - 1].min_rank > t.min_rank; j--)
			ix->groups[j] = ix->groups[j - 1];
		ix->groups[j] = t;
	}
	ix->nb_groups = ng;
	ix->nb_slots = n;
	free(list);
	free(gof);
	free(gsize);
	free(tail);
	return ix;
fail:
	if (ix != NULL) {
		free(ix->bucket_mem);
		free(ix->slots);
		free(ix->groups);
		free(ix);
	}
	free(list);
	free(gof);
	free(gsize);
	free(tail);
	SD_WARN(FLOW_COMP, "pipe \"%s\": out of memory for the CONTROL index; lookups scan the list", pipe->name);
	return NULL;
}

static void ctl_index_free(struct ctl_index *ix)
{
	if (ix == NULL)
		return;
	free(ix->bucket_mem);
	free(ix->groups);
	free(ix->slots);
	free(ix);
}

/* Publishes the index of the pipe's list now; the old one goes once no receiver can hold it. */
static void ctl_index_republish(struct doca_flow_pipe *pipe)
{
	struct ctl_index *old;

	old = atomic_exchange(&pipe->index, flow_ctl_index_build(pipe));
	if (old != NULL) {
		flow_slot_sync(pipe->port->slot);
		ctl_index_free(old);
	}
}

/* ---- entries ---- */

static doca_error_t entry_common_checks(const char *what, uint16_t pipe_queue, struct doca_flow_pipe *pipe,
					enum doca_flow_pipe_type type, struct doca_flow_pipe_entry **entry)
{
	if (entry == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: NULL entry pointer; pass the address of a struct doca_flow_pipe_entry *", what);
	if (!pipe_is_live(pipe))
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
	e = entry_alloc(pipe);
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
		entry_free(e);
	pthread_mutex_unlock(&flow_lock);
	return err;
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
		err = NS("doca_flow_pipe_control_add_entry: match conditions (field comparisons)");
		goto fail;
	}
	if (action_descs != NULL && action_descs->nb_action_desc != 0) {
		err = NS("doca_flow_pipe_control_add_entry: action descriptors (copy/add field operations)");
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
	e = entry_alloc(pipe);
	e->usr_ctx = usr_ctx;
	e->priority = priority;
	e->counted = counted || pipe->counted;
	e->key = spec.val;
	e->mask = spec.mask;
	e->nb_words = (uint8_t)key_words(&e->mask, e->words);
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
	ctl_index_republish(pipe);
	pending_push(pipe->port, pipe_queue, e, usr_ctx, DOCA_FLOW_ENTRY_OP_ADD);
	*entry = e;
	pthread_mutex_unlock(&flow_lock);
	return DOCA_SUCCESS;
fail:
	if (e != NULL)
		entry_free(e);
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
		ctl_index_republish(entry->pipe);
	flow_slot_sync(entry->pipe->port->slot); /* unreachable through the list and the index */
	pending_push(entry->pipe->port, pipe_queue, entry, entry->usr_ctx, DOCA_FLOW_ENTRY_OP_DEL);
	entry_free(entry);
out:
	pthread_mutex_unlock(&flow_lock);
	return err;
}

static doca_error_t update_ns(const char *what)
{
	return NS(what);
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
	return NS("doca_flow_pipe_lpm_add_entry: LPM pipes");
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
	return NS("doca_flow_pipe_lpm_update_entry: LPM pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_ordered_list_add_entry(
    uint16_t pipe_queue, struct doca_flow_pipe *pipe, uint32_t idx, const struct doca_flow_ordered_list *ordered_list,
    const struct doca_flow_fwd *fwd, uint32_t flags, void *user_ctx, struct doca_flow_pipe_entry **entry)
{
	(void)pipe_queue, (void)pipe, (void)idx, (void)ordered_list, (void)fwd, (void)flags, (void)user_ctx,
	    (void)entry;
	return NS("doca_flow_pipe_ordered_list_add_entry: ordered list pipes");
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
	return NS("doca_flow_pipe_acl_add_entry: ACL pipes");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_pipe_acl_update_entry(uint16_t pipe_queue, struct doca_flow_pipe *pipe,
							       uint8_t action_idx,
							       const struct doca_flow_actions *actions,
							       const struct doca_flow_fwd *fwd, uint32_t flags,
							       struct doca_flow_pipe_entry *entry)
{
	(void)pipe_queue, (void)pipe, (void)action_idx, (void)actions, (void)fwd, (void)flags, (void)entry;
	return NS("doca_flow_pipe_acl_update_entry: ACL pipes");
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
	return NS("doca_flow_pipe_hash_add_entry: HASH pipes");
}

DOCA_STABLE doca_error_t doca_flow_entries_process(struct doca_flow_port *port, uint16_t pipe_queue, uint64_t timeout,
						   uint32_t max_processed_entries)
{
	struct flow_pending *list = NULL, **tail = &list;
	doca_flow_entry_process_cb cb;
	uint32_t n = 0;

	(void)timeout; /* entries are in effect already: nothing to wait for */
	pthread_mutex_lock(&flow_lock);
	if (port == NULL || !port_is_started(port) || pipe_queue >= flow_g.pipe_queues) {
		pthread_mutex_unlock(&flow_lock);
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_entries_process: %s; pass a started port and a queue below %u",
				 port == NULL || !port_is_started(port) ? "not a started port"
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
	if (!pipe_is_live(pipe))
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

/* ---- helpers ---- */

DOCA_EXPERIMENTAL doca_error_t doca_flow_mpls_label_encode(uint32_t label, uint8_t traffic_class, uint8_t ttl,
							   bool bottom_of_stack, struct doca_flow_header_mpls *mpls)
{
	if (mpls == NULL || label >= (1u << 20) || traffic_class >= 8)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
		    "doca_flow_mpls_label_encode: label %u (20 bits), traffic class %u (3 bits)%s; stay in range",
		    label, traffic_class, mpls == NULL ? ", NULL output" : "");
	mpls->label =
	    __builtin_bswap32(label << 12 | (uint32_t)traffic_class << 9 | (bottom_of_stack ? 1u << 8 : 0) | ttl);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_mpls_label_decode(const struct doca_flow_header_mpls *mpls, uint32_t *label,
							   uint8_t *traffic_class, uint8_t *ttl, bool *bottom_of_stack)
{
	uint32_t v;

	if (mpls == NULL || label == NULL || traffic_class == NULL || ttl == NULL || bottom_of_stack == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "doca_flow_mpls_label_decode: NULL argument; pass every output");
	v = __builtin_bswap32(mpls->label);
	*label = v >> 12;
	*traffic_class = (uint8_t)((v >> 9) & 7);
	*bottom_of_stack = (v >> 8) & 1;
	*ttl = (uint8_t)v;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_parser_geneve_opt_create(
    const struct doca_flow_port *port, const struct doca_flow_parser_geneve_opt_cfg tlv_list[], uint8_t nb_options,
    struct doca_flow_parser **parser)
{
	(void)port;
	(void)tlv_list;
	(void)nb_options;
	(void)parser;
	return NS("doca_flow_parser_geneve_opt_create: GENEVE options");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_parser_geneve_opt_destroy(struct doca_flow_parser *parser)
{
	(void)parser;
	return NS("doca_flow_parser_geneve_opt_destroy: GENEVE options");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_get_target(enum doca_flow_target_type type, struct doca_flow_target **target)
{
	(void)type;
	(void)target;
	return NS("doca_flow_get_target: forwarding to the kernel");
}
