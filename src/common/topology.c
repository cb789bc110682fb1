/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.c - the embedded default topology and the SOFTDOCA_CONFIG parser.
 *
 * The parser walks the input one line at a time. The input need not be NUL-terminated, so
 * every token is a (pointer, length) span inside it; a token is copied into a bounded,
 * NUL-terminated buffer before any libc string function sees it.
 *
 *   bytes --split on '\n'--> line --lexical checks--> header | key = value | blank
 *                                                        |           |
 *                                            finish previous     per-key setter
 *                                               section            (ranges)
 *   end of input --> finish last section --> cross-section rules (profile references,
 *                    uniqueness, names derived from the device index)
 *
 * Rules that need the whole file run at the end, so each device remembers the line of every
 * key it set: an error found late still names the line that introduced the value.
 *
 * N.B. topo_parse() and topo_default() keep no state and may run on any thread. topo_get()
 * parses once under pthread_once() and hands every caller the same read-only result.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv(), GNU strerror_r() */
#endif

#include "topology.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOPO_MAX_LINE	  1024	       /* bytes in a line, without its line ending */
#define TOPO_MAX_FILE	  (1u << 20)   /* SOFTDOCA_CONFIG is read whole; a config is small */
#define TOPO_MAX_BUF_SIZE (1ull << 40) /* keeps size arithmetic of every engine far from overflow */
#define TOPO_MAX_LIST_LEN 1024u
#define TOPO_MAX_POOL	  (1u << 24)
#define TOPO_MAX_WORKERS  64u
#define SHOW_MAX	  40 /* longest excerpt of user text quoted in an error */

/* Shared with the message of topo_get(); the tests look for it. */
#define TOPO_SOURCE_DEFAULT "embedded default"

/* The comch values are what the library reported as constants before profiles had them. */
static const struct topo_profile builtin_profile = {
    .name = "default",
    .export_pci = 1,
    .import_pci = 1,
    .dma =
	{
	    .supported = 1,
	    .max_buf_size = 1ull << 30,
	    .max_buf_list_len = 32,
	    .max_tasks = 65536,
	    .queue_depth = 65536,
	},
    .comch =
	{
	    .supported = 1,
	    .max_msg_size = TOPO_COMCH_MAX_MSG_SIZE,
	    .max_name_len = TOPO_COMCH_MAX_NAME_LEN,
	    .max_clients = TOPO_COMCH_MAX_CLIENTS,
	    .max_send_tasks = TOPO_COMCH_MAX_SEND_TASKS,
	    .max_recv_queue_size = TOPO_COMCH_MAX_RECV_QUEUE,
	    .max_consumers = TOPO_COMCH_MAX_PER_CONN,
	    .max_producers = TOPO_COMCH_MAX_PER_CONN,
	    .consumer_max_num_tasks = TOPO_COMCH_MAX_DP_TASKS,
	    .producer_max_num_tasks = TOPO_COMCH_MAX_DP_TASKS,
	    .consumer_max_buf_size = TOPO_COMCH_MAX_DP_BUF_SIZE,
	    .producer_max_buf_size = TOPO_COMCH_MAX_DP_BUF_SIZE,
	},
    .eth =
	{
	    .supported = 1,
	    .max_burst_size = 65536,
	    .max_packet_size = 9216,
	    .max_queue_size = 8192,
	},
};

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

/* ---- error reporting -------------------------------------------------------------------- */

static struct span span_of(const char *s)
{
	return (struct span){s, strlen(s)};
}

/* Writes "line N: field 'F': <reason>" and returns -1, so callers read `return fail(...)`. */
__attribute__((format(printf, 4, 5))) static int fail(struct parser *p, uint32_t line, struct span field,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->err_len)
		return -1;
	n = snprintf(p->err, p->err_len, "line %" PRIu32 ": field '" SPAN_FMT "': ", line, SPAN_ARG(field));
	if (n < 0 || (size_t)n >= p->err_len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->err_len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* An error in the value of the key being parsed on the current line. */
#define bad(p, ...) fail((p), (p)->line, span_of((p)->field), __VA_ARGS__)

/* ---- lexical helpers -------------------------------------------------------------------- */

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static struct span trim(const char *s, size_t n)
{
	while (n && is_space(s[0])) {
		s++;
		n--;
	}
	while (n && is_space(s[n - 1]))
		n--;
	return (struct span){s, n};
}

static bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

/* Splits @s at its first blank: @s keeps the first word, the trimmed rest is returned. */
static struct span split_word(struct span *s)
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
static size_t comment_start(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((s[i] == '#' || s[i] == ';') && (i == 0 || is_space(s[i - 1])))
			return i;
	return n;
}

/* ---- value parsers ---------------------------------------------------------------------- */

int topo_parse_pci(const char *s, uint16_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *fn)
{
	unsigned int d = 0;
	int h[5];

	if (!s)
		return -1;
	/* Fixed widths, as lspci prints them: "DDDD:BB:DD.F" (12) or "BB:DD.F" (7). */
	switch (strnlen(s, 13)) {
	case 12:
		for (int i = 0; i < 4; i++) {
			int v = hex_value(s[i]);

			if (v < 0)
				return -1;
			d = d << 4 | (unsigned int)v;
		}
		if (s[4] != ':')
			return -1;
		s += 5;
		break;
	case 7:
		break;
	default:
		return -1;
	}
	if (s[2] != ':' || s[5] != '.')
		return -1;
	h[0] = hex_value(s[0]);
	h[1] = hex_value(s[1]);
	h[2] = hex_value(s[3]);
	h[3] = hex_value(s[4]);
	h[4] = hex_value(s[6]);
	for (int i = 0; i < 5; i++)
		if (h[i] < 0)
			return -1;
	/* PCI has 32 devices per bus and 8 functions per device. */
	if ((h[2] << 4 | h[3]) > 0x1f || h[4] > 7)
		return -1;
	if (domain)
		*domain = (uint16_t)d;
	if (bus)
		*bus = (uint8_t)(h[0] << 4 | h[1]);
	if (dev)
		*dev = (uint8_t)(h[2] << 4 | h[3]);
	if (fn)
		*fn = (uint8_t)h[4];
	return 0;
}

static void format_pci(char buf[DOCA_DEVINFO_PCI_ADDR_SIZE], uint16_t domain, uint8_t bus, uint8_t dev, uint8_t fn)
{
	snprintf(buf, DOCA_DEVINFO_PCI_ADDR_SIZE, "%04x:%02x:%02x.%x", domain, bus, dev & 0x1f, fn & 7);
}

static int parse_pci_span(struct parser *p, struct span v, uint16_t *domain, uint8_t *bus, uint8_t *dev, uint8_t *fn)
{
	char buf[16];

	if (v.n < sizeof(buf)) {
		memcpy(buf, v.p, v.n);
		buf[v.n] = '\0';
		if (topo_parse_pci(buf, domain, bus, dev, fn) == 0)
			return 0;
	}
	return bad(p,
		   "malformed PCI address '" SPAN_FMT "'; expected BB:DD.F or DDDD:BB:DD.F "
		   "(hex, device at most 1f, function at most 7)",
		   SPAN_ARG(v));
}

/*
 * A decimal number in [min, max]. With @sized, one suffix K, M or G (any case) multiplies
 * by a power of 1024.
 */
static int parse_uint(struct parser *p, struct span v, bool sized, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;
	bool overflow = false;

	if (v.p[0] == '-')
		return bad(p, "'" SPAN_FMT "' is negative; expected %" PRIu64 "..%" PRIu64, SPAN_ARG(v), min, max);
	if (!is_digit(v.p[0]))
		return bad(p, "'" SPAN_FMT "' is not a decimal number", SPAN_ARG(v));
	for (; i < v.n && is_digit(v.p[i]); i++) {
		unsigned int d = (unsigned int)(v.p[i] - '0');

		if (x > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			x = x * 10 + d;
	}
	if (sized && i < v.n) {
		unsigned int shift = 0;

		switch (v.p[i]) {
		case 'k':
		case 'K':
			shift = 10;
			break;
		case 'm':
		case 'M':
			shift = 20;
			break;
		case 'g':
		case 'G':
			shift = 30;
			break;
		}
		if (shift) {
			if (x > UINT64_MAX >> shift)
				overflow = true;
			x <<= shift;
			i++;
		}
	}
	if (i < v.n)
		return bad(p, "unexpected '" SPAN_FMT "' after the number%s",
			   SPAN_ARG(((struct span){v.p + i, v.n - i})),
			   sized ? " (a size takes one suffix: K, M or G)" : "");
	if (overflow || x < min || x > max)
		return bad(p, "'" SPAN_FMT "' is out of range (%" PRIu64 "..%" PRIu64 ")", SPAN_ARG(v), min, max);
	*out = x;
	return 0;
}

static int parse_u32(struct parser *p, struct span v, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t x = 0; /* gcc -O3 cannot see that parse_uint() sets it on success */

	if (parse_uint(p, v, false, min, max, &x))
		return -1;
	*out = (uint32_t)x;
	return 0;
}

static int parse_bool(struct parser *p, struct span v, uint8_t *out)
{
	if (span_eq(v, "yes"))
		*out = 1;
	else if (span_eq(v, "no"))
		*out = 0;
	else
		return bad(p, "expected yes or no, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

/* Names become ibdev/iface/profile names: letters, digits, '_', '.', '-'. */
static int parse_name(struct parser *p, struct span v, char *dst, size_t size)
{
	if (v.n >= size)
		return bad(p, "'" SPAN_FMT "' is longer than %zu characters", SPAN_ARG(v), size - 1);
	for (size_t i = 0; i < v.n; i++) {
		char c = v.p[i];

		if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
		      c == '-'))
			return bad(p,
				   "character '%c' is not allowed in a name (letters, digits, "
				   "'_', '.', '-')",
				   c);
	}
	memcpy(dst, v.p, v.n);
	dst[v.n] = '\0';
	return 0;
}

static int parse_mac(struct parser *p, struct span v, uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE])
{
	if (v.n != 17)
		goto malformed;
	for (int i = 0; i < 6; i++) {
		int hi = hex_value(v.p[i * 3]);
		int lo = hex_value(v.p[i * 3 + 1]);

		if (hi < 0 || lo < 0 || (i < 5 && v.p[i * 3 + 2] != ':'))
			goto malformed;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	/* A device address must be unicast and not the "no address" value. */
	if (mac[0] & 1)
		return bad(p, "'" SPAN_FMT "' is a multicast address", SPAN_ARG(v));
	if (!(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]))
		return bad(p, "the all-zero address is not allowed");
	return 0;
malformed:
	return bad(p, "malformed MAC address '" SPAN_FMT "'; expected aa:bb:cc:dd:ee:ff", SPAN_ARG(v));
}

/* ---- derived defaults --------------------------------------------------------------------- */

/*
 * Locally administered and unique per PCI address: 02:5d:0c:BB:DD:F for domain 0, the
 * domain folded into the second and third bytes otherwise.
 */
static void default_mac(const struct topo_device *d, uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE])
{
	mac[0] = 0x02;
	mac[1] = (uint8_t)(0x5d ^ (d->domain >> 8));
	mac[2] = (uint8_t)(0x0c ^ (d->domain & 0xff));
	mac[3] = d->bus;
	mac[4] = d->dev;
	mac[5] = d->fn;
}

/* "SDOCA" + the host function's address + the port it hangs off, e.g. SDOCA0000B1000pf0hpf. */
static void default_vuid(const struct topo_device *parent, struct topo_rep *r)
{
	snprintf(r->vuid, sizeof(r->vuid), "SDOCA%04X%02X%02X%Xpf%uhpf", r->domain, r->bus, r->dev, r->fn,
		 (unsigned int)parent->fn);
}

static void set_pci(struct topo_device *d, const char *pci)
{
	topo_parse_pci(pci, &d->domain, &d->bus, &d->dev, &d->fn);
}

static struct topo_device *add_default_device(struct topology *t, const char *pci, enum topo_side side,
					      const char *iface)
{
	struct topo_device *d = &t->devices[t->nb_devices];

	memset(d, 0, sizeof(*d));
	set_pci(d, pci);
	d->side = side;
	d->func = DOCA_PCI_FUNC_TYPE_PF;
	snprintf(d->ibdev, sizeof(d->ibdev), "mlx5_%" PRIu32, t->nb_devices);
	snprintf(d->iface, sizeof(d->iface), "%s", iface);
	default_mac(d, d->mac);
	d->profile = 0;
	t->nb_devices++;
	return d;
}

static void add_default_rep(struct topo_device *d, const char *pci)
{
	struct topo_rep *r = &d->reps[d->nb_reps++];

	topo_parse_pci(pci, &r->domain, &r->bus, &r->dev, &r->fn);
	default_vuid(d, r);
}

static void cable(struct topology *t, uint32_t a, uint32_t b)
{
	t->devices[a].medium = TOPO_MEDIUM_WIRE;
	t->devices[a].wire_peer = b;
	t->devices[b].medium = TOPO_MEDIUM_WIRE;
	t->devices[b].wire_peer = a;
}

/* A BlueField in its host: two DPU ports, each representing one host PF. */
static void default_devices(struct topology *t)
{
	struct topo_device *d;

	t->nb_devices = 0;
	d = add_default_device(t, "03:00.0", TOPO_SIDE_DPU, "p0");
	add_default_rep(d, "b1:00.0");
	d = add_default_device(t, "03:00.1", TOPO_SIDE_DPU, "p1");
	add_default_rep(d, "b1:00.1");
	add_default_device(t, "b1:00.0", TOPO_SIDE_HOST, "ens1f0np0");
	add_default_device(t, "b1:00.1", TOPO_SIDE_HOST, "ens1f1np1");
	/* The two DPU ports cabled to each other, and the two host PFs. */
	cable(t, 0, 1);
	cable(t, 2, 3);
}

void topo_default(struct topology *out)
{
	memset(out, 0, sizeof(*out));
	out->nb_profiles = 1;
	out->profiles[0] = builtin_profile;
	default_devices(out);
	snprintf(out->source, sizeof(out->source), "%s", TOPO_SOURCE_DEFAULT);
}

/* ---- key setters ---------------------------------------------------------------------------- */

/*
 * Profile keys are table-driven: each names a field of struct topo_profile by offset, its
 * type and its range (the key_def of the key being parsed is p->key).
 */
enum vtype { V_BOOL, V_U32, V_SIZE32, V_SIZE64 };

static int set_profile_value(struct parser *p, struct span v);

static int set_side(struct parser *p, struct span v)
{
	if (span_eq(v, "dpu"))
		p->dev->side = TOPO_SIDE_DPU;
	else if (span_eq(v, "host"))
		p->dev->side = TOPO_SIDE_HOST;
	else
		return bad(p, "expected dpu or host, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

static int set_ibdev(struct parser *p, struct span v)
{
	return parse_name(p, v, p->dev->ibdev, sizeof(p->dev->ibdev));
}

static int set_iface(struct parser *p, struct span v)
{
	return parse_name(p, v, p->dev->iface, sizeof(p->dev->iface));
}

static int set_mac(struct parser *p, struct span v)
{
	return parse_mac(p, v, p->dev->mac);
}

static int set_profile(struct parser *p, struct span v)
{
	return parse_name(p, v, p->meta_cur->profile, sizeof(p->meta_cur->profile));
}

static int set_func(struct parser *p, struct span v)
{
	if (span_eq(v, "pf"))
		p->dev->func = DOCA_PCI_FUNC_TYPE_PF;
	else if (span_eq(v, "vf"))
		p->dev->func = DOCA_PCI_FUNC_TYPE_VF;
	else if (span_eq(v, "sf"))
		p->dev->func = DOCA_PCI_FUNC_TYPE_SF;
	else
		return bad(p, "expected pf, vf or sf, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

static int set_sf_index(struct parser *p, struct span v)
{
	return parse_u32(p, v, 0, UINT32_MAX, &p->dev->sf_index);
}

static bool same_rep_pci(const struct topo_rep *a, const struct topo_rep *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->dev == b->dev && a->fn == b->fn;
}

/* "representor = PCI [vuid]"; the line is kept for the end-of-file checks. */
static int set_representor(struct parser *p, struct span v)
{
	struct topo_device *d = p->dev;
	struct span vuid = split_word(&v);
	struct topo_rep r = {0};
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (d->nb_reps == TOPO_MAX_REPS)
		return bad(p, "more than %d representors on one device", TOPO_MAX_REPS);
	if (parse_pci_span(p, v, &r.domain, &r.bus, &r.dev, &r.fn))
		return -1;
	/* One host function has one representor, on whichever device lists it first. */
	for (const struct topo_device *o = p->out->devices; o <= d; o++) {
		const struct dev_meta *m = &p->meta[o - p->out->devices];

		for (uint32_t i = 0; i < o->nb_reps; i++) {
			if (!same_rep_pci(&o->reps[i], &r))
				continue;
			format_pci(pci, r.domain, r.bus, r.dev, r.fn);
			return bad(p, "representor %s already listed on line %" PRIu32, pci, m->rep_line[i]);
		}
	}
	if (vuid.n) {
		for (size_t i = 0; i < vuid.n; i++)
			if (is_space(vuid.p[i]))
				return bad(p, "expected 'PCI [vuid]', got more than two words");
		if (vuid.n >= sizeof(r.vuid))
			return bad(p, "vuid '" SPAN_FMT "' is longer than %zu characters", SPAN_ARG(vuid),
				   sizeof(r.vuid) - 1);
		memcpy(r.vuid, vuid.p, vuid.n);
		r.vuid[vuid.n] = '\0';
	} else {
		default_vuid(d, &r);
	}
	p->meta_cur->rep_line[d->nb_reps] = p->line;
	d->reps[d->nb_reps++] = r;
	return 0;
}

static int set_medium(struct parser *p, struct span v)
{
	if (span_eq(v, "none"))
		p->dev->medium = TOPO_MEDIUM_NONE;
	else if (span_eq(v, "wire"))
		p->dev->medium = TOPO_MEDIUM_WIRE;
	else if (span_eq(v, "afpacket"))
		p->dev->medium = TOPO_MEDIUM_AFPACKET;
	else
		return bad(p, "expected wire, afpacket or none, not '" SPAN_FMT "'", SPAN_ARG(v));
	return 0;
}

/* "ifname = NAME": a Linux interface name, as the kernel accepts it and fits IFNAMSIZ. */
static int set_ifname(struct parser *p, struct span v)
{
	if (!v.n)
		return bad(p, "empty; expected the Linux interface, e.g. ifname = veth0");
	if (v.n >= TOPO_IFNAME_SIZE)
		return bad(p, "'" SPAN_FMT "' is longer than %d characters (IFNAMSIZ)", SPAN_ARG(v),
			   TOPO_IFNAME_SIZE - 1);
	if (span_eq(v, ".") || span_eq(v, ".."))
		return bad(p, "'" SPAN_FMT "' is not an interface name", SPAN_ARG(v));
	return parse_name(p, v, p->dev->ifname, sizeof(p->dev->ifname));
}

/* "netns = NAME" (a namespace of `ip netns`, /run/netns/NAME) or "netns = /PATH" (any nsfs file). */
static int set_netns(struct parser *p, struct span v)
{
	if (!v.n)
		return bad(p, "empty; expected a namespace name (ip netns) or an absolute path");
	if (v.n >= TOPO_NETNS_SIZE)
		return bad(p, "'" SPAN_FMT "' is longer than %d characters", SPAN_ARG(v), TOPO_NETNS_SIZE - 1);
	if (v.p[0] != '/') {
		if (span_eq(v, ".") || span_eq(v, ".."))
			return bad(p, "'" SPAN_FMT "' is not a namespace name", SPAN_ARG(v));
		return parse_name(p, v, p->dev->netns, sizeof(p->dev->netns));
	}
	for (size_t i = 0; i < v.n; i++)
		if (is_space(v.p[i]) || (unsigned char)v.p[i] < 0x20 || v.p[i] == 0x7f)
			return bad(p, "a netns path may not hold spaces or control characters");
	memcpy(p->dev->netns, v.p, v.n);
	p->dev->netns[v.n] = '\0';
	return 0;
}

/* "wire = PCI": the peer may come later in the file, so it is resolved at the end. */
static int set_wire(struct parser *p, struct span v)
{
	struct topo_rep *w = &p->meta_cur->wire;

	return parse_pci_span(p, v, &w->domain, &w->bus, &w->dev, &w->fn);
}

/* The executors of the backend list in src/engines/meson.build (engine_list.h is generated). */
#define ENGINE_NAME_EXECUTOR(n) n,
#define ENGINE_NAME_TRANSPORT(n)
#define ENGINE_BACKEND(name, kind) ENGINE_NAME_##kind(#name)
static const char *const executor_names[] = {
#include "engine_list.h"
};
#undef ENGINE_BACKEND
#undef ENGINE_NAME_EXECUTOR
#undef ENGINE_NAME_TRANSPORT

static int set_engine_name(struct parser *p, struct span v)
{
	char list[256];
	size_t n = 0;

	for (size_t i = 0; i < SD_ARRAY_SIZE(executor_names); i++)
		if (span_eq(v, executor_names[i]))
			goto known;
	for (size_t i = 0; i < SD_ARRAY_SIZE(executor_names) && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i == 0				       ? ""
				      : i + 1 == SD_ARRAY_SIZE(executor_names) ? " or "
									       : ", ",
				      executor_names[i]);
	return bad(p, "expected %s, not '" SPAN_FMT "'", list, SPAN_ARG(v));
known:
	memcpy(p->out->engine, v.p, v.n);
	p->out->engine[v.n] = '\0';
	return 0;
}

static int set_workers(struct parser *p, struct span v)
{
	return parse_u32(p, v, 1, TOPO_MAX_WORKERS, &p->out->workers);
}

struct key_def {
	const char *name;
	int (*set)(struct parser *p, struct span v);
	/* Profile keys only: */
	const char *alias; /* the flat name of the DMA keys, from before per-library keys */
	enum vtype type;
	uint64_t min, max;
	size_t off; /* in struct topo_profile */
};

#define PKEY(key, alias_, type_, min_, max_, member)                                                                   \
	{                                                                                                              \
		.name = (key), .set = set_profile_value, .alias = (alias_), .type = (type_), .min = (min_),            \
		.max = (max_), .off = offsetof(struct topo_profile, member)                                            \
	}

static const struct key_def profile_keys[PK_COUNT] = {
    [PK_EXPORT_PCI] = PKEY("export_pci", NULL, V_BOOL, 0, 1, export_pci),
    [PK_IMPORT_PCI] = PKEY("import_pci", NULL, V_BOOL, 0, 1, import_pci),
    [PK_DMA_SUPPORTED] = PKEY("dma.supported", "dma", V_BOOL, 0, 1, dma.supported),
    [PK_DMA_MAX_BUF_SIZE] = PKEY("dma.max_buf_size", "max_buf_size", V_SIZE64, 1, TOPO_MAX_BUF_SIZE, dma.max_buf_size),
    [PK_DMA_MAX_BUF_LIST_LEN] =
	PKEY("dma.max_buf_list_len", "max_buf_list_len", V_U32, 1, TOPO_MAX_LIST_LEN, dma.max_buf_list_len),
    [PK_DMA_MAX_TASKS] = PKEY("dma.max_tasks", "max_tasks", V_U32, 1, TOPO_MAX_POOL, dma.max_tasks),
    [PK_DMA_QUEUE_DEPTH] = PKEY("dma.queue_depth", "queue_depth", V_U32, 1, TOPO_MAX_POOL, dma.queue_depth),
    [PK_COMCH_SUPPORTED] = PKEY("comch.supported", NULL, V_BOOL, 0, 1, comch.supported),
    [PK_COMCH_MAX_MSG_SIZE] =
	PKEY("comch.max_msg_size", NULL, V_SIZE32, 1, TOPO_COMCH_MAX_MSG_SIZE, comch.max_msg_size),
    /* At least one character and the NUL. */
    [PK_COMCH_MAX_NAME_LEN] = PKEY("comch.max_name_len", NULL, V_U32, 2, TOPO_COMCH_MAX_NAME_LEN, comch.max_name_len),
    [PK_COMCH_MAX_CLIENTS] = PKEY("comch.max_clients", NULL, V_U32, 1, TOPO_COMCH_MAX_CLIENTS, comch.max_clients),
    [PK_COMCH_MAX_SEND_TASKS] =
	PKEY("comch.max_send_tasks", NULL, V_U32, 1, TOPO_COMCH_MAX_SEND_TASKS, comch.max_send_tasks),
    [PK_COMCH_MAX_RECV_QUEUE_SIZE] =
	PKEY("comch.max_recv_queue_size", NULL, V_U32, 1, TOPO_COMCH_MAX_RECV_QUEUE, comch.max_recv_queue_size),
    [PK_COMCH_MAX_CONSUMERS] =
	PKEY("comch.max_consumers", NULL, V_U32, 1, TOPO_COMCH_MAX_PER_CONN, comch.max_consumers),
    [PK_COMCH_MAX_PRODUCERS] =
	PKEY("comch.max_producers", NULL, V_U32, 1, TOPO_COMCH_MAX_PER_CONN, comch.max_producers),
    [PK_COMCH_CONSUMER_MAX_NUM_TASKS] =
	PKEY("comch.consumer_max_num_tasks", NULL, V_U32, 1, TOPO_COMCH_MAX_DP_TASKS, comch.consumer_max_num_tasks),
    [PK_COMCH_PRODUCER_MAX_NUM_TASKS] =
	PKEY("comch.producer_max_num_tasks", NULL, V_U32, 1, TOPO_COMCH_MAX_DP_TASKS, comch.producer_max_num_tasks),
    [PK_COMCH_CONSUMER_MAX_BUF_SIZE] =
	PKEY("comch.consumer_max_buf_size", NULL, V_SIZE32, 1, TOPO_COMCH_MAX_DP_BUF_SIZE, comch.consumer_max_buf_size),
    [PK_COMCH_PRODUCER_MAX_BUF_SIZE] =
	PKEY("comch.producer_max_buf_size", NULL, V_SIZE32, 1, TOPO_COMCH_MAX_DP_BUF_SIZE, comch.producer_max_buf_size),
    [PK_ETH_SUPPORTED] = PKEY("eth.supported", NULL, V_BOOL, 0, 1, eth.supported),
    [PK_ETH_MAX_BURST_SIZE] = PKEY("eth.max_burst_size", NULL, V_U32, 1, 65536, eth.max_burst_size),
    /* An Ethernet frame is at least 64 bytes; 64 KiB is the largest IPv4 packet. */
    [PK_ETH_MAX_PACKET_SIZE] = PKEY("eth.max_packet_size", NULL, V_SIZE32, 64, 65536, eth.max_packet_size),
    [PK_ETH_MAX_QUEUE_SIZE] = PKEY("eth.max_queue_size", NULL, V_U32, 1, 65536, eth.max_queue_size),
};

static int set_profile_value(struct parser *p, struct span v)
{
	const struct key_def *k = p->key;
	uint8_t *field = (uint8_t *)p->prof + k->off;
	uint64_t x = 0;

	switch (k->type) {
	case V_BOOL:
		return parse_bool(p, v, field);
	case V_SIZE64:
		if (parse_uint(p, v, true, k->min, k->max, &x))
			return -1;
		memcpy(field, &x, sizeof(uint64_t));
		return 0;
	case V_U32:
	case V_SIZE32:
		if (parse_uint(p, v, k->type == V_SIZE32, k->min, k->max, &x))
			return -1;
		uint32_t y = (uint32_t)x;
		memcpy(field, &y, sizeof(y));
		return 0;
	}
	return bad(p, "internal error: bad key type");
}

static const struct key_def device_keys[DK_COUNT] = {
    [DK_SIDE] = {"side", set_side},
    [DK_IBDEV] = {"ibdev", set_ibdev},
    [DK_IFACE] = {"iface", set_iface},
    [DK_MAC] = {"mac", set_mac},
    [DK_PROFILE] = {"profile", set_profile},
    [DK_FUNC] = {"func", set_func},
    [DK_SF_INDEX] = {"sf_index", set_sf_index},
    [DK_REPRESENTOR] = {"representor", set_representor},
    [DK_MEDIUM] = {"medium", set_medium},
    [DK_WIRE] = {"wire", set_wire},
    [DK_IFNAME] = {"ifname", set_ifname},
    [DK_NETNS] = {"netns", set_netns},
};

static const struct key_def engine_keys[EK_COUNT] = {
    [EK_NAME] = {"name", set_engine_name},
    [EK_WORKERS] = {"workers", set_workers},
};

/* ---- sections ------------------------------------------------------------------------------- */

/* Rules that hold once a [device] section is complete, whatever order its keys came in. */
static int finish_section(struct parser *p)
{
	const struct topo_device *d = p->dev;
	const struct dev_meta *m = p->meta_cur;

	if (p->sec != SEC_DEVICE)
		goto done;
	if (!m->key_line[DK_SIDE])
		return fail(p, m->line, span_of("side"), "missing; every [device] needs side = dpu or side = host");
	if (d->side == TOPO_SIDE_HOST && d->nb_reps)
		return fail(p, m->rep_line[0], span_of("representor"),
			    "only a dpu-side device has representors (side = host on line %" PRIu32 ")",
			    m->key_line[DK_SIDE]);
	if (m->key_line[DK_SF_INDEX] && d->func != DOCA_PCI_FUNC_TYPE_SF)
		return fail(p, m->key_line[DK_SF_INDEX], span_of("sf_index"), "only allowed with func = sf");
	if (m->key_line[DK_WIRE] && m->key_line[DK_IFNAME] && m->key_line[DK_WIRE] < m->key_line[DK_IFNAME])
		return fail(p, m->key_line[DK_IFNAME], span_of("ifname"),
			    "a port has one medium: wire on line %" PRIu32 " and ifname (afpacket) here; keep one",
			    m->key_line[DK_WIRE]);
	if (m->key_line[DK_WIRE] && m->key_line[DK_IFNAME])
		return fail(p, m->key_line[DK_WIRE], span_of("wire"),
			    "a port has one medium: ifname (afpacket) on line %" PRIu32 " and wire here; keep one",
			    m->key_line[DK_IFNAME]);
	if (m->key_line[DK_WIRE] && m->key_line[DK_MEDIUM] && d->medium != TOPO_MEDIUM_WIRE)
		return fail(p, m->key_line[DK_WIRE], span_of("wire"),
			    "only allowed with medium = wire (medium = %s on line %" PRIu32 ")",
			    priv_doca_topo_medium_name(d->medium), m->key_line[DK_MEDIUM]);
	for (int k = DK_IFNAME; k <= DK_NETNS; k++)
		if (m->key_line[k] && m->key_line[DK_MEDIUM] && d->medium != TOPO_MEDIUM_AFPACKET)
			return fail(p, m->key_line[k], span_of(device_keys[k].name),
				    "only allowed with medium = afpacket (medium = %s on line %" PRIu32 ")",
				    priv_doca_topo_medium_name(d->medium), m->key_line[DK_MEDIUM]);
	if (m->key_line[DK_WIRE])
		p->dev->medium = TOPO_MEDIUM_WIRE;
	if (m->key_line[DK_IFNAME])
		p->dev->medium = TOPO_MEDIUM_AFPACKET;
	if (d->medium == TOPO_MEDIUM_WIRE && !m->key_line[DK_WIRE])
		return fail(p, m->key_line[DK_MEDIUM], span_of("medium"),
			    "a wire needs its other end; add wire = PCI of the cabled device");
	if (m->key_line[DK_NETNS] && !m->key_line[DK_IFNAME])
		return fail(p, m->key_line[DK_NETNS], span_of("netns"),
			    "names where the afpacket interface lives, but there is none; add ifname = NAME");
	if (d->medium == TOPO_MEDIUM_AFPACKET && !m->key_line[DK_IFNAME])
		return fail(p, m->key_line[DK_MEDIUM], span_of("medium"),
			    "afpacket needs the Linux interface it sends on; add ifname = NAME (a veth, tap or NIC)");
done:
	p->sec = SEC_NONE;
	return 0;
}

static int begin_profile(struct parser *p, struct span name)
{
	struct topology *t = p->out;
	char buf[TOPO_MAX_NAME];
	uint32_t i;

	p->field = "section";
	if (!name.n)
		return bad(p, "missing profile name; expected [profile NAME]");
	if (parse_name(p, name, buf, sizeof(buf)))
		return -1;
	for (i = 0; i < t->nb_profiles; i++)
		if (strcmp(t->profiles[i].name, buf) == 0)
			break;
	/* "default" exists before the file says anything; the file may redefine it once. */
	if (i < t->nb_profiles && p->profile_line[i])
		return bad(p, "profile '%s' already defined on line %" PRIu32, buf, p->profile_line[i]);
	if (i == t->nb_profiles) {
		if (i == TOPO_MAX_PROFILES)
			return bad(p, "more than %d profiles (counting 'default')", TOPO_MAX_PROFILES);
		t->profiles[i] = builtin_profile;
		memcpy(t->profiles[i].name, buf, sizeof(buf));
		t->nb_profiles++;
	}
	p->profile_line[i] = p->line;
	p->prof = &t->profiles[i];
	p->sec = SEC_PROFILE;
	return 0;
}

static int begin_device(struct parser *p, struct span arg)
{
	struct topology *t = p->out;
	struct topo_device *d = &t->devices[t->nb_devices];
	struct dev_meta *m = &p->meta[t->nb_devices];
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	p->field = "section";
	if (!arg.n)
		return bad(p, "missing PCI address; expected [device BB:DD.F]");
	if (t->nb_devices == TOPO_MAX_DEVICES)
		return bad(p, "more than %d devices", TOPO_MAX_DEVICES);
	memset(d, 0, sizeof(*d));
	if (parse_pci_span(p, arg, &d->domain, &d->bus, &d->dev, &d->fn))
		return -1;
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *o = &t->devices[i];

		if (o->domain == d->domain && o->bus == d->bus && o->dev == d->dev && o->fn == d->fn) {
			format_pci(pci, d->domain, d->bus, d->dev, d->fn);
			return bad(p, "device %s already defined on line %" PRIu32, pci, p->meta[i].line);
		}
	}
	d->func = DOCA_PCI_FUNC_TYPE_PF;
	memset(m, 0, sizeof(*m));
	m->line = p->line;
	t->nb_devices++;
	p->saw_device = true;
	p->dev = d;
	p->meta_cur = m;
	p->sec = SEC_DEVICE;
	return 0;
}

static int begin_engine(struct parser *p, struct span arg)
{
	p->field = "section";
	if (arg.n)
		return bad(p, "[engine] takes no name");
	if (p->engine_line)
		return bad(p, "[engine] already defined on line %" PRIu32, p->engine_line);
	p->engine_line = p->line;
	p->sec = SEC_ENGINE;
	return 0;
}

static int parse_header(struct parser *p, struct span l)
{
	struct span kind, arg;

	if (finish_section(p))
		return -1;
	p->field = "section";
	if (l.n < 2 || l.p[l.n - 1] != ']')
		return bad(p, "missing ']' at the end of the section header");
	kind = trim(l.p + 1, l.n - 2);
	arg = split_word(&kind);
	memset(p->key_line, 0, sizeof(p->key_line));
	p->keys = p->key_line;
	if (!kind.n)
		return bad(p, "empty section header; expected [profile NAME], [device PCI] or [engine]");
	if (span_eq(kind, "profile"))
		return begin_profile(p, arg);
	if (span_eq(kind, "device")) {
		if (begin_device(p, arg))
			return -1;
		p->keys = p->meta_cur->key_line;
		return 0;
	}
	if (span_eq(kind, "engine"))
		return begin_engine(p, arg);
	return bad(p, "unknown section kind '" SPAN_FMT "' (expected profile, device or engine)", SPAN_ARG(kind));
}

/*
 * Lists the keys a [profile] may hold: those of the library the key names before its dot when
 * there is one (comch.max_msg_sise), the core keys and the libraries otherwise.
 */
static int unknown_profile_key(struct parser *p, struct span key)
{
	static const char *const libs[] = {"dma.", "comch.", "eth."};
	char list[400];
	size_t n = 0;
	const char *lib = NULL;

	for (size_t j = 0; j < sizeof(libs) / sizeof(libs[0]); j++)
		if (key.n > strlen(libs[j]) && memcmp(key.p, libs[j], strlen(libs[j])) == 0)
			lib = libs[j];
	list[0] = '\0';
	for (size_t i = 0; i < PK_COUNT && n < sizeof(list); i++) {
		const char *name = profile_keys[i].name;
		bool core = strchr(name, '.') == NULL;

		if (lib ? strncmp(name, lib, strlen(lib)) == 0 : core) {
			int w = snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", name);

			n += w > 0 ? (size_t)w : 0;
		}
	}
	if (lib)
		return fail(p, p->line, key, "unknown key in a [profile] section (expected %s)", list);
	return fail(p, p->line, key,
		    "unknown key in a [profile] section (expected %s, dma.*, comch.* or eth.* keys, or the flat "
		    "dma aliases dma, max_buf_size, max_buf_list_len, max_tasks, queue_depth)",
		    list);
}

static int parse_assignment(struct parser *p, struct span l)
{
	const char *eq = memchr(l.p, '=', l.n);
	const struct key_def *table;
	size_t nb_keys, i;
	const char *expected, *kind;
	struct span key, val;

	if (!eq)
		return fail(p, p->line, span_of("line"), "expected 'key = value' or a [section] header");
	key = trim(l.p, (size_t)(eq - l.p));
	val = trim(eq + 1, l.n - (size_t)(eq - l.p) - 1);
	if (!key.n)
		return fail(p, p->line, span_of("line"), "missing key before '='");
	switch (p->sec) {
	case SEC_PROFILE:
		table = profile_keys;
		nb_keys = PK_COUNT;
		kind = "profile";
		expected = NULL; /* listed by unknown_profile_key() */
		break;
	case SEC_DEVICE:
		table = device_keys;
		nb_keys = DK_COUNT;
		kind = "device";
		expected = "side, ibdev, iface, mac, profile, func, sf_index, representor, medium, wire, ifname, "
			   "netns";
		break;
	case SEC_ENGINE:
		table = engine_keys;
		nb_keys = EK_COUNT;
		kind = "engine";
		expected = "name, workers";
		break;
	default:
		return fail(p, p->line, key,
			    "key outside a section; put it under [profile NAME], [device PCI] or "
			    "[engine]");
	}
	for (i = 0; i < nb_keys; i++)
		if (span_eq(key, table[i].name) || (table[i].alias && span_eq(key, table[i].alias)))
			break;
	if (i == nb_keys && !expected)
		return unknown_profile_key(p, key);
	if (i == nb_keys)
		return fail(p, p->line, key, "unknown key in a [%s] section (expected %s)", kind, expected);
	/* An error names the key as written; an alias and its key share one slot. */
	p->field = span_eq(key, table[i].name) ? table[i].name : table[i].alias;
	p->key = &table[i];
	if (p->keys[i] && !(p->sec == SEC_DEVICE && i == DK_REPRESENTOR))
		return bad(p, "set twice in this section (first on line %" PRIu32 ")", p->keys[i]);
	if (!p->keys[i])
		p->keys[i] = p->line;
	if (!val.n)
		return bad(p, "empty value");
	return table[i].set(p, val);
}

static int parse_line(struct parser *p, const char *s, size_t n)
{
	const struct span line_field = {"line", 4};
	size_t cstart;
	struct span l;

	if (n && s[n - 1] == '\r') /* files written on Windows */
		n--;
	if (n > TOPO_MAX_LINE)
		return fail(p, p->line, line_field, "longer than %d bytes", TOPO_MAX_LINE);
	cstart = comment_start(s, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0)
			return fail(p, p->line, line_field, "NUL byte at column %zu", i + 1);
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return fail(p, p->line, line_field, "non-printable byte 0x%02x at column %zu", c, i + 1);
		/* Names and values are ASCII; only a comment may be written in UTF-8. */
		if (c >= 0x80 && i < cstart)
			return fail(p, p->line, line_field, "non-ASCII byte 0x%02x at column %zu outside a comment", c,
				    i + 1);
	}
	l = trim(s, cstart);
	if (!l.n)
		return 0;
	if (l.p[0] == '[')
		return parse_header(p, l);
	return parse_assignment(p, l);
}

/* ---- whole-file rules ------------------------------------------------------------------------- */

static int resolve_profiles(struct parser *p)
{
	struct topology *t = p->out;

	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct dev_meta *m = &p->meta[i];
		uint32_t j = 0;

		if (m->key_line[DK_PROFILE])
			for (j = 0; j < t->nb_profiles; j++)
				if (strcmp(t->profiles[j].name, m->profile) == 0)
					break;
		if (j == t->nb_profiles)
			return fail(p, m->key_line[DK_PROFILE], span_of("profile"),
				    "profile '%s' is not defined; add a [profile %s] section", m->profile, m->profile);
		t->devices[i].profile = j;
	}
	return 0;
}

static const struct topo_device *find_device(const struct topology *t, const struct topo_rep *r)
{
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *d = &t->devices[i];

		if (d->domain == r->domain && d->bus == r->bus && d->dev == r->dev && d->fn == r->fn)
			return d;
	}
	return NULL;
}

static int check_reps(struct parser *p)
{
	const struct topology *t = p->out;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *d = &t->devices[i];

		for (uint32_t k = 0; k < d->nb_reps; k++) {
			const struct topo_rep *r = &d->reps[k];
			const struct topo_device *target = find_device(t, r);
			uint32_t line = p->meta[i].rep_line[k];

			if (target && target->side == TOPO_SIDE_DPU) {
				format_pci(pci, r->domain, r->bus, r->dev, r->fn);
				return fail(p, line, span_of("representor"),
					    "%s is a dpu-side device; a representor stands for a host "
					    "function",
					    pci);
			}
			/* vuids identify representors to programs, so they must be unique. */
			for (uint32_t j = 0; j <= i; j++) {
				const struct topo_device *o = &t->devices[j];
				uint32_t end = j == i ? k : o->nb_reps;

				for (uint32_t l = 0; l < end; l++)
					if (strcmp(o->reps[l].vuid, r->vuid) == 0)
						return fail(p, line, span_of("representor"),
							    "vuid '%s' already used on line %" PRIu32, r->vuid,
							    p->meta[j].rep_line[l]);
			}
		}
	}
	return 0;
}

/* Explicit names must differ; the later line is the one reported. */
static int check_explicit_names(struct parser *p, int key, size_t offset)
{
	const struct topology *t = p->out;

	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const char *a = (const char *)&t->devices[i] + offset;

		if (!p->meta[i].key_line[key])
			continue;
		for (uint32_t j = 0; j < i; j++) {
			const char *b = (const char *)&t->devices[j] + offset;

			if (p->meta[j].key_line[key] && strcmp(a, b) == 0)
				return fail(p, p->meta[i].key_line[key], span_of(device_keys[key].name),
					    "'%s' already used on line %" PRIu32, a, p->meta[j].key_line[key]);
		}
	}
	return 0;
}

static bool name_taken(const struct topology *t, size_t offset, const char *name)
{
	for (uint32_t i = 0; i < t->nb_devices; i++)
		if (strcmp((const char *)&t->devices[i] + offset, name) == 0)
			return true;
	return false;
}

/*
 * A device without ibdev/iface gets one derived from its index in the file. When a name given
 * explicitly elsewhere already holds that number, the next free number is used, so defaults
 * never collide (at most TOPO_MAX_DEVICES names can be taken).
 */
static void derive_names(struct topology *t, const struct dev_meta *meta)
{
	_Static_assert(sizeof(t->devices[0].ibdev) == TOPO_MAX_NAME && sizeof(t->devices[0].iface) == TOPO_MAX_NAME,
		       "names are built in a TOPO_MAX_NAME buffer");
	char buf[TOPO_MAX_NAME];

	for (uint32_t i = 0; i < t->nb_devices; i++) {
		struct topo_device *d = &t->devices[i];

		if (!meta[i].key_line[DK_IBDEV]) {
			for (uint32_t k = i;; k++) {
				snprintf(buf, sizeof(buf), "mlx5_%" PRIu32, k);
				if (!name_taken(t, offsetof(struct topo_device, ibdev), buf))
					break;
			}
			memcpy(d->ibdev, buf, sizeof(d->ibdev));
		}
		if (!meta[i].key_line[DK_IFACE]) {
			for (uint32_t k = i;; k++) {
				if (d->side == TOPO_SIDE_DPU)
					snprintf(buf, sizeof(buf), "p%" PRIu32, k);
				else
					snprintf(buf, sizeof(buf), "ens%" PRIu32 "f0", k);
				if (!name_taken(t, offsetof(struct topo_device, iface), buf))
					break;
			}
			memcpy(d->iface, buf, sizeof(d->iface));
		}
	}
}

static int check_macs(struct parser *p)
{
	struct topology *t = p->out;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	for (uint32_t i = 0; i < t->nb_devices; i++)
		if (!p->meta[i].key_line[DK_MAC])
			default_mac(&t->devices[i], t->devices[i].mac);
	/* Derived addresses are unique per PCI address, so a clash involves an explicit one. */
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		for (uint32_t j = 0; j < i; j++) {
			uint32_t li = p->meta[i].key_line[DK_MAC], lj = p->meta[j].key_line[DK_MAC];
			const struct topo_device *other;

			if (memcmp(t->devices[i].mac, t->devices[j].mac, DOCA_DEVINFO_MAC_ADDR_SIZE))
				continue;
			if (li && lj)
				return fail(p, li, span_of("mac"), "address already used on line %" PRIu32, lj);
			other = li ? &t->devices[j] : &t->devices[i];
			format_pci(pci, other->domain, other->bus, other->dev, other->fn);
			return fail(p, li ? li : lj, span_of("mac"),
				    "address is the default address of device %s; choose another", pci);
		}
	}
	return 0;
}

/* An SF is found by its index, so two SFs sharing one would hide one of them. */
static int check_sf_index(struct parser *p)
{
	const struct topology *t = p->out;

	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *d = &t->devices[i];
		const struct dev_meta *m = &p->meta[i];

		if (d->func != DOCA_PCI_FUNC_TYPE_SF)
			continue;
		for (uint32_t j = 0; j < i; j++) {
			const struct topo_device *o = &t->devices[j];

			if (o->func == DOCA_PCI_FUNC_TYPE_SF && o->sf_index == d->sf_index)
				return fail(p, m->key_line[DK_SF_INDEX] ? m->key_line[DK_SF_INDEX] : m->line,
					    span_of("sf_index"),
					    "sf_index %" PRIu32 " already used by the device on line %" PRIu32,
					    d->sf_index, p->meta[j].line);
		}
	}
	return 0;
}

/* Each wire ends at another device that names this one back. */
static int check_wires(struct parser *p)
{
	struct topology *t = p->out;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], self[DOCA_DEVINFO_PCI_ADDR_SIZE];

	for (uint32_t i = 0; i < t->nb_devices; i++) {
		struct topo_device *d = &t->devices[i];
		const struct dev_meta *m = &p->meta[i];
		const struct topo_device *peer;

		if (d->medium != TOPO_MEDIUM_WIRE)
			continue;
		peer = find_device(t, &m->wire);
		format_pci(pci, m->wire.domain, m->wire.bus, m->wire.dev, m->wire.fn);
		format_pci(self, d->domain, d->bus, d->dev, d->fn);
		if (peer == NULL)
			return fail(p, m->key_line[DK_WIRE], span_of("wire"),
				    "no [device %s] in this file; a wire connects two listed devices", pci);
		if (peer == d)
			return fail(p, m->key_line[DK_WIRE], span_of("wire"),
				    "%s is this device; a wire connects two different devices", pci);
		d->wire_peer = (uint32_t)(peer - t->devices);
		if (peer->medium != TOPO_MEDIUM_WIRE || find_device(t, &p->meta[d->wire_peer].wire) != d)
			return fail(p, m->key_line[DK_WIRE], span_of("wire"),
				    "%s does not name this device back; add wire = %s to [device %s]", pci, self, pci);
	}
	return 0;
}

static int finish_topology(struct parser *p)
{
	struct topology *t = p->out;

	if (finish_section(p))
		return -1;
	/* A file that only tunes profiles or the engine keeps the default devices. */
	if (!p->saw_device) {
		default_devices(t);
		return 0;
	}
	if (resolve_profiles(p) || check_reps(p) ||
	    check_explicit_names(p, DK_IBDEV, offsetof(struct topo_device, ibdev)) ||
	    check_explicit_names(p, DK_IFACE, offsetof(struct topo_device, iface)))
		return -1;
	derive_names(t, p->meta);
	return check_macs(p) || check_sf_index(p) || check_wires(p) ? -1 : 0;
}

SD_PRIV bool priv_doca_pci_addr_valid(const char *s)
{
	return topo_parse_pci(s, NULL, NULL, NULL, NULL) == 0;
}

SD_PRIV const char *priv_doca_topo_medium_name(enum topo_medium m)
{
	switch (m) {
	case TOPO_MEDIUM_WIRE:
		return "wire";
	case TOPO_MEDIUM_AFPACKET:
		return "afpacket";
	default:
		return "none";
	}
}

doca_error_t topo_parse(const char *text, size_t len, struct topology *out, char *err, size_t err_len)
{
	struct parser p;
	size_t pos = 0;

	if (err && err_len)
		err[0] = '\0';
	if (!out)
		return DOCA_ERROR_INVALID_VALUE;
	memset(out, 0, sizeof(*out));
	if (!text && len)
		return DOCA_ERROR_INVALID_VALUE;
	memset(&p, 0, sizeof(p));
	p.out = out;
	p.err = err;
	p.err_len = err_len;
	p.keys = p.key_line;
	out->nb_profiles = 1;
	out->profiles[0] = builtin_profile;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (p.line == UINT32_MAX) {
			fail(&p, p.line, span_of("line"), "too many lines");
			goto error;
		}
		p.line++;
		if (parse_line(&p, text + pos, end - pos))
			goto error;
		pos = end + 1;
	}
	if (finish_topology(&p))
		goto error;
	return DOCA_SUCCESS;
error:
	/* Nobody may mistake half a topology for a valid one. */
	memset(out, 0, sizeof(*out));
	return DOCA_ERROR_BAD_CONFIG;
}

/* ---- process-wide topology ------------------------------------------------------------------ */

static pthread_once_t topo_once = PTHREAD_ONCE_INIT;
static struct topology topo_global;
static const struct topology *topo_result;

/* Reads all of @path (at most TOPO_MAX_FILE bytes) and parses it. */
static int topo_load(const char *path, struct topology *t, char *err, size_t err_len)
{
	char ebuf[128];
	char *buf;
	size_t len = 0;
	int fd, ret = -1;

	/* Non-blocking, so that a FIFO or a device named by mistake cannot hang the open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, err_len, "cannot open the file: %s", strerror_r(errno, ebuf, sizeof(ebuf)));
		return -1;
	}
	{
		struct stat st;

		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			snprintf(err, err_len,
				 "not a regular file (a FIFO, device or directory cannot hold a configuration)");
			close(fd);
			return -1;
		}
	}
	/* One byte more than the limit tells "exactly 1 MiB" from "bigger". */
	buf = malloc(TOPO_MAX_FILE + 1);
	if (!buf) {
		snprintf(err, err_len, "cannot read the file: out of memory");
		goto out;
	}
	while (len <= TOPO_MAX_FILE) {
		ssize_t n = read(fd, buf + len, TOPO_MAX_FILE + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, err_len, "cannot read the file: %s", strerror_r(errno, ebuf, sizeof(ebuf)));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > TOPO_MAX_FILE) {
		snprintf(err, err_len, "file larger than %u bytes (1 MiB)", TOPO_MAX_FILE);
		goto out;
	}
	if (topo_parse(buf, len, t, err, err_len) == DOCA_SUCCESS)
		ret = 0;
out:
	free(buf);
	close(fd);
	return ret;
}

static void topo_init(void)
{
	/* secure_getenv: a set-user-ID program must not read a file named by its caller. */
	const char *path = secure_getenv("SOFTDOCA_CONFIG");
	char err[512];

	if (!path || !*path) {
		topo_default(&topo_global);
		topo_result = &topo_global;
		return;
	}
	if (topo_load(path, &topo_global, err, sizeof(err))) {
		SD_ERR("config",
		       "SOFTDOCA_CONFIG=%s: %s; fix the file or unset SOFTDOCA_CONFIG to use the "
		       "embedded default topology",
		       path, err);
		return;
	}
	snprintf(topo_global.source, sizeof(topo_global.source), "%s", path);
	topo_result = &topo_global;
}

const struct topology *topo_get(void)
{
	pthread_once(&topo_once, topo_init);
	return topo_result;
}

SD_PRIV const struct topology *priv_doca_topology(void)
{
	return topo_get();
}
