/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afpacket_bench - packets/s through softdoca's afpacket medium against raw AF_PACKET on the
 * same veth pair, in the same run.
 *
 *   afpacket_bench [--secs S] [--rounds N] [--sizes 64,1500]
 *
 * Needs root: it makes a veth pair, sdb<pid>a here and sdb<pid>b in a namespace sdb<pid>,
 * and deletes both at exit. A sender thread sends frames of one size (EtherType 0x88b5, so the
 * receiving kernel does no IP work) from the a end for S seconds (default 2) in bursts of 32,
 * a receiver thread takes them from the b end; packets/s is what the receiver got divided by
 * the sending time. Each row is measured N times (default 3), raw and softdoca alternating,
 * and printed as the median (min - max); drops and refusals are summed over the rounds.
 *
 *   raw        a socket on each end made by hand, the same way the medium does: sendmmsg
 *              with PACKET_QDISC_BYPASS to send, a TPACKET_V3 ring of 16 MiB (1 ms block
 *              timeout) to receive, poll() when the ring is empty
 *   softdoca   two devices whose topology puts them on the two ends (medium = afpacket, the
 *              b end with netns =), driven through the port ops DOCA Ethernet uses
 *
 * Target: softdoca >= 0.9x raw packets/s, and no receive drops below that rate. On veth the
 * receiving kernel path runs in the sender's context, so both rows are sender-bound, and a
 * 2-core VM is noisy: compare rows of one run, and run it a few times.
 */
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_dev.h>

#include "bench_util.h"
#include "core.h"
#include "nic.h"
#include "veth_raw.h"

#define BURST 32

static struct veth veth;
static unsigned int secs = 2, reps = 3;

#define MAX_REPS 15

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---- one measurement: a sender thread and a receiver thread ---- */

/* The softdoca path: the medium's port ops, as DOCA Ethernet drives them. */
struct run {
	uint32_t size;
	const struct nic_port_ops *oa, *ob;
	void *pa, *pb;
	/* results; each thread's counters in a cache line of its own (a count written per frame
	 * in a line the other thread writes would move it between the cores on every frame) */
	alignas(64) _Atomic bool ready, stop_rx;
	_Atomic uint64_t send_ns;
	alignas(64) uint64_t sent, tx_full;	     /* the sender's */
	alignas(64) uint64_t received, bytes, drops; /* the receiver's */
};

static uint8_t frame[1514];

static void *tx_thread(void *arg)
{
	struct run *r = arg;
	struct iovec iov[BURST];
	struct nic_tx_frame tf[BURST];
	uint64_t t0, end;

	for (int i = 0; i < BURST; i++) {
		iov[i] = (struct iovec){.iov_base = frame, .iov_len = r->size};
		tf[i] = (struct nic_tx_frame){.iov = &iov[i], .iovcnt = 1, .len = r->size};
	}
	while (!atomic_load(&r->ready))
		sched_yield();
	t0 = bench_now_ns();
	end = t0 + (uint64_t)secs * 1000000000ull;
	while (bench_now_ns() < end)
		r->sent += r->oa->tx_burst(r->pa, tf, BURST);
	atomic_store(&r->send_ns, bench_now_ns() - t0);
	return NULL;
}

static void count_cb(void *arg, const uint8_t *f, uint32_t len, uint64_t ts)
{
	struct run *r = arg;

	(void)ts;
	r->bytes += len + f[0];
	r->received++;
}

static void *rx_thread(void *arg)
{
	struct run *r = arg;
	struct pollfd pfd = {.events = POLLIN};
	struct nic_port_stats st0, st;

	r->ob->stats(r->pb, &st0);
	pfd.fd = r->ob->rx_fd(r->pb);
	atomic_store(&r->ready, true);
	while (!atomic_load(&r->stop_rx)) {
		if (r->ob->rx_burst(r->pb, 256, count_cb, r) == 0) {
			r->ob->rx_rearm(r->pb);
			poll(&pfd, 1, 1);
		}
	}
	r->ob->stats(r->pb, &st);
	r->drops = st.rx_drop_full - st0.rx_drop_full;
	return NULL;
}

static void measure(struct run *r)
{
	struct nic_port_stats st0, st;
	pthread_t tx, rx;

	r->oa->stats(r->pa, &st0);
	pthread_create(&rx, NULL, rx_thread, r);
	pthread_create(&tx, NULL, tx_thread, r);
	pthread_join(tx, NULL);
	usleep(100000); /* the last blocks retire after 1 ms; be generous */
	atomic_store(&r->stop_rx, true);
	pthread_join(rx, NULL);
	r->oa->stats(r->pa, &st);
	r->tx_full = st.tx_full - st0.tx_full;
}

static doca_error_t open_dev(const char *pci, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t ret = doca_devinfo_create_list(&list, &n);

	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_open(list[i], dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	return ret;
}

int main(int argc, char **argv)
{
	uint32_t sizes[8] = {64, 1500}, nb_sizes = 2;
	char cfg[] = "/tmp/afpacket_bench-XXXXXX";
	struct doca_dev *da, *db;
	const struct nic_port_ops *oa, *ob;
	void *pa, *pb;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--secs") == 0 && i + 1 < argc) {
			secs = (unsigned int)atoi(argv[++i]);
		} else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
			reps = (unsigned int)atoi(argv[++i]);
		} else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
			char *s = argv[++i];

			nb_sizes = 0;
			for (char *t = strtok(s, ","); t != NULL && nb_sizes < 8; t = strtok(NULL, ","))
				sizes[nb_sizes++] = (uint32_t)atoi(t);
		} else {
			fprintf(stderr, "usage: afpacket_bench [--secs S] [--rounds N] [--sizes 64,1500]\n");
			return 2;
		}
	}
	if (secs == 0 || secs > 60 || reps == 0 || reps > MAX_REPS) {
		fprintf(stderr, "afpacket_bench: --secs must be 1..60, --rounds 1..%d\n", MAX_REPS);
		return 2;
	}
	for (uint32_t i = 0; i < nb_sizes; i++) {
		if (sizes[i] < 60 || sizes[i] > 1514) {
			fprintf(stderr, "afpacket_bench: frame sizes must be 60..1514 (veth MTU 1500)\n");
			return 2;
		}
	}
	if (geteuid() != 0) {
		fprintf(stderr, "afpacket_bench: needs root (veth pair, namespace, CAP_NET_RAW): skipped\n");
		return 77;
	}
	if (veth_make(&veth) != 0 || veth_config(&veth, cfg, NULL) != 0)
		return 1;
	setenv("SOFTDOCA_CONFIG", cfg, 1);
	setenv("SOFTDOCA_SIDE", "all", 1);
	if (open_dev("03:00.0", &da) != DOCA_SUCCESS || open_dev("03:00.1", &db) != DOCA_SUCCESS ||
	    priv_doca_nic_port_get(da, &oa, &pa) != DOCA_SUCCESS ||
	    priv_doca_nic_port_get(db, &ob, &pb) != DOCA_SUCCESS) {
		fprintf(stderr, "afpacket_bench: cannot attach the afpacket ports (see above)\n");
		unlink(cfg);
		return 1;
	}
	unlink(cfg);
	memcpy(frame, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x88\xb5", 14);
	for (size_t i = 14; i < sizeof(frame); i++)
		frame[i] = (uint8_t)i;

	printf("afpacket over veth %s <-> %s (netns %s), %u s per measurement, bursts of %d, %u rounds "
	       "(raw and softdoca alternate)\n",
	       veth.a, veth.b, veth.ns, secs, BURST, reps);
	printf("%-6s %-9s %12s %21s %9s %10s %10s %8s\n", "size", "path", "rx pkt/s", "(min - max)", "Gbit/s",
	       "rx drops", "tx full", "ratio");
	for (uint32_t s = 0; s < nb_sizes; s++) {
		double pps[2][MAX_REPS];
		uint64_t drops[2] = {0, 0}, full[2] = {0, 0};
		double med[2];

		for (unsigned int k = 0; k < reps; k++) {
			for (int w = 0; w < 2; w++) {
				/* alternate which path goes first, so neither always runs on a warmer box */
				bool sd = (w ^ (int)(k & 1)) != 0;

				if (sd) {
					struct run r = {.size = sizes[s], .oa = oa, .ob = ob, .pa = pa, .pb = pb};

					measure(&r);
					pps[1][k] = (double)r.received * 1e9 / (double)r.send_ns;
					drops[1] += r.drops;
					full[1] += r.tx_full;
				} else {
					struct veth_result vr;

					/* the medium's own socket on b takes nothing in meanwhile */
					ob->rx_enable(pb, false);
					veth_raw_run(&veth, frame, 1, sizes[s], secs, false, &vr);
					ob->rx_enable(pb, true);
					pps[0][k] = (double)vr.received * 1e9 / (double)vr.send_ns;
					drops[0] += vr.drops;
					full[0] += vr.tx_full;
				}
			}
		}
		for (int w = 0; w < 2; w++) {
			qsort(pps[w], reps, sizeof(double), cmp_double);
			med[w] = pps[w][reps / 2];
		}
		for (int w = 0; w < 2; w++) {
			char ratio[16] = "";

			if (w == 1)
				snprintf(ratio, sizeof(ratio), "%.2fx", med[0] > 0 ? med[1] / med[0] : 0.0);
			printf("%-6u %-9s %12.0f   (%8.0f - %8.0f) %9.2f %10" PRIu64 " %10" PRIu64 " %8s\n", sizes[s],
			       w ? "softdoca" : "raw", med[w], pps[w][0], pps[w][reps - 1], med[w] * sizes[s] * 8 / 1e9,
			       drops[w], full[w], ratio);
		}
		fflush(stdout);
	}
	doca_dev_close(da);
	doca_dev_close(db);
	return 0;
}
