/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace.c - the task trace ring and its Chrome trace-event JSON writer (see trace.h).
 *
 * Recording: one atomic fetch-add claims a slot of the ring, then the slot is filled; many
 * threads may record at once. The ring keeps the most recent events. Writing happens once, at
 * exit, when no thread records any more.
 *
 * Output: per context a track (tid), per task submission an async span ("b"/"e") from submit
 * to the end of its callback with nested "engine" and "callback" spans, instant events for
 * alloc and free, and an "inflight" counter per context for the queue depth over time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <doca_error.h>

#include "trace.h"

#define COMP	       "trace"
#define DEFAULT_EVENTS (1u << 20)

struct trace_rec {
	uint64_t ts_ns;
	uint64_t id;
	uint64_t a;
	uint32_t b;
	uint16_t ev;
	uint16_t ctx; /* small number per context, in order of appearance */
};

SD_PRIV bool priv_doca_trace_on;

static struct trace_rec *ring;
static uint64_t ring_size;
static atomic_uint_least64_t ring_next;
static char trace_path[4096];
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
/* Published entries never change: written under ctx_lock, then made visible by the
 * release-store of nb_ctx, so lookups read them without the lock. */
static const void *ctx_ids[256];
static char ctx_names[256][48];
static atomic_int nb_ctx;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint16_t ctx_index(const void *ctx)
{
	int i, n = atomic_load_explicit(&nb_ctx, memory_order_acquire);

	/* Contexts are few; the lookup is lock-free once a context has been seen. */
	for (i = 0; i < n; i++)
		if (ctx_ids[i] == ctx)
			return (uint16_t)i;
	pthread_mutex_lock(&ctx_lock);
	n = atomic_load_explicit(&nb_ctx, memory_order_relaxed);
	for (i = 0; i < n; i++)
		if (ctx_ids[i] == ctx)
			break;
	if (i == n && n < 256) {
		ctx_ids[n] = ctx;
		atomic_store_explicit(&nb_ctx, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&ctx_lock);
	return (uint16_t)(i < 256 ? i : 255);
}

SD_PRIV void priv_doca_trace_track(const void *key, const char *name)
{
	uint16_t i = ctx_index(key);

	pthread_mutex_lock(&ctx_lock);
	snprintf(ctx_names[i], sizeof(ctx_names[i]), "%s", name);
	pthread_mutex_unlock(&ctx_lock);
}

SD_PRIV void priv_doca_trace(enum trace_ev ev, const void *ctx, uint64_t id, uint64_t a, uint64_t b)
{
	uint64_t slot = atomic_fetch_add_explicit(&ring_next, 1, memory_order_relaxed);
	struct trace_rec *r = &ring[slot % ring_size];

	r->ts_ns = now_ns();
	r->id = id;
	r->a = a;
	r->b = (uint32_t)b;
	r->ev = (uint16_t)ev;
	r->ctx = ctx_index(ctx);
}

static void write_span(FILE *f, bool *first, const char *ph, const char *name, const struct trace_rec *r, double ts_us,
		       int pid, const char *args)
{
	fprintf(f,
		"%s\n{\"ph\":\"%s\",\"cat\":\"task\",\"name\":\"%s\",\"id\":\"0x%" PRIx64
		"\",\"ts\":%.3f,\"pid\":%d,\"tid\":%u%s%s}",
		*first ? "" : ",", ph, name, r->id, ts_us, pid, r->ctx, args ? ",\"args\":" : "", args ? args : "");
	*first = false;
}

static void trace_write(void)
{
	uint64_t n = atomic_load(&ring_next), start = n > ring_size ? n - ring_size : 0;
	int pid = (int)getpid();
	bool first = true;
	FILE *f;

	priv_doca_trace_on = false;
	{
		/* Non-blocking open (a FIFO with no reader fails instead of hanging the exit), and
		 * only a regular file is written. */
		int fd = open(trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0644);
		struct stat st;

		if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
			close(fd);
			fd = -1;
			errno = EINVAL;
		}
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (f == NULL) {
			SD_ERR(COMP, "SOFTDOCA_TRACE: cannot write %s: %s; name a regular file (or a new one)",
			       trace_path, errno == EINVAL ? "not a regular file" : strerror(errno));
			if (fd >= 0)
				close(fd);
			return;
		}
	}
	fprintf(f,
		"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"softdoca_events\":%" PRIu64 ",\"dropped\":%" PRIu64
		"},\"traceEvents\":[",
		n - start, start);
	for (int c = 0; c < nb_ctx; c++) {
		char label[64];

		if (ctx_names[c][0] != '\0')
			snprintf(label, sizeof(label), "%.40s (%d)", ctx_names[c], c);
		else
			snprintf(label, sizeof(label), "context %d", c);
		fprintf(f,
			"%s\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
			first ? "" : ",", pid, c, label);
		first = false;
	}
	for (uint64_t i = start; i < n; i++) {
		const struct trace_rec *r = &ring[i % ring_size];
		double ts = (double)r->ts_ns / 1000.0;
		char args[160];

		switch (r->ev) {
		case TR_ALLOC:
			write_span(f, &first, "n", "alloc", r, ts, pid, NULL);
			break;
		case TR_SUBMIT:
			snprintf(args, sizeof(args), "{\"bytes\":%" PRIu64 "}", r->a);
			write_span(f, &first, "b", "task", r, ts, pid, args);
			write_span(f, &first, "b", "engine", r, ts, pid, NULL);
			fprintf(f,
				",\n{\"ph\":\"C\",\"name\":\"inflight ctx "
				"%u\",\"ts\":%.3f,\"pid\":%d,\"args\":{\"inflight\":%u}}",
				r->ctx, ts, pid, r->b);
			break;
		case TR_ENGINE_DONE:
			write_span(f, &first, "e", "engine", r, ts, pid, NULL);
			fprintf(f,
				",\n{\"ph\":\"C\",\"name\":\"inflight ctx "
				"%u\",\"ts\":%.3f,\"pid\":%d,\"args\":{\"inflight\":%u}}",
				r->ctx, ts, pid, r->b);
			break;
		case TR_CB_START:
			snprintf(args, sizeof(args), "{\"status\":\"%s\"}", doca_error_get_name((doca_error_t)r->a));
			write_span(f, &first, "b", "callback", r, ts, pid, args);
			break;
		case TR_CB_END:
			write_span(f, &first, "e", "callback", r, ts, pid, NULL);
			write_span(f, &first, "e", "task", r, ts, pid, NULL);
			break;
		case TR_FREE:
			write_span(f, &first, "n", "free", r, ts, pid, NULL);
			break;
		case TR_ENGINE_BEGIN:
			snprintf(args, sizeof(args), "{\"bytes\":%" PRIu64 "}", r->a);
			write_span(f, &first, "b", "copy", r, ts, pid, args);
			break;
		case TR_ENGINE_END:
			write_span(f, &first, "e", "copy", r, ts, pid, NULL);
			break;
		default:
			break;
		}
	}
	fprintf(f, "\n]}\n");
	fclose(f);
	SD_INFO(COMP, "trace of %" PRIu64 " events written to %s", n - start, trace_path);
}

/*
 * A program stopped with Ctrl-C, SIGTERM or abort() never reaches atexit(), and that is when a
 * trace is wanted most. For each of these signals whose disposition is still the default (a
 * program's own handler is left alone), a handler writes the trace once, restores the default
 * and raises the signal again, so the process ends as it would have. Writing is not
 * async-signal-safe, but the process is ending and the ring is only read.
 */
static const int trace_signals[] = {SIGINT, SIGTERM, SIGABRT};
static atomic_flag trace_written_by_signal = ATOMIC_FLAG_INIT;

static void trace_on_signal(int sig)
{
	if (!atomic_flag_test_and_set(&trace_written_by_signal))
		trace_write();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signal_writers(void)
{
	for (size_t i = 0; i < sizeof(trace_signals) / sizeof(trace_signals[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(trace_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = trace_on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESETHAND;
		(void)sigaction(trace_signals[i], &sa, NULL);
	}
}

static char trace_err[600];

/* SOFTDOCA_TRACE with every "%p" replaced by the pid, into trace_path; false when too long. */
static bool expand_path(const char *path)
{
	size_t n = 0;

	for (const char *p = path; *p != '\0'; p++) {
		int w = p[0] == '%' && p[1] == 'p'
			    ? snprintf(trace_path + n, sizeof(trace_path) - n, "%d", (int)getpid())
			    : snprintf(trace_path + n, sizeof(trace_path) - n, "%c", *p);

		if (w < 0 || (size_t)w >= sizeof(trace_path) - n)
			return false;
		n += (size_t)w;
		p += p[0] == '%' && p[1] == 'p';
	}
	return true;
}

/*
 * Whether the trace can be written at exit: trace_path is a regular file this process may write,
 * or a new one in a directory it may write to. Checked now, so that a program with a bad path
 * does not run to its end and then lose its trace; why in @why.
 */
static bool path_writable(char *why, size_t len)
{
	char dir[sizeof(trace_path)];
	const char *bad;
	struct stat st;
	char *slash;

	if (stat(trace_path, &st) == 0) {
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, len, "%.1500s is not a regular file", trace_path);
			return false;
		}
		if (access(trace_path, W_OK) != 0) {
			snprintf(why, len, "cannot write %.1500s: %s", trace_path, strerror(errno));
			return false;
		}
		return true;
	}
	snprintf(dir, sizeof(dir), "%s", trace_path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	bad = stat(dir, &st) != 0	      ? "does not exist"
	      : !S_ISDIR(st.st_mode)	      ? "is not a directory"
	      : access(dir, W_OK | X_OK) != 0 ? "is not writable"
					      : NULL;
	if (bad == NULL)
		return true;
	snprintf(why, len, "cannot create %.1500s: %.1500s %s", trace_path, dir, bad);
	return false;
}

static void trace_setup(void)
{
	const char *path = getenv("SOFTDOCA_TRACE");
	const char *ev = getenv("SOFTDOCA_TRACE_EVENTS");
	char why[sizeof(trace_path) + 64];

	ring_size = DEFAULT_EVENTS;
	/* SOFTDOCA_TRACE_EVENTS is checked even without SOFTDOCA_TRACE: a bad value is never ignored. */
	if (ev != NULL && *ev != '\0') {
		uint64_t v;
		int rc = priv_sd_parse_u64(ev, 16, UINT64_C(1) << 28, &v);

		if (rc != 0) {
			snprintf(trace_err, sizeof(trace_err),
				 "SOFTDOCA_TRACE_EVENTS='%.64s': %s; expected a number of events in 16..268435456", ev,
				 priv_sd_parse_error(rc));
			return;
		}
		ring_size = v;
	}
	if (path == NULL || *path == '\0')
		return;
	if (!expand_path(path)) {
		snprintf(trace_err, sizeof(trace_err),
			 "SOFTDOCA_TRACE='%.64s...': longer than %zu bytes; name a shorter path", path,
			 sizeof(trace_path) - 1);
		return;
	}
	if (!path_writable(why, sizeof(why))) {
		snprintf(trace_err, sizeof(trace_err),
			 "SOFTDOCA_TRACE='%.200s': %.300s; name a regular file (or a new one)", path, why);
		return;
	}
	ring = calloc(ring_size, sizeof(*ring));
	if (ring == NULL) {
		SD_ERR(COMP, "SOFTDOCA_TRACE: cannot allocate %" PRIu64 " events; tracing is off", ring_size);
		return;
	}
	atexit(trace_write);
	install_signal_writers();
	priv_doca_trace_on = true;
	SD_INFO(COMP, "tracing every task to %s (ring of %" PRIu64 " events)", trace_path, ring_size);
}

void trace_init(void)
{
	pthread_once(&trace_once, trace_setup);
}

const char *trace_config_error(void)
{
	trace_init();
	return trace_err[0] ? trace_err : NULL;
}
