/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology_parse.c - the SOFTDOCA_CONFIG parser's walk: one line at a time into
 * section headers and key = value assignments, each section finished as the next begins, then
 * the rules that need the whole file (profile references, representors, names, MACs, wires).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv(), GNU strerror_r() */
#endif

#include "topology_internal.h"

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

/* ---- sections ------------------------------------------------------------------------------- */

/*
 * The udp medium's keys: udp.peer makes the port a udp port and is the one it needs; udp.local
 * and udp.vni only go with it; no other medium's key beside them; local and peer of one family.
 */
static int finish_udp(struct parser *p)
{
	struct topo_device *d = p->dev;
	const struct dev_meta *m = p->meta_cur;
	static const int other[] = {DK_WIRE, DK_IFNAME};

	for (int k = DK_UDP_LOCAL; k <= DK_UDP_VNI; k++) {
		if (!m->key_line[k])
			continue;
		if (m->key_line[DK_MEDIUM] && d->medium != TOPO_MEDIUM_UDP)
			return topo_fail(p, m->key_line[k], span_of(topo_device_keys[k].name),
					 "only allowed with medium = udp (medium = %s on line %" PRIu32 ")",
					 priv_doca_topo_medium_name(d->medium), m->key_line[DK_MEDIUM]);
		for (size_t o = 0; o < SD_ARRAY_SIZE(other); o++)
			if (m->key_line[other[o]])
				return topo_fail(p, m->key_line[k], span_of(topo_device_keys[k].name),
						 "a port has one medium: %s on line %" PRIu32 " and udp here; keep one",
						 topo_device_keys[other[o]].name, m->key_line[other[o]]);
		if (!m->key_line[DK_UDP_PEER])
			return topo_fail(p, m->key_line[k], span_of(topo_device_keys[k].name),
					 "belongs to a udp port, which needs its other end; add udp.peer = ADDR:PORT");
	}
	if (d->medium == TOPO_MEDIUM_UDP && m->key_line[DK_MEDIUM] && !m->key_line[DK_UDP_PEER])
		return topo_fail(p, m->key_line[DK_MEDIUM], span_of("medium"),
				 "udp needs the address of its other end; add udp.peer = ADDR:PORT (e.g. "
				 "192.0.2.2:4789)");
	if (!m->key_line[DK_UDP_PEER])
		return 0;
	d->medium = TOPO_MEDIUM_UDP;
	if (!m->key_line[DK_UDP_LOCAL]) {
		/* any address of the peer's family, VXLAN's port */
		memset(&d->udp_local, 0, sizeof(d->udp_local));
		d->udp_local.family = d->udp_peer.family;
		d->udp_local.port = TOPO_UDP_PORT;
	} else if (d->udp_local.family != d->udp_peer.family) {
		return topo_fail(p, m->key_line[DK_UDP_LOCAL], span_of("udp.local"),
				 "an IPv%u address, but udp.peer on line %" PRIu32 " is IPv%u; use one family",
				 d->udp_local.family, m->key_line[DK_UDP_PEER], d->udp_peer.family);
	}
	return 0;
}

/* Rules that hold once a [device] section is complete, whatever order its keys came in. */
static int finish_section(struct parser *p)
{
	const struct topo_device *d = p->dev;
	const struct dev_meta *m = p->meta_cur;

	if (p->sec != SEC_DEVICE)
		goto done;
	if (!m->key_line[DK_SIDE])
		return topo_fail(p, m->line, span_of("side"),
				 "missing; every [device] needs side = dpu or side = host");
	if (d->side == TOPO_SIDE_HOST && d->nb_reps)
		return topo_fail(p, m->rep_line[0], span_of("representor"),
				 "only a dpu-side device has representors (side = host on line %" PRIu32 ")",
				 m->key_line[DK_SIDE]);
	if (m->key_line[DK_SF_INDEX] && d->func != DOCA_PCI_FUNC_TYPE_SF)
		return topo_fail(p, m->key_line[DK_SF_INDEX], span_of("sf_index"), "only allowed with func = sf");
	if (m->key_line[DK_WIRE] && m->key_line[DK_IFNAME] && m->key_line[DK_WIRE] < m->key_line[DK_IFNAME])
		return topo_fail(p, m->key_line[DK_IFNAME], span_of("ifname"),
				 "a port has one medium: wire on line %" PRIu32 " and ifname (afpacket) here; keep one",
				 m->key_line[DK_WIRE]);
	if (m->key_line[DK_WIRE] && m->key_line[DK_IFNAME])
		return topo_fail(p, m->key_line[DK_WIRE], span_of("wire"),
				 "a port has one medium: ifname (afpacket) on line %" PRIu32 " and wire here; keep one",
				 m->key_line[DK_IFNAME]);
	if (m->key_line[DK_WIRE] && m->key_line[DK_MEDIUM] && d->medium != TOPO_MEDIUM_WIRE)
		return topo_fail(p, m->key_line[DK_WIRE], span_of("wire"),
				 "only allowed with medium = wire (medium = %s on line %" PRIu32 ")",
				 priv_doca_topo_medium_name(d->medium), m->key_line[DK_MEDIUM]);
	for (int k = DK_IFNAME; k <= DK_NETNS; k++)
		if (m->key_line[k] && m->key_line[DK_MEDIUM] && d->medium != TOPO_MEDIUM_AFPACKET)
			return topo_fail(p, m->key_line[k], span_of(topo_device_keys[k].name),
					 "only allowed with medium = afpacket (medium = %s on line %" PRIu32 ")",
					 priv_doca_topo_medium_name(d->medium), m->key_line[DK_MEDIUM]);
	if (finish_udp(p) != 0)
		return -1;
	if (m->key_line[DK_WIRE])
		p->dev->medium = TOPO_MEDIUM_WIRE;
	if (m->key_line[DK_IFNAME])
		p->dev->medium = TOPO_MEDIUM_AFPACKET;
	if (d->medium == TOPO_MEDIUM_WIRE && !m->key_line[DK_WIRE])
		return topo_fail(p, m->key_line[DK_MEDIUM], span_of("medium"),
				 "a wire needs its other end; add wire = PCI of the cabled device");
	if (m->key_line[DK_NETNS] && !m->key_line[DK_IFNAME])
		return topo_fail(p, m->key_line[DK_NETNS], span_of("netns"),
				 "names where the afpacket interface lives, but there is none; add ifname = NAME");
	if (d->medium == TOPO_MEDIUM_AFPACKET && !m->key_line[DK_IFNAME])
		return topo_fail(
		    p, m->key_line[DK_MEDIUM], span_of("medium"),
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
	if (topo_parse_name(p, name, buf, sizeof(buf)))
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
		t->profiles[i] = topo_builtin_profile;
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
	if (topo_parse_pci_span(p, arg, &d->domain, &d->bus, &d->dev, &d->fn))
		return -1;
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		const struct topo_device *o = &t->devices[i];

		if (o->domain == d->domain && o->bus == d->bus && o->dev == d->dev && o->fn == d->fn) {
			topo_format_pci(pci, d->domain, d->bus, d->dev, d->fn);
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
		const char *name = topo_profile_keys[i].name;
		bool core = strchr(name, '.') == NULL;

		if (lib ? strncmp(name, lib, strlen(lib)) == 0 : core) {
			int w = snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", name);

			n += w > 0 ? (size_t)w : 0;
		}
	}
	if (lib)
		return topo_fail(p, p->line, key, "unknown key in a [profile] section (expected %s)", list);
	return topo_fail(p, p->line, key,
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
		return topo_fail(p, p->line, span_of("line"), "expected 'key = value' or a [section] header");
	key = trim(l.p, (size_t)(eq - l.p));
	val = trim(eq + 1, l.n - (size_t)(eq - l.p) - 1);
	if (!key.n)
		return topo_fail(p, p->line, span_of("line"), "missing key before '='");
	switch (p->sec) {
	case SEC_PROFILE:
		table = topo_profile_keys;
		nb_keys = PK_COUNT;
		kind = "profile";
		expected = NULL; /* listed by unknown_profile_key() */
		break;
	case SEC_DEVICE:
		table = topo_device_keys;
		nb_keys = DK_COUNT;
		kind = "device";
		expected = "side, ibdev, iface, mac, profile, func, sf_index, representor, medium, wire, ifname, "
			   "netns, udp.local, udp.peer, udp.vni";
		break;
	case SEC_ENGINE:
		table = topo_engine_keys;
		nb_keys = EK_COUNT;
		kind = "engine";
		expected = "name, workers";
		break;
	default:
		return topo_fail(p, p->line, key,
				 "key outside a section; put it under [profile NAME], [device PCI] or "
				 "[engine]");
	}
	for (i = 0; i < nb_keys; i++)
		if (span_eq(key, table[i].name) || (table[i].alias && span_eq(key, table[i].alias)))
			break;
	if (i == nb_keys && !expected)
		return unknown_profile_key(p, key);
	if (i == nb_keys)
		return topo_fail(p, p->line, key, "unknown key in a [%s] section (expected %s)", kind, expected);
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
		return topo_fail(p, p->line, line_field, "longer than %d bytes", TOPO_MAX_LINE);
	cstart = comment_start(s, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0)
			return topo_fail(p, p->line, line_field, "NUL byte at column %zu", i + 1);
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return topo_fail(p, p->line, line_field, "non-printable byte 0x%02x at column %zu", c, i + 1);
		/* Names and values are ASCII; only a comment may be written in UTF-8. */
		if (c >= 0x80 && i < cstart)
			return topo_fail(p, p->line, line_field,
					 "non-ASCII byte 0x%02x at column %zu outside a comment", c, i + 1);
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
			return topo_fail(p, m->key_line[DK_PROFILE], span_of("profile"),
					 "profile '%s' is not defined; add a [profile %s] section", m->profile,
					 m->profile);
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
				topo_format_pci(pci, r->domain, r->bus, r->dev, r->fn);
				return topo_fail(p, line, span_of("representor"),
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
						return topo_fail(p, line, span_of("representor"),
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
				return topo_fail(p, p->meta[i].key_line[key], span_of(topo_device_keys[key].name),
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
			topo_default_mac(&t->devices[i], t->devices[i].mac);
	/* Derived addresses are unique per PCI address, so a clash involves an explicit one. */
	for (uint32_t i = 0; i < t->nb_devices; i++) {
		for (uint32_t j = 0; j < i; j++) {
			uint32_t li = p->meta[i].key_line[DK_MAC], lj = p->meta[j].key_line[DK_MAC];
			const struct topo_device *other;

			if (memcmp(t->devices[i].mac, t->devices[j].mac, DOCA_DEVINFO_MAC_ADDR_SIZE))
				continue;
			if (li && lj)
				return topo_fail(p, li, span_of("mac"), "address already used on line %" PRIu32, lj);
			other = li ? &t->devices[j] : &t->devices[i];
			topo_format_pci(pci, other->domain, other->bus, other->dev, other->fn);
			return topo_fail(p, li ? li : lj, span_of("mac"),
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
				return topo_fail(p, m->key_line[DK_SF_INDEX] ? m->key_line[DK_SF_INDEX] : m->line,
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
		topo_format_pci(pci, m->wire.domain, m->wire.bus, m->wire.dev, m->wire.fn);
		topo_format_pci(self, d->domain, d->bus, d->dev, d->fn);
		if (peer == NULL)
			return topo_fail(p, m->key_line[DK_WIRE], span_of("wire"),
					 "no [device %s] in this file; a wire connects two listed devices", pci);
		if (peer == d)
			return topo_fail(p, m->key_line[DK_WIRE], span_of("wire"),
					 "%s is this device; a wire connects two different devices", pci);
		d->wire_peer = (uint32_t)(peer - t->devices);
		if (peer->medium != TOPO_MEDIUM_WIRE || find_device(t, &p->meta[d->wire_peer].wire) != d)
			return topo_fail(p, m->key_line[DK_WIRE], span_of("wire"),
					 "%s does not name this device back; add wire = %s to [device %s]", pci, self,
					 pci);
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
		topo_default_devices(t);
		return 0;
	}
	if (resolve_profiles(p) || check_reps(p) ||
	    check_explicit_names(p, DK_IBDEV, offsetof(struct topo_device, ibdev)) ||
	    check_explicit_names(p, DK_IFACE, offsetof(struct topo_device, iface)))
		return -1;
	derive_names(t, p->meta);
	return check_macs(p) || check_sf_index(p) || check_wires(p) ? -1 : 0;
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
	out->profiles[0] = topo_builtin_profile;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (p.line == UINT32_MAX) {
			topo_fail(&p, p.line, span_of("line"), "too many lines");
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
