/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc_copy.c - DMA across two processes, both directions, through the public API.
 *
 * An exporter process (xproc_exporter, the "host" on b1:00.0) exports a buffer filled with a
 * known pattern; this process (the "DPU" on 03:00.0) imports it and copies:
 *   read:  single copies from 1 B to 32 MiB (chunked, split over workers), 2000 small copies
 *          64 at a time (the engines batch them), scatter-gather lists on both sides;
 *   write: the same into a read-write export, checked by the exporter itself, with the bytes
 *          around every written range checked untouched.
 * meson runs it once per engine.
 */
#include <signal.h>

#include "../dma/dma_test.h"
#include "xproc.h"

#define SEED_RO 7
#define SEED_RW 9
#define SEED_W 21
#define RO_SIZE (32u << 20)
#define RW_SIZE (16u << 20)

struct imp {
	struct dma_fix f;
	struct doca_mmap *rm;
	struct xp_peer peer;
};

/* One task @src -> @dst, waited for (10 s at most); returns its status through @st. */
static int run_one(struct dma_fix *f, struct doca_buf *src, struct doca_buf *dst, doca_error_t *st)
{
	size_t ok = f->c.ok, err = f->c.err;
	uint64_t start = sd_now_ns();

	CHECK_ERR(fix_submit(f, src, dst, 0, NULL), DOCA_SUCCESS);
	while (f->c.ok + f->c.err == ok + err) {
		doca_pe_progress(f->pe);
		CHECK(sd_now_ns() - start < WAIT_LIMIT_NS);
	}
	*st = f->c.err > err ? f->c.last_err : DOCA_SUCCESS;
	return 0;
}

static int read_single(struct imp *m, uint64_t off, size_t len)
{
	struct doca_buf *src, *dst;
	doca_error_t st;
	size_t got = 0;

	memset(m->f.arena, GUARD, len + 64);
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(m->f.inv, m->rm, (void *)(uintptr_t)(m->peer.addr + off), len, &src),
		  DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&m->f, m->f.arena, len, m->f.arena, 0, &dst), DOCA_SUCCESS);
	CHECK(run_one(&m->f, src, dst, &st) == 0);
	CHECK_ERR(st, DOCA_SUCCESS);
	CHECK_ERR(doca_buf_get_data_len(dst, &got), DOCA_SUCCESS);
	CHECK_EQ(got, len);
	CHECK_EQ(xp_check(m->f.arena, off, len, SEED_RO), len);
	for (size_t i = 0; i < 64; i++)
		CHECK_EQ(m->f.arena[len + i], GUARD);
	CHECK_ERR(doca_buf_dec_refcount(src, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(dst, NULL), DOCA_SUCCESS);
	return 0;
}

/* 2000 copies of 1..512 bytes at random offsets, 64 submitted before each progress. */
static int read_small_batches(struct imp *m)
{
	enum { WINDOW = 64, STRIDE = 1024, TOTAL = 2000 };
	struct doca_buf *src[WINDOW], *dst[WINDOW];
	uint64_t off[WINDOW], seed = 42;
	size_t len[WINDOW];

	for (int done = 0; done < TOTAL; done += WINDOW) {
		size_t ok = m->f.c.ok;

		memset(m->f.arena, GUARD, WINDOW * STRIDE);
		for (int i = 0; i < WINDOW; i++) {
			len[i] = prng_range(&seed, 1, 512);
			off[i] = prng_range(&seed, 0, RO_SIZE - 512);
			CHECK_ERR(doca_buf_inventory_buf_get_by_data(m->f.inv, m->rm,
								     (void *)(uintptr_t)(m->peer.addr + off[i]), len[i],
								     &src[i]),
				  DOCA_SUCCESS);
			CHECK_ERR(fix_buf(&m->f, m->f.arena + i * STRIDE, STRIDE, m->f.arena + i * STRIDE, 0, &dst[i]),
				  DOCA_SUCCESS);
			CHECK_ERR(fix_submit(&m->f, src[i], dst[i], (uint64_t)i, NULL), DOCA_SUCCESS);
		}
		CHECK(pe_wait_count(m->f.pe, &m->f.c.ok, ok + WINDOW) == 0);
		CHECK_EQ(m->f.c.err, 0);
		for (int i = 0; i < WINDOW; i++) {
			const uint8_t *d = m->f.arena + i * STRIDE;
			size_t got = 0;

			CHECK_ERR(doca_buf_get_data_len(dst[i], &got), DOCA_SUCCESS);
			CHECK_EQ(got, len[i]);
			CHECK_EQ(xp_check(d, off[i], len[i], SEED_RO), len[i]);
			CHECK_EQ(d[len[i]], GUARD);
			CHECK_ERR(doca_buf_dec_refcount(src[i], NULL), DOCA_SUCCESS);
			CHECK_ERR(doca_buf_dec_refcount(dst[i], NULL), DOCA_SUCCESS);
		}
	}
	return 0;
}

/*
 * A list of @ns remote windows -> a list of @nd local elements of random room. The local area
 * must read as the concatenation of the windows, each element's data_len what it received.
 */
static int read_sg(struct imp *m, uint64_t seed, int ns, int nd, size_t max_len)
{
	struct doca_buf *src = NULL, *dst = NULL, *b;
	uint64_t off[32];
	size_t len[32], room[32], total = 0, rooms = 0, pos = 0;
	doca_error_t st;

	for (int i = 0; i < ns; i++) {
		len[i] = prng_range(&seed, 1, max_len);
		off[i] = prng_range(&seed, 0, RO_SIZE - max_len);
		total += len[i];
		CHECK_ERR(doca_buf_inventory_buf_get_by_data(m->f.inv, m->rm, (void *)(uintptr_t)(m->peer.addr + off[i]),
							     len[i], &b),
			  DOCA_SUCCESS);
		if (src == NULL)
			src = b;
		else
			CHECK_ERR(doca_buf_chain_list(src, b), DOCA_SUCCESS);
	}
	for (int i = 0; i < nd; i++) {
		room[i] = i == nd - 1 && rooms < total ? total - rooms + prng_range(&seed, 0, 7)
						       : prng_range(&seed, 1, 2 * total / (size_t)nd + 1);
		rooms += room[i];
	}
	CHECK(rooms + 64 <= m->f.arena_len);
	memset(m->f.arena, GUARD, rooms + 64);
	for (int i = 0; i < nd; i++) {
		CHECK_ERR(fix_buf(&m->f, m->f.arena + pos, room[i], m->f.arena + pos, 0, &b), DOCA_SUCCESS);
		pos += room[i];
		if (dst == NULL)
			dst = b;
		else
			CHECK_ERR(doca_buf_chain_list(dst, b), DOCA_SUCCESS);
	}
	CHECK(run_one(&m->f, src, dst, &st) == 0);
	CHECK_ERR(st, DOCA_SUCCESS);
	pos = 0;
	for (int i = 0; i < ns; i++) {
		CHECK_EQ(xp_check(m->f.arena + pos, off[i], len[i], SEED_RO), len[i]);
		pos += len[i];
	}
	CHECK_EQ(m->f.arena[total], GUARD);
	pos = 0;
	b = dst;
	for (int i = 0; i < nd; i++) {
		size_t got = 0, want = total - pos < room[i] ? total - pos : room[i];

		CHECK_ERR(doca_buf_get_data_len(b, &got), DOCA_SUCCESS);
		CHECK_EQ(got, want);
		pos += want;
		CHECK_ERR(doca_buf_get_next_in_list(b, &b), DOCA_SUCCESS);
	}
	CHECK_ERR(doca_buf_dec_refcount(src, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(dst, NULL), DOCA_SUCCESS);
	return 0;
}

/* Checks with the exporter that [off, off+len) holds SEED_W and the 16 bytes around it SEED_RW. */
static int remote_verify(struct imp *m, uint64_t off, size_t len)
{
	char ans[64];

	CHECK(xp_cmd(&m->peer, ans, sizeof(ans), "verify %llu %zu %d", (unsigned long long)off, len, SEED_W) == 0);
	if (strcmp(ans, "OK") != 0) {
		fprintf(stderr, "  remote range %llu+%zu: %s\n", (unsigned long long)off, len, ans);
		return 1;
	}
	if (off >= 16)
		CHECK(xp_cmd(&m->peer, ans, sizeof(ans), "verify %llu 16 %d", (unsigned long long)off - 16, SEED_RW) == 0 &&
		      strcmp(ans, "OK") == 0);
	if (off + len + 16 <= RW_SIZE)
		CHECK(xp_cmd(&m->peer, ans, sizeof(ans), "verify %llu 16 %d", (unsigned long long)(off + len), SEED_RW) ==
			      0 &&
		      strcmp(ans, "OK") == 0);
	return 0;
}

static int write_single(struct imp *m, uint64_t off, size_t len)
{
	struct doca_buf *src, *dst;
	doca_error_t st;
	size_t got = 0;

	xp_fill(m->f.arena, off, len, SEED_W);
	CHECK_ERR(fix_buf(&m->f, m->f.arena, len, m->f.arena, len, &src), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(m->f.inv, m->rm, (void *)(uintptr_t)(m->peer.addr + off), len, &dst),
		  DOCA_SUCCESS);
	CHECK(run_one(&m->f, src, dst, &st) == 0);
	CHECK_ERR(st, DOCA_SUCCESS);
	CHECK_ERR(doca_buf_get_data_len(dst, &got), DOCA_SUCCESS);
	CHECK_EQ(got, len);
	CHECK_ERR(doca_buf_dec_refcount(src, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(dst, NULL), DOCA_SUCCESS);
	return remote_verify(m, off, len);
}

/* 64 small writes into disjoint ranges, submitted before one progress loop. */
static int write_small_batch(struct imp *m, uint64_t seed)
{
	enum { N = 64, STRIDE = 4096 };
	struct doca_buf *src[N], *dst[N];
	uint64_t off[N];
	size_t len[N], ok = m->f.c.ok;

	for (int i = 0; i < N; i++) {
		len[i] = prng_range(&seed, 1, 600);
		off[i] = (uint64_t)(12u << 20) + (uint64_t)i * STRIDE + prng_range(&seed, 16, 1024);
		xp_fill(m->f.arena + i * STRIDE, off[i], len[i], SEED_W);
		CHECK_ERR(fix_buf(&m->f, m->f.arena + i * STRIDE, len[i], m->f.arena + i * STRIDE, len[i], &src[i]),
			  DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(m->f.inv, m->rm, (void *)(uintptr_t)(m->peer.addr + off[i]),
							     len[i], &dst[i]),
			  DOCA_SUCCESS);
		CHECK_ERR(fix_submit(&m->f, src[i], dst[i], (uint64_t)i, NULL), DOCA_SUCCESS);
	}
	CHECK(pe_wait_count(m->f.pe, &m->f.c.ok, ok + N) == 0);
	CHECK_EQ(m->f.c.err, 0);
	for (int i = 0; i < N; i++) {
		CHECK_ERR(doca_buf_dec_refcount(src[i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(dst[i], NULL), DOCA_SUCCESS);
		if (remote_verify(m, off[i], len[i]) != 0)
			return 1;
	}
	return 0;
}

/* A local list of @ns elements written into one contiguous remote list of @nd elements. */
static int write_sg(struct imp *m, uint64_t seed, uint64_t off, int ns, int nd, size_t max_len)
{
	struct doca_buf *src = NULL, *dst = NULL, *b;
	size_t total = 0, pos = 0, room;
	doca_error_t st;

	for (int i = 0; i < ns; i++) {
		size_t len = prng_range(&seed, 1, max_len);

		/* Source elements sit apart locally (a gap of 32), but their bytes follow each other remotely. */
		CHECK(pos + len + 32 <= m->f.arena_len);
		xp_fill(m->f.arena + pos, off + total, len, SEED_W);
		CHECK_ERR(fix_buf(&m->f, m->f.arena + pos, len, m->f.arena + pos, len, &b), DOCA_SUCCESS);
		if (src == NULL)
			src = b;
		else
			CHECK_ERR(doca_buf_chain_list(src, b), DOCA_SUCCESS);
		pos += len + 32;
		total += len;
	}
	room = (total + (size_t)nd - 1) / (size_t)nd;
	for (int i = 0; i < nd; i++) {
		uint64_t at = off + (uint64_t)i * room;
		size_t n = i == nd - 1 ? total - (size_t)i * room : room;

		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(m->f.inv, m->rm, (void *)(uintptr_t)(m->peer.addr + at), n, &b),
			  DOCA_SUCCESS);
		if (dst == NULL)
			dst = b;
		else
			CHECK_ERR(doca_buf_chain_list(dst, b), DOCA_SUCCESS);
	}
	CHECK(run_one(&m->f, src, dst, &st) == 0);
	CHECK_ERR(st, DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(src, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(dst, NULL), DOCA_SUCCESS);
	return remote_verify(m, off, total);
}

static int import(struct imp *m)
{
	void *addr = NULL;
	size_t len = 0;
	uint8_t cap = 0;

	CHECK_ERR(doca_mmap_cap_is_create_from_export_pci_supported(doca_dev_as_devinfo(m->f.dev), &cap), DOCA_SUCCESS);
	CHECK_EQ(cap, 1);
	CHECK_ERR(doca_mmap_create_from_export(NULL, m->peer.desc, m->peer.desc_len, m->f.dev, &m->rm), DOCA_SUCCESS);
	CHECK_ERR(doca_mmap_get_memrange(m->rm, &addr, &len), DOCA_SUCCESS);
	CHECK_EQ((uintptr_t)addr, m->peer.addr);
	CHECK_EQ(len, m->peer.size);
	return 0;
}

static int close_all(struct imp *m)
{
	int rc = 0;

	if (m->rm != NULL && doca_mmap_destroy(m->rm) != DOCA_SUCCESS)
		rc = 1;
	rc |= fix_close(&m->f);
	if (xp_finish(&m->peer) != 0)
		rc = 1;
	return rc;
}

static int test_read(void)
{
	struct dma_fix_cfg cfg = {.arena_len = RO_SIZE + (1u << 20), .num_tasks = 128, .num_bufs = 1024};
	static const struct {
		uint64_t off;
		size_t len;
	} cases[] = {{0, 1}, {3, 64}, {4095, 4097}, {12345, (1u << 20) + 13}, {(3u << 20) + 1, 5u << 20}, {0, RO_SIZE}};
	struct imp m = {0};
	char seed[32];

	snprintf(seed, sizeof(seed), "%d", SEED_RO);
	CHECK(xp_start(&m.peer, "-s", "33554432", "-S", seed) == 0);
	CHECK(fix_open(&m.f, &cfg) == 0);
	CHECK(import(&m) == 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (read_single(&m, cases[i].off, cases[i].len) != 0) {
			fprintf(stderr, "  read case %zu failed\n", i);
			return 1;
		}
	CHECK(read_small_batches(&m) == 0);
	CHECK(read_sg(&m, 1, 16, 5, 4096) == 0);
	CHECK(read_sg(&m, 2, 32, 32, 100) == 0);
	CHECK(read_sg(&m, 3, 3, 1, 3u << 20) == 0);
	return close_all(&m);
}

static int test_write(void)
{
	struct dma_fix_cfg cfg = {.arena_len = RW_SIZE, .num_tasks = 128, .num_bufs = 1024};
	struct imp m = {0};
	char seed[32];
	uint8_t cap = 0;

	snprintf(seed, sizeof(seed), "%d", SEED_RW);
	CHECK(xp_start(&m.peer, "-s", "16777216", "-S", seed, "-w") == 0);
	CHECK(fix_open(&m.f, &cfg) == 0);
	CHECK_ERR(doca_mmap_cap_is_export_pci_supported(doca_dev_as_devinfo(m.f.dev), &cap), DOCA_SUCCESS);
	CHECK_EQ(cap, 1);
	CHECK(import(&m) == 0);
	CHECK(write_single(&m, 100, 1) == 0);
	CHECK(write_single(&m, 4000, 200) == 0);
	CHECK(write_single(&m, 65536 + 7, (1u << 20) + 3) == 0);
	CHECK(write_single(&m, 3u << 20, 9u << 20) == 0);
	CHECK(write_small_batch(&m, 5) == 0);
	CHECK(write_sg(&m, 6, 13u << 20, 10, 3, 8192) == 0);
	CHECK(write_sg(&m, 7, 14u << 20, 32, 32, 300) == 0);
	return close_all(&m);
}

int main(void)
{
	if (log_capture_init() != 0)
		return T_EXIT_FAIL;
	alarm(300); /* a hang fails the test; the exporters die with it */
	if (test_read() != 0) {
		fprintf(stderr, "read across processes failed\n");
		return T_EXIT_FAIL;
	}
	if (test_write() != 0) {
		fprintf(stderr, "write across processes failed\n");
		return T_EXIT_FAIL;
	}
	printf("xproc_copy: ok\n");
	return T_EXIT_PASS;
}
