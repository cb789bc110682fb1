/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * soak.c - long verified runs: mixed-size copies on every engine, checked one by one.
 *
 *   dma_soak [--tasks N] [--engines inline,cpu,auto] [--max-len BYTES] [--window W]
 *
 * Each engine runs in a child process of its own (the engine is chosen once per process):
 * N copies of 1..max-len bytes (default 64 KiB, a mix of sizes from one byte up) with W in
 * flight, every copy checked in its callback (bytes, the guard after them, data_len, and
 * delivery in submission order), AGAIN retried as an application must. At the end each child
 * prints tasks, bytes, mismatches and its peak RSS; the exit status is 0 only when every copy
 * of every engine verified. `--tasks 100000000` is the soak run; the stress suite runs a short
 * one. See docs/performance.md, "Benchmarks".
 */
#include <inttypes.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "dma_test.h"
#include "sd_internal.h"

static int run_engine(const char *engine, uint64_t tasks, uint32_t window, size_t max_len)
{
	size_t src_len = 4 * max_len + 4096;
	struct dma_fix_cfg cfg = {
	    .ok_cb = stream_ok_cb,
	    .err_cb = stream_err_cb,
	    .num_tasks = window,
	    .arena_len = stream_arena_len(window, max_len, src_len),
	    .num_bufs = 2 * window,
	};
	struct stream st = {0};
	struct dma_fix f;
	struct rusage ru;
	uint64_t t0 = sd_now_ns();
	int rc;

	sd_setenv("SOFTDOCA_ENGINE", engine);
	if (fix_open(&f, &cfg) != 0)
		return T_EXIT_FAIL;
	rc = stream_run(&f, tasks, window, max_len, src_len, 0x50A4u, &st);
	if (fix_close(&f) != 0)
		rc = T_EXIT_FAIL;
	getrusage(RUSAGE_SELF, &ru);
	printf("soak[%s]: %" PRIu64 " copies verified, %" PRIu64 " bad, %" PRIu64 " out of order, %" PRIu64
	       " errors, %" PRIu64 " AGAIN, %.1f s, peak RSS %ld KiB\n",
	       engine, st.done - st.bad - st.errors, st.bad, st.order_errors, st.errors, st.again,
	       (double)(sd_now_ns() - t0) / 1e9, ru.ru_maxrss);
	return rc;
}

struct soak_run {
	const char *engine;
	uint64_t tasks;
	uint32_t window;
	size_t max_len;
};

static int soak_child(void *arg)
{
	const struct soak_run *r = arg;

	return run_engine(r->engine, r->tasks, r->window, r->max_len);
}

int main(int argc, char **argv)
{
	const char *engines = "inline,cpu,auto";
	uint64_t tasks = 200000;
	uint64_t max_len = 65536, window = 64;
	char list[64], *save = NULL;
	int rc = T_EXIT_PASS;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(argv[i], "--tasks") == 0 && v != NULL && priv_sd_parse_u64(v, 1, UINT64_C(1) << 40, &tasks) == 0)
			i++;
		else if (strcmp(argv[i], "--engines") == 0 && v != NULL && strlen(v) < sizeof(list))
			engines = argv[++i];
		else if (strcmp(argv[i], "--max-len") == 0 && v != NULL &&
			 priv_sd_parse_u64(v, 1, 16u << 20, &max_len) == 0)
			i++;
		else if (strcmp(argv[i], "--window") == 0 && v != NULL && priv_sd_parse_u64(v, 1, 4096, &window) == 0)
			i++;
		else {
			fprintf(stderr, "usage: %s [--tasks N] [--engines inline,cpu,auto] [--max-len BYTES] [--window W]\n",
				argv[0]);
			return 2;
		}
	}
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	if (log_capture_init())
		return T_EXIT_FAIL;
	snprintf(list, sizeof(list), "%s", engines);
	for (char *e = strtok_r(list, ",", &save); e != NULL; e = strtok_r(NULL, ",", &save)) {
		struct soak_run r = {.engine = e, .tasks = tasks, .window = (uint32_t)window, .max_len = (size_t)max_len};
		int status = check_run_child(soak_child, &r, e);

		if (status != 0) {
			fprintf(stderr, "soak[%s]: FAILED (exit status %d)\n", e, status);
			rc = T_EXIT_FAIL;
		}
	}
	return rc;
}
