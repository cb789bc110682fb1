/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conformance.c - what every copy engine must do, checked through the public DMA API.
 *
 * meson runs this program once per engine (SOFTDOCA_ENGINE=inline|cpu|auto). Every copy is
 * checked byte for byte over a whole destination area (the bufs and the guard bytes around
 * them), sources are checked to be untouched, and destination data_len to equal the bytes
 * written into each element.
 */
#include <pthread.h>

#include "dma_test.h"

/* One list element, relative to an area: region [off, off+len), data window at off+data_off. */
struct seg {
	size_t off, len, data_off, data_len;
};

#define MAX_SEGS 64

struct copy_spec {
	uint8_t *src_area;
	size_t src_area_len;
	const struct seg *src;
	unsigned int nsrc;
	uint8_t *dst_area;
	size_t dst_area_len;
	const struct seg *dst;
	unsigned int ndst;
	uint64_t seed;
	bool try_submit;
};

/* A buf list over @area as @segs describe; 1 on failure. */
static int build_list(struct dma_fix *f, uint8_t *area, const struct seg *segs, unsigned int n, struct doca_buf **head)
{
	*head = NULL;
	for (unsigned int i = 0; i < n; i++) {
		const struct seg *s = &segs[i];
		struct doca_buf *b = NULL;

		if (s->data_off == 0 && s->data_len == 0) {
			size_t dl = 1;

			/* The way DOCA's samples get a destination: an empty window at the region start. */
			CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f->inv, f->mmap, area + s->off, s->len, &b),
				  DOCA_SUCCESS);
			CHECK_ERR(doca_buf_get_data_len(b, &dl), DOCA_SUCCESS);
			CHECK_EQ(dl, 0);
		} else {
			CHECK_ERR(fix_buf(f, area + s->off, s->len, area + s->off + s->data_off, s->data_len, &b),
				  DOCA_SUCCESS);
		}
		if (*head == NULL)
			*head = b;
		else
			CHECK_ERR(doca_buf_chain_list(*head, b), DOCA_SUCCESS);
	}
	if (n > 0) {
		uint32_t len = 0;

		CHECK_ERR(doca_buf_get_list_len(*head, &len), DOCA_SUCCESS);
		CHECK_EQ(len, n);
	}
	return 0;
}

/*
 * Copies the data windows of @s->src into @s->dst with one task and checks everything: the
 * whole destination area against the image the copy must leave, the source area unchanged,
 * each destination element's data pointer unchanged and data_len = bytes written into it.
 */
static int run_copy(struct dma_fix *f, const struct copy_spec *s)
{
	size_t total = 0, pos = 0, written[MAX_SEGS];
	uint8_t *stream = NULL, *src_img = NULL, *dst_img = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_dma_task_memcpy *task = NULL;
	size_t ok0 = f->c.ok, err0 = f->c.err;
	int rc = 1;

	CHECK(s->nsrc <= MAX_SEGS && s->ndst <= MAX_SEGS);
	for (unsigned int i = 0; i < s->nsrc; i++)
		total += s->src[i].data_len;
	stream = malloc(total ? total : 1);
	src_img = malloc(s->src_area_len);
	dst_img = malloc(s->dst_area_len);
	if (stream == NULL || src_img == NULL || dst_img == NULL)
		goto out;
	prng_fill(s->seed, stream, total);
	memset(s->src_area, FENCE, s->src_area_len);
	for (unsigned int i = 0; i < s->nsrc; i++) {
		memcpy(s->src_area + s->src[i].off + s->src[i].data_off, stream + pos, s->src[i].data_len);
		pos += s->src[i].data_len;
	}
	memcpy(src_img, s->src_area, s->src_area_len);
	memset(s->dst_area, GUARD, s->dst_area_len);
	memset(dst_img, GUARD, s->dst_area_len);
	pos = 0;
	for (unsigned int i = 0; i < s->ndst; i++) {
		size_t room = s->dst[i].len - s->dst[i].data_off;
		size_t w = total - pos < room ? total - pos : room;

		memcpy(dst_img + s->dst[i].off + s->dst[i].data_off, stream + pos, w);
		written[i] = w;
		pos += w;
	}
	if (pos != total) {
		fprintf(stderr, "  bad test: destination room %zu < %zu\n", pos, total);
		goto out;
	}
	if (build_list(f, s->src_area, s->src, s->nsrc, &src) || build_list(f, s->dst_area, s->dst, s->ndst, &dst))
		goto out;

	union doca_data ud = {.u64 = f->c.next_ud};

	if (doca_dma_task_memcpy_alloc_init(f->dma, src, dst, ud, &task) != DOCA_SUCCESS) {
		fprintf(stderr, "  alloc_init failed\n");
		goto out;
	}
	doca_error_t ret = s->try_submit ? doca_task_try_submit(doca_dma_task_memcpy_as_task(task))
					 : doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (ret != DOCA_SUCCESS) {
		fprintf(stderr, "  %s returned %s\n", s->try_submit ? "doca_task_try_submit" : "doca_task_submit",
			doca_error_get_name(ret));
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		goto out;
	}
	if (pe_wait_count(f->pe, &f->c.ok, ok0 + 1) != 0 || f->c.err != err0) {
		fprintf(stderr, "  copy of %zu bytes did not complete successfully (error %s)\n", total,
			doca_error_get_name(f->c.last_err));
		goto out;
	}
	if (compare_area("destination area", s->dst_area, dst_img, s->dst_area_len) ||
	    compare_area("source area", s->src_area, src_img, s->src_area_len))
		goto out;
	struct doca_buf *b = dst;

	for (unsigned int i = 0; i < s->ndst; i++) {
		size_t dl = 0;
		void *data = NULL;

		if (b == NULL || doca_buf_get_data_len(b, &dl) != DOCA_SUCCESS ||
		    doca_buf_get_data(b, &data) != DOCA_SUCCESS) {
			fprintf(stderr, "  destination element %u missing\n", i);
			goto out;
		}
		if (dl != written[i] || data != s->dst_area + s->dst[i].off + s->dst[i].data_off) {
			fprintf(stderr, "  destination element %u: data_len %zu (expected %zu), data %s\n", i, dl,
				written[i],
				data == s->dst_area + s->dst[i].off + s->dst[i].data_off ? "kept" : "MOVED");
			goto out;
		}
		if (doca_buf_get_next_in_list(b, &b) != DOCA_SUCCESS)
			goto out;
	}
	rc = 0;
out:
	if (src != NULL && doca_buf_dec_refcount(src, NULL) != DOCA_SUCCESS)
		rc = 1;
	if (dst != NULL && doca_buf_dec_refcount(dst, NULL) != DOCA_SUCCESS)
		rc = 1;
	free(stream);
	free(src_img);
	free(dst_img);
	return rc;
}

/* One window of @n bytes into an empty destination of exactly @n bytes, guards around both. */
static int copy_sized(struct dma_fix *f, size_t n, uint64_t seed)
{
	size_t area = n + 2 * GUARD_LEN;
	struct seg s = {GUARD_LEN, n, 0, n};
	struct seg d = {GUARD_LEN, n, 0, 0};
	struct copy_spec spec = {
	    .src_area = f->arena,
	    .src_area_len = area,
	    .src = &s,
	    .nsrc = 1,
	    .dst_area = f->arena + ((area + 4095) & ~(size_t)4095),
	    .dst_area_len = area,
	    .dst = &d,
	    .ndst = 1,
	    .seed = seed,
	};

	CHECK(2 * ((area + 4095) & ~(size_t)4095) <= f->arena_len);
	if (run_copy(f, &spec)) {
		fprintf(stderr, "  copy of %zu bytes failed\n", n);
		return 1;
	}
	return 0;
}

static int test_sizes(void)
{
	static const size_t sizes[] = {1, 7, 64, 4095, 4096, 65536, (1u << 20) + 3, 8u << 20};
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.arena_len = 2 * ((8u << 20) + 8192)};

	if (fix_open(&f, &cfg))
		return 1;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		printf("  %zu bytes\n", sizes[i]);
		if (copy_sized(&f, sizes[i], 1000 + i))
			return 1;
	}
	CHECK_EQ(f.c.ok, sizeof(sizes) / sizeof(sizes[0]));
	return fix_close(&f);
}

/* The destination's data pointer is inside its region: writing starts there, not at the head. */
static int test_dst_data_offset(void)
{
	struct dma_fix f;
	/* (source bytes, destination region, data pointer offset) */
	static const size_t cases[][3] = {
	    {1000, 4096, 100},	/* room left over after the copy */
	    {3996, 4096, 100},	/* exactly fills the room up to the region end */
	    {1, 64, 63},	/* last byte of the region */
	    {4000, 8192, 4095}, /* offset not aligned */
	};

	if (fix_open(&f, NULL))
		return 1;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = cases[i][0], len = cases[i][1], off = cases[i][2];
		struct seg s = {GUARD_LEN, n, 0, n};
		struct seg d = {GUARD_LEN, len, off, 0};
		struct copy_spec spec = {
		    .src_area = f.arena,
		    .src_area_len = n + 2 * GUARD_LEN,
		    .src = &s,
		    .nsrc = 1,
		    .dst_area = f.arena + 65536,
		    .dst_area_len = len + 2 * GUARD_LEN,
		    .dst = &d,
		    .ndst = 1,
		    .seed = 2000 + i,
		};

		if (run_copy(&f, &spec)) {
			fprintf(stderr, "  case %zu: %zu bytes at offset %zu of %zu\n", i, n, off, len);
			return 1;
		}
	}
	return fix_close(&f);
}

/* Only the source's data window is copied, not the rest of its region. */
static int test_src_window_in_middle(void)
{
	struct dma_fix f;
	struct seg s = {GUARD_LEN, 8192, 3000, 1500};
	struct seg d = {GUARD_LEN, 4096, 0, 0};
	struct copy_spec spec = {
	    .src_area = NULL,
	    .src_area_len = 8192 + 2 * GUARD_LEN,
	    .src = &s,
	    .nsrc = 1,
	    .dst_area = NULL,
	    .dst_area_len = 4096 + 2 * GUARD_LEN,
	    .dst = &d,
	    .ndst = 1,
	    .seed = 3000,
	};

	if (fix_open(&f, NULL))
		return 1;
	spec.src_area = f.arena;
	spec.dst_area = f.arena + 65536;
	if (run_copy(&f, &spec))
		return 1;
	/* A window that ends exactly at the region end. */
	s = (struct seg){GUARD_LEN, 8192, 8192 - 777, 777};
	spec.seed = 3001;
	if (run_copy(&f, &spec))
		return 1;
	return fix_close(&f);
}

/*
 * @n segments of uneven sizes summing to @total laid out one after the other in an area, each
 * with a random margin before and after its window and GUARD_LEN between regions. Source
 * segments (@is_dst false) carry their window as data; destination ones an empty window whose
 * room (region end - data pointer) is the segment's share; @slack extra room goes to the last.
 */
static size_t make_segs(uint64_t *rng, struct seg *segs, unsigned int n, size_t total, bool is_dst, size_t slack)
{
	size_t cut[MAX_SEGS + 1], off = GUARD_LEN;

	/* n-1 distinct cut points in (0, total) sorted: uneven, every piece at least 1 byte. */
	cut[0] = 0;
	cut[n] = total;
	for (unsigned int i = 1; i < n; i++) {
		size_t c;
		bool dup;

		do {
			c = prng_range(rng, 1, total - 1);
			dup = false;
			for (unsigned int k = 1; k < i; k++)
				dup |= cut[k] == c;
		} while (dup);
		unsigned int k = i;

		while (k > 1 && cut[k - 1] > c) {
			cut[k] = cut[k - 1];
			k--;
		}
		cut[k] = c;
	}
	for (unsigned int i = 0; i < n; i++) {
		size_t piece = cut[i + 1] - cut[i] + (is_dst && i == n - 1 ? slack : 0);
		size_t before = prng_range(rng, 0, 40), after = prng_range(rng, 0, 40);

		if (is_dst) {
			/* Data pointer inside the region; the room after it is exactly the piece. */
			segs[i] = (struct seg){off, before + piece, before, 0};
			after = 0;
		} else {
			segs[i] = (struct seg){off, before + piece + after, before, piece};
		}
		off += segs[i].len + GUARD_LEN;
	}
	return off;
}

static int sg_case(struct dma_fix *f, unsigned int nsrc, unsigned int ndst, size_t total, size_t slack, uint64_t seed)
{
	uint64_t rng = seed;
	struct seg s[MAX_SEGS], d[MAX_SEGS];
	struct copy_spec spec = {.src = s, .nsrc = nsrc, .dst = d, .ndst = ndst, .seed = seed};

	spec.src_area_len = make_segs(&rng, s, nsrc, total, false, 0);
	spec.dst_area_len = make_segs(&rng, d, ndst, total, true, slack);
	spec.src_area = f->arena;
	spec.dst_area = f->arena + f->arena_len / 2;
	CHECK(spec.src_area_len <= f->arena_len / 2 && spec.dst_area_len <= f->arena_len / 2);
	if (run_copy(f, &spec)) {
		fprintf(stderr, "  scatter-gather %u -> %u elements, %zu bytes (+%zu room) failed\n", nsrc, ndst, total,
			slack);
		return 1;
	}
	return 0;
}

static int test_sg_src_list(void)
{
	static const unsigned int n[] = {3, 5, 17, 32};
	struct dma_fix f;

	if (fix_open(&f, NULL))
		return 1;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (sg_case(&f, n[i], 1, 300 * n[i] + 11, 0, 4000 + i) ||
		    sg_case(&f, n[i], 1, 97 * n[i], 500, 4100 + i))
			return 1;
	return fix_close(&f);
}

static int test_sg_dst_list(void)
{
	static const unsigned int n[] = {3, 6, 19, 32};
	struct dma_fix f;

	if (fix_open(&f, NULL))
		return 1;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (sg_case(&f, 1, n[i], 257 * n[i] + 5, 0, 5000 + i) || sg_case(&f, 1, n[i], 64 * n[i], 33, 5100 + i))
			return 1;
	return fix_close(&f);
}

static int test_sg_both_lists(void)
{
	static const unsigned int pairs[][2] = {{3, 4}, {7, 3}, {12, 29}, {32, 32}, {32, 5}, {4, 32}};
	struct dma_fix f;

	if (fix_open(&f, NULL))
		return 1;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		size_t total = 173 * (pairs[i][0] + pairs[i][1]) + i;

		if (sg_case(&f, pairs[i][0], pairs[i][1], total, 0, 6000 + i) ||
		    sg_case(&f, pairs[i][0], pairs[i][1], total, 300, 6100 + i))
			return 1;
	}
	return fix_close(&f);
}

/* Lists of a few large uneven elements: copies an engine may cut into chunks (cpu, auto). */
static int test_sg_large(void)
{
	static const unsigned int pairs[][2] = {{5, 3}, {2, 7}, {9, 9}};
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.arena_len = 24u << 20};

	if (fix_open(&f, &cfg))
		return 1;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (sg_case(&f, pairs[i][0], pairs[i][1], (4u << 20) + 555 * i + 1, 4096 * i, 6500 + i))
			return 1;
	return fix_close(&f);
}

/*
 * Destination elements the copy never reaches: the header says each element's data_len is
 * the bytes written into it, so an element holding stale data (obtained with get_by_data)
 * that receives nothing must end with data_len 0, and its bytes stay as they were.
 */
static int test_sg_unreached_dst_elements(void)
{
	struct dma_fix f;
	uint8_t *src, *dst;
	struct doca_buf *s = NULL, *d[3] = {NULL, NULL, NULL};
	size_t dl[3];

	if (fix_open(&f, NULL))
		return 1;
	src = f.arena;
	dst = f.arena + 4096;
	prng_fill(7000, src, 100);
	memset(dst, GUARD, 3 * 256);
	CHECK_ERR(fix_buf(&f, src, 100, src, 100, &s), DOCA_SUCCESS);
	for (int i = 0; i < 3; i++) {
		CHECK_ERR(doca_buf_inventory_buf_get_by_data(f.inv, f.mmap, dst + i * 256, 64, &d[i]), DOCA_SUCCESS);
		if (i > 0)
			CHECK_ERR(doca_buf_chain_list(d[0], d[i]), DOCA_SUCCESS);
	}
	CHECK_ERR(fix_submit(&f, s, d[0], 0, NULL), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK_MEM(dst, src, 64);
	CHECK_MEM(dst + 256, src + 64, 36);
	for (int i = 0; i < 3; i++)
		CHECK_ERR(doca_buf_get_data_len(d[i], &dl[i]), DOCA_SUCCESS);
	for (size_t k = 256 + 36; k < 3 * 256; k++)
		CHECK(dst[k] == GUARD);
	CHECK_ERR(doca_buf_dec_refcount(s, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d[0], NULL), DOCA_SUCCESS);
	if (fix_close(&f))
		return 1;
	CHECK_EQ(dl[0], 64);
	CHECK_EQ(dl[1], 36);
	CHECK_EQ(dl[2], 0);
	return 0;
}

/* 1000 tasks submitted before any progress, all in flight at once, delivered in order. */
static int test_1000_in_flight(void)
{
	enum { N = 1000, SLOT = 1024 };
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.num_tasks = 1024, .arena_len = 2 * N * SLOT};
	struct doca_buf **sb, **db;
	uint8_t *src, *dst, *img;
	size_t len[N], inflight = 0;
	uint64_t rng = 8000;

	if (fix_open(&f, &cfg))
		return 1;
	f.c.check_order = true;
	src = f.arena;
	dst = f.arena + (size_t)N * SLOT;
	sb = calloc(N, sizeof(*sb));
	db = calloc(N, sizeof(*db));
	img = malloc((size_t)N * SLOT);
	CHECK(sb != NULL && db != NULL && img != NULL);
	memset(src, FENCE, (size_t)N * SLOT);
	memset(dst, GUARD, (size_t)N * SLOT);
	memset(img, GUARD, (size_t)N * SLOT);
	for (size_t i = 0; i < N; i++) {
		size_t off = prng_range(&rng, 0, 300);
		uint8_t *s = src + i * SLOT, *d = dst + i * SLOT + GUARD_LEN;

		len[i] = prng_range(&rng, 1, 600);
		prng_fill(8000 + i, s + off, len[i]);
		memcpy(img + i * SLOT + GUARD_LEN, s + off, len[i]);
		CHECK_ERR(fix_buf(&f, s, SLOT, s + off, len[i], &sb[i]), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, f.mmap, d, 600, &db[i]), DOCA_SUCCESS);
	}
	for (size_t i = 0; i < N; i++)
		CHECK_ERR(fix_submit(&f, sb[i], db[i], i, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_get_num_inflight_tasks(f.ctx, &inflight), DOCA_SUCCESS);
	CHECK_EQ(inflight, N);
	CHECK_ERR(doca_pe_get_num_inflight_tasks(f.pe, &inflight), DOCA_SUCCESS);
	CHECK_EQ(inflight, N);
	CHECK_EQ(f.c.ok + f.c.err, 0); /* callbacks run only inside progress */
	CHECK(pe_wait_count(f.pe, &f.c.ok, N) == 0);
	CHECK_EQ(f.c.err, 0);
	CHECK_EQ(f.c.order_errors, 0);
	CHECK(compare_area("destination slots", dst, img, (size_t)N * SLOT) == 0);
	CHECK_ERR(doca_ctx_get_num_inflight_tasks(f.ctx, &inflight), DOCA_SUCCESS);
	CHECK_EQ(inflight, 0);
	for (size_t i = 0; i < N; i++) {
		size_t dl = 0;

		CHECK_ERR(doca_buf_get_data_len(db[i], &dl), DOCA_SUCCESS);
		CHECK_EQ(dl, len[i]);
		CHECK_ERR(doca_buf_dec_refcount(sb[i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(db[i], NULL), DOCA_SUCCESS);
	}
	free(sb);
	free(db);
	free(img);
	return fix_close(&f);
}

/* ---- resubmit from the completion callback ---- */

enum { RS_ITER = 10000, RS_NSRC = 5, RS_NDST = 3, RS_REGION = 512 };

struct resubmit {
	struct doca_buf *src[RS_NSRC], *dst[RS_NDST];
	uint8_t *dst_mem[RS_NDST];
	uint8_t *src_mem[RS_NSRC];
	size_t src_len[RS_NSRC];
	struct doca_dma_task_memcpy *task;
	size_t iterations, bad, errors;
};

static void resubmit_ok_cb(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data ctx_ud)
{
	struct dma_counts *c = ctx_ud.ptr;
	struct resubmit *r = c->priv;
	uint64_t i = ud.u64;
	unsigned int si = i % RS_NSRC, di = i % RS_NDST;
	size_t n = r->src_len[si], dl = 0;
	bool good = task == r->task && doca_dma_task_memcpy_get_src(task) == r->src[si] &&
		    doca_dma_task_memcpy_get_dst(task) == r->dst[di] && i == r->iterations;

	good = good && memcmp(r->dst_mem[di], r->src_mem[si], n) == 0;
	for (size_t k = n; k < RS_REGION + GUARD_LEN; k++)
		good = good && r->dst_mem[di][k] == GUARD;
	good = good && doca_buf_get_data_len(r->dst[di], &dl) == DOCA_SUCCESS && dl == n;
	if (!good && r->bad++ == 0)
		fprintf(stderr, "  iteration %llu: wrong copy or task fields\n", (unsigned long long)i);
	r->iterations++;
	if (r->iterations == RS_ITER) {
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		c->ok++;
		return;
	}
	/* The next copy uses another pair; its destination is wiped so a skipped copy shows. */
	uint64_t next = i + 1;
	union doca_data nud = {.u64 = next};

	memset(r->dst_mem[next % RS_NDST], GUARD, RS_REGION);
	doca_buf_reset_data_len(r->dst[next % RS_NDST]);
	doca_dma_task_memcpy_set_src(task, r->src[next % RS_NSRC]);
	doca_dma_task_memcpy_set_dst(task, r->dst[next % RS_NDST]);
	doca_task_set_user_data(doca_dma_task_memcpy_as_task(task), nud);
	if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS) {
		r->errors++;
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		c->ok++;
	}
}

static void resubmit_err_cb(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data ctx_ud)
{
	struct dma_counts *c = ctx_ud.ptr;
	struct resubmit *r = c->priv;

	fprintf(stderr, "  iteration %llu failed: %s\n", (unsigned long long)ud.u64,
		doca_error_get_name(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	r->errors++;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	c->ok++;
}

static int test_resubmit_from_callback(void)
{
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.ok_cb = resubmit_ok_cb, .err_cb = resubmit_err_cb, .num_tasks = 4};
	struct resubmit r = {0};
	union doca_data ud = {.u64 = 0};

	if (fix_open(&f, &cfg))
		return 1;
	f.c.priv = &r;
	for (unsigned int i = 0; i < RS_NSRC; i++) {
		r.src_mem[i] = f.arena + i * 1024;
		r.src_len[i] = 1 + (i * 97 + 31) % RS_REGION;
		prng_fill(9000 + i, r.src_mem[i], r.src_len[i]);
		CHECK_ERR(fix_buf(&f, r.src_mem[i], r.src_len[i], r.src_mem[i], r.src_len[i], &r.src[i]), DOCA_SUCCESS);
	}
	for (unsigned int i = 0; i < RS_NDST; i++) {
		r.dst_mem[i] = f.arena + 65536 + i * 1024;
		memset(r.dst_mem[i], GUARD, RS_REGION + GUARD_LEN);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, f.mmap, r.dst_mem[i], RS_REGION, &r.dst[i]),
			  DOCA_SUCCESS);
	}
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, r.src[0], r.dst[0], ud, &r.task), DOCA_SUCCESS);
	CHECK_ERR(doca_task_submit(doca_dma_task_memcpy_as_task(r.task)), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK_EQ(r.errors, 0);
	CHECK_EQ(r.bad, 0);
	CHECK_EQ(r.iterations, RS_ITER);
	for (unsigned int i = 0; i < RS_NSRC; i++)
		CHECK_ERR(doca_buf_dec_refcount(r.src[i], NULL), DOCA_SUCCESS);
	for (unsigned int i = 0; i < RS_NDST; i++)
		CHECK_ERR(doca_buf_dec_refcount(r.dst[i], NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

/* doca_task_try_submit of a valid task behaves exactly like doca_task_submit. */
static int test_try_submit_valid(void)
{
	struct dma_fix f;
	uint64_t rng = 10000;
	struct seg s[6], d[4];
	struct seg s1 = {GUARD_LEN, 3000, 0, 3000}, d1 = {GUARD_LEN, 3000, 0, 0};
	struct copy_spec spec = {.src = &s1, .nsrc = 1, .dst = &d1, .ndst = 1, .seed = 10001, .try_submit = true};

	if (fix_open(&f, NULL))
		return 1;
	f.c.check_order = true;
	spec.src_area = f.arena;
	spec.src_area_len = 3000 + 2 * GUARD_LEN;
	spec.dst_area = f.arena + f.arena_len / 2;
	spec.dst_area_len = 3000 + 2 * GUARD_LEN;
	if (run_copy(&f, &spec))
		return 1;
	spec.src = s;
	spec.nsrc = 6;
	spec.dst = d;
	spec.ndst = 4;
	spec.seed = 10002;
	spec.src_area_len = make_segs(&rng, s, 6, 5000, false, 0);
	spec.dst_area_len = make_segs(&rng, d, 4, 5000, true, 10);
	if (run_copy(&f, &spec))
		return 1;
	CHECK_EQ(f.c.order_errors, 0);
	return fix_close(&f);
}

/* Accessors return what was set; the callback gets back the very task that was submitted. */
static int test_accessor_round_trips(void)
{
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.num_tasks = 2};
	struct doca_buf *s1, *s2, *d1, *d2;
	struct doca_dma_task_memcpy *t = NULL;
	struct doca_task *gt;
	union doca_data ud = {.u64 = 0xC0FFEE}, ud2 = {.u64 = 77};

	if (fix_open(&f, &cfg))
		return 1;
	f.c.keep_tasks = true;
	prng_fill(11000, f.arena, 256);
	CHECK_ERR(fix_buf(&f, f.arena, 128, f.arena, 128, &s1), DOCA_SUCCESS);
	CHECK_ERR(fix_buf(&f, f.arena + 128, 128, f.arena + 128, 128, &s2), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, f.mmap, f.arena + 4096, 256, &d1), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, f.mmap, f.arena + 8192, 256, &d2), DOCA_SUCCESS);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s1, d1, ud, &t), DOCA_SUCCESS);
	gt = doca_dma_task_memcpy_as_task(t);
	CHECK(gt != NULL);
	CHECK(doca_dma_task_memcpy_as_task(t) == gt);
	CHECK(doca_dma_task_memcpy_get_src(t) == s1);
	CHECK(doca_dma_task_memcpy_get_dst(t) == d1);
	CHECK(doca_task_get_ctx(gt) == f.ctx);
	CHECK_EQ(doca_task_get_user_data(gt).u64, 0xC0FFEE);
	doca_dma_task_memcpy_set_src(t, s2);
	doca_dma_task_memcpy_set_dst(t, d2);
	doca_task_set_user_data(gt, ud2);
	CHECK(doca_dma_task_memcpy_get_src(t) == s2);
	CHECK(doca_dma_task_memcpy_get_dst(t) == d2);
	CHECK_EQ(doca_task_get_user_data(gt).u64, 77);
	CHECK_ERR(doca_task_submit(gt), DOCA_SUCCESS);
	CHECK(pe_wait_count(f.pe, &f.c.ok, 1) == 0);
	CHECK(f.c.last_task == t);
	CHECK_ERR(doca_task_get_status(gt), DOCA_SUCCESS);
	CHECK(doca_dma_task_memcpy_get_src(t) == s2);
	CHECK(doca_dma_task_memcpy_get_dst(t) == d2);
	CHECK_MEM(f.arena + 8192, f.arena + 128, 128);
	CHECK(f.arena[4096] == GUARD);
	doca_task_free(gt);
	CHECK_ERR(doca_buf_dec_refcount(s1, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(s2, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d1, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_buf_dec_refcount(d2, NULL), DOCA_SUCCESS);
	return fix_close(&f);
}

/* ---- two contexts on one PE ---- */

/* Interleaves @n copies on each of two contexts of f->pe; each copy has its own slots. */
static int two_contexts(const char *pci2)
{
	enum { N = 200, SLOT = 2048 };
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.pci2 = pci2, .num_tasks = 256, .arena_len = 4 * N * SLOT};
	struct dma_counts c2 = {.check_order = true};
	struct doca_dma *dma2 = NULL;
	struct doca_dma *dmas[2];
	struct doca_buf **bufs;
	uint8_t *src, *dst, *img;
	uint64_t rng = 12000;
	size_t len[2 * N];

	if (fix_open(&f, &cfg))
		return 1;
	f.c.check_order = true;
	CHECK_ERR(dma_ctx_create(f.dev2 ? f.dev2 : f.dev, f.pe, 256, NULL, NULL, &c2, true, &dma2), DOCA_SUCCESS);
	dmas[0] = f.dma;
	dmas[1] = dma2;
	src = f.arena;
	dst = f.arena + 2 * N * SLOT;
	bufs = calloc(4 * N, sizeof(*bufs));
	img = malloc(2 * N * SLOT);
	CHECK(bufs != NULL && img != NULL);
	memset(dst, GUARD, 2 * N * SLOT);
	memset(img, GUARD, 2 * N * SLOT);
	for (size_t k = 0; k < 2 * N; k++) {
		len[k] = prng_range(&rng, 1, SLOT - GUARD_LEN);
		prng_fill(12000 + k, src + k * SLOT, len[k]);
		memcpy(img + k * SLOT, src + k * SLOT, len[k]);
		CHECK_ERR(fix_buf(&f, src + k * SLOT, len[k], src + k * SLOT, len[k], &bufs[2 * k]), DOCA_SUCCESS);
		CHECK_ERR(fix_buf(&f, dst + k * SLOT, SLOT - GUARD_LEN, dst + k * SLOT, 0, &bufs[2 * k + 1]),
			  DOCA_SUCCESS);
	}
	/* Copy k goes to context k % 2 as its (k / 2)-th task: A0 B0 A1 B1 ... */
	for (size_t k = 0; k < 2 * N; k++) {
		struct doca_dma_task_memcpy *t = NULL;
		union doca_data ud = {.u64 = k / 2};

		CHECK_ERR(doca_dma_task_memcpy_alloc_init(dmas[k % 2], bufs[2 * k], bufs[2 * k + 1], ud, &t),
			  DOCA_SUCCESS);
		CHECK_ERR(doca_task_submit(doca_dma_task_memcpy_as_task(t)), DOCA_SUCCESS);
		if (k % 7 == 6)
			doca_pe_progress(f.pe);
	}
	CHECK(pe_wait_count(f.pe, &f.c.ok, N) == 0);
	CHECK(pe_wait_count(f.pe, &c2.ok, N) == 0);
	CHECK_EQ(f.c.err + c2.err, 0);
	CHECK_EQ(f.c.order_errors + c2.order_errors, 0);
	CHECK(compare_area("destination slots", dst, img, 2 * N * SLOT) == 0);
	for (size_t k = 0; k < 2 * N; k++) {
		size_t dl = 0;

		CHECK_ERR(doca_buf_get_data_len(bufs[2 * k + 1], &dl), DOCA_SUCCESS);
		CHECK_EQ(dl, len[k]);
		CHECK_ERR(doca_buf_dec_refcount(bufs[2 * k], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(bufs[2 * k + 1], NULL), DOCA_SUCCESS);
	}
	free(bufs);
	free(img);
	if (dma_ctx_close(f.pe, dma2))
		return 1;
	return fix_close(&f);
}

static int test_two_contexts_one_device(void)
{
	return two_contexts(NULL);
}

static int test_two_contexts_two_devices(void)
{
	return two_contexts("03:00.1");
}

/* ---- stop and restart ---- */

static int small_copies(struct dma_fix *f, unsigned int n, uint64_t seed)
{
	for (unsigned int i = 0; i < n; i++)
		if (copy_sized(f, 1 + (seed + i * 131) % 5000, seed + i))
			return 1;
	return 0;
}

static int test_stop_restart(void)
{
	enum { N = 16 };
	struct dma_fix f;
	struct dma_fix_cfg cfg = {.num_tasks = N};
	struct doca_buf *s[N], *d[N];
	doca_error_t status[N];
	enum doca_ctx_states st;
	struct doca_dma_task_memcpy *t;

	if (fix_open(&f, &cfg))
		return 1;
	CHECK(counts_saw(&f.c, DOCA_CTX_STATE_IDLE, DOCA_CTX_STATE_RUNNING));
	if (small_copies(&f, 5, 13000))
		return 1;
	/* Nothing in flight, every task freed: the stop completes at once. */
	f.c.ntrans = 0;
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_get_state(f.ctx, &st), DOCA_SUCCESS);
	CHECK_EQ(st, DOCA_CTX_STATE_IDLE);
	CHECK(f.c.ntrans > 0 && f.c.trans_to[f.c.ntrans - 1] == DOCA_CTX_STATE_IDLE);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_SUCCESS); /* stopping a stopped context is harmless */
	/* Restart: the whole pool is usable again and copies work. */
	CHECK_ERR(doca_ctx_start(f.ctx), DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_get_state(f.ctx, &st), DOCA_SUCCESS);
	CHECK_EQ(st, DOCA_CTX_STATE_RUNNING);
	if (small_copies(&f, 5, 13100))
		return 1;
	/* Stop with N tasks in flight: IN_PROGRESS, then all flushed through the error callback. */
	for (int i = 0; i < N; i++) {
		status[i] = DOCA_SUCCESS;
		prng_fill(13200 + i, f.arena + i * 4096, 1000);
		CHECK_ERR(fix_buf(&f, f.arena + i * 4096, 1000, f.arena + i * 4096, 1000, &s[i]), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_inventory_buf_get_by_addr(f.inv, f.mmap, f.arena + 131072 + i * 4096, 1000, &d[i]),
			  DOCA_SUCCESS);
	}
	f.c.status = status;
	f.c.nstatus = N;
	size_t ok0 = f.c.ok;

	for (int i = 0; i < N; i++)
		CHECK_ERR(fix_submit(&f, s[i], d[i], (uint64_t)i, NULL), DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_ERR(doca_ctx_get_state(f.ctx, &st), DOCA_SUCCESS);
	CHECK_EQ(st, DOCA_CTX_STATE_STOPPING);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	{
		union doca_data ud = {.u64 = 99};

		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s[0], d[0], ud, &t), DOCA_ERROR_BAD_STATE);
	}
	CHECK(pe_wait_state(f.pe, f.ctx, DOCA_CTX_STATE_IDLE) == 0);
	CHECK_EQ(f.c.ok, ok0);
	CHECK_EQ(f.c.err, N);
	for (int i = 0; i < N; i++) {
		if (status[i] != DOCA_ERROR_IO_FAILED) {
			fprintf(stderr, "  flushed task %d completed with %s, expected DOCA_ERROR_IO_FAILED\n", i,
				doca_error_get_name(status[i]));
			return 1;
		}
	}
	f.c.status = NULL;
	/* And once more: start, with the whole pool allocatable again, and copy. */
	CHECK_ERR(doca_ctx_start(f.ctx), DOCA_SUCCESS);
	{
		struct doca_dma_task_memcpy *all[N + 1];
		union doca_data ud = {.u64 = 0};

		for (int i = 0; i < N; i++)
			CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s[i], d[i], ud, &all[i]), DOCA_SUCCESS);
		CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, s[0], d[0], ud, &all[N]), DOCA_ERROR_NO_MEMORY);
		for (int i = 0; i < N; i++)
			doca_task_free(doca_dma_task_memcpy_as_task(all[i]));
	}
	for (int i = 0; i < N; i++) {
		CHECK_ERR(doca_buf_dec_refcount(s[i], NULL), DOCA_SUCCESS);
		CHECK_ERR(doca_buf_dec_refcount(d[i], NULL), DOCA_SUCCESS);
	}
	if (small_copies(&f, 5, 13300))
		return 1;
	return fix_close(&f);
}

/* ---- independent PEs on parallel threads ---- */

struct pe_thread {
	pthread_t tid;
	unsigned int index;
	int rc;
};

static void *pe_thread_main(void *arg)
{
	struct pe_thread *pt = arg;
	struct dma_fix f;
	struct dma_fix_cfg cfg = {
	    .ok_cb = stream_ok_cb,
	    .err_cb = stream_err_cb,
	    .num_tasks = 64,
	    .arena_len = stream_arena_len(64, 3000, 256 * 1024),
	};

	pt->rc = fix_open(&f, &cfg);
	if (pt->rc == 0)
		pt->rc = stream_run(&f, 2000, 64, 3000, 256 * 1024, 14000 + pt->index, NULL);
	if (pt->rc == 0)
		pt->rc = fix_close(&f);
	return NULL;
}

static int test_parallel_pes(void)
{
	struct pe_thread t[2];

	for (unsigned int i = 0; i < 2; i++) {
		t[i].index = i;
		t[i].rc = 1;
		CHECK(pthread_create(&t[i].tid, NULL, pe_thread_main, &t[i]) == 0);
	}
	for (unsigned int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i].tid, NULL) == 0);
	CHECK_EQ(t[0].rc, 0);
	CHECK_EQ(t[1].rc, 0);
	return 0;
}

static const struct test_case cases[] = {
    {"sizes", test_sizes},
    {"dst_data_offset", test_dst_data_offset},
    {"src_window_in_middle", test_src_window_in_middle},
    {"sg_src_list", test_sg_src_list},
    {"sg_dst_list", test_sg_dst_list},
    {"sg_both_lists", test_sg_both_lists},
    {"sg_large", test_sg_large},
    {"sg_unreached_dst_elements", test_sg_unreached_dst_elements},
    {"1000_in_flight", test_1000_in_flight},
    {"resubmit_from_callback", test_resubmit_from_callback},
    {"try_submit_valid", test_try_submit_valid},
    {"accessor_round_trips", test_accessor_round_trips},
    {"two_contexts_one_device", test_two_contexts_one_device},
    {"two_contexts_two_devices", test_two_contexts_two_devices},
    {"stop_restart", test_stop_restart},
    {"parallel_pes", test_parallel_pes},
};

int main(void)
{
	/* Hermetic: the default topology, no injected faults. */
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	if (log_capture_init())
		return T_EXIT_FAIL;
	return run_cases("dma-conformance", cases, sizeof(cases) / sizeof(cases[0]));
}
