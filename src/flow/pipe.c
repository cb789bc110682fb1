/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipe.c - pipes: creation (from a pipe_cfg.c configuration), destruction, flush, resize and miss
 * updates, and the index of a CONTROL pipe's entries published for the lock-free receive path
 * (flow_internal.h). The entries themselves are in pipe_entry.c.
 */
#include <stdlib.h>
#include <string.h>

#include "flow_internal.h"

/* ---- pipes ---- */

bool flow_port_is_started(const struct doca_flow_port *port)
{
	for (const struct doca_flow_port *p = flow_g.ports; p != NULL; p = p->next)
		if (p == port)
			return true;
	return false;
}

unsigned int flow_key_words(const struct flow_key *mask, uint8_t *words)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < FLOW_KEY_WORDS; i++)
		if (mask->w[i] != 0)
			words[n++] = (uint8_t)i;
	return n;
}

struct doca_flow_pipe_entry *flow_entry_alloc(struct doca_flow_pipe *pipe)
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
void flow_entry_free(struct doca_flow_pipe_entry *e)
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
				flow_entry_free(e);
			}
		}
	} else {
		struct doca_flow_pipe_entry *e = atomic_load(&pipe->head), *n;

		for (; e != NULL; e = n) {
			n = atomic_load(&e->next);
			flow_entry_free(e);
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
	if (!flow_port_is_started(cfg->port)) {
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
		p->nb_words = (uint8_t)flow_key_words(&p->tmpl.mask, p->words);
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
bool flow_pipe_is_live(const struct doca_flow_pipe *pipe)
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
	if (!flow_pipe_is_live(pipe)) {
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
		flow_entry_free(list);
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
	if (port == NULL || !flow_port_is_started(port)) {
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
	return FLOW_NS("doca_flow_pipe_resize: resizable pipes");
}

DOCA_EXPERIMENTAL void doca_flow_pipe_dump(struct doca_flow_pipe *pipe, FILE *f)
{
	pthread_mutex_lock(&flow_lock);
	if (f != NULL && flow_pipe_is_live(pipe))
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
	if (!flow_pipe_is_live(pipe)) {
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
	return FLOW_NS("doca_flow_pipe_calc_hash: HASH pipes");
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
void flow_ctl_index_republish(struct doca_flow_pipe *pipe)
{
	struct ctl_index *old;

	old = atomic_exchange(&pipe->index, flow_ctl_index_build(pipe));
	if (old != NULL) {
		flow_slot_sync(pipe->port->slot);
		ctl_index_free(old);
	}
}
