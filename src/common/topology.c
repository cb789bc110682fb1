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
 *
 * Files: this one has the defaults (the built-in profile and devices) and the process-wide
 * topology; topology_parse.c the walk over lines and sections and the whole-file rules;
 * topology_keys.c the values and keys; topology_internal.h what they share.
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

#define TOPO_MAX_FILE (1u << 20) /* SOFTDOCA_CONFIG is read whole; a config is small */

/* Shared with the message of topo_get(); the tests look for it. */
#define TOPO_SOURCE_DEFAULT "embedded default"

/* The comch values are what the library reported as constants before profiles had them. */
const struct topo_profile topo_builtin_profile = {
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

/* ---- derived defaults --------------------------------------------------------------------- */

/*
 * Locally administered and unique per PCI address: 02:5d:0c:BB:DD:F for domain 0, the
 * domain folded into the second and third bytes otherwise.
 */
void topo_default_mac(const struct topo_device *d, uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE])
{
	mac[0] = 0x02;
	mac[1] = (uint8_t)(0x5d ^ (d->domain >> 8));
	mac[2] = (uint8_t)(0x0c ^ (d->domain & 0xff));
	mac[3] = d->bus;
	mac[4] = d->dev;
	mac[5] = d->fn;
}

/* "SDOCA" + the host function's address + the port it hangs off, e.g. SDOCA0000B1000pf0hpf. */
void topo_default_vuid(const struct topo_device *parent, struct topo_rep *r)
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
	topo_default_mac(d, d->mac);
	d->profile = 0;
	t->nb_devices++;
	return d;
}

static void add_default_rep(struct topo_device *d, const char *pci)
{
	struct topo_rep *r = &d->reps[d->nb_reps++];

	topo_parse_pci(pci, &r->domain, &r->bus, &r->dev, &r->fn);
	topo_default_vuid(d, r);
}

static void cable(struct topology *t, uint32_t a, uint32_t b)
{
	t->devices[a].medium = TOPO_MEDIUM_WIRE;
	t->devices[a].wire_peer = b;
	t->devices[b].medium = TOPO_MEDIUM_WIRE;
	t->devices[b].wire_peer = a;
}

/* A BlueField in its host: two DPU ports, each representing one host PF. */
void topo_default_devices(struct topology *t)
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
	out->profiles[0] = topo_builtin_profile;
	topo_default_devices(out);
	snprintf(out->source, sizeof(out->source), "%s", TOPO_SOURCE_DEFAULT);
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
	case TOPO_MEDIUM_UDP:
		return "udp";
	default:
		return "none";
	}
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
