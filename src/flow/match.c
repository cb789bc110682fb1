/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * match.c - from DOCA Flow's match structures to masks over the fixed frame key, and from a
 * parsed frame to that key.
 */
#include <stddef.h>
#include <string.h>

#include "flow_internal.h"

enum fld_kind { FK_RAW, FK_ENUM };

/* Which selector of the header_format must name the field's union member. */
enum fld_sel { SEL_ANY, SEL_VLAN0, SEL_IP4, SEL_IP6, SEL_L4PORTS, SEL_TCP, SEL_ICMP };

struct fld {
	const char *name;
	uint16_t moff;
	uint8_t size; /* bytes in the key (an enum is 4 in the match, 1 in the key) */
	uint8_t koff;
	uint8_t kind;
	uint8_t sel;
};

#define M(f) offsetof(struct doca_flow_match, f)
#define FRAW(n, f, k, s, sel)                                                                                          \
	{                                                                                                              \
		n, M(f), s, k, FK_RAW, sel                                                                             \
	}
#define FENUM(n, f, k)                                                                                                 \
	{                                                                                                              \
		n, M(f), 1, k, FK_ENUM, SEL_ANY                                                                        \
	}

static const struct fld fields[] = {
    FRAW("meta.pkt_meta", meta.pkt_meta, K_META, 4, SEL_ANY),
    FRAW("parser_meta.port_id", parser_meta.port_id, K_PORT, 2, SEL_ANY),
    FENUM("parser_meta.outer_l2_type", parser_meta.outer_l2_type, K_L2T),
    FENUM("parser_meta.outer_l3_type", parser_meta.outer_l3_type, K_L3T),
    FENUM("parser_meta.outer_l4_type", parser_meta.outer_l4_type, K_L4T),
    FRAW("parser_meta.outer_ip_fragmented", parser_meta.outer_ip_fragmented, K_FRAG, 1, SEL_ANY),
    FRAW("parser_meta.outer_l3_ok", parser_meta.outer_l3_ok, K_L3OK, 1, SEL_ANY),
    FRAW("parser_meta.outer_ip4_checksum_ok", parser_meta.outer_ip4_checksum_ok, K_IP4CK, 1, SEL_ANY),
    FRAW("parser_meta.outer_l4_ok", parser_meta.outer_l4_ok, K_L4OK, 1, SEL_ANY),
    FRAW("parser_meta.outer_l4_checksum_ok", parser_meta.outer_l4_checksum_ok, K_L4CK, 1, SEL_ANY),
    FRAW("outer.eth.dst_mac", outer.eth.dst_mac, K_DMAC, 6, SEL_ANY),
    FRAW("outer.eth.src_mac", outer.eth.src_mac, K_SMAC, 6, SEL_ANY),
    FRAW("outer.eth.type", outer.eth.type, K_ETYPE, 2, SEL_ANY),
    FRAW("outer.eth_vlan[0].tci", outer.eth_vlan[0].tci, K_VLAN, 2, SEL_VLAN0),
    FRAW("outer.ip4.src_ip", outer.ip4.src_ip, K_IP4S, 4, SEL_IP4),
    FRAW("outer.ip4.dst_ip", outer.ip4.dst_ip, K_IP4D, 4, SEL_IP4),
    FRAW("outer.ip4.next_proto", outer.ip4.next_proto, K_PROTO, 1, SEL_IP4),
    FRAW("outer.ip4.ttl", outer.ip4.ttl, K_TTL, 1, SEL_IP4),
    FRAW("outer.ip6.src_ip", outer.ip6.src_ip, K_IP6S, 16, SEL_IP6),
    FRAW("outer.ip6.dst_ip", outer.ip6.dst_ip, K_IP6D, 16, SEL_IP6),
    FRAW("outer.ip6.next_proto", outer.ip6.next_proto, K_PROTO, 1, SEL_IP6),
    FRAW("outer.ip6.hop_limit", outer.ip6.hop_limit, K_TTL, 1, SEL_IP6),
    FRAW("outer.tcp.l4_port.src_port", outer.tcp.l4_port.src_port, K_L4S, 2, SEL_L4PORTS),
    FRAW("outer.tcp.l4_port.dst_port", outer.tcp.l4_port.dst_port, K_L4D, 2, SEL_L4PORTS),
    FRAW("outer.tcp.flags", outer.tcp.flags, K_TCPF, 1, SEL_TCP),
    FRAW("outer.icmp.type", outer.icmp.type, K_ICMPT, 1, SEL_ICMP),
    FRAW("outer.icmp.code", outer.icmp.code, K_ICMPC, 1, SEL_ICMP),
};

static bool sel_on(unsigned int sel, const struct doca_flow_header_format *h)
{
	switch (sel) {
	case SEL_ANY:
		return true;
	case SEL_VLAN0:
		return (h->l2_valid_headers & DOCA_FLOW_L2_VALID_HEADER_VLAN_0) != 0;
	case SEL_IP4:
		return h->l3_type == DOCA_FLOW_L3_TYPE_IP4;
	case SEL_IP6:
		return h->l3_type == DOCA_FLOW_L3_TYPE_IP6;
	case SEL_L4PORTS:
		return h->l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_TCP || h->l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_UDP ||
		       h->l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_TRANSPORT;
	case SEL_TCP:
		return h->l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_TCP;
	case SEL_ICMP:
		return h->l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_ICMP || h->l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_ICMP6;
	}
	return false;
}

/* Reads the field as key bytes; *ones: the match value is all ones (from the entry). */
static void fld_read(const struct fld *f, const struct doca_flow_match *m, uint8_t *v, bool *ones, bool *zero)
{
	const uint8_t *p = (const uint8_t *)m + f->moff;

	if (f->kind == FK_ENUM) {
		uint32_t e;

		memcpy(&e, p, sizeof(e));
		*ones = e == UINT32_MAX;
		*zero = e == 0;
		v[0] = (uint8_t)e;
		return;
	}
	*ones = true;
	*zero = true;
	for (unsigned int i = 0; i < f->size; i++) {
		v[i] = p[i];
		*ones &= p[i] == 0xff;
		*zero &= p[i] == 0;
	}
}

/* The first non-zero byte left in @m once every field the selectors allow is cleared. */
static const char *leftover(const struct doca_flow_match *m, doca_error_t *err)
{
	struct doca_flow_match t = *m;
	const uint8_t *b = (const uint8_t *)&t;

	for (size_t i = 0; i < SD_ARRAY_SIZE(fields); i++)
		if (sel_on(fields[i].sel, &m->outer))
			memset((uint8_t *)&t + fields[i].moff, 0, fields[i].kind == FK_ENUM ? 4 : fields[i].size);
	t.outer.l3_type = DOCA_FLOW_L3_TYPE_NONE;
	t.outer.l4_type_ext = DOCA_FLOW_L4_TYPE_EXT_NONE;
	t.outer.l2_valid_headers &= (uint16_t)~DOCA_FLOW_L2_VALID_HEADER_VLAN_0;
	*err = DOCA_ERROR_NOT_SUPPORTED;
	for (size_t i = 0; i < sizeof(t); i++) {
		if (b[i] == 0)
			continue;
		/* A field of a union member no selector names is a broken rule, not a gap. */
		if ((i >= M(outer.l4_type_ext) + sizeof(t.outer.l4_type_ext) && i < M(tun) &&
		     m->outer.l4_type_ext == DOCA_FLOW_L4_TYPE_EXT_NONE) ||
		    (i >= M(outer.ip4) && i < M(outer.l4_type_ext) && m->outer.l3_type == DOCA_FLOW_L3_TYPE_NONE) ||
		    (i >= M(outer.l2_valid_headers) && i < M(outer.l3_type) &&
		     !(m->outer.l2_valid_headers & DOCA_FLOW_L2_VALID_HEADER_VLAN_0)))
			*err = DOCA_ERROR_INVALID_VALUE;
		if (i >= M(inner))
			return "inner headers (inner.*) are not supported";
		if (i >= M(tun))
			return "tunnel headers (tun.*) are not supported";
		if (i >= M(outer.l4_type_ext) + sizeof(t.outer.l4_type_ext))
			return "an outer L4 field other than the ports, tcp.flags and icmp.type/code, or an L4 field "
			       "without outer.l4_type_ext naming its header";
		if (i >= M(outer.l4_type_ext)) {
			*err = DOCA_ERROR_INVALID_VALUE;
			return "outer.l4_type_ext is out of range";
		}
		if (i >= M(outer.ip4))
			return "an outer IP field other than src/dst, next_proto and ttl/hop_limit, or an IP field "
			       "without outer.l3_type naming its header";
		if (i >= M(outer.l3_type)) {
			*err = DOCA_ERROR_INVALID_VALUE;
			return "outer.l3_type is out of range";
		}
		if (i >= M(outer.l2_valid_headers))
			return "a VLAN field other than eth_vlan[0].tci with DOCA_FLOW_L2_VALID_HEADER_VLAN_0";
		if (i >= M(parser_meta))
			return "a parser_meta field other than port_id, the outer types, outer_ip_fragmented and the "
			       "outer _ok flags";
		return "meta.u32[] scratch metadata is not supported";
	}
	return NULL;
}

static doca_error_t implied(const char *what, struct flow_spec *out, unsigned int koff, uint8_t val)
{
	if (out->mask.b[koff] != 0 && out->chg.b[koff] == 0 && out->val.b[koff] != val)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
				 "%s: match: parser_meta type %u conflicts with the header outer.l3_type/l4_type_ext "
				 "names (%u); make them agree or leave parser_meta unset",
				 what, out->val.b[koff], val);
	out->val.b[koff] = val;
	out->mask.b[koff] = 0xff;
	out->chg.b[koff] = 0;
	return DOCA_SUCCESS;
}

doca_error_t flow_spec_compile(const char *what, const struct doca_flow_match *m, const struct doca_flow_match *mask,
			       enum flow_spec_mode mode, const struct doca_flow_header_format *sel,
			       struct flow_spec *out)
{
	static const struct doca_flow_match zero;
	const char *why;
	doca_error_t err, why_err = DOCA_SUCCESS;

	memset(out, 0, sizeof(*out));
	if (m == NULL)
		m = &zero;
	if (sel == NULL)
		sel = &m->outer;
	if (mode != SPEC_VALUES) {
		if (m->outer.l3_type > DOCA_FLOW_L3_TYPE_IP6 || m->outer.l4_type_ext > DOCA_FLOW_L4_TYPE_EXT_TRANSPORT)
			return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
					 "%s: match: outer.l3_type %u / l4_type_ext %u out of range; use the "
					 "DOCA_FLOW_L3_TYPE_* / DOCA_FLOW_L4_TYPE_EXT_* values",
					 what, m->outer.l3_type, m->outer.l4_type_ext);
		why = leftover(m, &why_err);
		if (why == NULL && mask != NULL) {
			struct doca_flow_match mk = *mask;

			mk.outer.l3_type = m->outer.l3_type;
			mk.outer.l4_type_ext = m->outer.l4_type_ext;
			mk.outer.l2_valid_headers = m->outer.l2_valid_headers;
			why = leftover(&mk, &why_err);
		}
		if (why != NULL) {
			return SD_REJECT(why_err, FLOW_COMP,
					 "%s: match%s: %s; match only the fields listed in softdoca's "
					 "docs/flow.md",
					 what, mask != NULL ? " or mask" : "", why);
		}
	}
	for (size_t i = 0; i < SD_ARRAY_SIZE(fields); i++) {
		const struct fld *f = &fields[i];
		uint8_t v[16], mk[16];
		bool ones, zero_v, mones, mzero;

		if (!sel_on(f->sel, sel))
			continue;
		fld_read(f, m, v, &ones, &zero_v);
		if (f->kind == FK_ENUM && !ones && !zero_v && mode != SPEC_VALUES) {
			uint32_t e;

			memcpy(&e, (const uint8_t *)m + f->moff, sizeof(e));
			if (e > DOCA_FLOW_L4_META_ESP)
				return SD_REJECT(DOCA_ERROR_INVALID_VALUE, FLOW_COMP,
						 "%s: match: %s = %u is not a value of its enum; use the "
						 "DOCA_FLOW_L*_META_* values",
						 what, f->name, e);
		}
		if (mode == SPEC_VALUES) {
			memcpy(&out->val.b[f->koff], v, f->size);
			continue;
		}
		if (mask != NULL) {
			fld_read(f, mask, mk, &mones, &mzero);
			if (f->kind == FK_ENUM)
				mk[0] = mzero ? 0 : 0xff;
		} else {
			memset(mk, zero_v ? 0 : 0xff, f->size);
		}
		for (unsigned int j = 0; j < f->size; j++) {
			unsigned int k = f->koff + j;

			if (mode == SPEC_TEMPLATE && ones) {
				out->chg.b[k] |= mk[j];
				out->mask.b[k] |= mk[j];
			} else {
				out->val.b[k] = (uint8_t)(v[j] & mk[j]);
				out->mask.b[k] |= mk[j];
			}
		}
	}
	if (mode == SPEC_VALUES)
		return DOCA_SUCCESS;
	/* The header a selector names is itself a match on the frame's type. */
	switch (m->outer.l3_type) {
	case DOCA_FLOW_L3_TYPE_IP4:
		err = implied(what, out, K_L3T, DOCA_FLOW_L3_META_IPV4);
		break;
	case DOCA_FLOW_L3_TYPE_IP6:
		err = implied(what, out, K_L3T, DOCA_FLOW_L3_META_IPV6);
		break;
	default:
		err = DOCA_SUCCESS;
	}
	if (err != DOCA_SUCCESS)
		return err;
	switch (m->outer.l4_type_ext) {
	case DOCA_FLOW_L4_TYPE_EXT_TCP:
		err = implied(what, out, K_L4T, DOCA_FLOW_L4_META_TCP);
		break;
	case DOCA_FLOW_L4_TYPE_EXT_UDP:
		err = implied(what, out, K_L4T, DOCA_FLOW_L4_META_UDP);
		break;
	case DOCA_FLOW_L4_TYPE_EXT_ICMP:
		err = implied(what, out, K_L4T, DOCA_FLOW_L4_META_ICMP);
		if (err == DOCA_SUCCESS)
			err = implied(what, out, K_L3T, DOCA_FLOW_L3_META_IPV4);
		break;
	case DOCA_FLOW_L4_TYPE_EXT_ICMP6:
		err = implied(what, out, K_L4T, DOCA_FLOW_L4_META_ICMP);
		if (err == DOCA_SUCCESS)
			err = implied(what, out, K_L3T, DOCA_FLOW_L3_META_IPV6);
		break;
	case DOCA_FLOW_L4_TYPE_EXT_TRANSPORT:
		err = implied(what, out, K_TRANSP, 1);
		break;
	default:
		break;
	}
	if (err != DOCA_SUCCESS)
		return err;
	for (unsigned int i = 0; i < FLOW_KEY_WORDS; i++)
		out->val.w[i] &= out->mask.w[i];
	return DOCA_SUCCESS;
}

static inline void put16(struct flow_key *k, unsigned int off, uint16_t v)
{
	memcpy(&k->b[off], &v, 2);
}

static inline void put32(struct flow_key *k, unsigned int off, uint32_t v)
{
	memcpy(&k->b[off], &v, 4);
}

void flow_key_from_frame(const struct nic_frame_info *info, const uint8_t *frame, uint16_t port_id, struct flow_key *k)
{
	for (unsigned int i = 0; i < FLOW_KEY_WORDS; i++)
		k->w[i] = 0;
	put16(k, K_PORT, port_id);
	k->b[K_L2T] = info->nb_vlans == 0   ? DOCA_FLOW_L2_META_NO_VLAN
		      : info->nb_vlans == 1 ? DOCA_FLOW_L2_META_SINGLE_VLAN
					    : DOCA_FLOW_L2_META_MULTI_VLAN;
	k->b[K_FRAG] = info->ip_frag != 0;
	put16(k, K_ETYPE, info->eth_type);
	if (frame != NULL && info->len >= 14) {
		memcpy(&k->b[K_DMAC], frame, 6);
		memcpy(&k->b[K_SMAC], frame + 6, 6);
	}
	put16(k, K_VLAN, info->vlan_tci);
	if (info->l3 == NIC_L3_IPV4) {
		k->b[K_L3T] = DOCA_FLOW_L3_META_IPV4;
		k->b[K_L3OK] = info->l3_ok != 0;
		k->b[K_IP4CK] = info->l3_ok != 0;
		put32(k, K_IP4S, info->ip4_src);
		put32(k, K_IP4D, info->ip4_dst);
	} else if (info->l3 == NIC_L3_IPV6) {
		k->b[K_L3T] = DOCA_FLOW_L3_META_IPV6;
		k->b[K_L3OK] = 1;
		memcpy(&k->b[K_IP6S], info->ip6_src, 16);
		memcpy(&k->b[K_IP6D], info->ip6_dst, 16);
	}
	if (info->l3 != NIC_L3_NONE) {
		k->b[K_PROTO] = info->ip_proto;
		k->b[K_TTL] = info->ip_ttl;
	}
	switch (info->l4) {
	case NIC_L4_TCP:
		k->b[K_L4T] = DOCA_FLOW_L4_META_TCP;
		k->b[K_TCPF] = info->tcp_flags;
		k->b[K_TRANSP] = 1;
		break;
	case NIC_L4_UDP:
		k->b[K_L4T] = DOCA_FLOW_L4_META_UDP;
		k->b[K_TRANSP] = 1;
		break;
	case NIC_L4_ICMP: {
		const uint8_t *tc = (const uint8_t *)&info->l4_src;

		k->b[K_L4T] = DOCA_FLOW_L4_META_ICMP;
		k->b[K_ICMPT] = tc[0];
		k->b[K_ICMPC] = tc[1];
		break;
	}
	default:
		if (info->l3 != NIC_L3_NONE && info->ip_proto == DOCA_FLOW_PROTO_ESP)
			k->b[K_L4T] = DOCA_FLOW_L4_META_ESP;
		break;
	}
	if (k->b[K_TRANSP]) {
		put16(k, K_L4S, info->l4_src);
		put16(k, K_L4D, info->l4_dst);
		k->b[K_L4OK] = info->l4_ok != 0;
		k->b[K_L4CK] = info->l4_ok != 0;
	}
}
