/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_trace_signal.c - SOFTDOCA_TRACE is written when a program is stopped by SIGINT, SIGTERM
 * or abort(), not only at exit, and a program's own signal handlers are left alone.
 *
 * Each case runs in a child that traces a few DMA copies and then dies by the signal; the
 * parent checks the child died by that very signal (the default disposition was restored and
 * the signal raised again) and that the trace file holds the copies.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_buf_inventory.h>
#include <doca_dma.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "../common/sd_test.h"

static int done;

static void comp_cb(struct doca_dma_task_memcpy *t, union doca_data ud, union doca_data ctx_ud)
{
	(void)ud;
	(void)ctx_ud;
	done++;
	doca_task_free(doca_dma_task_memcpy_as_task(t));
}

static void own_handler(int sig)
{
	(void)sig;
}

/* Traces 4 copies through a started DMA context (which turns tracing on). */
static void traced_copies(void)
{
	static uint8_t src[4096];
	struct doca_dev *dev = sd_open_dma_dev();
	struct doca_mmap *m;
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;

	m = sd_mmap_local(dev, src, sizeof(src), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	inv = sd_inventory(16);
	pe = sd_pe();
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, comp_cb, comp_cb, 8));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	for (int i = 0; i < 4; i++) {
		struct doca_buf *s, *d;
		struct doca_dma_task_memcpy *t;
		union doca_data ud = {.u64 = (uint64_t)i};

		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, src + i * 512, 512, &s));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, src + 2048 + i * 512, 512, &d));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, s, d, ud, &t));
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	while (done < 4)
		doca_pe_progress(pe);
}

static void check_trace(const char *path, const char *what)
{
	char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL) {
		fprintf(stderr, "%s: no trace file was written\n", what);
		exit(T_EXIT_FAIL);
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strstr(buf, "\"traceEvents\"") == NULL || strstr(buf, "\"name\":\"task\"") == NULL) {
		fprintf(stderr, "%s: the trace holds no task\n", what);
		exit(T_EXIT_FAIL);
	}
	unlink(path);
}

int main(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGABRT};
	char path[PATH_MAX];

	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	snprintf(path, sizeof(path), "%s/t.json", sd_tmpdir());
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int st;
		pid_t pid = fork();

		CHECK(pid >= 0);
		if (pid == 0) {
			sd_setenv("SOFTDOCA_TRACE", path);
			traced_copies();
			if (sigs[i] == SIGABRT)
				abort();
			raise(sigs[i]);
			_exit(99); /* not reached */
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[i]) {
			fprintf(stderr, "signal %d: the child did not die by it (status 0x%x)\n", sigs[i], st);
			return T_EXIT_FAIL;
		}
		check_trace(path, strsignal(sigs[i]));
	}
	/* A program's own handler stays its own. */
	{
		int st;
		pid_t pid = fork();

		CHECK(pid >= 0);
		if (pid == 0) {
			struct sigaction sa = {.sa_handler = own_handler}, now;

			sigemptyset(&sa.sa_mask);
			sigaction(SIGINT, &sa, NULL);
			sd_setenv("SOFTDOCA_TRACE", path);
			traced_copies();
			sigaction(SIGINT, NULL, &now);
			exit(now.sa_handler == own_handler ? 0 : 1); /* exit(): atexit writes the trace */
		}
		CHECK(waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		check_trace(path, "exit with the program's own SIGINT handler");
	}
	printf("test_trace_signal: ok\n");
	return T_EXIT_PASS;
}
