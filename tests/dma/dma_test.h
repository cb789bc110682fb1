/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_test.h - helpers shared by the DMA tests (public API only).
 *
 * - The checks of ../common/sd_test.h return 1 from the calling test function (SD_CHECK_FAIL),
 *   so run_cases() goes on with the next case.
 * - A fixed-seed PRNG (splitmix64) fills sources, so every run copies the same bytes.
 * - A fixture: device (03:00.0 by default), PE, one mmap over a private arena with
 *   LOCAL_READ_WRITE and the device added, a buf inventory, a started DMA context whose user
 *   data is a struct dma_counts the default callbacks update.
 * - pe_wait_*: progress until a counter or a state is reached; after 10 s of wall clock the
 *   wait fails the test instead of hanging it.
 * - SDK log capture: a memfd SDK backend (plus one on stderr, so a failing test shows the
 *   library's lines); log_line_has() looks for one line written after a mark that contains
 *   every given word.
 *
 * Layout checks use whole-area images: a test fills a destination area (its bufs and the bytes
 * around them) with GUARD, computes the image the copy must leave and compares the whole area,
 * so a byte written one past a window is as visible as a byte missing inside it.
 */
#ifndef DMA_TEST_H_
#define DMA_TEST_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define SD_CHECK_FAIL() return T_EXIT_FAIL
#include "../common/sd_test.h"

/* Destination bytes nobody may write; source bytes outside the data windows. */
#define GUARD 0xA5
#define FENCE 0x5A
/* Guard bytes kept around every destination window. */
#define GUARD_LEN     64
#define WAIT_LIMIT_NS (10ull * 1000000000ull)

/* ---- PRNG ---- */

static inline uint64_t prng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static inline size_t prng_range(uint64_t *s, size_t lo, size_t hi)
{
	return lo + (size_t)(prng_next(s) % (uint64_t)(hi - lo + 1));
}

static inline void prng_fill(uint64_t seed, void *buf, size_t len)
{
	uint8_t *p = buf;
	uint64_t s = seed;

	while (len >= 8) {
		uint64_t v = prng_next(&s);

		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len > 0) {
		uint64_t v = prng_next(&s);

		memcpy(p, &v, len);
	}
}

/* 0 when @got equals @want, else 1 after saying where they differ. */
static inline int compare_area(const char *what, const uint8_t *got, const uint8_t *want, size_t len)
{
	size_t i = sd_first_diff(got, want, len);

	if (i == len)
		return 0;
	fprintf(stderr, "  %s: byte %zu of %zu is 0x%02x, expected 0x%02x\n", what, i, len, got[i], want[i]);
	return 1;
}

/* ---- SDK log capture ---- */

static int log_fd = -1;

/* Call first thing in main(): later lines land in the capture. */
static inline int log_capture_init(void)
{
	struct doca_log_backend *be = NULL, *err_be = NULL;

	log_fd = memfd_create("dma-test-sdk-log", MFD_CLOEXEC);
	if (log_fd < 0) {
		perror("memfd_create");
		return 1;
	}
	if (doca_log_backend_create_with_fd_sdk(log_fd, &be) != DOCA_SUCCESS ||
	    doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &err_be) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot create the SDK log backends\n");
		return 1;
	}
	return 0;
}

/* Where the next SDK line will start. */
static inline off_t log_mark(void)
{
	return lseek(log_fd, 0, SEEK_END);
}

/* What was logged since @mark, NUL-terminated; free() it. */
static inline char *log_since(off_t mark)
{
	off_t end = lseek(log_fd, 0, SEEK_END);
	size_t len = end > mark ? (size_t)(end - mark) : 0;
	char *text = malloc(len + 1);
	size_t got = 0;

	if (text == NULL)
		return NULL;
	while (got < len) {
		ssize_t n = pread(log_fd, text + got, len - got, mark + (off_t)got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	text[got] = '\0';
	return text;
}

/* True when one line logged since @mark contains every word (list ends with NULL). */
static inline bool __attribute__((sentinel)) log_line_has(off_t mark, ...)
{
	char *text = log_since(mark);
	bool found = false;

	if (text == NULL)
		return false;
	for (char *line = text; line != NULL && *line != '\0' && !found;) {
		char *nl = strchr(line, '\n');
		const char *w;
		va_list ap;

		if (nl != NULL)
			*nl = '\0';
		found = true;
		va_start(ap, mark);
		while ((w = va_arg(ap, const char *)) != NULL)
			if (strstr(line, w) == NULL)
				found = false;
		va_end(ap);
		line = nl != NULL ? nl + 1 : NULL;
	}
	if (!found) {
		char *again = log_since(mark);

		fprintf(stderr, "  SDK log since the mark:\n%s  (end of log)\n", again ? again : "");
		free(again);
	}
	free(text);
	return found;
}

#define CHECK_LOG(mark, ...)                                                                                           \
	do {                                                                                                           \
		if (!log_line_has((mark), __VA_ARGS__, (const char *)NULL)) {                                          \
			fprintf(stderr, "%s:%d: no SDK log line contains all of: %s\n", __FILE__, __LINE__,            \
				#__VA_ARGS__);                                                                         \
			SD_CHECK_FAIL();                                                                               \
		}                                                                                                      \
	} while (0)

/* ---- contexts and callbacks ---- */

#define MAX_TRANSITIONS 16

/* Context user data of every test context; the default callbacks update it. */
struct dma_counts {
	size_t ok;	     /* completion callbacks */
	size_t err;	     /* error callbacks */
	uint64_t next_ud;    /* task user data the next callback must carry */
	size_t order_errors; /* callbacks out of submission order */
	bool check_order;    /* user data = submission index, check it */
	bool keep_tasks;     /* do not free tasks in the callbacks */
	doca_error_t last_err;
	doca_error_t *status; /* optional: status by task user data */
	size_t nstatus;
	struct doca_dma_task_memcpy *last_task;
	/* State changes seen by the state callback. */
	unsigned int ntrans;
	enum doca_ctx_states trans_from[MAX_TRANSITIONS];
	enum doca_ctx_states trans_to[MAX_TRANSITIONS];
	void *priv;
};

static inline void counts_record(struct dma_counts *c, struct doca_dma_task_memcpy *task, union doca_data ud,
				 doca_error_t status)
{
	if (c->check_order) {
		if (ud.u64 != c->next_ud) {
			if (c->order_errors++ == 0)
				fprintf(stderr, "  callback for task %llu, expected task %llu\n",
					(unsigned long long)ud.u64, (unsigned long long)c->next_ud);
		}
		c->next_ud = ud.u64 + 1;
	}
	if (c->status != NULL && ud.u64 < c->nstatus)
		c->status[ud.u64] = status;
	c->last_task = task;
	if (!c->keep_tasks)
		doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static inline void dma_ok_cb(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data ctx_ud)
{
	struct dma_counts *c = ctx_ud.ptr;
	doca_error_t st = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	counts_record(c, task, ud, st);
	c->ok++;
}

static inline void dma_err_cb(struct doca_dma_task_memcpy *task, union doca_data ud, union doca_data ctx_ud)
{
	struct dma_counts *c = ctx_ud.ptr;
	doca_error_t st = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	c->last_err = st;
	counts_record(c, task, ud, st);
	c->err++;
}

static inline void dma_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
				enum doca_ctx_states next)
{
	struct dma_counts *c = ud.ptr;

	(void)ctx;
	if (c != NULL && c->ntrans < MAX_TRANSITIONS) {
		c->trans_from[c->ntrans] = prev;
		c->trans_to[c->ntrans] = next;
		c->ntrans++;
	}
}

/* True when the state callback reported @from -> @to. */
static inline bool counts_saw(const struct dma_counts *c, enum doca_ctx_states from, enum doca_ctx_states to)
{
	for (unsigned int i = 0; i < c->ntrans; i++)
		if (c->trans_from[i] == from && c->trans_to[i] == to)
			return true;
	return false;
}

/* A DMA context on @dev connected to @pe, configured, user data @c; started when @start. */
static inline doca_error_t dma_ctx_create(struct doca_dev *dev, struct doca_pe *pe, uint32_t num_tasks,
					  doca_dma_task_memcpy_completion_cb_t ok_cb,
					  doca_dma_task_memcpy_completion_cb_t err_cb, struct dma_counts *c, bool start,
					  struct doca_dma **out)
{
	struct doca_dma *dma = NULL;
	struct doca_ctx *ctx;
	union doca_data ud = {.ptr = c};
	doca_error_t ret;

	ret = doca_dma_create(dev, &dma);
	if (ret != DOCA_SUCCESS)
		return ret;
	ctx = doca_dma_as_ctx(dma);
	if ((ret = doca_pe_connect_ctx(pe, ctx)) != DOCA_SUCCESS ||
	    (ret = doca_ctx_set_state_changed_cb(ctx, dma_state_cb)) != DOCA_SUCCESS ||
	    (ret = doca_dma_task_memcpy_set_conf(dma, ok_cb ? ok_cb : dma_ok_cb, err_cb ? err_cb : dma_err_cb,
						 num_tasks)) != DOCA_SUCCESS ||
	    (ret = doca_ctx_set_user_data(ctx, ud)) != DOCA_SUCCESS ||
	    (start && (ret = doca_ctx_start(ctx)) != DOCA_SUCCESS)) {
		doca_dma_destroy(dma);
		return ret;
	}
	*out = dma;
	return DOCA_SUCCESS;
}

/* ---- progress ---- */

/* Progress until *@counter >= @target; 1 (after a message) when 10 s pass first. */
static inline int pe_wait_count(struct doca_pe *pe, const size_t *counter, size_t target)
{
	uint64_t start = sd_now_ns();
	unsigned int spins = 0;

	while (*counter < target) {
		doca_pe_progress(pe);
		if ((++spins & 0xff) == 0 && sd_now_ns() - start > WAIT_LIMIT_NS) {
			fprintf(stderr, "  gave up after 10 s: counter at %zu of %zu\n", *counter, target);
			return 1;
		}
	}
	return 0;
}

/* Progress until @ctx is in @state; 1 after 10 s. */
static inline int pe_wait_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states state)
{
	uint64_t start = sd_now_ns();
	enum doca_ctx_states s = DOCA_CTX_STATE_IDLE;

	for (;;) {
		if (doca_ctx_get_state(ctx, &s) != DOCA_SUCCESS)
			return 1;
		if (s == state)
			return 0;
		doca_pe_progress(pe);
		if (sd_now_ns() - start > WAIT_LIMIT_NS) {
			fprintf(stderr, "  gave up after 10 s: context in state %d, waiting for %d\n", (int)s,
				(int)state);
			return 1;
		}
	}
}

/* ---- the fixture ---- */

struct dma_fix_cfg {
	const char *pci;    /* default "03:00.0" */
	const char *pci2;   /* also open this device and add it to the mmap */
	size_t arena_len;   /* default 1 MiB */
	uint32_t num_tasks; /* default 64 */
	uint32_t num_bufs;  /* default 4096 */
	doca_dma_task_memcpy_completion_cb_t ok_cb, err_cb;
	bool no_start; /* leave the context IDLE */
};

struct dma_fix {
	struct doca_dev *dev, *dev2;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	uint8_t *arena;
	size_t arena_len;
	struct dma_counts c;
};

static inline int fix_open(struct dma_fix *f, const struct dma_fix_cfg *cfg_in)
{
	struct dma_fix_cfg cfg = cfg_in ? *cfg_in : (struct dma_fix_cfg){0};

	memset(f, 0, sizeof(*f));
	if (cfg.pci == NULL)
		cfg.pci = "03:00.0";
	if (cfg.arena_len == 0)
		cfg.arena_len = 1u << 20;
	if (cfg.num_tasks == 0)
		cfg.num_tasks = 64;
	if (cfg.num_bufs == 0)
		cfg.num_bufs = 4096;
	f->arena_len = cfg.arena_len;
	f->arena = aligned_alloc(4096, (cfg.arena_len + 4095) & ~(size_t)4095);
	CHECK(f->arena != NULL);
	memset(f->arena, GUARD, f->arena_len);
	CHECK_ERR(sd_dev_open(cfg.pci, &f->dev), DOCA_SUCCESS);
	if (cfg.pci2 != NULL)
		CHECK_ERR(sd_dev_open(cfg.pci2, &f->dev2), DOCA_SUCCESS);
	CHECK_ERR(doca_pe_create(&f->pe), DOCA_SUCCESS);
	CHECK_ERR(sd_mmap_create(f->arena, f->arena_len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, f->dev, f->dev2, &f->mmap),
		  DOCA_SUCCESS);
	CHECK_OK(sd_inventory_create(cfg.num_bufs, &f->inv));
	CHECK_ERR(dma_ctx_create(f->dev, f->pe, cfg.num_tasks, cfg.ok_cb, cfg.err_cb, &f->c, !cfg.no_start, &f->dma),
		  DOCA_SUCCESS);
	f->ctx = doca_dma_as_ctx(f->dma);
	return 0;
}

/* Stops (progressing until IDLE) and destroys a DMA context. */
static inline int dma_ctx_close(struct doca_pe *pe, struct doca_dma *dma)
{
	struct doca_ctx *ctx = doca_dma_as_ctx(dma);
	doca_error_t ret = doca_ctx_stop(ctx);

	if (ret == DOCA_ERROR_IN_PROGRESS && pe_wait_state(pe, ctx, DOCA_CTX_STATE_IDLE) != 0)
		return 1;
	CHECK(ret == DOCA_SUCCESS || ret == DOCA_ERROR_IN_PROGRESS);
	CHECK_ERR(doca_dma_destroy(dma), DOCA_SUCCESS);
	return 0;
}

/* Tears down; fails when a buf is still out (a test that leaked, or a refcount bug). */
static inline int fix_close(struct dma_fix *f)
{
	int rc = 0;

	if (f->dma != NULL)
		rc |= dma_ctx_close(f->pe, f->dma);
	if (f->pe != NULL && doca_pe_destroy(f->pe) != DOCA_SUCCESS)
		rc = 1;
	if (f->inv != NULL) {
		if (doca_buf_inventory_stop(f->inv) != DOCA_SUCCESS ||
		    doca_buf_inventory_destroy(f->inv) != DOCA_SUCCESS)
			rc = 1;
	}
	if (f->mmap != NULL && doca_mmap_destroy(f->mmap) != DOCA_SUCCESS)
		rc = 1;
	if (f->dev2 != NULL && doca_dev_close(f->dev2) != DOCA_SUCCESS)
		rc = 1;
	if (f->dev != NULL && doca_dev_close(f->dev) != DOCA_SUCCESS)
		rc = 1;
	free(f->arena);
	memset(f, 0, sizeof(*f));
	if (rc)
		fprintf(stderr, "  fixture teardown failed\n");
	return rc;
}

static inline doca_error_t fix_buf(struct dma_fix *f, void *addr, size_t len, void *data, size_t data_len,
				   struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(f->inv, f->mmap, addr, len, data, data_len, buf);
}

/* Allocates and submits one memcpy task with user data @ud. */
static inline doca_error_t fix_submit(struct dma_fix *f, struct doca_buf *src, struct doca_buf *dst, uint64_t ud,
				      struct doca_dma_task_memcpy **out)
{
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data d = {.u64 = ud};
	doca_error_t ret;

	ret = doca_dma_task_memcpy_alloc_init(f->dma, src, dst, d, &t);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_task_submit(doca_dma_task_memcpy_as_task(t));
	if (ret != DOCA_SUCCESS) {
		doca_task_free(doca_dma_task_memcpy_as_task(t));
		return ret;
	}
	if (out != NULL)
		*out = t;
	return DOCA_SUCCESS;
}

/* ---- a stream of small copies (parallel and stress tests) ---- */

/*
 * @window tasks, each bound to one slot, copy task after task: the completion callback checks
 * the copy (bytes, guard after it, data_len), then resubmits the same task with index
 * i + window. Task i copies len(i) bytes from src + off(i) into its slot. A submit that
 * returns AGAIN (queue full) is parked and retried by the main loop after progress, as an
 * application must. Delivery order is checked against submission order.
 */
struct stream {
	struct dma_fix *f;
	uint64_t total;
	uint32_t window;
	size_t max_len;
	uint64_t seed;
	uint8_t *src;
	size_t src_len;
	uint8_t *dst;
	size_t stride;
	struct doca_buf **sbuf, **dbuf;
	struct doca_dma_task_memcpy **task;
	uint64_t *seq_of_slot;
	uint64_t submit_seq, deliver_seq;
	struct doca_dma_task_memcpy **pending; /* ring of @window */
	uint32_t pend_head, pend_count;
	uint64_t done, bad, order_errors, errors, again;
};

static inline uint64_t stream_mix(const struct stream *s, uint64_t i, uint64_t k)
{
	uint64_t st = s->seed ^ (i * 0x100000001B3ull) ^ k;

	return prng_next(&st);
}

static inline size_t stream_len(const struct stream *s, uint64_t i)
{
	return 1 + (size_t)(stream_mix(s, i, 1) % s->max_len);
}

static inline size_t stream_off(const struct stream *s, uint64_t i)
{
	return (size_t)(stream_mix(s, i, 2) % (s->src_len - s->max_len));
}

/* Points task @t (slot i % window) at copy @i and submits it (or parks it on AGAIN). */
static inline void stream_submit(struct stream *s, struct doca_dma_task_memcpy *t, uint64_t i)
{
	uint32_t slot = (uint32_t)(i % s->window);
	struct doca_task *task = doca_dma_task_memcpy_as_task(t);
	doca_error_t ret;

	union doca_data ud = {.u64 = i};

	if (doca_buf_set_data(s->sbuf[slot], s->src + stream_off(s, i), stream_len(s, i)) != DOCA_SUCCESS ||
	    doca_buf_reset_data_len(s->dbuf[slot]) != DOCA_SUCCESS) {
		s->bad++;
		s->done++;
		doca_task_free(task);
		return;
	}
	doca_dma_task_memcpy_set_src(t, s->sbuf[slot]);
	doca_dma_task_memcpy_set_dst(t, s->dbuf[slot]);
	doca_task_set_user_data(task, ud);
	ret = doca_task_submit(task);
	if (ret == DOCA_SUCCESS) {
		s->seq_of_slot[slot] = s->submit_seq++;
		return;
	}
	if (ret == DOCA_ERROR_AGAIN) {
		s->again++;
		s->pending[(s->pend_head + s->pend_count++) % s->window] = t;
		return;
	}
	if (s->errors++ == 0)
		fprintf(stderr, "  submit of copy %llu: %s\n", (unsigned long long)i, doca_error_get_name(ret));
	s->done++;
	doca_task_free(task);
}

static inline void stream_ok_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	struct stream *s = ((struct dma_counts *)ctx_ud.ptr)->priv;
	uint64_t i = ud.u64;
	uint32_t slot = (uint32_t)(i % s->window);
	uint8_t *d = s->dst + (size_t)slot * s->stride;
	size_t len = stream_len(s, i), got_len = 0;
	bool good = true;

	if (s->seq_of_slot[slot] != s->deliver_seq && s->order_errors++ == 0)
		fprintf(stderr, "  copy %llu delivered out of submission order\n", (unsigned long long)i);
	s->deliver_seq++;
	if (memcmp(d, s->src + stream_off(s, i), len) != 0)
		good = false;
	for (size_t k = len; k < s->stride; k++)
		if (d[k] != GUARD)
			good = false;
	if (doca_buf_get_data_len(s->dbuf[slot], &got_len) != DOCA_SUCCESS || got_len != len)
		good = false;
	if (!good && s->bad++ == 0)
		fprintf(stderr, "  copy %llu (%zu bytes, slot %u) is wrong (data_len %zu)\n", (unsigned long long)i,
			len, slot, got_len);
	memset(d, GUARD, len);
	s->done++;
	if (i + s->window < s->total)
		stream_submit(s, t, i + s->window);
	else
		doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static inline void stream_err_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	struct stream *s = ((struct dma_counts *)ctx_ud.ptr)->priv;

	if (s->errors++ == 0)
		fprintf(stderr, "  copy %llu failed: %s\n", (unsigned long long)ud.u64,
			doca_error_get_name(doca_task_get_status(doca_dma_task_memcpy_as_task(t))));
	s->deliver_seq++;
	s->done++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

/* Arena size a stream needs in its fixture. */
static inline size_t stream_arena_len(uint32_t window, size_t max_len, size_t src_len)
{
	return src_len + (size_t)window * (max_len + GUARD_LEN);
}

/*
 * Runs @total copies through @f (opened with stream_ok_cb/stream_err_cb, at least @window
 * tasks and stream_arena_len() bytes of arena). 0 when every copy was right.
 */
static inline int stream_run(struct dma_fix *f, uint64_t total, uint32_t window, size_t max_len, size_t src_len,
			     uint64_t seed, struct stream *out_stats)
{
	struct stream s = {0};
	uint64_t last_done = 0, last_change;
	int rc = 1;

	s.f = f;
	s.total = total;
	s.window = window;
	s.max_len = max_len;
	s.seed = seed;
	s.src = f->arena;
	s.src_len = src_len;
	s.dst = f->arena + src_len;
	s.stride = max_len + GUARD_LEN;
	CHECK(stream_arena_len(window, max_len, src_len) <= f->arena_len);
	s.sbuf = calloc(window, sizeof(*s.sbuf));
	s.dbuf = calloc(window, sizeof(*s.dbuf));
	s.task = calloc(window, sizeof(*s.task));
	s.seq_of_slot = calloc(window, sizeof(*s.seq_of_slot));
	s.pending = calloc(window, sizeof(*s.pending));
	if (s.sbuf == NULL || s.dbuf == NULL || s.task == NULL || s.seq_of_slot == NULL || s.pending == NULL)
		goto out;
	prng_fill(seed, s.src, src_len);
	memset(s.dst, GUARD, (size_t)window * s.stride);
	f->c.priv = &s;
	for (uint32_t k = 0; k < window; k++) {
		uint8_t *d = s.dst + (size_t)k * s.stride;

		if (fix_buf(f, s.src, src_len, s.src, 1, &s.sbuf[k]) != DOCA_SUCCESS ||
		    fix_buf(f, d, max_len, d, 0, &s.dbuf[k]) != DOCA_SUCCESS)
			goto out;
	}
	for (uint32_t k = 0; k < window && k < total; k++) {
		union doca_data ud = {.u64 = k};

		if (doca_dma_task_memcpy_alloc_init(f->dma, s.sbuf[k], s.dbuf[k], ud, &s.task[k]) != DOCA_SUCCESS)
			goto out;
		stream_submit(&s, s.task[k], k);
	}
	last_change = sd_now_ns();
	while (s.done < total) {
		doca_pe_progress(f->pe);
		while (s.pend_count > 0) {
			struct doca_dma_task_memcpy *t = s.pending[s.pend_head];
			uint64_t i = doca_task_get_user_data(doca_dma_task_memcpy_as_task(t)).u64;
			doca_error_t ret = doca_task_submit(doca_dma_task_memcpy_as_task(t));

			if (ret == DOCA_ERROR_AGAIN) {
				s.again++;
				break;
			}
			s.pend_head = (s.pend_head + 1) % window;
			s.pend_count--;
			if (ret == DOCA_SUCCESS) {
				s.seq_of_slot[i % window] = s.submit_seq++;
				continue;
			}
			if (s.errors++ == 0)
				fprintf(stderr, "  resubmit of copy %llu: %s\n", (unsigned long long)i,
					doca_error_get_name(ret));
			s.done++;
			doca_task_free(doca_dma_task_memcpy_as_task(t));
		}
		if (s.done != last_done) {
			last_done = s.done;
			last_change = sd_now_ns();
		} else if (sd_now_ns() - last_change > WAIT_LIMIT_NS) {
			fprintf(stderr, "  no copy completed for 10 s (%llu of %llu done)\n",
				(unsigned long long)s.done, (unsigned long long)total);
			goto out;
		}
	}
	rc = (s.bad || s.order_errors || s.errors) ? 1 : 0;
	if (rc)
		fprintf(stderr, "  stream: %llu wrong copies, %llu out of order, %llu errors\n",
			(unsigned long long)s.bad, (unsigned long long)s.order_errors, (unsigned long long)s.errors);
out:
	for (uint32_t k = 0; k < window; k++) {
		if (s.sbuf != NULL && s.sbuf[k] != NULL)
			doca_buf_dec_refcount(s.sbuf[k], NULL);
		if (s.dbuf != NULL && s.dbuf[k] != NULL)
			doca_buf_dec_refcount(s.dbuf[k], NULL);
	}
	f->c.priv = NULL;
	if (out_stats != NULL)
		*out_stats = s;
	free(s.sbuf);
	free(s.dbuf);
	free(s.task);
	free(s.seq_of_slot);
	free(s.pending);
	return rc;
}

/* ---- test runner ---- */

struct test_case {
	const char *name;
	int (*fn)(void);
};

static inline int run_cases(const char *prog, const struct test_case *cases, size_t n)
{
	const char *engine = getenv("SOFTDOCA_ENGINE");
	int failed = 0;

	printf("%s: engine %s\n", prog, engine && *engine ? engine : "(default)");
	for (size_t i = 0; i < n; i++) {
		int rc;

		printf("%-40s ...\n", cases[i].name);
		fflush(stdout);
		rc = cases[i].fn();
		printf("%-40s %s\n", cases[i].name, rc == 0 ? "ok" : rc == T_EXIT_SKIP ? "skipped" : "FAILED");
		fflush(stdout);
		if (rc != 0 && rc != T_EXIT_SKIP)
			failed++;
	}
	printf("%s: %d of %zu failed\n", prog, failed, n);
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}

#endif /* DMA_TEST_H_ */
