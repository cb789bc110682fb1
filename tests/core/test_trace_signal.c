/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_trace_signal.c - SOFTDOCA_TRACE is written when a program is stopped by SIGINT, SIGTERM
 * or abort(), not only at exit, and a program's own signal handlers are left alone.
 *
 * Each case runs in a child that traces a few DMA copies and then dies by the signal; the
 * parent checks the child died by that very signal (the default disposition was restored and
 * the signal raised again) and that the trace file holds the copies.
 *
 * Then SIGTERM is sent, RUNS times, to a traced child that allocates and frees on four threads:
 * a signal that lands inside malloc() must neither hang the process (each child has a deadline,
 * after which it is killed and the run fails) nor spoil the trace (valid JSON with the copies).
 */
#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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

#define RUNS	      40
#define DEADLINE_MS   30000 /* a child that has not died by then hung */
#define NB_ALLOCATORS 3	    /* threads besides the main one */

/* Allocates and frees for ever: where a signal is most likely to land inside malloc(). */
static void *allocate_forever(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;

	for (;;) {
		size_t len = 16 + (size_t)(rand_r(&seed) % 4096);
		char *p = malloc(len);

		if (p != NULL)
			p[len - 1] = 1;
		free(p);
	}
	return NULL;
}

/* The child of one run: traces copies, tells the parent through @ready_fd, then allocates. */
static void __attribute__((noreturn)) allocating_child(const char *path, int ready_fd)
{
	pthread_t t;

	sd_setenv("SOFTDOCA_TRACE", path);
	traced_copies();
	for (uintptr_t i = 1; i <= NB_ALLOCATORS; i++)
		if (pthread_create(&t, NULL, allocate_forever, (void *)i) != 0)
			_exit(98);
	if (write(ready_fd, "r", 1) != 1)
		_exit(97);
	allocate_forever((void *)(uintptr_t)0);
	_exit(99); /* not reached */
}

/* The trace at @path parses as JSON and holds the 4 copies; false (and why on stderr) if not. */
static bool trace_valid(const char *path, int run)
{
	struct json_object *root = json_object_from_file(path), *events;
	size_t tasks = 0;

	if (root == NULL || !json_object_object_get_ex(root, "traceEvents", &events) ||
	    !json_object_is_type(events, json_type_array)) {
		fprintf(stderr, "run %d: the trace is not valid JSON with traceEvents: %s\n", run,
			root == NULL ? json_util_get_last_err() : "no traceEvents array");
		json_object_put(root);
		return false;
	}
	for (size_t i = 0; i < json_object_array_length(events); i++) {
		struct json_object *e = json_object_array_get_idx(events, i), *ph, *name;

		if (json_object_object_get_ex(e, "ph", &ph) && json_object_object_get_ex(e, "name", &name) &&
		    strcmp(json_object_get_string(ph), "b") == 0 && strcmp(json_object_get_string(name), "task") == 0)
			tasks++;
	}
	json_object_put(root);
	if (tasks != 4) {
		fprintf(stderr, "run %d: the trace holds %zu task(s), not 4\n", run, tasks);
		return false;
	}
	return true;
}

/* Waits for @pid until @deadline_ms (sd_now_ms()); SIGKILLs it then. True if it ended by itself. */
static bool reap_by(pid_t pid, uint64_t deadline_ms, int *st)
{
	for (;;) {
		pid_t r = waitpid(pid, st, WNOHANG);
		struct timespec ms = {0, 1000000};

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR) {
			fprintf(stderr, "waitpid: %s\n", strerror(errno));
			exit(T_EXIT_FAIL);
		}
		if (sd_now_ms() >= deadline_ms) {
			kill(pid, SIGKILL);
			while (waitpid(pid, st, 0) != pid && errno == EINTR)
				;
			return false;
		}
		nanosleep(&ms, NULL);
	}
}

/* RUNS children allocating on four threads, each sent SIGTERM: every one must end and leave a
 * valid trace. The first that does not fails the test. */
static int sigterm_while_allocating(const char *path)
{
	for (int run = 0; run < RUNS; run++) {
		int fds[2], st;
		char c;
		struct pollfd pfd;
		pid_t pid;

		CHECK(pipe(fds) == 0);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			allocating_child(path, fds[1]);
		}
		close(fds[1]);
		pfd = (struct pollfd){.fd = fds[0], .events = POLLIN};
		if (poll(&pfd, 1, DEADLINE_MS) != 1 || read(fds[0], &c, 1) != 1) {
			fprintf(stderr, "run %d: the child never started allocating\n", run);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return T_EXIT_FAIL;
		}
		close(fds[0]);
		kill(pid, SIGTERM);
		if (!reap_by(pid, sd_now_ms() + DEADLINE_MS, &st)) {
			fprintf(stderr, "run %d of %d: SIGTERM hung the traced process (killed after %d ms)\n", run + 1,
				RUNS, DEADLINE_MS);
			return T_EXIT_FAIL;
		}
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGTERM) {
			fprintf(stderr, "run %d: the child did not die by SIGTERM (status 0x%x)\n", run + 1, st);
			return T_EXIT_FAIL;
		}
		if (!trace_valid(path, run + 1))
			return T_EXIT_FAIL;
		unlink(path);
	}
	return T_EXIT_PASS;
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
	if (sigterm_while_allocating(path) != T_EXIT_PASS)
		return T_EXIT_FAIL;
	printf("test_trace_signal: ok\n");
	return T_EXIT_PASS;
}
