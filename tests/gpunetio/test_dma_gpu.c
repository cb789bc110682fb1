/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU-initiated DMA without a GPU: a DMA context with its data path on the (fake) GPU, and CPU
 * threads playing GPU threads through doca_gpunetio_dev_dma.cuh and doca_gpunetio_dev_buf.cuh
 * (the code kernels compile) against softdoca's real CPU side (the context's service thread and
 * its DMA engine):
 *   - doca_dma_get_gpu_handle's rules (CPU data path, not started, stopped, NULLs)
 *   - device-side argument checks (INVALID_VALUE, nothing posted)
 *   - a full ring answers AGAIN until committed descriptors complete
 *   - many GPU threads posting at once, one committing, over many wraps of the ring
 *   - ordering: small and large copies mixed (the engine may finish them out of order); every
 *     byte of every descriptor below the published consumer index is in place
 *   - bad descriptors (unknown mkey, a stopped mmap, ranges outside the mmap, a read-only or
 *     foreign destination, length 0 or too large, GPU-only memory) complete with an error and
 *     are not copied, also past the number that is logged; the ring goes on
 *   - with "bad-env" (and SOFTDOCA_CPU_WORKERS unusable): the start is refused
 *   - doca_ctx_stop while a thread keeps posting: prompt, every published completion right,
 *     then a restart with a fresh ring
 *   - a doorbell 2^40 past the completed positions: one line, nothing taken (also once the
 *     doorbell is sane again), a restart works
 * Run under TSan this also checks that the acquire/release pairs cover descriptors and bytes.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf_array.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_gpunetio_dev_buf.cuh>
#include <doca_gpunetio_dev_dma.cuh>
#include <doca_log.h>

#include "../fuzz/gpu_ring_seed.h"
#include "gpu_test.h"

#define REGION	(16u << 20) /* bytes of the source and of the destination */
#define THREADS 4
#define PER	8   /* descriptors per thread and round */
#define ROUNDS	200 /* 4 * 8 * 200 = 6400 descriptors: the ring (1024) wraps 6 times */
#define ELEM	64
#define HANG_MS 60000 /* a ring that stops moving fails the test rather than hanging it */

struct fix {
	struct doca_dev *dev;
	struct doca_gpu *gpu;
	uint8_t *src_cpu; /* GPU_CPU memory: the mmap holds its GPU pointer */
	void *src_gpu;
	uint8_t *dst; /* host memory */
	struct doca_mmap *src_mm, *dst_mm;
	struct doca_buf_arr *src_arr, *dst_arr;
	struct doca_gpu_buf_arr *src_h, *dst_h;
	struct doca_dma *dma;
	struct doca_gpu_dma *h;
};

static void fill(uint8_t *p, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		p[i] = (uint8_t)(seed >> 56);
	}
}

static struct doca_mmap *map(struct fix *f, void *addr, size_t len, uint32_t access, bool with_dev)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	if (with_dev)
		CHECK_OK(doca_mmap_add_dev(m, f->dev));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_OK(doca_mmap_set_permissions(m, access));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static struct doca_buf_arr *arr_of(struct fix *f, struct doca_mmap *m, size_t len, struct doca_gpu_buf_arr **h)
{
	struct doca_buf_arr *a = NULL;

	CHECK_OK(doca_buf_arr_create(1, &a));
	CHECK_OK(doca_buf_arr_set_target_gpu(a, f->gpu));
	CHECK_OK(doca_buf_arr_set_params(a, m, len, 0));
	CHECK_OK(doca_buf_arr_start(a));
	CHECK_OK(doca_buf_arr_get_gpu_handle(a, h));
	return a;
}

static void ctx_start(struct fix *f)
{
	struct doca_gpu_dma *h = NULL;

	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(f->dma)));
	CHECK_OK(doca_dma_get_gpu_handle(f->dma, &h));
	CHECK(h != NULL);
	CHECK_EQ(doca_gpunetio_hd_dma_completed(h), 0);
	f->h = h;
}

static void wait_completed(const struct doca_gpu_dma *h, uint64_t n)
{
	uint64_t end = sd_now_ms() + HANG_MS;

	while (doca_gpunetio_hd_dma_completed(h) < n) {
		CHECK(sd_now_ms() < end);
		sched_yield();
	}
}

static doca_error_t status_of(const struct doca_gpu_dma *h, uint64_t pos)
{
	doca_error_t st = DOCA_ERROR_UNKNOWN;

	CHECK_OK(doca_gpunetio_hd_dma_status(h, pos, &st));
	return st;
}

static struct doca_gpu_buf *buf0(const struct doca_gpu_buf_arr *a)
{
	struct doca_gpu_buf *b = NULL;

	doca_gpu_dev_buf_get_buf(a, 0, &b);
	return b;
}

/* ---- many GPU threads ---- */

struct many {
	struct fix *f;
	pthread_barrier_t *bar;
	unsigned int id;
};

static void *many_thread(void *arg)
{
	struct many *m = arg;
	struct doca_gpu_buf *src = buf0(m->f->src_h);
	struct doca_gpu_buf *dst = buf0(m->f->dst_h);

	for (unsigned int r = 0; r < ROUNDS; r++) {
		for (unsigned int k = 0; k < PER; k++) {
			uint64_t off = ((uint64_t)(r * THREADS + m->id) * PER + k) * ELEM;
			doca_error_t ret;

			while ((ret = doca_gpu_dev_dma_memcpy(m->f->h, src, off, dst, off, ELEM)) == DOCA_ERROR_AGAIN)
				sched_yield();
			CHECK_OK(ret);
		}
		pthread_barrier_wait(m->bar); /* __syncthreads() */
		if (m->id == 0)
			CHECK_OK(doca_gpu_dev_dma_commit(m->f->h));
		pthread_barrier_wait(m->bar);
	}
	return NULL;
}

static void many_threads(struct fix *f)
{
	const uint64_t total = (uint64_t)THREADS * PER * ROUNDS;
	const uint64_t base = doca_gpunetio_hd_dma_completed(f->h);
	struct many m[THREADS];
	pthread_barrier_t bar;
	pthread_t t[THREADS];

	memset(f->dst, 0, REGION);
	CHECK(pthread_barrier_init(&bar, NULL, THREADS) == 0);
	for (unsigned int i = 0; i < THREADS; i++) {
		m[i] = (struct many){.f = f, .bar = &bar, .id = i};
		CHECK(pthread_create(&t[i], NULL, many_thread, &m[i]) == 0);
	}
	for (unsigned int i = 0; i < THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	pthread_barrier_destroy(&bar);
	wait_completed(f->h, base + total);
	CHECK_EQ(doca_gpunetio_hd_dma_completed(f->h), base + total);
	for (uint64_t pos = base + total - f->h->nslots; pos < base + total; pos++)
		CHECK_EQ(status_of(f->h, pos), DOCA_SUCCESS);
	CHECK(memcmp(f->dst, f->src_cpu, total * ELEM) == 0);
	CHECK(f->dst[total * ELEM] == 0); /* and nothing more */
}

/* ---- ordering ---- */

#define ORDER_N 4096

static uint64_t order_len(uint64_t i)
{
	return i % 64 == 63 ? 128u << 10 : 256u + (i % 7) * 8;
}

static void *order_thread(void *arg)
{
	struct fix *f = arg;
	struct doca_gpu_buf *src = buf0(f->src_h);
	struct doca_gpu_buf *dst = buf0(f->dst_h);
	uint64_t off = 0;

	for (uint64_t i = 0; i < ORDER_N; i++) {
		doca_error_t ret;

		while ((ret = doca_gpu_dev_dma_memcpy(f->h, src, off, dst, off, order_len(i))) == DOCA_ERROR_AGAIN) {
			CHECK_OK(doca_gpu_dev_dma_commit(f->h));
			sched_yield();
		}
		CHECK_OK(ret);
		off += order_len(i);
		if (i % 5 == 4)
			CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	}
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	return NULL;
}

static void ordering(struct fix *f)
{
	const uint64_t base = doca_gpunetio_hd_dma_completed(f->h);
	uint64_t checked = 0, off = 0, seen = 0, end = sd_now_ms() + HANG_MS;
	pthread_t t;

	memset(f->dst, 0, REGION);
	CHECK(pthread_create(&t, NULL, order_thread, f) == 0);
	while (checked < ORDER_N) {
		uint64_t c = doca_gpunetio_hd_dma_completed(f->h) - base;

		CHECK(c >= seen && c <= ORDER_N);
		seen = c;
		CHECK(sd_now_ms() < end);
		for (; checked < c; checked++) {
			CHECK(memcmp(f->dst + off, f->src_cpu + off, order_len(checked)) == 0);
			off += order_len(checked);
		}
		sched_yield();
	}
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(off <= REGION);
}

/* ---- bad descriptors ---- */

/* A map of a seed: @b's mkey and range. */
static struct gpu_ring_seed_map seed_map(const struct doca_gpu_buf *b, uint64_t len, uint32_t flags)
{
	return (struct gpu_ring_seed_map){
	    .mkey = __builtin_bswap32(b->mkey), .flags = flags, .base = b->addr, .len = len};
}

/*
 * With SOFTDOCA_DUMP_RING_DIR set: writes positions @from..@db (a ring's worth at most) of the
 * ring as the device left them, in a ring of 1 << @log2 slots, as a seed of tests/fuzz/fuzz_gpu_dma_ring
 * (gpu_ring_seed.h), with up to four maps.
 */
static void dump_ring(const struct fix *f, const char *name, unsigned int log2, uint64_t from, uint64_t db,
		      uint8_t mode, const struct gpu_ring_seed_map *maps, unsigned int nmaps)
{
	const char *dir = getenv("SOFTDOCA_DUMP_RING_DIR");
	struct gpu_ring_seed s = {.magic = GPU_RING_SEED_MAGIC,
				  .nslots_log2 = (uint8_t)log2,
				  .mode = mode,
				  .mtu = 8, /* a window of 256 */
				  .max_len = 1u << 30,
				  .next = from,
				  .doorbell = db};
	struct doca_gpu_dma_desc *ring = calloc(1u << log2, sizeof(*ring));
	char path[PATH_MAX];
	FILE *out;

	if (dir == NULL) {
		free(ring);
		return;
	}
	CHECK(ring != NULL && nmaps <= 4);
	memcpy(s.map, maps, nmaps * sizeof(*maps));
	for (uint64_t p = from; p < db && p - from < (1u << log2); p++)
		ring[p & ((1u << log2) - 1)] = f->h->desc[p & f->h->mask];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "wb");
	CHECK(out != NULL);
	CHECK(fwrite(&s, sizeof(s), 1, out) == 1);
	CHECK(fwrite(ring, sizeof(*ring), 1u << log2, out) == 1u << log2);
	CHECK(fclose(out) == 0);
	free(ring);
}

static uint64_t post_raw(struct fix *f, uint64_t src, uint32_t src_mkey, uint64_t dst, uint32_t dst_mkey, uint64_t len)
{
	uint64_t pos = UINT64_MAX;

	CHECK_OK(doca_gpunetio_hd_dma_post(f->h, src, src_mkey, dst, dst_mkey, len, &pos));
	return pos;
}

static void bad_descriptors(struct fix *f)
{
	struct doca_gpu_buf src = *buf0(f->src_h), dst = *buf0(f->dst_h), ro_buf, foreign_buf, gone;
	struct doca_gpu_buf_arr *ro_h = NULL, *foreign_h = NULL, *gone_h = NULL;
	struct doca_buf_arr *ro_arr, *foreign_arr, *gone_arr;
	struct doca_gpu_buf_arr *dev_h = NULL;
	struct doca_mmap *ro, *foreign, *gone_mm, *dev_mm;
	struct doca_buf_arr *dev_arr;
	struct doca_gpu_buf dev_buf;
	uint8_t *other = aligned_alloc(4096, 3 * 4096);
	uint64_t base = doca_gpunetio_hd_dma_completed(f->h);
	uint64_t pos[14], flood[24];
	void *dev_mem = NULL;
	unsigned int n = 0;

	CHECK(other != NULL);
	memset(other, 0x5a, 3 * 4096);
	memset(f->dst, 0, 4096);
	ro = map(f, other, 4096, DOCA_ACCESS_FLAG_PCI_READ_ONLY, true);
	foreign = map(f, other + 4096, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, false);
	gone_mm = map(f, other + 8192, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, true);
	ro_arr = arr_of(f, ro, 4096, &ro_h);
	foreign_arr = arr_of(f, foreign, 4096, &foreign_h);
	gone_arr = arr_of(f, gone_mm, 4096, &gone_h);
	ro_buf = *buf0(ro_h);
	foreign_buf = *buf0(foreign_h);
	gone = *buf0(gone_h);
	/* GPU-only memory (host memory under the fake runtime, unreachable with a real driver). */
	CHECK_OK(doca_gpu_mem_alloc(f->gpu, 4096, 0, DOCA_GPU_MEM_TYPE_GPU, &dev_mem, NULL));
	dev_mm = map(f, dev_mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, true);
	dev_arr = arr_of(f, dev_mm, 4096, &dev_h);
	dev_buf = *buf0(dev_h);

	/* Device-side checks: nothing is posted. */
	CHECK_ERR(doca_gpu_dev_dma_memcpy(NULL, &src, 0, &dst, 0, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_dma_memcpy(f->h, NULL, 0, &dst, 0, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_dma_memcpy(f->h, &src, 0, NULL, 0, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_dma_memcpy(f->h, &src, 0, &dst, 0, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_dma_memcpy(f->h, &src, REGION - 4, &dst, 0, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_dma_memcpy(f->h, &src, 0, &dst, REGION + 1, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_gpu_dev_dma_commit(NULL), DOCA_ERROR_INVALID_VALUE);

	/* A good one first: both maps are now in the service's cache. */
	pos[n++] = post_raw(f, src.addr, src.mkey, dst.addr, dst.mkey, 16);
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, base + n);
	/* What the CPU side must refuse. */
	pos[n++] = post_raw(f, src.addr, 0xdeadbeefu, dst.addr + 16, dst.mkey, 16);		/* unknown key */
	pos[n++] = post_raw(f, src.addr, src.mkey, dst.addr + REGION, dst.mkey, 16);		/* past the end */
	pos[n++] = post_raw(f, src.addr, src.mkey, dst.addr + REGION - 8, dst.mkey, 16);	/* across it */
	pos[n++] = post_raw(f, src.addr - 64, src.mkey, dst.addr + 32, dst.mkey, 16);		/* before it */
	pos[n++] = post_raw(f, src.addr, src.mkey, ro_buf.addr, ro_buf.mkey, 16);		/* read-only */
	pos[n++] = post_raw(f, src.addr, src.mkey, foreign_buf.addr, foreign_buf.mkey, 16);	/* no device */
	pos[n++] = post_raw(f, src.addr, src.mkey, dst.addr + 48, dst.mkey, 0);			/* empty */
	pos[n++] = post_raw(f, src.addr, src.mkey, dst.addr + 48, dst.mkey, UINT64_C(1) << 40); /* too long */
	pos[n++] = post_raw(f, ro_buf.addr, ro_buf.mkey, dst.addr + 64, dst.mkey, 16);		/* reading it is fine */
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, base + n);
	/* A map stopped after its key was cached: its key is gone. */
	pos[n++] = post_raw(f, gone.addr, gone.mkey, dst.addr + 80, dst.mkey, 16);
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, base + n);
	CHECK_OK(doca_buf_arr_destroy(gone_arr));
	CHECK_OK(doca_mmap_stop(gone_mm));
	pos[n++] = post_raw(f, gone.addr, gone.mkey, dst.addr + 96, dst.mkey, 16);
	pos[n++] = post_raw(f, src.addr, src.mkey, dev_buf.addr, dev_buf.mkey, 16);
	pos[n++] = post_raw(f, dev_buf.addr, dev_buf.mkey, dst.addr + 112, dst.mkey, 16);
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, base + n);
	/* More bad ones than are logged: each still fails, and a good one after them works. */
	for (unsigned int i = 0; i < N_ELEMS(flood) - 1; i++)
		flood[i] = post_raw(f, src.addr, 0x0badf00du, dst.addr + 128, dst.mkey, 16);
	flood[N_ELEMS(flood) - 1] = post_raw(f, src.addr + 128, src.mkey, dst.addr + 128, dst.mkey, 16);
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, flood[N_ELEMS(flood) - 1] + 1);
	{
		const struct gpu_ring_seed_map maps[] = {
		    seed_map(&src, REGION, SEED_MAP_READ | SEED_MAP_WRITE),
		    seed_map(&dst, REGION, SEED_MAP_READ | SEED_MAP_WRITE),
		    seed_map(&ro_buf, 4096, SEED_MAP_READ),
		    seed_map(&dev_buf, 4096, SEED_MAP_READ | SEED_MAP_WRITE | SEED_MAP_DEVICE_ONLY),
		};

		dump_ring(f, "bad", 6, base, flood[N_ELEMS(flood) - 1] + 1, 0, maps, 4);
		dump_ring(f, "bad-rewrite", 6, base, flood[N_ELEMS(flood) - 1] + 1, SEED_MODE_REWRITE, maps, 4);
	}
	for (unsigned int i = 0; i < N_ELEMS(flood) - 1; i++)
		CHECK_EQ(status_of(f->h, flood[i]), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(status_of(f->h, flood[N_ELEMS(flood) - 1]), DOCA_SUCCESS);
	CHECK(memcmp(f->dst + 128, f->src_cpu + 128, 16) == 0);

	CHECK_EQ(status_of(f->h, pos[0]), DOCA_SUCCESS);
	for (unsigned int i = 1; i <= 4; i++)
		CHECK_EQ(status_of(f->h, pos[i]), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(status_of(f->h, pos[5]), DOCA_ERROR_NOT_PERMITTED);
	CHECK_EQ(status_of(f->h, pos[6]), DOCA_ERROR_NOT_PERMITTED);
	CHECK_EQ(status_of(f->h, pos[7]), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(status_of(f->h, pos[8]), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(status_of(f->h, pos[9]), DOCA_SUCCESS);
	CHECK_EQ(status_of(f->h, pos[10]), DOCA_SUCCESS);
	CHECK_EQ(status_of(f->h, pos[11]), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(status_of(f->h, pos[12]), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_EQ(status_of(f->h, pos[13]), DOCA_ERROR_NOT_SUPPORTED);
	/* Only the good ones wrote. */
	CHECK(memcmp(f->dst, f->src_cpu, 16) == 0);
	for (unsigned int i = 16; i < 64; i++)
		CHECK_EQ(f->dst[i], 0);
	for (unsigned int i = 64; i < 96; i++)
		CHECK_EQ(f->dst[i], 0x5a);
	for (unsigned int i = 96; i < 128; i++)
		CHECK_EQ(f->dst[i], 0);
	for (unsigned int i = 144; i < 4096; i++)
		CHECK_EQ(f->dst[i], 0);
	for (unsigned int i = 0; i < 8192; i++)
		CHECK_EQ(other[i], 0x5a);
	CHECK(memcmp(f->dst + REGION - 8, (const uint8_t[8]){0}, 8) == 0);

	CHECK_OK(doca_buf_arr_destroy(dev_arr));
	CHECK_OK(doca_mmap_destroy(dev_mm));
	CHECK_OK(doca_gpu_mem_free(f->gpu, dev_mem));
	CHECK_OK(doca_buf_arr_destroy(ro_arr));
	CHECK_OK(doca_buf_arr_destroy(foreign_arr));
	CHECK_OK(doca_mmap_destroy(ro));
	CHECK_OK(doca_mmap_destroy(foreign));
	CHECK_OK(doca_mmap_destroy(gone_mm));
	free(other);
}

/* ---- a full ring ---- */

static void full_ring(struct fix *f)
{
	struct doca_gpu_buf *src = buf0(f->src_h), *dst = buf0(f->dst_h);
	uint64_t base = doca_gpunetio_hd_dma_completed(f->h);

	for (uint32_t i = 0; i < f->h->nslots; i++)
		CHECK_OK(doca_gpu_dev_dma_memcpy(f->h, src, i * 8u, dst, i * 8u, 8));
	/* Nothing committed: nothing runs, the ring stays full. */
	CHECK_ERR(doca_gpu_dev_dma_memcpy(f->h, src, 0, dst, 0, 8), DOCA_ERROR_AGAIN);
	CHECK_EQ(doca_gpunetio_hd_dma_completed(f->h), base);
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, base + f->h->nslots);
	{
		const struct gpu_ring_seed_map maps[] = {
		    seed_map(src, REGION, SEED_MAP_READ | SEED_MAP_WRITE),
		    seed_map(dst, REGION, SEED_MAP_READ | SEED_MAP_WRITE),
		};

		dump_ring(f, "full", 10, base, base + f->h->nslots, SEED_MODE_NO_ROOM, maps, 2);
	}
	CHECK_OK(doca_gpu_dev_dma_memcpy(f->h, src, 0, dst, 0, 8));
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, base + f->h->nslots + 1);
}

/* ---- stop while descriptors are in flight ---- */

#define STOP_LEN (32u << 10)

struct stopper {
	struct fix *f;
	atomic_bool quit;
	uint64_t posted;
};

static void *stop_thread(void *arg)
{
	struct stopper *s = arg;
	struct doca_gpu_buf *src = buf0(s->f->src_h), *dst = buf0(s->f->dst_h);
	const uint64_t slots = REGION / STOP_LEN;

	while (!atomic_load(&s->quit)) {
		uint64_t off = (s->posted % slots) * STOP_LEN;
		doca_error_t ret = doca_gpu_dev_dma_memcpy(s->f->h, src, off, dst, off, STOP_LEN);

		if (ret == DOCA_SUCCESS)
			s->posted++;
		else
			CHECK_ERR(ret, DOCA_ERROR_AGAIN);
		if (ret != DOCA_SUCCESS || s->posted % 4 == 0)
			CHECK_OK(doca_gpu_dev_dma_commit(s->f->h));
		if (ret != DOCA_SUCCESS)
			sched_yield();
	}
	return NULL;
}

static void stop_in_flight(struct fix *f)
{
	struct stopper s = {.f = f};
	enum doca_ctx_states st;
	struct doca_gpu_dma *h = f->h;
	const uint64_t base = doca_gpunetio_hd_dma_completed(h);
	uint64_t done, from;
	pthread_t t;

	memset(f->dst, 0, REGION);
	atomic_init(&s.quit, false);
	CHECK(pthread_create(&t, NULL, stop_thread, &s) == 0);
	wait_completed(h, base + 64);
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(f->dma)));
	CHECK_OK(doca_ctx_get_state(doca_dma_as_ctx(f->dma), &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	done = doca_gpunetio_hd_dma_completed(h) - base;
	CHECK(done >= 64);
	atomic_store(&s.quit, true);
	CHECK(pthread_join(t, NULL) == 0);
	/* Nothing moves any more; what was published is right. */
	CHECK_EQ(doca_gpunetio_hd_dma_completed(h), base + done);
	CHECK(done <= s.posted);
	CHECK_ERR(doca_dma_get_gpu_handle(f->dma, &h), DOCA_ERROR_BAD_STATE);
	/* Every copy that succeeded is whole (all regions hold the same source bytes at one offset);
	 * a cancelled one wrote nothing, and none is left half-done. */
	from = done > h->nslots ? done - h->nslots : 0;
	for (uint64_t k = from; k < done; k++) {
		doca_error_t e = status_of(h, base + k);
		uint64_t off = (k % (REGION / STOP_LEN)) * STOP_LEN;

		CHECK(e == DOCA_SUCCESS || e == DOCA_ERROR_IO_FAILED);
		if (e == DOCA_SUCCESS)
			CHECK(memcmp(f->dst + off, f->src_cpu + off, STOP_LEN) == 0);
	}
	/* A restart gives a fresh ring that works. */
	ctx_start(f);
	CHECK_OK(doca_gpu_dev_dma_memcpy(f->h, buf0(f->src_h), 0, buf0(f->dst_h), 0, 8));
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, 1);
	CHECK_EQ(status_of(f->h, 0), DOCA_SUCCESS);
}

/* ---- a doorbell more than a ring ahead ---- */

static int log_fd = -1;

static unsigned int log_count(const char *needle)
{
	off_t end = lseek(log_fd, 0, SEEK_END);
	char *s = calloc(1, (size_t)end + 1);
	unsigned int n = 0;

	CHECK(s != NULL);
	CHECK(pread(log_fd, s, (size_t)end, 0) == end);
	for (const char *p = strstr(s, needle); p != NULL; p = strstr(p + 1, needle))
		n++;
	free(s);
	return n;
}

static void runaway(struct fix *f)
{
	const char *line = "rang the DMA doorbell at 1099511627776 with 1 descriptors completed, more than the "
			   "ring's 1024 ahead";
	uint64_t base = doca_gpunetio_hd_dma_completed(f->h), end = sd_now_ms() + HANG_MS;

	CHECK_EQ(base, 1u); /* stop_in_flight's restart */
	/* A well-formed descriptor, then a doorbell 2^40 past it: slots the CPU never completed. */
	post_raw(f, buf0(f->src_h)->addr, buf0(f->src_h)->mkey, buf0(f->dst_h)->addr, buf0(f->dst_h)->mkey, 8);
	doca_gpunetio_hd_store_release_u64(&f->h->ctrl->doorbell, 1ull << 40);
	{
		const struct gpu_ring_seed_map maps[] = {
		    seed_map(buf0(f->src_h), REGION, SEED_MAP_READ | SEED_MAP_WRITE),
		    seed_map(buf0(f->dst_h), REGION, SEED_MAP_READ | SEED_MAP_WRITE),
		};

		dump_ring(f, "runaway", 6, base, 1ull << 40, 0, maps, 2);
	}
	while (log_count(line) == 0) {
		CHECK(sd_now_ms() < end);
		sched_yield();
	}
	/* The ring failed before it took anything; a sane doorbell does not revive it. */
	CHECK_EQ(doca_gpunetio_hd_dma_completed(f->h), base);
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(f->dma)));
	CHECK_EQ(doca_gpunetio_hd_dma_completed(f->h), base);
	CHECK_EQ(log_count(line), 1u);
	/* A restart gives a ring that works. */
	ctx_start(f);
	CHECK_OK(doca_gpu_dev_dma_memcpy(f->h, buf0(f->src_h), 0, buf0(f->dst_h), 0, 8));
	CHECK_OK(doca_gpu_dev_dma_commit(f->h));
	wait_completed(f->h, 1);
	CHECK_EQ(status_of(f->h, 0), DOCA_SUCCESS);
}

/* SOFTDOCA_CPU_WORKERS is unusable: the GPU data path's engine queue refuses to start. */
static int bad_env(struct fix *f)
{
	CHECK(getenv("SOFTDOCA_CPU_WORKERS") != NULL);
	CHECK_OK(doca_dma_create(f->dev, &f->dma));
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(f->dma), f->gpu));
	CHECK_ERR(doca_ctx_start(doca_dma_as_ctx(f->dma)), DOCA_ERROR_BAD_CONFIG);
	CHECK_OK(doca_dma_destroy(f->dma));
	CHECK_OK(doca_gpu_destroy(f->gpu));
	CHECK_OK(doca_dev_close(f->dev));
	return T_EXIT_PASS;
}

int main(int argc, char **argv)
{
	struct fix f = {0};
	struct doca_gpu_dma *h = NULL;
	struct doca_dma *cpu_dma = NULL;
	struct doca_pe *pe = NULL;
	struct fake_cuda fake;
	void *c = NULL;

	struct doca_log_backend *be = NULL;

	log_fd = memfd_create("gpu-dma-log", MFD_CLOEXEC);
	CHECK(log_fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(log_fd, &be));
	CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_WARNING));
	f.dev = sd_open_dev("03:00.0");
	CHECK_OK(doca_gpu_create(FAKE_GPU_PCI, &f.gpu));
	fake = fake_cuda_get();
	if (argc > 1 && strcmp(argv[1], "bad-env") == 0)
		return bad_env(&f);
	CHECK_OK(doca_gpu_mem_alloc(f.gpu, REGION, 4096, DOCA_GPU_MEM_TYPE_GPU_CPU, &f.src_gpu, &c));
	f.src_cpu = c;
	fill(f.src_cpu, REGION, 7);
	f.dst = aligned_alloc(4096, REGION + 4096);
	CHECK(f.dst != NULL);
	memset(f.dst, 0, REGION + 4096);
	f.src_mm = map(&f, f.src_gpu, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, true);
	f.dst_mm = map(&f, f.dst, REGION, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, true);
	f.src_arr = arr_of(&f, f.src_mm, REGION, &f.src_h);
	f.dst_arr = arr_of(&f, f.dst_mm, REGION, &f.dst_h);

	/* The handle's rules. */
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_dma_create(f.dev, &cpu_dma));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(cpu_dma)));
	CHECK_ERR(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(cpu_dma), f.gpu), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_dma_get_gpu_handle(cpu_dma, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_dma_destroy(cpu_dma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dma_create(f.dev, &f.dma));
	CHECK_ERR(doca_dma_get_gpu_handle(f.dma, &h), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_set_datapath_on_gpu(doca_dma_as_ctx(f.dma), f.gpu));
	CHECK_ERR(doca_dma_get_gpu_handle(f.dma, &h), DOCA_ERROR_BAD_STATE); /* not started */
	CHECK_ERR(doca_dma_get_gpu_handle(f.dma, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_get_gpu_handle(NULL, &h), DOCA_ERROR_INVALID_VALUE);
	ctx_start(&f);
	CHECK_ERR(doca_gpu_destroy(f.gpu), DOCA_ERROR_BAD_STATE); /* the ring lives in its memory */

	full_ring(&f);
	bad_descriptors(&f);
	many_threads(&f);
	ordering(&f);
	stop_in_flight(&f);
	runaway(&f);

	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(f.dma)));
	CHECK_OK(doca_dma_destroy(f.dma));
	CHECK_OK(doca_buf_arr_destroy(f.src_arr));
	CHECK_OK(doca_buf_arr_destroy(f.dst_arr));
	CHECK_OK(doca_mmap_destroy(f.src_mm));
	CHECK_OK(doca_mmap_destroy(f.dst_mm));
	CHECK_OK(doca_gpu_mem_free(f.gpu, f.src_gpu));
	CHECK_OK(doca_gpu_destroy(f.gpu));
	CHECK_EQ(fake.live_allocations(), 0); /* rings and tables retired at stop, freed with the GPU */
	free(f.dst);
	CHECK_OK(doca_dev_close(f.dev));
	return T_EXIT_PASS;
}
