/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mt_stress.c - 200000 small copies through the cpu engine with a queue of 256 entries.
 *
 * Two application threads, each with its own PE and DMA context (on the same device), stream
 * 100000 copies each with 512 tasks in flight, so the engine queue (depth 256, from a config
 * profile) fills and submits answer AGAIN, which the stream retries after progress. Every copy
 * is checked in its completion callback: bytes, the guard after it, data_len, and delivery in
 * submission order. Suite 'stress' only.
 */
#include <pthread.h>

#include "dma_test.h"

enum { THREADS = 2, PER_THREAD = 100000, WINDOW = 512, MAX_LEN = 256, SRC_LEN = 64 * 1024 };

struct worker {
	pthread_t tid;
	unsigned int index;
	int rc;
	struct stream stats;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct dma_fix f;
	struct dma_fix_cfg cfg = {
	    .ok_cb = stream_ok_cb,
	    .err_cb = stream_err_cb,
	    .num_tasks = WINDOW,
	    .arena_len = stream_arena_len(WINDOW, MAX_LEN, SRC_LEN),
	    .num_bufs = 2 * WINDOW,
	};

	w->rc = fix_open(&f, &cfg);
	if (w->rc == 0)
		w->rc = stream_run(&f, PER_THREAD, WINDOW, MAX_LEN, SRC_LEN, 0x5EED0000u + w->index, &w->stats);
	if (w->rc == 0)
		w->rc = fix_close(&f);
	return NULL;
}

int main(void)
{
	static const char config[] = "[profile default]\n"
				     "queue_depth = 256\n";
	struct worker w[THREADS];
	int rc = T_EXIT_PASS;
	char *path;

	/* Before the first DOCA call: SOFTDOCA_CONFIG and SOFTDOCA_ENGINE are read once. */
	path = sd_tmpfile("dma-mt-stress", config);
	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_ENGINE", "cpu");
	sd_setenv("SOFTDOCA_FAULT", NULL);
	if (log_capture_init())
		return T_EXIT_FAIL;
	printf("dma-mt-stress: %d threads x %d copies of 1..%d bytes, %d in flight, queue depth 256, engine cpu\n",
	       THREADS, PER_THREAD, MAX_LEN, WINDOW);
	for (unsigned int i = 0; i < THREADS; i++) {
		w[i].index = i;
		w[i].rc = T_EXIT_FAIL;
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]) != 0) {
			perror("pthread_create");
			return T_EXIT_FAIL;
		}
	}
	for (unsigned int i = 0; i < THREADS; i++) {
		pthread_join(w[i].tid, NULL);
		printf("thread %u: %s, %llu copies, %llu submits answered AGAIN\n", i, w[i].rc ? "FAILED" : "ok",
		       (unsigned long long)w[i].stats.done, (unsigned long long)w[i].stats.again);
		if (w[i].rc)
			rc = T_EXIT_FAIL;
	}
	free(path);
	return rc;
}
