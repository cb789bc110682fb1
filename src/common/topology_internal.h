/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology_internal.h - what the files of the SOFTDOCA_CONFIG parser share: the parser's state,
 * the spans it cuts the input into, the key tables (topology_keys.c: values and keys;
 * topology_parse.c: lines, sections and the whole-file rules; topology.c: the defaults). The
 * picture of the parse is at topology.c's top. No state outside struct parser: any thread.
 */
#ifndef SD_TOPOLOGY_INTERNAL_H
#define SD_TOPOLOGY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "topology.h"

#define TOPO_MAX_LINE	  1024	       /* bytes in a line, without its line ending */
#define TOPO_MAX_BUF_SIZE (1ull << 40) /* keeps size arithmetic of every engine far from overflow */
#define TOPO_MAX_LIST_LEN 1024u
#define TOPO_MAX_POOL	  (1u << 24)
#define TOPO_MAX_WORKERS  64u
#define SHOW_MAX	  40 /* longest excerpt of user text quoted in an error */

/* A piece of the input; never NUL-terminated. */
struct span {
	const char *p;
	size_t n;
};

/* printf arguments quoting a span, cut at SHOW_MAX characters so a hostile line stays short. */
#define SPAN_FMT    "%.*s%s"
#define SPAN_ARG(s) (int)((s).n > SHOW_MAX ? SHOW_MAX : (s).n), (s).p, ((s).n > SHOW_MAX ? "..." : "")

enum section { SEC_NONE, SEC_PROFILE, SEC_DEVICE, SEC_ENGINE };

/* Key indices; each enum follows the order of its section's key table. */
enum {
	PK_EXPORT_PCI,
	PK_IMPORT_PCI,
	PK_DMA_SUPPORTED,
	PK_DMA_MAX_BUF_SIZE,
	PK_DMA_MAX_BUF_LIST_LEN,
	PK_DMA_MAX_TASKS,
	PK_DMA_QUEUE_DEPTH,
	PK_COMCH_SUPPORTED,
	PK_COMCH_MAX_MSG_SIZE,
	PK_COMCH_MAX_NAME_LEN,
	PK_COMCH_MAX_CLIENTS,
	PK_COMCH_MAX_SEND_TASKS,
	PK_COMCH_MAX_RECV_QUEUE_SIZE,
	PK_COMCH_MAX_CONSUMERS,
	PK_COMCH_MAX_PRODUCERS,
	PK_COMCH_CONSUMER_MAX_NUM_TASKS,
	PK_COMCH_PRODUCER_MAX_NUM_TASKS,
	PK_COMCH_CONSUMER_MAX_BUF_SIZE,
	PK_COMCH_PRODUCER_MAX_BUF_SIZE,
	PK_ETH_SUPPORTED,
	PK_ETH_MAX_BURST_SIZE,
	PK_ETH_MAX_PACKET_SIZE,
	PK_ETH_MAX_QUEUE_SIZE,
	PK_COUNT
};
enum {
	DK_SIDE,
	DK_IBDEV,
	DK_IFACE,
	DK_MAC,
	DK_PROFILE,
	DK_FUNC,
	DK_SF_INDEX,
	DK_REPRESENTOR,
	DK_MEDIUM,
	DK_WIRE,
	DK_IFNAME,
	DK_NETNS,
	DK_UDP_LOCAL,
	DK_UDP_PEER,
	DK_UDP_VNI,
	DK_COUNT
};
enum { EK_NAME, EK_WORKERS, EK_COUNT };

#define MAX_SECTION_KEYS ((int)PK_COUNT > (int)DK_COUNT ? (int)PK_COUNT : (int)DK_COUNT)

struct key_def;

/* What the end-of-file rules need to know about a device beyond struct topo_device. */
struct dev_meta {
	uint32_t line;		     /* its [device] header */
	uint32_t key_line[DK_COUNT]; /* line that set each key; 0 = not set */
	uint32_t rep_line[TOPO_MAX_REPS];
	char profile[TOPO_MAX_NAME]; /* resolved once every profile is known */
	struct topo_rep wire;	     /* `wire = PCI`, resolved to an index at the end */
};

struct parser {
	struct topology *out;
	char *err;
	size_t err_len;
	uint32_t line;		   /* current line, 1-based */
	const char *field;	   /* key whose value is being parsed, for bad() */
	const struct key_def *key; /* its table entry */
	enum section sec;
	uint32_t *keys; /* key_line of the current section */
	uint32_t key_line[MAX_SECTION_KEYS];
	struct topo_profile *prof;
	struct topo_device *dev;
	struct dev_meta *meta_cur;
	bool saw_device;
	uint32_t profile_line[TOPO_MAX_PROFILES]; /* 0 = built in, not (yet) defined by the file */
	uint32_t engine_line;
	struct dev_meta meta[TOPO_MAX_DEVICES];
};

/*
 * Profile keys are table-driven: each names a field of struct topo_profile by offset, its
 * type and its range (the key_def of the key being parsed is p->key).
 */
enum vtype { V_BOOL, V_U32, V_SIZE32, V_SIZE64 };

struct key_def {
	const char *name;
	int (*set)(struct parser *p, struct span v);
	/* Profile keys only: */
	const char *alias; /* the flat name of the DMA keys, from before per-library keys */
	enum vtype type;
	uint64_t min, max;
	size_t off; /* in struct topo_profile */
};

/* ---- lexical helpers ---- */

static inline struct span span_of(const char *s)
{
	return (struct span){s, strlen(s)};
}

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static inline struct span trim(const char *s, size_t n)
{
	while (n && is_space(s[0])) {
		s++;
		n--;
	}
	while (n && is_space(s[n - 1]))
		n--;
	return (struct span){s, n};
}

static inline bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

/* Splits @s at its first blank: @s keeps the first word, the trimmed rest is returned. */
static inline struct span split_word(struct span *s)
{
	size_t i = 0;

	while (i < s->n && !is_space(s->p[i]))
		i++;
	struct span rest = trim(s->p + i, s->n - i);
	s->n = i;
	return rest;
}

/*
 * Where a comment starts: '#' or ';' at the start of the line or after a blank. Inside a
 * word they are ordinary characters, so a value is never cut short silently; the value
 * check then rejects them.
 */
static inline size_t comment_start(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((s[i] == '#' || s[i] == ';') && (i == 0 || is_space(s[i - 1])))
			return i;
	return n;
}

/* ---- topology_keys.c: errors, values, keys ---- */

/* Writes "line N: field 'F': <reason>" and returns -1, so callers read `return topo_fail(...)`. */
__attribute__((format(printf, 4, 5))) int topo_fail(struct parser *p, uint32_t line, struct span field, const char *fmt,
						    ...);
/* An error in the value of the key being parsed on the current line. */
#define bad(p, ...) topo_fail((p), (p)->line, span_of((p)->field), __VA_ARGS__)
void topo_format_pci(char buf[DOCA_DEVINFO_PCI_ADDR_SIZE], uint16_t domain, uint8_t bus, uint8_t dev, uint8_t fn);
int topo_parse_pci_span(struct parser *p, struct span v, uint16_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *fn);
int topo_parse_name(struct parser *p, struct span v, char *dst, size_t size);
extern const struct key_def topo_profile_keys[PK_COUNT];
extern const struct key_def topo_device_keys[DK_COUNT];
extern const struct key_def topo_engine_keys[EK_COUNT];

/* ---- topology.c: the defaults a file starts from ---- */

extern const struct topo_profile topo_builtin_profile;
void topo_default_devices(struct topology *t);
void topo_default_mac(const struct topo_device *d, uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE]);
void topo_default_vuid(const struct topo_device *parent, struct topo_rep *r);

#endif
