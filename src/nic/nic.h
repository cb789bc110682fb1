/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nic.h - the software NIC's boundary: what DOCA Ethernet (libdoca_eth) and DOCA Flow
 * (libdoca_flow) see of the NIC that moves their frames. Implemented in libdoca_common
 * (src/nic/), next to the devices it attaches to as a device backend (core.h).
 *
 *   doca_eth_txq ──send──▶ port ──medium (wire, afpacket)──▶ peer port
 *                                                                        │ receive
 *   doca_eth_rxq ◀──queue id── priv_doca_nic_steer() (DOCA Flow) ◀── priv_doca_nic_frame_parse()
 *
 * Three contracts, each with one owner:
 *   frames   priv_doca_nic_frame_parse(): untrusted bytes in, a struct nic_frame_info out; pure, never
 *            reads past the length, fuzzed (tests/fuzz).
 *   ports    one per device that has a medium in the topology; the medium moves whole frames
 *            between cabled ports, across processes; counters per port; pcap capture.
 *   steering DOCA Flow registers one steering function per port while the port is started;
 *            the receive path asks it where each parsed frame goes.
 */
#ifndef SD_NIC_H_
#define SD_NIC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <doca_error.h>

#include "sd_internal.h"

struct doca_dev;

/* ---- frames ---- */

#define NIC_MAX_FRAME 9216 /* largest frame a port moves (jumbo), FCS excluded */

enum nic_l3 { NIC_L3_NONE = 0, NIC_L3_IPV4, NIC_L3_IPV6 };
enum nic_l4 { NIC_L4_NONE = 0, NIC_L4_TCP, NIC_L4_UDP, NIC_L4_ICMP, NIC_L4_OTHER };

/*
 * What the parser found in one frame. Offsets are from the first byte of the frame; a layer
 * that is absent, truncated or malformed is NONE and its fields are zero (the frame is still
 * a frame: it can be matched on what was found and received). Addresses and ports are kept in
 * network byte order, as DOCA Flow's match structures hold them.
 */
struct nic_frame_info {
	uint16_t len;	   /* bytes of the frame */
	uint16_t eth_type; /* outer EtherType after up to two VLAN tags, network order */
	uint16_t vlan_tci; /* first VLAN tag's TCI (network order), 0 when untagged */
	uint8_t nb_vlans;  /* 0..2 */
	uint8_t l3;	   /* enum nic_l3 */
	uint8_t l4;	   /* enum nic_l4 */
	uint8_t ip_proto;  /* IPv4 protocol / IPv6 next header (after extension headers) */
	uint8_t ip_ttl;	   /* TTL / hop limit */
	uint8_t tcp_flags; /* TCP flags byte (FIN 0x01 ... CWR 0x80) */
	uint8_t l3_ok;	   /* IPv4 header checksum valid (IPv6: 1) */
	uint8_t l4_ok;	   /* TCP/UDP checksum valid or absent (UDP over IPv4 with 0) */
	uint8_t ip_frag;   /* IPv4 fragment (MF set or offset non-zero): no L4 */
	uint8_t pad;
	uint16_t l3_off;      /* 0 when l3 == NONE */
	uint16_t l4_off;      /* 0 when l4 == NONE */
	uint16_t payload_off; /* first byte after the L4 header (or after L3 for OTHER) */
	uint32_t ip4_src;     /* network order */
	uint32_t ip4_dst;
	uint8_t ip6_src[16];
	uint8_t ip6_dst[16];
	uint16_t l4_src; /* network order; ICMP: type << 8 | code in l4_src */
	uint16_t l4_dst;
	uint32_t tcp_seq; /* network order */
};

/*
 * Parses @len bytes at @frame into @out (fully overwritten). Returns 0, or -EINVAL when the
 * frame is shorter than an Ethernet header (14 bytes) or longer than NIC_MAX_FRAME: such a
 * frame is a counted drop, never delivered. Reads nothing outside [frame, frame + len).
 */
SD_PRIV int priv_doca_nic_frame_parse(const uint8_t *frame, size_t len, struct nic_frame_info *out);

/*
 * Internet checksums for the send side (DOCA Ethernet's checksum offloads) and the parser.
 *
 * priv_doca_nic_ip4_csum(): the header checksum of the IPv4 header at @ip4 (@hdr_len bytes,
 * IHL * 4), its checksum field (bytes 10-11) taken as zero. Host order: store it big-endian
 * at bytes 10-11.
 *
 * priv_doca_nic_l4_csum(): the checksum of the TCP, UDP, ICMP or ICMPv6 message of @l4_len
 * bytes at @l4 that follows the IP header at @l3 (version read from its first nibble; the
 * pseudo-header's addresses from it, its protocol from @proto, its length from @l4_len; ICMP
 * over IPv4 has no pseudo-header). The message's own checksum field is taken as zero. Host
 * order: store it big-endian in the field (TCP bytes 16-17, UDP 6-7, ICMP 2-3). A UDP result
 * of 0 is returned as 0xffff (0 means "no checksum" on the wire). Other protocols: 0.
 * Both read exactly the bytes named, so they can be given a frame being built in place.
 */
SD_PRIV uint16_t priv_doca_nic_ip4_csum(const uint8_t *ip4, size_t hdr_len);
SD_PRIV uint16_t priv_doca_nic_l4_csum(const uint8_t *l3, uint8_t proto, const uint8_t *l4, size_t l4_len);

/*
 * The frame builder (frame_tx.c): what every send path does to a frame on its way out, the CPU
 * send queue (DOCA Ethernet tasks) and the GPU send rings alike, with the parser's layer walk and
 * checksum code. A frame is a gather list: its first bytes in private memory the builder may
 * write (the headers; the caller sends them instead of the originals), the rest where it is.
 * The bytes may come from an application or a GPU kernel: nothing is read outside the bytes
 * named, and a length field is believed only within them.
 *
 * priv_doca_nic_tx_parse(): where the headers are in @hdr, the frame's first @n bytes of
 * @frame_len (14 <= n <= frame_len <= NIC_MAX_FRAME, else -EINVAL): Ethernet, up to two VLAN
 * tags, IPv4 (IHL >= 5) or IPv6 (extension headers skipped as the parser does), then TCP (data
 * offset >= 5) or UDP, each whole within @n. A fragment, another protocol or a truncated
 * header leaves l4 NONE (and a malformed IP header l3 NONE). l4_len runs to the end the IP
 * header's length field gives when that end lies within the frame and after the L4 header,
 * else to the frame's end.
 */
struct nic_tx_hdr {
	uint16_t l3_off;  /* 0 when l3 == NONE */
	uint16_t l3_end;  /* after the IP header and its IPv6 extension headers; 0 when l3 == NONE */
	uint16_t l4_off;  /* == l3_end; 0 when l4 == NONE */
	uint16_t hdr_end; /* after the last header found: L4, else L3, else Ethernet and its tags */
	uint32_t l4_len;  /* the L4 message's bytes (header and payload); 0 when l4 == NONE */
	uint8_t l3;	  /* enum nic_l3 */
	uint8_t l4;	  /* NIC_L4_TCP, NIC_L4_UDP or NIC_L4_NONE */
	uint8_t ip_proto; /* after the extension headers; 0 when l3 == NONE */
	uint8_t ip6_ext;  /* IPv6 extension headers present */
};

SD_PRIV int priv_doca_nic_tx_parse(const uint8_t *hdr, size_t n, size_t frame_len, struct nic_tx_hdr *h);

/* Checksum offloads; the values of DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM and _L4_CSUM. */
#define NIC_TX_CSUM_L3 0x1u /* the IPv4 header checksum (IPv6 has none) */
#define NIC_TX_CSUM_L4 0x2u /* the TCP or UDP checksum, over the pseudo-header and l4_len bytes */

/*
 * Writes the checksums @what asks for into @hdr, parsed into @h (at least h->hdr_end bytes):
 * those the frame has, the others are left as they are. @rest (@cnt pieces, of any length and
 * alignment) holds the frame's bytes from h->hdr_end on; the L4 checksum reads l4_len bytes of
 * the message, fewer when @rest ends first. A UDP checksum of 0 is sent as 0xffff.
 */
SD_PRIV void priv_doca_nic_tx_csum(uint8_t *hdr, const struct nic_tx_hdr *h, unsigned int what,
				   const struct iovec *rest, unsigned int cnt);

/*
 * LSO. priv_doca_nic_lso_parse(): @n header bytes at @tmpl fit an LSO send when they are
 * exactly Ethernet (+ up to two VLAN tags) + IPv4 or IPv6 without extension headers, not a
 * fragment, + TCP or UDP; or exactly an Ethernet header and its tags (l3 NONE: segments carry
 * it as it is, as DOCA's own LSO sample sends). Returns 0 and @h, or -EINVAL.
 *
 * priv_doca_nic_lso_segment(): writes the h->hdr_end header bytes of segment @k into @dst: the
 * template's, the IPv4 total length, identification + @k and header checksum, the IPv6 payload
 * length, the UDP length, the TCP sequence number + @off (the segment's first payload byte in
 * the message), FIN and PSH cleared but on the @last segment, CWR cleared but on the first, and
 * the L4 checksum over the header and the @seg payload bytes at @pay (@cnt pieces).
 */
SD_PRIV int priv_doca_nic_lso_parse(const uint8_t *tmpl, size_t n, struct nic_tx_hdr *h);
SD_PRIV void priv_doca_nic_lso_segment(uint8_t *dst, const uint8_t *tmpl, const struct nic_tx_hdr *h, uint32_t k,
				       uint32_t off, uint32_t seg, bool last, const struct iovec *pay,
				       unsigned int cnt);

/* ---- ports ---- */

/* One frame to send: a gather list (DOCA Ethernet's buf lists), whole, at most the port's MTU. */
struct nic_tx_frame {
	const struct iovec *iov;
	unsigned int iovcnt;
	uint32_t len; /* sum of iov lengths */
};

/* Called for each received frame; @frame is valid only during the call. */
typedef void (*nic_rx_fn)(void *arg, const uint8_t *frame, uint32_t len, uint64_t timestamp_ns);

struct nic_port_stats {
	uint64_t tx_frames, tx_bytes, tx_full; /* tx_full: frames refused because the medium was full */
	uint64_t rx_frames, rx_bytes;
	uint64_t rx_drop_full; /* dropped at the receiver: its ring was full */
	uint64_t rx_drop_bad;  /* dropped: too short, too long, malformed */
};

/* The file of the wire cable between two ports, in the runtime directory: the lower of the two
 * PCI addresses (DDDD:BB:DD.F) first. */
#define NIC_WIRE_CABLE_NAME "wire-%s-%s.cable"

/*
 * A port's medium (wire, afpacket, ...): what moves frames in and out of one device's port.
 * All ops may be called from any thread. Receiving (rx_burst, rx_rearm, rx_enable) happens on
 * one thread at a time (the receive path of one process drains a port under its lock);
 * tx_burst may run on several threads at once (each txq of a port sends from its own PE, the
 * GPU send thread beside them); a medium keeps each caller's frames in order (frames of two
 * callers may interleave, as those of two send queues of a NIC do).
 */
struct nic_port_ops {
	const char *medium; /* "wire", "afpacket", a test's "loop" */
	/*
	 * Sends up to @n frames in order; each is copied, so the caller's memory is free on return.
	 * Returns how many were taken: fewer when the medium is full (try again later, the rest
	 * is not lost); never blocks.
	 */
	unsigned int (*tx_burst)(void *port, const struct nic_tx_frame *frames, unsigned int n);
	/* Receives up to @n frames, calling @cb for each in arrival order; returns how many. */
	unsigned int (*rx_burst)(void *port, unsigned int n, nic_rx_fn cb, void *cb_arg);
	/*
	 * An fd that is readable while frames wait to be received, for the PE's notification
	 * handle (priv_doca_pe_watch_fd); -1 when the medium has none (then receivers poll).
	 * rx_rearm() is called when a receiver is about to sleep on the fd (its PE arms), not
	 * after every empty rx_burst(): frames may be waiting then, and the fd must be readable
	 * on return if they are. A receiver that keeps polling never calls it. A receiver that
	 * slept on the fd calls rx_rearm() first: a medium may pause its looks after an empty
	 * rx_burst() (afpacket, for AFP_RX_IDLE_NS), and rx_rearm() ends the pause.
	 */
	int (*rx_fd)(void *port);
	void (*rx_rearm)(void *port);
	void (*stats)(void *port, struct nic_port_stats *out);
	uint32_t (*mtu)(void *port); /* largest frame, bytes without FCS */
	/*
	 * Optional (NULL: always on). Whether the port takes frames in at all: off, the medium
	 * asks its source for none (a frame on the wire meanwhile is not the port's, as on a NIC
	 * without receive queues), so an idle port costs its host nothing per frame; turned on,
	 * it starts from what arrives next, not from what waited. A port starts on. Called on the
	 * receiving side's thread rules (never during rx_burst).
	 */
	void (*rx_enable)(void *port, bool on);
};

/*
 * Installs @ops/@port as @dev's port (the medium's implementation does this when the device is
 * opened; tests install their own). One port per device: IN_USE when one is installed (logged);
 * ops == NULL removes it.
 */
SD_PRIV doca_error_t priv_doca_nic_port_install(struct doca_dev *dev, const struct nic_port_ops *ops, void *port);
/*
 * @dev's port: its ops and handle; NOT_FOUND when the device has no medium (logged by the
 * caller, which knows the call: "doca_eth_txq_create: device 03:00.0 has no port medium ...").
 * Before looking, gives the registered medium provider (priv_doca_nic_set_provider) a chance
 * to attach the port the topology configures.
 */
SD_PRIV doca_error_t priv_doca_nic_port_get(struct doca_dev *dev, const struct nic_port_ops **ops, void **port);
/*
 * The software NIC's media (src/nic) register one provider: called by priv_doca_nic_port_get()
 * for a device without a port, it installs the configured medium or answers why not.
 */
typedef doca_error_t (*nic_provider_fn)(struct doca_dev *dev);
SD_PRIV void priv_doca_nic_set_provider(nic_provider_fn fn);

/* ---- steering (DOCA Flow) ---- */

enum nic_verdict_kind {
	NIC_TO_QUEUE = 0, /* deliver to the rxq that applied queue id `queue` */
	NIC_DROP,	  /* a pipe dropped it (counted) */
	NIC_NO_MATCH,	  /* no pipe took it: counted as a miss drop */
};

struct nic_verdict {
	enum nic_verdict_kind kind;
	uint16_t queue;	   /* doca_eth_rxq_apply_queue_id() value */
	uint32_t pkt_meta; /* meta.pkt_meta set by an action, 0 otherwise */
	uint32_t rss_hash; /* the hash RSS computed, 0 when not RSS-forwarded */
};

/*
 * DOCA Flow's steering of one port: called by the receive path for every parsed frame, on the
 * thread that receives (the application's, inside doca_pe_progress, or a NIC thread). Must not
 * block, allocate or call back into the NIC; @frame is valid only during the call.
 */
typedef void (*nic_steer_fn)(void *arg, const struct nic_frame_info *info, const uint8_t *frame,
			     struct nic_verdict *out);

/*
 * Sets (fn != NULL) or clears (fn == NULL) the steering of @dev's port. One steering per port;
 * setting a second one returns DOCA_ERROR_IN_USE (logged). DOCA Flow sets it when its port
 * starts and clears it when the port stops; a receiver that runs meanwhile sees either the old
 * or the new function with its own argument, never a mix.
 */
SD_PRIV doca_error_t priv_doca_nic_set_steer(struct doca_dev *dev, nic_steer_fn fn, void *arg);
/*
 * Where the frame goes on @dev's port. Without a steering function every frame goes to queue 0
 * (a port that DOCA Flow never started behaves like a NIC with one default queue).
 */
SD_PRIV void priv_doca_nic_steer(struct doca_dev *dev, const struct nic_frame_info *info, const uint8_t *frame,
				 struct nic_verdict *out);

#endif /* SD_NIC_H_ */
