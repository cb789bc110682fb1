/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flow_internal.h - libdoca_flow's private model.
 *
 *   doca_flow_port ──root──▶ pipe ──entry fwd PIPE──▶ pipe ──▶ ... ──▶ RSS queue | DROP | miss
 *        ▲                   │ BASIC: key & template mask ─▶ hash table of exact entries
 *        │ slot->port        │ CONTROL: a hash table per distinct entry mask, lowest priority wins
 *   flow_slot[dev index] ◀── priv_doca_nic_steer() (receive thread)
 *
 * A frame becomes one fixed 80-byte key (struct flow_key) extracted from nic_frame_info; a
 * pipe's match template compiles to masks over the same layout (match.c), so a lookup is a few
 * 64-bit AND/compare operations and one hash.
 *
 * Concurrency: every control call (cfg, port, pipe, entry) runs under flow_lock. The steering
 * function (steer.c) takes no lock: it enters its device's slot epoch (two counters, one per
 * epoch parity), reads the published root pipe, bucket heads and entry chains with acquire
 * loads, and leaves. Writers publish with release stores (a new entry is complete before it
 * is linked), unlink, then wait in flow_slot_sync() until every receiver that could have seen
 * the old link has left before freeing. Slots are static and never freed, so a receiver that
 * picked up the steering function just before the port stopped still finds valid memory.
 */
#ifndef SD_FLOW_INTERNAL_H_
#define SD_FLOW_INTERNAL_H_

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_flow.h>

#include "core.h"
#include "nic.h"
#include "sd_internal.h"

#define FLOW_COMP "flow"

/* ---- the key ---- */

#define FLOW_KEY_WORDS 10

/* Byte offsets in struct flow_key; multi-byte fields in network order except port_id. */
enum {
	K_META = 0, /* meta.pkt_meta (4) */
	K_PORT = 4, /* parser_meta.port_id (2, host order) */
	K_L2T = 6,  /* enum doca_flow_l2_meta */
	K_L3T = 7,  /* enum doca_flow_l3_meta */
	K_L4T = 8,  /* enum doca_flow_l4_meta */
	K_FRAG = 9,
	K_L3OK = 10,
	K_IP4CK = 11,
	K_L4OK = 12,
	K_L4CK = 13,
	K_ETYPE = 14, /* 2 */
	K_DMAC = 16,  /* 6 */
	K_SMAC = 22,  /* 6 */
	K_VLAN = 28,  /* 2 */
	K_PROTO = 30,
	K_TTL = 31,
	K_IP4S = 32, /* 4 */
	K_IP4D = 36, /* 4 */
	K_IP6S = 40, /* 16 */
	K_IP6D = 56, /* 16 */
	K_L4S = 72,  /* 2 */
	K_L4D = 74,  /* 2 */
	K_TCPF = 76,
	K_ICMPT = 77,
	K_ICMPC = 78,
	K_TRANSP = 79, /* 1 when L4 is TCP or UDP */
	K_SIZE = 80,
};

struct flow_key {
	union {
		uint64_t w[FLOW_KEY_WORDS];
		uint8_t b[K_SIZE];
	};
};

/* A compiled match: what to compare (mask) against which value; chg = bits each BASIC entry gives. */
struct flow_spec {
	struct flow_key val, mask, chg;
};

enum flow_spec_mode {
	SPEC_TEMPLATE, /* a BASIC pipe's template: all-ones = from the entry, other = constant */
	SPEC_EXACT,    /* a CONTROL entry: value & mask, no mask = every non-zero field exactly */
	SPEC_VALUES,   /* a BASIC entry: the raw values of every field the pipe names */
};

/*
 * Compiles @m (+ @mask, may be NULL) into @out. Rejections are logged with @what (the call)
 * and return INVALID_VALUE (a field without its selector, conflicting types) or NOT_SUPPORTED
 * (tunnel, inner, scratch metadata, other header fields). @sel: the header whose l3_type,
 * l4_type_ext and l2_valid_headers say which union members count (NULL: @m's own; a BASIC
 * entry is read with its pipe template's).
 */
doca_error_t flow_spec_compile(const char *what, const struct doca_flow_match *m, const struct doca_flow_match *mask,
			       enum flow_spec_mode mode, const struct doca_flow_header_format *sel,
			       struct flow_spec *out);
void flow_key_from_frame(const struct nic_frame_info *info, const uint8_t *frame, uint16_t port_id,
			 struct flow_key *key);

/* ---- RSS ---- */

#define FLOW_RSS_KEY_LEN    40
#define FLOW_RSS_MAX_QUEUES 1024
#define FLOW_RSS_INPUT_MAX  36 /* IPv6 addresses + ports */

/* Toeplitz hash of @len bytes (at most FLOW_RSS_INPUT_MAX) with the key flow_rss_set_key() set. */
uint32_t flow_toeplitz(const uint8_t *in, unsigned int len);
void flow_rss_set_key(const uint8_t key[FLOW_RSS_KEY_LEN]);
void flow_rss_default_key(void); /* doca_flow_init: before any port steers */
/* The hash an RSS forward with @flags / @symmetric gives the frame (0 when no field applies). */
uint32_t flow_rss_hash(const struct nic_frame_info *info, uint32_t flags, bool symmetric);

/* ---- objects ---- */

enum flow_fwd_kind { FWD_NONE = 0, FWD_RSS, FWD_PIPE, FWD_DROP };

struct flow_fwd {
	enum flow_fwd_kind kind;
	bool symmetric;
	uint16_t nr_queues;
	uint32_t rss_flags;
	uint16_t *queues; /* owned copy */
	struct doca_flow_pipe *next;
};

struct flow_meta_action {
	bool set;
	uint32_t val, mask; /* host order */
};

struct flow_pending {
	struct flow_pending *next;
	struct doca_flow_pipe_entry *entry; /* a handle value only: a removed entry is gone */
	void *usr_ctx;
	enum doca_flow_entry_op op;
};

/* Hot fields first: a lookup reads next, hash, key; a hit then meta, fwd and the counters. */
struct doca_flow_pipe_entry {
	_Atomic(struct doca_flow_pipe_entry *) next; /* bucket chain (BASIC), priority list (CONTROL) */
	uint64_t hash;
	struct flow_key key; /* masked value */
	struct flow_meta_action meta;
	bool counted;
	bool in_use;	     /* a slot of its pipe's slab that holds an entry */
	struct flow_fwd fwd; /* kind FWD_NONE: the pipe's */
	_Atomic uint64_t pkts, bytes;
	uint8_t words[FLOW_KEY_WORDS];
	uint8_t nb_words; /* CONTROL: words of mask that are non-zero */
	uint32_t priority;
	struct flow_key mask; /* CONTROL only */
	struct doca_flow_pipe *pipe;
	void *usr_ctx;
	struct doca_flow_pipe_entry *free_next;
} __attribute__((aligned(SD_CACHELINE)));

#define FLOW_MAX_ACTIONS 8

/*
 * A CONTROL pipe's lookup index, rebuilt and republished whole on every add and remove
 * (immutable once published, freed after a slot sync). Entries with the same mask form a
 * group with its own hash table; groups are ordered by the best rank (position in the
 * priority list) they hold, chains by rank, so a lookup stops at the first group that cannot
 * beat what it found. A handful of masks make a lookup a handful of hash probes.
 */
struct ctl_slot {
	struct flow_key key; /* masked */
	uint64_t hash;
	uint32_t rank, next; /* next: slot index in the chain, UINT32_MAX at the end */
	struct doca_flow_pipe_entry *entry;
};

struct ctl_group {
	struct flow_key mask;
	uint8_t words[FLOW_KEY_WORDS];
	uint8_t nb_words;
	uint32_t min_rank;
	uint32_t nb_buckets; /* power of two */
	uint32_t *buckets;   /* first slot of each chain, UINT32_MAX when empty */
};

struct ctl_index {
	uint32_t nb_groups, nb_slots;
	struct ctl_group *groups;
	struct ctl_slot *slots;
	uint32_t *bucket_mem; /* every group's buckets, one allocation */
};

struct doca_flow_pipe {
	struct doca_flow_port *port;
	struct doca_flow_pipe *next_in_port;
	char name[64];
	enum doca_flow_pipe_type type;
	bool is_root;
	struct flow_spec tmpl;		    /* BASIC: mask = constant | changeable bits */
	struct doca_flow_header_format sel; /* the template's selectors, to read entries with */
	uint8_t words[FLOW_KEY_WORDS];
	uint8_t nb_words;
	uint32_t nr_actions;
	struct {
		bool set, from_entry;
		uint32_t val, mask; /* host order */
	} actions[FLOW_MAX_ACTIONS];
	bool counted;
	struct flow_fwd fwd;
	bool fwd_from_entry;
	struct flow_fwd miss;
	bool miss_counted;
	_Atomic uint64_t miss_pkts, miss_bytes;
	uint32_t nr_entries_max, nr_entries;
	/*
	 * Entries live in a slab of nr_entries_max slots: no allocation per add, and a handle is
	 * checked by address (a stale one is refused without being read).
	 */
	struct doca_flow_pipe_entry *slab, *free_list;
	uint32_t nb_buckets; /* BASIC: power of two */
	_Atomic(struct doca_flow_pipe_entry *) *buckets;
	_Atomic(struct doca_flow_pipe_entry *) head; /* CONTROL, the truth: priority order */
	_Atomic(struct ctl_index *) index;	     /* CONTROL: the same entries grouped by mask (NULL: scan head) */
	atomic_bool dead;
	uint32_t refs; /* forwards of other pipes and entries that point here */
	void *user_ctx;
};

/* One cache line each: receivers of different ports count themselves in on every frame. */
struct flow_slot {
	alignas(SD_CACHELINE) atomic_uint epoch;
	atomic_uint active[2];
	_Atomic(struct doca_flow_port *) port;
};

#define FLOW_MAX_QUEUES 64

struct doca_flow_port {
	struct doca_dev *dev;
	struct flow_slot *slot;
	uint16_t port_id;
	struct doca_flow_port *next; /* started ports */
	_Atomic(struct doca_flow_pipe *) root;
	struct doca_flow_pipe *pipes; /* every pipe, the dead ones too */
	struct flow_pending *pending[FLOW_MAX_QUEUES];
	struct flow_pending **pending_tail[FLOW_MAX_QUEUES];
	uint8_t *priv_data;
};

/* Global state (flow.c), under flow_lock. */
extern pthread_mutex_t flow_lock;
struct flow_global {
	bool inited;
	uint16_t pipe_queues;
	doca_flow_entry_process_cb entry_cb;
	doca_flow_pipe_process_cb pipe_cb;
	struct doca_flow_port *ports;
	bool tearing; /* a port's pipes are freed all at once: forwards between them are not unwound */
};
extern struct flow_global flow_g;

extern struct flow_slot flow_slots[TOPO_MAX_DEVICES];

/* Waits until no receiver of @slot can still see what was unlinked before the call. */
void flow_slot_sync(struct flow_slot *slot);
/* The steering function a started port registers (steer.c); @arg is its slot. */
void flow_steer(void *arg, const struct nic_frame_info *info, const uint8_t *frame, struct nic_verdict *out);
/* One lookup in @pipe (steer.c): the entry that matches @key, or NULL. */
struct doca_flow_pipe_entry *flow_pipe_lookup(const struct doca_flow_pipe *pipe, const struct flow_key *key);
uint64_t flow_key_hash(const struct flow_key *k, const uint8_t *words, unsigned int nb_words);

/* Builds the index of a CONTROL pipe's current list (NULL when out of memory: lookups scan). */
struct ctl_index *flow_ctl_index_build(const struct doca_flow_pipe *pipe);

/* Control-path helpers (flow.c, pipe*.c), all under flow_lock. */
enum fwd_ctx { FWD_CTX_PIPE, FWD_CTX_ENTRY, FWD_CTX_MISS };
/* A forward as the receive path runs it; *from_entry: the pipe leaves it to each entry. */
doca_error_t flow_fwd_compile(const char *what, struct doca_flow_port *port, const struct doca_flow_fwd *in,
			      enum fwd_ctx ctx, struct flow_fwd *out, bool *from_entry);
void flow_fwd_release(struct flow_fwd *f);
doca_error_t flow_monitor_compile(const char *what, const struct doca_flow_monitor *m, bool *counted);
doca_error_t flow_actions_check(const char *what, const struct doca_flow_actions *a, const char *which);
/* Frees every pipe and entry of a port nobody steers through any more. */
void flow_port_free_pipes(struct doca_flow_port *port);

/* A call or option outside softdoca's DOCA Flow subset: NOT_SUPPORTED, one line naming @what. */
#define FLOW_NS(what)                                                                                                  \
	SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, FLOW_COMP,                                                                 \
		  "%s: not supported by softdoca's DOCA Flow subset (README \"DOCA Flow\")", what)

/* What doca_flow_pipe_cfg_set_*() gathered (pipe_cfg.c) for doca_flow_pipe_create (pipe.c). */
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

/* pipe.c: pipes and their entry slabs, for the entry calls of pipe_entry.c; under flow_lock. */
bool flow_port_is_started(const struct doca_flow_port *port);
bool flow_pipe_is_live(const struct doca_flow_pipe *pipe);
/* The indices of the words of @mask that are not zero, into @words; how many. */
unsigned int flow_key_words(const struct flow_key *mask, uint8_t *words);
/* A zeroed entry of @pipe's slab, or NULL when the pipe is full. */
struct doca_flow_pipe_entry *flow_entry_alloc(struct doca_flow_pipe *pipe);
/* Back to its slab; unreachable for receivers already (unlinked, then a slot sync). */
void flow_entry_free(struct doca_flow_pipe_entry *e);
/* Publishes the index of a CONTROL pipe's list now; the old one goes once no receiver holds it. */
void flow_ctl_index_republish(struct doca_flow_pipe *pipe);

#endif /* SD_FLOW_INTERNAL_H_ */
