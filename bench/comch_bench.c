/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * comch_bench.c - the comch fast path across processes against a raw process_vm_writev.
 *
 * This process is the DPU side: a comch server and a producer. A forked child is the host
 * side: a client and a consumer that keeps 64 buffers of 1 MiB posted (reposting each from its
 * completion callback). For each size the producer sends back-to-back, resubmitting on AGAIN
 * after a progress call; the time runs from the first submit to the last completion. The raw
 * row writes the same sizes, as many times, with process_vm_writev into a second child's
 * memory, rotating over 64 slots like the consumer's buffers. Each row runs 5 times, the two
 * kinds alternating, and prints the medians.
 *
 *   comch_bench [iterations scale, default 1.0]
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "bench_util.h"

#define NAME  "comch-bench"
#define NBUFS 64
#define BUFSZ (1u << 20)
#define REPS  5 /* runs per row; the median is printed */
#define MUST(x)                                                                                                        \
	do {                                                                                                           \
		doca_error_t r_ = (x);                                                                                 \
		if (r_ != DOCA_SUCCESS) {                                                                              \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, doca_error_get_name(r_));           \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

static const size_t sizes[] = {64, 4096, 65536, 1u << 20};

static struct doca_dev *open_dev(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	MUST(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		MUST(doca_devinfo_is_equal_pci_addr(list[i], pci, &eq));
		if (eq)
			MUST(doca_dev_open(list[i], &dev));
	}
	MUST(doca_devinfo_destroy_list(list));
	if (dev == NULL)
		exit(1);
	return dev;
}

static struct doca_dev_rep *open_rep(struct doca_dev *dev, const char *pci)
{
	struct doca_devinfo_rep **list;
	struct doca_dev_rep *rep = NULL;
	uint32_t n;

	MUST(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n));
	for (uint32_t i = 0; i < n && rep == NULL; i++) {
		uint8_t eq = 0;

		MUST(doca_devinfo_rep_is_equal_pci_addr(list[i], pci, &eq));
		if (eq)
			MUST(doca_dev_rep_open(list[i], &rep));
	}
	MUST(doca_devinfo_rep_destroy_list(list));
	if (rep == NULL)
		exit(1);
	return rep;
}

static struct doca_mmap *make_mmap(struct doca_dev *dev, void *mem, size_t len)
{
	struct doca_mmap *m;

	MUST(doca_mmap_create(&m));
	MUST(doca_mmap_add_dev(m, dev));
	MUST(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	MUST(doca_mmap_set_memrange(m, mem, len));
	MUST(doca_mmap_start(m));
	return m;
}

/* ---- both sides: control-path state ---- */

static struct doca_comch_connection *g_conn;
static uint32_t g_consumer_id;
static bool g_quit;
static uint64_t g_done, g_failed;
static enum doca_ctx_states g_cons_state;

static void send_done(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	doca_task_free(doca_comch_task_send_as_task(t));
}

static void recv_cb(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len, struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	if (len == 4 && memcmp(buf, "quit", 4) == 0)
		g_quit = true;
}

static void connect_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
		       uint8_t ok)
{
	(void)ev;
	if (ok)
		g_conn = c;
}

static void disconnect_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			  uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
}

static void new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	g_consumer_id = id;
}

static void expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
}

static void state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	g_cons_state = next;
}

/* ---- host side: the consumer child ---- */

static void recv_done(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(t);
	void *head;

	(void)a;
	(void)b;
	g_done++;
	MUST(doca_buf_get_head(buf, &head));
	MUST(doca_buf_set_data(buf, head, 0));
	if (g_cons_state == DOCA_CTX_STATE_RUNNING &&
	    doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)) == DOCA_SUCCESS)
		return;
	(void)doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static void recv_err(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	(void)doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static int consumer_child(void)
{
	struct doca_dev *dev = open_dev("b1:00.0");
	struct doca_comch_client *cl;
	struct doca_comch_consumer *cons;
	struct doca_pe *pe, *cpe;
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	union doca_data ud = {.ptr = NULL};
	enum doca_ctx_states st;
	uint8_t *mem = bench_alloc((size_t)NBUFS * BUFSZ, 0);

	MUST(doca_pe_create(&pe));
	MUST(doca_comch_client_create(dev, NAME, &cl));
	MUST(doca_pe_connect_ctx(pe, doca_comch_client_as_ctx(cl)));
	MUST(doca_comch_client_task_send_set_conf(cl, send_done, send_done, 16));
	MUST(doca_comch_client_event_msg_recv_register(cl, recv_cb));
	if (doca_ctx_start(doca_comch_client_as_ctx(cl)) != DOCA_ERROR_IN_PROGRESS)
		return 1;
	do {
		(void)doca_pe_progress(pe);
		MUST(doca_ctx_get_state(doca_comch_client_as_ctx(cl), &st));
	} while (st != DOCA_CTX_STATE_RUNNING);
	MUST(doca_comch_client_get_connection(cl, &g_conn));

	mmap = make_mmap(dev, mem, (size_t)NBUFS * BUFSZ);
	MUST(doca_buf_inventory_create(NBUFS, &inv));
	MUST(doca_buf_inventory_start(inv));
	MUST(doca_pe_create(&cpe));
	MUST(doca_comch_consumer_create(g_conn, mmap, &cons));
	MUST(doca_pe_connect_ctx(cpe, doca_comch_consumer_as_ctx(cons)));
	MUST(doca_ctx_set_state_changed_cb(doca_comch_consumer_as_ctx(cons), state_cb));
	MUST(doca_ctx_set_user_data(doca_comch_consumer_as_ctx(cons), ud));
	MUST(doca_comch_consumer_task_post_recv_set_conf(cons, recv_done, recv_err, NBUFS));
	if (doca_ctx_start(doca_comch_consumer_as_ctx(cons)) != DOCA_ERROR_IN_PROGRESS)
		return 1;
	while (g_cons_state != DOCA_CTX_STATE_RUNNING) {
		(void)doca_pe_progress(pe);
		(void)doca_pe_progress(cpe);
	}
	for (uint32_t i = 0; i < NBUFS; i++) {
		struct doca_comch_consumer_task_post_recv *t;
		struct doca_buf *buf;

		MUST(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + (size_t)i * BUFSZ, BUFSZ, &buf));
		MUST(doca_comch_consumer_task_post_recv_alloc_init(cons, buf, &t));
		MUST(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)));
	}
	while (!g_quit) {
		/* Yield when idle: on a loaded machine the producer needs this core more. */
		if ((doca_pe_progress(cpe) | doca_pe_progress(pe)) == 0)
			sched_yield();
	}
	(void)doca_ctx_stop(doca_comch_consumer_as_ctx(cons));
	do {
		(void)doca_pe_progress(cpe);
		(void)doca_pe_progress(pe);
	} while (g_cons_state != DOCA_CTX_STATE_IDLE);
	MUST(doca_comch_consumer_destroy(cons));
	(void)doca_ctx_stop(doca_comch_client_as_ctx(cl));
	do {
		(void)doca_pe_progress(pe);
		MUST(doca_ctx_get_state(doca_comch_client_as_ctx(cl), &st));
	} while (st != DOCA_CTX_STATE_IDLE);
	return 0;
}

/* ---- DPU side: the producer ---- */

static void prod_done(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	g_done++;
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void prod_err(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	g_failed++;
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static uint64_t iterations(size_t size, double scale)
{
	uint64_t n = (uint64_t)(256.0 * 1024 * 1024 / (double)size);

	if (n < 1000)
		n = 1000;
	if (n > 50000)
		n = 50000;
	return (uint64_t)((double)n * scale) + 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* @n sends of @size bytes back-to-back; ns from the first submit to the last completion. */
static double comch_ns(struct doca_comch_producer *prod, struct doca_pe *ppe, struct doca_buf_inventory *inv,
		       struct doca_mmap *mmap, uint8_t *src, size_t size, uint64_t n)
{
	uint64_t sent = 0, t0;
	struct doca_buf *buf;
	double ns;

	MUST(doca_buf_inventory_buf_get_by_data(inv, mmap, src, size, &buf));
	g_done = g_failed = 0;
	t0 = bench_now_ns();
	while (sent < n) {
		struct doca_comch_producer_task_send *t;
		doca_error_t r;

		if (sent - g_done - g_failed >= 256 ||
		    doca_comch_producer_task_send_alloc_init(prod, buf, NULL, 0, g_consumer_id, &t) != DOCA_SUCCESS) {
			(void)doca_pe_progress(ppe);
			continue;
		}
		r = doca_task_submit(doca_comch_producer_task_send_as_task(t));
		if (r == DOCA_SUCCESS) {
			sent++;
			continue;
		}
		doca_task_free(doca_comch_producer_task_send_as_task(t));
		if (r != DOCA_ERROR_AGAIN)
			MUST(r);
		/* Every buffer is taken: let the consumer run to post them again. */
		if (doca_pe_progress(ppe) == 0)
			sched_yield();
	}
	while (g_done + g_failed < n)
		(void)doca_pe_progress(ppe);
	ns = (double)(bench_now_ns() - t0);
	MUST(doca_buf_dec_refcount(buf, NULL));
	if (g_failed != 0) {
		fprintf(stderr, "%llu sends failed\n", (unsigned long long)g_failed);
		exit(1);
	}
	return ns;
}

/* The raw row: process_vm_writev of @size bytes, @n times, into the child at @remote. */
static double raw_ns(pid_t pid, uintptr_t remote, const uint8_t *src, size_t size, uint64_t n)
{
	uint64_t t0 = bench_now_ns();

	for (uint64_t i = 0; i < n; i++) {
		struct iovec l = {.iov_base = (void *)src, .iov_len = size};
		struct iovec r = {.iov_base = (void *)(remote + (i % NBUFS) * BUFSZ), .iov_len = size};

		if (process_vm_writev(pid, &l, 1, &r, 1, 0) != (ssize_t)size) {
			perror("process_vm_writev");
			exit(1);
		}
	}
	return (double)(bench_now_ns() - t0);
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	char dir[] = "/tmp/softdoca-bench-XXXXXX";
	int pfd[2];
	pid_t raw, cons;
	uintptr_t raw_addr;
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_comch_server *srv;
	struct doca_comch_producer *prod;
	struct doca_pe *pe, *ppe;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	uint8_t *src;

	if (scale <= 0)
		scale = 1.0;
	/* A private runtime directory: the bench's server name never meets another's. */
	if (mkdtemp(dir) == NULL || setenv("XDG_RUNTIME_DIR", dir, 1) != 0)
		return 1;
	/* The raw target: a child holding 64 MiB, waiting to be killed. */
	if (pipe(pfd) != 0)
		return 1;
	raw = fork();
	if (raw == 0) {
		uint8_t *m = bench_alloc((size_t)NBUFS * BUFSZ, 0);
		uintptr_t a = (uintptr_t)m;

		if (write(pfd[1], &a, sizeof(a)) != sizeof(a))
			_exit(1);
		for (;;)
			pause();
	}
	if (read(pfd[0], &raw_addr, sizeof(raw_addr)) != sizeof(raw_addr))
		return 1;
	cons = fork();
	if (cons == 0)
		_exit(consumer_child());

	dev = open_dev("03:00.0");
	rep = open_rep(dev, "b1:00.0");
	MUST(doca_pe_create(&pe));
	MUST(doca_comch_server_create(dev, rep, NAME, &srv));
	MUST(doca_pe_connect_ctx(pe, doca_comch_server_as_ctx(srv)));
	MUST(doca_comch_server_task_send_set_conf(srv, send_done, send_done, 16));
	MUST(doca_comch_server_event_msg_recv_register(srv, recv_cb));
	MUST(doca_comch_server_event_connection_status_changed_register(srv, connect_cb, disconnect_cb));
	MUST(doca_comch_server_event_consumer_register(srv, new_consumer, expired_consumer));
	MUST(doca_ctx_start(doca_comch_server_as_ctx(srv)));
	while (g_consumer_id == 0)
		if (doca_pe_progress(pe) == 0)
			usleep(50);

	src = bench_alloc(BUFSZ, 0x5a);
	mmap = make_mmap(dev, src, BUFSZ);
	MUST(doca_buf_inventory_create(8, &inv));
	MUST(doca_buf_inventory_start(inv));
	MUST(doca_pe_create(&ppe));
	MUST(doca_comch_producer_create(g_conn, &prod));
	MUST(doca_pe_connect_ctx(ppe, doca_comch_producer_as_ctx(prod)));
	MUST(doca_comch_producer_task_send_set_conf(prod, prod_done, prod_err, 256));
	MUST(doca_ctx_start(doca_comch_producer_as_ctx(prod)));

	printf("comch producer -> consumer across processes vs raw process_vm_writev (same sizes, same count)\n");
	printf("%10s %9s | %12s %10s | %12s %10s | %6s\n", "size", "count", "comch GB/s", "us/op", "raw GB/s", "us/op",
	       "ratio");
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t size = sizes[k];
		uint64_t n = iterations(size, scale);
		double cns[REPS], rns[REPS];

		/* Alternate the two so that a burst of load elsewhere hits both alike. */
		for (int rep = 0; rep < REPS; rep++) {
			cns[rep] = comch_ns(prod, ppe, inv, mmap, src, size, n);
			rns[rep] = raw_ns(raw, raw_addr, src, size, n);
		}
		qsort(cns, REPS, sizeof(double), cmp_double);
		qsort(rns, REPS, sizeof(double), cmp_double);
		printf("%10zu %9llu | %12.2f %10.2f | %12.2f %10.2f | %6.2f\n", size, (unsigned long long)n,
		       (double)size * (double)n / cns[REPS / 2], cns[REPS / 2] / 1000.0 / (double)n,
		       (double)size * (double)n / rns[REPS / 2], rns[REPS / 2] / 1000.0 / (double)n,
		       rns[REPS / 2] / cns[REPS / 2]);
	}

	{
		struct doca_comch_task_send *t;

		MUST(doca_comch_server_task_send_alloc_init(srv, g_conn, "quit", 4, &t));
		MUST(doca_task_submit(doca_comch_task_send_as_task(t)));
	}
	(void)doca_ctx_stop(doca_comch_producer_as_ctx(prod));
	(void)doca_pe_progress(ppe);
	{
		int status = 0;

		while (waitpid(cons, &status, WNOHANG) == 0)
			if (doca_pe_progress(pe) == 0)
				usleep(100);
		kill(raw, SIGKILL);
		waitpid(raw, NULL, 0);
		(void)doca_ctx_stop(doca_comch_server_as_ctx(srv));
		(void)doca_pe_progress(pe);
		{
			char cmd[128];

			snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
			if (system(cmd) != 0)
				fprintf(stderr, "could not remove %s\n", dir);
		}
		return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
	}
}
