/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nic_internal.h - what the software NIC's files share and nothing outside src/nic sees.
 *
 *   port.c   registry: device -> {ops, port}; asks the media provider on first use
 *   media.c  the provider: reads the device's medium from the topology, attaches it (the
 *            media are listed in src/nic/meson.build; media_list.h is generated from it)
 *   wire.c   the wire medium: a shared-memory cable between two ports (any processes)
 *   afpacket.c the afpacket medium: a Linux interface through an AF_PACKET socket
 *   udp.c    the udp medium: frames in VXLAN datagrams to one peer (vxlan.c: the header)
 *   pcap.c   SOFTDOCA_PCAP capture, used by every medium
 *   frame.c  the frame parser and the Internet checksum; frame_tx.c the frame builder (send
 *            paths' checksum offloads and LSO) on the same layer walk and checksum code
 */
#ifndef SD_NIC_INTERNAL_H_
#define SD_NIC_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "nic.h"

struct doca_dev;
struct dev_backend_ops;

/* The default provider of port.c: installs the medium the topology gives @dev. */
doca_error_t nic_media_provider(struct doca_dev *dev);

/* Each medium's device backend (nic_wire_backend, ...), which media.c attaches for its
 * `medium = NAME`: one per line of the media list in src/nic/meson.build. */
#define NIC_MEDIUM(name, topo, backend) extern const struct dev_backend_ops backend;
#include "media_list.h"
#undef NIC_MEDIUM

/*
 * The private runtime directory ($XDG_RUNTIME_DIR/softdoca or /tmp/softdoca-<uid>), created
 * 0700 and refused when it is a link, another user's or reachable by others. Returns an
 * O_DIRECTORY fd and its path in @dir, or -errno (logged, naming the fix).
 */
int nic_rundir_open(char *dir, size_t dir_len);

/* ---- pcap (pcap.c) ---- */

struct nic_pcap;

/*
 * Opens the capture of the port named @pci ("0000:03:00.0") when SOFTDOCA_PCAP names a
 * directory: *out = NULL without SOFTDOCA_PCAP. An unusable SOFTDOCA_PCAP is an error
 * (logged): a capture asked for is never silently missing.
 */
int nic_pcap_open(const char *pci, struct nic_pcap **out);
/* Appends one frame (a gather list, or @data when @iov is NULL). Thread-safe per capture. */
void nic_pcap_write(struct nic_pcap *pc, const struct iovec *iov, unsigned int iovcnt, const uint8_t *data,
		    uint32_t len, uint64_t ts_ns);
/* Writes what nic_pcap_write() buffered; the media call it at the end of each burst. */
void nic_pcap_flush(struct nic_pcap *pc);
void nic_pcap_close(struct nic_pcap *pc);

/* ---- frames: what the parser (frame.c) and the builder (frame_tx.c) share ---- */

#define NIC_ETH_HLEN   14
#define NIC_ETH_P_IPV4 0x0800
#define NIC_ETH_P_IPV6 0x86dd
#define NIC_ETH_P_VLAN 0x8100
#define NIC_ETH_P_QINQ 0x88a8

#define NIC_IPPROTO_HOPOPTS  0
#define NIC_IPPROTO_ICMP     1
#define NIC_IPPROTO_TCP	     6
#define NIC_IPPROTO_UDP	     17
#define NIC_IPPROTO_ROUTING  43
#define NIC_IPPROTO_FRAGMENT 44
#define NIC_IPPROTO_ICMPV6   58
#define NIC_IPPROTO_DSTOPTS  60

#define NIC_IP6_MAX_EXT 8 /* IPv6 extension headers walked at most; a longer chain is malformed */

/*
 * Internet checksums (RFC 1071). The one's complement sum does not depend on byte order
 * (§2): bytes are added as host-order 64-bit words into a 64-bit one's complement accumulator
 * (carries wrap around), and the accumulator is folded to 16 bits and swapped to network
 * order once per checksum, not per piece.
 */
static inline uint64_t nic_csum_add(uint64_t a, uint64_t b)
{
	a += b;
	return a + (a < b); /* end-around carry */
}

/* @acc plus @len bytes at @p, taken as the bytes of a message from an even offset on. */
uint64_t nic_csum_acc(uint64_t acc, const uint8_t *p, size_t len);

/* @acc folded to 16 bits, in network order as a number (what goes on the wire, big-endian). */
static inline uint16_t nic_csum_fold(uint64_t acc)
{
	uint32_t v;

	acc = (acc & 0xffffffffu) + (acc >> 32);
	acc = (acc & 0xffffffffu) + (acc >> 32);
	v = (uint32_t)acc;
	v = (v & 0xffff) + (v >> 16);
	v = (v & 0xffff) + (v >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = ((v & 0xff) << 8) | (v >> 8);
#endif
	return (uint16_t)v;
}

/* The sum of the pseudo-header of an L4 message of @l4_len bytes behind the IPv4 (IPv6 when @ip6)
 * header at @l3; none for ICMP over IPv4. */
uint64_t nic_csum_pseudo(const uint8_t *l3, bool ip6, uint8_t proto, size_t l4_len);

/* The Ethernet header and up to two VLAN tags of @f (@n >= 14 bytes): the offset after them, the
 * EtherType there in @type, the tags walked in @nb_vlans. */
size_t nic_frame_l2(const uint8_t *f, size_t n, uint16_t *type, uint8_t *nb_vlans);

/* IPv6 extension headers in [@off, @end) of @f skipped: the offset of the upper layer and its
 * protocol in @nh (@frag set for a non-atomic fragment header), or -1 for a truncated chain or
 * one longer than NIC_IP6_MAX_EXT. */
long nic_ip6_skip_ext(const uint8_t *f, size_t end, size_t off, uint8_t *nh, uint8_t *frag);

#endif /* SD_NIC_INTERNAL_H_ */
