/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipe_cfg.c - what a pipe is made from: doca_flow_pipe_cfg and its setters, and the small calls
 * that build parts of a match or a forward (MPLS labels, GENEVE option parsers, targets).
 */
#include <stdlib.h>
#include <string.h>

#include "flow_internal.h"

#define FLOW_DEFAULT_ENTRIES 8192
#define FLOW_MAX_ENTRIES     (1u << 24)

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
			return FLOW_NS(
			    "doca_flow_pipe_cfg_set_actions: action descriptors (copy/add field operations)");
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
	return FLOW_NS("doca_flow_pipe_cfg_set_ordered_lists: ordered list pipes");
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
		return FLOW_NS("doca_flow_pipe_cfg_set_type: LPM, CT, ACL, ORDERED_LIST and HASH pipes");
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
		return FLOW_NS("doca_flow_pipe_cfg_set_domain: egress and secure domains (steering is ingress only)");
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
		return FLOW_NS("doca_flow_pipe_cfg_set_is_resizable: resizable pipes");
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
	return FLOW_NS("doca_flow_pipe_cfg_set_hash_map_algorithm: HASH pipes");
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
	return FLOW_NS("doca_flow_parser_geneve_opt_create: GENEVE options");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_parser_geneve_opt_destroy(struct doca_flow_parser *parser)
{
	(void)parser;
	return FLOW_NS("doca_flow_parser_geneve_opt_destroy: GENEVE options");
}

DOCA_EXPERIMENTAL doca_error_t doca_flow_get_target(enum doca_flow_target_type type, struct doca_flow_target **target)
{
	(void)type;
	(void)target;
	return FLOW_NS("doca_flow_get_target: forwarding to the kernel");
}
