/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcap.c - SOFTDOCA_PCAP=<dir>: every port writes the frames it sends and receives to
 * <dir>/<pci>.pcap (classic pcap, nanosecond timestamps, LINKTYPE_ETHERNET), for tshark,
 * tcpdump -r or Wireshark.
 *
 * The file is opened for appending, so two processes using one port (one sending, one
 * receiving) share one capture: records are appended whole, one write per burst. The global
 * header is written when the file is empty; remove the file to start a new capture. The file
 * must be a regular file: a symlink or anything else at that name is refused.
 *
 * Capture is a debugging aid: frames are copied into a per-port buffer under a mutex and the
 * buffer is written at the end of each burst (nic_pcap_flush) or when it fills.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv */
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "nic_internal.h"

#define COMP "nic"

#define PCAP_MAGIC_NS	0xa1b23c4du
#define PCAP_LINK_ETHER 1u
#define PCAP_BUF	(256u * 1024u)

struct pcap_file_hdr {
	uint32_t magic;
	uint16_t version_major, version_minor;
	int32_t thiszone;
	uint32_t sigfigs, snaplen, network;
};

struct pcap_rec_hdr {
	uint32_t ts_sec, ts_nsec, incl_len, orig_len;
};

struct nic_pcap {
	pthread_mutex_t lock;
	int fd;
	char path[PATH_MAX];
	bool failed; /* a write failed: said once, capture stops */
	size_t n;
	uint8_t buf[PCAP_BUF];
};

static int write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int nic_pcap_open(const char *pci, struct nic_pcap **out)
{
	const char *dir = secure_getenv("SOFTDOCA_PCAP");
	struct nic_pcap *pc;
	struct stat st;
	int dfd, fd, n;

	*out = NULL;
	if (dir == NULL || dir[0] == '\0')
		return 0;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		int err = errno;

		SD_ERR(COMP, "SOFTDOCA_PCAP=%s: %s; name an existing directory to capture into, or unset it", dir,
		       err == ENOTDIR ? "not a directory" : strerror(err));
		return -EINVAL;
	}
	pc = calloc(1, sizeof(*pc));
	if (pc == NULL) {
		close(dfd);
		return -ENOMEM;
	}
	n = snprintf(pc->path, sizeof(pc->path), "%s/%s.pcap", dir, pci);
	if (n < 0 || (size_t)n >= sizeof(pc->path)) {
		SD_ERR(COMP, "SOFTDOCA_PCAP=%s: path too long for the capture of port %s; use a shorter one", dir, pci);
		goto fail;
	}
	/* anything but a regular file at that name is refused before it is opened ... */
	if (fstatat(dfd, strrchr(pc->path, '/') + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
		SD_ERR(COMP, "SOFTDOCA_PCAP: %s is %s, not a regular file; remove it so the capture can be written",
		       pc->path,
		       S_ISLNK(st.st_mode)    ? "a symbolic link"
		       : S_ISFIFO(st.st_mode) ? "a FIFO"
					      : "special");
		goto fail;
	}
	/* ... and again after (O_NOFOLLOW; O_NONBLOCK so that a FIFO put there meanwhile cannot hang us) */
	fd = openat(dfd, strrchr(pc->path, '/') + 1,
		    O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = errno;

		SD_ERR(COMP, "SOFTDOCA_PCAP: cannot open the capture %s: %s%s", pc->path, strerror(err),
		       err == ELOOP ? " (a symbolic link: captures are written to regular files only; remove it)"
				    : "; check the directory's permissions");
		goto fail;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		SD_ERR(COMP, "SOFTDOCA_PCAP: %s is not a regular file; remove it so the capture can be written",
		       pc->path);
		close(fd);
		goto fail;
	}
	fcntl(fd, F_SETFL, O_APPEND);
	if (st.st_size == 0) {
		const struct pcap_file_hdr h = {
		    .magic = PCAP_MAGIC_NS,
		    .version_major = 2,
		    .version_minor = 4,
		    .snaplen = NIC_MAX_FRAME,
		    .network = PCAP_LINK_ETHER,
		};
		int err = write_all(fd, &h, sizeof(h));

		if (err < 0) {
			SD_ERR(COMP, "SOFTDOCA_PCAP: cannot write %s: %s", pc->path, strerror(-err));
			close(fd);
			goto fail;
		}
	}
	close(dfd);
	pthread_mutex_init(&pc->lock, NULL);
	pc->fd = fd;
	*out = pc;
	return 0;
fail:
	close(dfd);
	free(pc);
	return -EINVAL;
}

/* Writes the buffer out (lock held). */
static void flush_locked(struct nic_pcap *pc)
{
	int err;

	if (pc->n == 0 || pc->failed)
		return;
	err = write_all(pc->fd, pc->buf, pc->n);
	if (err < 0) {
		SD_ERR(COMP, "SOFTDOCA_PCAP: writing %s failed: %s; capture of this port stops", pc->path,
		       strerror(-err));
		pc->failed = true;
	}
	pc->n = 0;
}

void nic_pcap_write(struct nic_pcap *pc, const struct iovec *iov, unsigned int iovcnt, const uint8_t *data,
		    uint32_t len, uint64_t ts_ns)
{
	struct pcap_rec_hdr h = {
	    .ts_sec = (uint32_t)(ts_ns / 1000000000u),
	    .ts_nsec = (uint32_t)(ts_ns % 1000000000u),
	    .incl_len = len,
	    .orig_len = len,
	};
	uint8_t *p;

	if (len > NIC_MAX_FRAME)
		return;
	pthread_mutex_lock(&pc->lock);
	if (pc->n + sizeof(h) + len > sizeof(pc->buf))
		flush_locked(pc);
	p = pc->buf + pc->n;
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	if (iov == NULL) {
		memcpy(p, data, len);
	} else {
		uint32_t off = 0;

		for (unsigned int i = 0; i < iovcnt && off < len; i++) {
			size_t l = iov[i].iov_len < len - off ? iov[i].iov_len : len - off;

			memcpy(p + off, iov[i].iov_base, l);
			off += (uint32_t)l;
		}
		if (off < len)
			memset(p + off, 0, len - off);
	}
	pc->n += sizeof(h) + len;
	pthread_mutex_unlock(&pc->lock);
}

void nic_pcap_flush(struct nic_pcap *pc)
{
	pthread_mutex_lock(&pc->lock);
	flush_locked(pc);
	pthread_mutex_unlock(&pc->lock);
}

void nic_pcap_close(struct nic_pcap *pc)
{
	if (pc == NULL)
		return;
	nic_pcap_flush(pc);
	close(pc->fd);
	pthread_mutex_destroy(&pc->lock);
	free(pc);
}
