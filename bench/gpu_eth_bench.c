/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpu_eth_bench.c - frames per second from the medium into a GPU receive queue (CYCLIC, data
 * path on the GPU) and out of a GPU send queue, per packet memory type, with threads playing
 * the kernels.
 *
 *   gpu_eth_bench [-c FRAMES] [-s SIZE] [-m gpu|cpu_gpu|all] [-d rx|tx|all] [-g PCI]
 *
 *   main thread: tx_burst of 32 frames on 03:00.1's port ══ wire ══▶ 03:00.0's port
 *                (paced: never more in flight than the ring has room for)
 *                                                  ▼ the NIC's receive thread (softdoca)
 *                                      GPU receive queue, 1024 slots of SIZE bytes
 *                                                  ▼
 *   "kernel" thread: doca_gpunetio_hd_rxq_recv (THREAD scope, the device header compiled by the C
 *                    compiler) takes up to 64 frames a call and checks each frame's number
 *
 *   tx rows: a "kernel" thread posts frames with doca_gpunetio_hd_txq_send from 256 buffers back
 *   to back in the memory type of the row, on a send queue of 1024 descriptors of 03:00.1 (the
 *   port's send thread takes them) ══ wire ══▶ a CPU_GPU receive queue of 03:00.0 whose kernel
 *   thread counts them (the poster keeps at most 448 frames ahead of it: the wire's room)
 *
 * On this machine the GPU is CUDA's runtime as SOFTDOCA_CUDART names it; with the tests' fake
 * runtime (tests/gpunetio/libfakecudart.so) GPU memory is host memory, so the numbers check the
 * protocol and what the CPU side costs (copies per frame, frames per second of the NIC thread),
 * not a GPU's speed. A real GPU needs a real kernel reading its memory: this program's "kernel"
 * is a CPU thread and would fault on DOCA_GPU_MEM_TYPE_GPU memory there.
 *
 * Each row: frames, seconds from the first send to the last frame taken, frames/s, and with the
 * fake runtime its copy calls (cudaMemcpy + cudaMemcpyAsync) per frame, how many of them were
 * cudaMemcpy, and the waits (cudaStreamSynchronize + cudaEventSynchronize) per frame. The fake
 * lands a copy FAKE_CUDA_LAND_US (default 300 us) after it was queued and an event waits for
 * that, while a stream synchronization lands at once: frames/s there rewards waiting per frame;
 * FAKE_CUDA_LAND_US=0 takes that latency out.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_gpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_gpu_data_path.h>
#include <doca_gpunetio.h>
#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>
#include <doca_mmap.h>

#include "nic.h"

#define DIE(...) (fprintf(stderr, "gpu_eth_bench: " __VA_ARGS__), fputc('\n', stderr), exit(1))
#define OK(call)                                                                                                       \
	do {                                                                                                           \
		doca_error_t ret_ = (call);                                                                            \
		if (ret_ != DOCA_SUCCESS)                                                                              \
			DIE("%s: %s", #call, doca_error_get_name(ret_));                                               \
	} while (0)

#define NSLOTS	  1024u
#define RECV_MAX  64u
#define TX_BURST  32u
#define ETHERTYPE 0x88b5
#define QUIET_NS  1000000000ull /* a row ends 1 s after its last frame arrived (a lost frame) */
#define WIRE_ROOM 448u		/* frames in flight at most: a wire holds 512 and drops the rest */
_Static_assert(WIRE_ROOM <= NSLOTS - RECV_MAX, "the ring has room for what is in flight");

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct doca_dev *open_dev(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			OK(doca_dev_open(list[i], &dev));
	}
	OK(doca_devinfo_destroy_list(list));
	if (dev == NULL)
		DIE("no device %s (SOFTDOCA_SIDE=all shows both sides; SOFTDOCA_CONFIG names the topology)", pci);
	return dev;
}

/* The fake runtime's copy counters, when SOFTDOCA_CUDART is it (NULL otherwise). */
static long (*fake_copies)(void), (*fake_async_copies)(void), (*fake_waits)(void);

static void fake_counters(void)
{
	const char *path = getenv("SOFTDOCA_CUDART");
	void *h = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;

	if (h == NULL)
		return;
	*(void **)&fake_copies = dlsym(h, "fake_cuda_copies");
	*(void **)&fake_async_copies = dlsym(h, "fake_cuda_async_copies");
	*(void **)&fake_waits = dlsym(h, "fake_cuda_waits");
}

struct kernel {
	struct doca_gpu_eth_rxq *h;
	uint32_t want;
	_Atomic uint32_t taken;
	_Atomic bool bad, stop;
	bool count_only; /* tx rows: the frames carry no number */
};

static void *kernel_main(void *arg)
{
	struct kernel *k = arg;
	struct doca_gpu_dev_eth_rxq_attr attr[RECV_MAX];
	uint32_t next = 0;

	while (next < k->want && !atomic_load(&k->stop)) {
		uint64_t first = 0;
		uint32_t num = 0;

		if (doca_gpunetio_hd_rxq_recv(k->h, RECV_MAX, 100000, &first, &num, attr,
					      DOCA_GPUNETIO_ETH_RX_ATTR_ALL) != DOCA_SUCCESS)
			break;
		for (uint32_t i = 0; i < num; i++) {
			const uint8_t *p =
			    (const uint8_t *)(uintptr_t)doca_gpu_dev_eth_rxq_get_pkt_addr(k->h, first + i);
			uint32_t seq;

			memcpy(&seq, p + 14, 4);
			if (!k->count_only && seq != next + i)
				atomic_store(&k->bad, true);
		}
		next += num;
		atomic_store_explicit(&k->taken, next, memory_order_release);
	}
	return NULL;
}

static void print_counts(long c0, long a0, long w0, uint32_t frames)
{
	if (fake_copies != NULL) {
		long all = fake_copies() - c0, as = fake_async_copies != NULL ? fake_async_copies() - a0 : 0;
		long w = fake_waits != NULL ? fake_waits() - w0 : 0;

		printf("  copies %ld (%.3f a frame, %ld cudaMemcpy), waits %ld (%.3f a frame)", all,
		       (double)all / frames, all - as, w, (double)w / frames);
	}
}

static struct doca_mmap *mmap_on(struct doca_dev *dev, void *addr, size_t len)
{
	struct doca_mmap *m;

	OK(doca_mmap_create(&m));
	OK(doca_mmap_add_dev(m, dev));
	OK(doca_mmap_set_memrange(m, addr, len));
	OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	OK(doca_mmap_start(m));
	return m;
}

#define TX_BUFS 256u
#define TX_WQE	1024u

struct poster {
	struct doca_gpu_eth_txq *h;
	uint64_t base;
	uint32_t mkey_be, size, frames;
	struct kernel *k;
};

static void *poster_main(void *arg)
{
	struct poster *ps = arg;

	for (uint32_t i = 0; i < ps->frames; i++) {
		while (i - atomic_load_explicit(&ps->k->taken, memory_order_acquire) >= WIRE_ROOM)
			if (atomic_load(&ps->k->stop))
				return NULL;
		if (doca_gpunetio_hd_txq_send(ps->h, ps->base + (uint64_t)(i % TX_BUFS) * ps->size, ps->mkey_be,
					      ps->size, 0, NULL) != DOCA_SUCCESS)
			return NULL;
	}
	return NULL;
}

/* A tx row: frames out of a GPU send queue whose packets are in @mem. */
static void run_tx_row(struct doca_gpu *gpu, struct doca_dev *rx, struct doca_dev *tx, enum doca_gpu_mem_type mem,
		       uint32_t frames, uint32_t size)
{
	size_t rx_len = (size_t)NSLOTS * ((size + 63) & ~63u), tx_len = (size_t)TX_BUFS * size;
	void *rx_gpu = NULL, *tx_gpu = NULL, *cpu = NULL;
	struct doca_mmap *rx_mmap, *tx_mmap;
	struct doca_eth_rxq *rxq;
	struct doca_eth_txq *txq;
	struct kernel k = {.want = frames, .count_only = true};
	struct poster ps = {.size = size, .frames = frames, .k = &k};
	uint8_t *img = calloc(1, tx_len);
	uint32_t mkey = 0, last = UINT32_MAX;
	long c0 = 0, a0 = 0, w0 = 0;
	uint64_t t0, t1 = 0;
	pthread_t kt, pt;

	if (img == NULL)
		DIE("out of memory");
	OK(doca_gpu_mem_alloc(gpu, rx_len, 4096, DOCA_GPU_MEM_TYPE_CPU_GPU, &rx_gpu, &cpu));
	rx_mmap = mmap_on(rx, rx_gpu, rx_len);
	OK(doca_eth_rxq_create(rx, NSLOTS, size, &rxq));
	OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	OK(doca_eth_rxq_set_pkt_buf(rxq, rx_mmap, 0, (uint32_t)rx_len));
	OK(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(rxq), gpu));
	OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	OK(doca_eth_rxq_get_gpu_handle(rxq, &k.h));
	/* The frames, written once (GPU memory with the runtime's own cudaMemcpy, as the samples do). */
	OK(doca_gpu_mem_alloc(gpu, tx_len, 4096, mem, &tx_gpu, mem == DOCA_GPU_MEM_TYPE_GPU ? NULL : &cpu));
	for (uint32_t i = 0; i < TX_BUFS; i++) {
		uint8_t *f = img + (size_t)i * size;

		memset(f, 0xff, 6);
		memcpy(f + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
		f[12] = ETHERTYPE >> 8;
		f[13] = ETHERTYPE & 0xff;
		memset(f + 14, 0x5a, size - 14);
	}
	if (mem == DOCA_GPU_MEM_TYPE_GPU) {
		const char *path = getenv("SOFTDOCA_CUDART");
		void *h = path != NULL ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
		int (*memcpy_fn)(void *, const void *, size_t, int) = NULL;

		if (h != NULL)
			*(void **)&memcpy_fn = dlsym(h, "cudaMemcpy");
		if (memcpy_fn == NULL || memcpy_fn(tx_gpu, img, tx_len, 4 /* cudaMemcpyDefault */) != 0)
			DIE("cannot fill GPU memory (cudaMemcpy of SOFTDOCA_CUDART)");
	} else {
		memcpy(cpu, img, tx_len);
	}
	free(img);
	tx_mmap = mmap_on(tx, tx_gpu, tx_len);
	OK(doca_mmap_get_mkey(tx_mmap, tx, &mkey));
	OK(doca_eth_txq_create(tx, TX_WQE, &txq));
	OK(doca_eth_txq_gpu_set_completion_on_gpu(txq));
	OK(doca_ctx_set_datapath_on_gpu(doca_eth_txq_as_doca_ctx(txq), gpu));
	OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));
	OK(doca_eth_txq_apply_queue_id(txq, 0));
	OK(doca_eth_txq_get_gpu_handle(txq, &ps.h));
	ps.base = (uint64_t)(uintptr_t)tx_gpu;
	ps.mkey_be = __builtin_bswap32(mkey);
	if (fake_copies != NULL) {
		c0 = fake_copies();
		a0 = fake_async_copies != NULL ? fake_async_copies() : 0;
		w0 = fake_waits != NULL ? fake_waits() : 0;
	}
	t0 = now_ns();
	if (pthread_create(&kt, NULL, kernel_main, &k) != 0 || pthread_create(&pt, NULL, poster_main, &ps) != 0)
		DIE("pthread_create failed");
	for (;;) {
		uint32_t now = atomic_load(&k.taken);

		if (now >= frames)
			break;
		if (now != last) {
			last = now;
			t1 = now_ns();
		} else if (now_ns() - t1 > QUIET_NS) {
			break;
		}
		sched_yield();
	}
	atomic_store(&k.stop, true);
	pthread_join(pt, NULL);
	pthread_join(kt, NULL);
	t1 = now_ns();
	printf("tx %-7s %5u B  %8u frames  %7.3f s  %9.0f frames/s", mem == DOCA_GPU_MEM_TYPE_GPU ? "GPU" : "CPU_GPU",
	       size, atomic_load(&k.taken), (double)(t1 - t0) / 1e9, atomic_load(&k.taken) / ((double)(t1 - t0) / 1e9));
	print_counts(c0, a0, w0, frames);
	printf("%s\n", atomic_load(&k.taken) != frames ? "  LOST" : "");
	OK(doca_ctx_stop(doca_eth_txq_as_doca_ctx(txq)));
	OK(doca_eth_txq_destroy(txq));
	OK(doca_mmap_stop(tx_mmap));
	OK(doca_mmap_destroy(tx_mmap));
	OK(doca_gpu_mem_free(gpu, tx_gpu));
	OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(rxq)));
	OK(doca_eth_rxq_destroy(rxq));
	OK(doca_mmap_stop(rx_mmap));
	OK(doca_mmap_destroy(rx_mmap));
	OK(doca_gpu_mem_free(gpu, rx_gpu));
}

static void run_row(struct doca_gpu *gpu, struct doca_dev *rx, struct doca_dev *tx, enum doca_gpu_mem_type mem,
		    uint32_t frames, uint32_t size)
{
	const struct nic_port_ops *ops;
	void *port;
	size_t len = (size_t)NSLOTS * ((size + 63) & ~63u);
	void *pkt_gpu = NULL, *cpu = NULL;
	struct doca_mmap *mmap;
	struct doca_eth_rxq *rxq;
	struct kernel k = {.want = frames};
	uint8_t f[TX_BURST][2048];
	struct iovec iov[TX_BURST];
	struct nic_tx_frame tf[TX_BURST];
	long c0 = 0, a0 = 0, w0 = 0;
	uint64_t t0, t1 = 0;
	pthread_t th;
	uint32_t seq = 0;

	OK(priv_doca_nic_port_get(tx, &ops, &port));
	OK(doca_gpu_mem_alloc(gpu, len, 4096, mem, &pkt_gpu, mem == DOCA_GPU_MEM_TYPE_GPU ? NULL : &cpu));
	OK(doca_mmap_create(&mmap));
	OK(doca_mmap_add_dev(mmap, rx));
	OK(doca_mmap_set_memrange(mmap, pkt_gpu, len));
	OK(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	OK(doca_mmap_start(mmap));
	OK(doca_eth_rxq_create(rx, NSLOTS, size, &rxq));
	OK(doca_eth_rxq_set_type(rxq, DOCA_ETH_RXQ_TYPE_CYCLIC));
	OK(doca_eth_rxq_set_pkt_buf(rxq, mmap, 0, (uint32_t)len));
	OK(doca_ctx_set_datapath_on_gpu(doca_eth_rxq_as_doca_ctx(rxq), gpu));
	OK(doca_ctx_start(doca_eth_rxq_as_doca_ctx(rxq)));
	OK(doca_eth_rxq_apply_queue_id(rxq, 0));
	OK(doca_eth_rxq_get_gpu_handle(rxq, &k.h));
	for (uint32_t i = 0; i < TX_BURST; i++) {
		memset(f[i], 0xff, 6);
		memcpy(f[i] + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
		f[i][12] = ETHERTYPE >> 8;
		f[i][13] = ETHERTYPE & 0xff;
		memset(f[i] + 18, 0x5a, size - 18);
		iov[i] = (struct iovec){.iov_base = f[i], .iov_len = size};
		tf[i] = (struct nic_tx_frame){.iov = &iov[i], .iovcnt = 1, .len = size};
	}
	if (fake_copies != NULL) {
		c0 = fake_copies();
		a0 = fake_async_copies != NULL ? fake_async_copies() : 0;
		w0 = fake_waits != NULL ? fake_waits() : 0;
	}
	if (pthread_create(&th, NULL, kernel_main, &k) != 0)
		DIE("pthread_create failed");
	t0 = now_ns();
	while (seq < frames) {
		uint32_t n = frames - seq < TX_BURST ? frames - seq : TX_BURST, sent;

		/* Room on the wire and in the ring (beside the kernel's last run) for the burst. */
		if (seq + n - atomic_load_explicit(&k.taken, memory_order_acquire) > WIRE_ROOM) {
			sched_yield();
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			memcpy(f[i] + 14, &(uint32_t){seq + i}, 4);
		sent = ops->tx_burst(port, tf, n);
		seq += sent;
		if (sent < n)
			sched_yield(); /* the wire is full: the NIC catches up */
	}
	for (uint32_t last = UINT32_MAX; atomic_load(&k.taken) < frames;) {
		uint32_t now = atomic_load(&k.taken);

		if (now != last) {
			last = now;
			t1 = now_ns();
		} else if (now_ns() - t1 > QUIET_NS) {
			break;
		}
		sched_yield();
	}
	atomic_store(&k.stop, true);
	pthread_join(th, NULL);
	t1 = now_ns();
	printf("rx %-7s %5u B  %8u frames  %7.3f s  %9.0f frames/s", mem == DOCA_GPU_MEM_TYPE_GPU ? "GPU" : "CPU_GPU",
	       size, atomic_load(&k.taken), (double)(t1 - t0) / 1e9, atomic_load(&k.taken) / ((double)(t1 - t0) / 1e9));
	print_counts(c0, a0, w0, frames);
	printf("%s\n", atomic_load(&k.taken) != frames || atomic_load(&k.bad) ? "  LOST OR OUT OF ORDER" : "");
	OK(doca_ctx_stop(doca_eth_rxq_as_doca_ctx(rxq)));
	OK(doca_eth_rxq_destroy(rxq));
	OK(doca_mmap_stop(mmap));
	OK(doca_mmap_destroy(mmap));
	OK(doca_gpu_mem_free(gpu, pkt_gpu));
}

int main(int argc, char **argv)
{
	const char *gpu_pci = "17:00.0", *mode = "all", *dir_s = "all";
	uint32_t frames = 200000, size = 64;
	char dir[] = "/tmp/gpu_eth_bench.XXXXXX", conf[sizeof(dir) + 16];
	struct doca_dev *rx, *tx;
	struct doca_gpu *gpu;
	FILE *fp;
	int opt;

	while ((opt = getopt(argc, argv, "c:s:m:d:g:h")) != -1) {
		switch (opt) {
		case 'c':
			frames = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 's':
			size = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'm':
			mode = optarg;
			break;
		case 'd':
			dir_s = optarg;
			break;
		case 'g':
			gpu_pci = optarg;
			break;
		default:
			fprintf(
			    opt == 'h' ? stdout : stderr,
			    "usage: gpu_eth_bench [-c FRAMES] [-s SIZE 60..2048] [-m gpu|cpu_gpu|all] [-d rx|tx|all] "
			    "[-g GPU_PCI]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (size < 60 || size > 2048 || frames == 0 ||
	    (strcmp(mode, "gpu") != 0 && strcmp(mode, "cpu_gpu") != 0 && strcmp(mode, "all") != 0) ||
	    (strcmp(dir_s, "rx") != 0 && strcmp(dir_s, "tx") != 0 && strcmp(dir_s, "all") != 0))
		DIE("bad arguments; -s 60..2048, -c > 0, -m gpu, cpu_gpu or all, -d rx, tx or all");
	/* A cable of its own (a fresh runtime directory) on the default topology's wire. */
	if (mkdtemp(dir) == NULL)
		DIE("mkdtemp failed");
	setenv("XDG_RUNTIME_DIR", dir, 1);
	snprintf(conf, sizeof(conf), "%s/eth.conf", dir);
	fp = fopen(conf, "w");
	if (fp == NULL)
		DIE("cannot write %s", conf);
	fputs("[profile default]\neth.supported = yes\n", fp);
	fclose(fp);
	if (getenv("SOFTDOCA_CONFIG") == NULL)
		setenv("SOFTDOCA_CONFIG", conf, 1);
	setenv("SOFTDOCA_SIDE", "all", 1);
	OK(doca_gpu_create(gpu_pci, &gpu));
	fake_counters();
	rx = open_dev("03:00.0");
	tx = open_dev("03:00.1");
	if (strcmp(dir_s, "tx") != 0 && strcmp(mode, "cpu_gpu") != 0)
		run_row(gpu, rx, tx, DOCA_GPU_MEM_TYPE_GPU, frames, size);
	if (strcmp(dir_s, "tx") != 0 && strcmp(mode, "gpu") != 0)
		run_row(gpu, rx, tx, DOCA_GPU_MEM_TYPE_CPU_GPU, frames, size);
	if (strcmp(dir_s, "rx") != 0 && strcmp(mode, "cpu_gpu") != 0)
		run_tx_row(gpu, rx, tx, DOCA_GPU_MEM_TYPE_GPU, frames, size);
	if (strcmp(dir_s, "rx") != 0 && strcmp(mode, "gpu") != 0)
		run_tx_row(gpu, rx, tx, DOCA_GPU_MEM_TYPE_CPU_GPU, frames, size);
	OK(doca_dev_close(tx));
	OK(doca_dev_close(rx));
	OK(doca_gpu_destroy(gpu));
	unlink(conf);
	rmdir(dir);
	return 0;
}
