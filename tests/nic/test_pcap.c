/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_pcap.c - SOFTDOCA_PCAP (src/nic/pcap.c): each port writes what it sends and receives to
 * <dir>/<pci>.pcap; the files are read back with a small pcap reader (classic format,
 * nanosecond magic, LINKTYPE_ETHERNET) and compared with what was sent. A directory that is not
 * one, and a capture name held by a symlink or a FIFO, make the port fail to attach.
 * tshark, when installed, must read the files too.
 */
#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"

#define N 40

static int received;

static void rx_cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	(void)arg;
	(void)frame;
	(void)len;
	(void)ts;
	received++;
}

static uint32_t frame_len(int i)
{
	return 60 + (uint32_t)i * 37;
}

static void fill(uint8_t *f, int i)
{
	for (uint32_t k = 0; k < frame_len(i); k++)
		f[k] = (uint8_t)(i + k * 3);
}

/* Reads @path: a pcap with exactly N records, those of fill(); false (said why) otherwise. */
static bool pcap_matches(const char *path)
{
	static uint8_t f[NIC_MAX_FRAME];
	uint32_t hdr[6], rec[4];
	FILE *in = fopen(path, "rb");
	int n = 0;
	bool ok = false;

	if (in == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return false;
	}
	if (fread(hdr, 4, 6, in) != 6) {
		fprintf(stderr, "%s: no global header\n", path);
		goto out;
	}
	if (hdr[0] != 0xa1b23c4du || (hdr[1] & 0xffff) != 2 || (hdr[1] >> 16) != 4 || hdr[4] < NIC_MAX_FRAME ||
	    hdr[5] != 1) {
		fprintf(stderr, "%s: bad global header %08x %08x snaplen %u link %u\n", path, hdr[0], hdr[1], hdr[4],
			hdr[5]);
		goto out;
	}
	while (fread(rec, 4, 4, in) == 4) {
		uint8_t want[NIC_MAX_FRAME];

		if (n >= N || rec[2] != frame_len(n) || rec[3] != rec[2] || rec[1] >= 1000000000u || rec[0] == 0) {
			fprintf(stderr, "%s: record %d: len %u/%u ts %u.%09u\n", path, n, rec[2], rec[3], rec[0],
				rec[1]);
			goto out;
		}
		if (fread(f, 1, rec[2], in) != rec[2]) {
			fprintf(stderr, "%s: record %d cut short\n", path, n);
			goto out;
		}
		fill(want, n);
		if (memcmp(f, want, rec[2]) != 0) {
			fprintf(stderr, "%s: record %d: bytes differ\n", path, n);
			goto out;
		}
		n++;
	}
	ok = n == N;
	if (!ok)
		fprintf(stderr, "%s: %d records, expected %d\n", path, n, N);
out:
	fclose(in);
	return ok;
}

static void tshark_reads(const char *path)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	int lines = 0, c;

	if (system("command -v tshark >/dev/null 2>&1") != 0) {
		printf("tshark not installed: its reading of the capture not checked\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "tshark -r '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	while ((c = fgetc(p)) != EOF)
		lines += c == '\n';
	CHECK_EQ(pclose(p), 0);
	CHECK_EQ(lines, N);
}

static void capture(const char *dir)
{
	static uint8_t f[NIC_MAX_FRAME];
	const struct nic_port_ops *o0, *o1;
	struct doca_dev *d0, *d1;
	void *p0, *p1;
	char path[PATH_MAX + 32];

	sd_setenv("SOFTDOCA_PCAP", dir);
	d0 = sd_open_dev("03:00.0");
	d1 = sd_open_dev("03:00.1");
	CHECK_OK(priv_doca_nic_port_get(d0, &o0, &p0));
	CHECK_OK(priv_doca_nic_port_get(d1, &o1, &p1));
	CHECK(o1->rx_fd(p1) >= 0);
	for (int i = 0; i < N; i++) {
		struct iovec iov[2];
		struct nic_tx_frame tf = {iov, 2, frame_len(i)};

		fill(f, i);
		iov[0] = (struct iovec){f, 14};
		iov[1] = (struct iovec){f + 14, frame_len(i) - 14};
		CHECK_EQ(o0->tx_burst(p0, &tf, 1), 1);
	}
	while (received < N)
		CHECK(o1->rx_burst(p1, 8, rx_cb, NULL) > 0);
	/* written at the end of each burst, before the devices close */
	snprintf(path, sizeof(path), "%s/0000:03:00.0.pcap", dir);
	CHECK(pcap_matches(path));
	snprintf(path, sizeof(path), "%s/0000:03:00.1.pcap", dir);
	CHECK(pcap_matches(path));
	tshark_reads(path);
	CHECK_OK(doca_dev_close(d0));
	CHECK_OK(doca_dev_close(d1));
	CHECK(pcap_matches(path));
}

/* The port of 03:00.0 must not attach with SOFTDOCA_PCAP=@value. */
static void refused(const char *value)
{
	const struct nic_port_ops *ops;
	struct doca_dev *dev = sd_open_dev("03:00.0");
	void *port;

	sd_setenv("SOFTDOCA_PCAP", value);
	CHECK_ERR(priv_doca_nic_port_get(dev, &ops, &port), DOCA_ERROR_BAD_CONFIG);
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	char dir[PATH_MAX], bad[PATH_MAX], target[PATH_MAX + 32];
	char *file;

	snprintf(dir, sizeof(dir), "%s/run", sd_tmpdir());
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", dir);
	snprintf(dir, sizeof(dir), "%s/cap", sd_tmpdir());
	CHECK(mkdir(dir, 0700) == 0);
	capture(dir);

	/* not a directory, missing */
	file = sd_tmpfile("plain", "x");
	refused(file);
	snprintf(bad, sizeof(bad), "%s/missing", sd_tmpdir());
	refused(bad);
	/* the capture's name is a symlink, then a FIFO: refused (and the FIFO does not hang) */
	snprintf(bad, sizeof(bad), "%s/links", sd_tmpdir());
	CHECK(mkdir(bad, 0700) == 0);
	snprintf(target, sizeof(target), "%s/0000:03:00.0.pcap", bad);
	CHECK(symlink(file, target) == 0);
	refused(bad);
	CHECK(unlink(target) == 0);
	CHECK(mkfifo(target, 0600) == 0);
	refused(bad);
	free(file);
	printf("pcap: all checks passed\n");
	return T_EXIT_PASS;
}
