/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nic_internal.h - what the software NIC's files share and nothing outside src/nic sees.
 *
 *   port.c   registry: device -> {ops, port}; asks the media provider on first use
 *   media.c  the provider: reads the device's medium from the topology, attaches it
 *   wire.c   the wire medium: a shared-memory cable between two ports (any processes)
 *   afpacket.c the afpacket medium: a Linux interface through an AF_PACKET socket
 *   pcap.c   SOFTDOCA_PCAP capture, used by every medium
 */
#ifndef SD_NIC_INTERNAL_H_
#define SD_NIC_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "nic.h"

struct doca_dev;

/* The default provider of port.c: installs the medium the topology gives @dev. */
doca_error_t nic_media_provider(struct doca_dev *dev);

/* Attaches the wire medium to @dev (media.c calls it for medium = wire). */
doca_error_t nic_wire_attach(struct doca_dev *dev);

/* Attaches the afpacket medium to @dev (media.c calls it for medium = afpacket). */
doca_error_t nic_afpacket_attach(struct doca_dev *dev);

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

#endif /* SD_NIC_INTERNAL_H_ */
