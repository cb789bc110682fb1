/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace.c - the task trace ring and its Chrome trace-event JSON writer (see trace.h).
 *
 * Recording: one atomic fetch-add claims a slot of the ring, then the slot is filled; many
 * threads may record at once. The ring keeps the most recent events. Writing happens once, at
 * exit or on SIGINT/SIGTERM/SIGABRT, with async-signal-safe calls only.
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

/*
 * The writer calls nothing but open(2), fstat(2), write(2) and close(2) and formats by hand into a
 * static buffer: it runs at exit and in a signal handler, where a signal may have landed inside
 * malloc() or stdio and any call that takes their locks would hang the process for good.
 */
static char out_buf[64 * 1024];
static size_t out_len;
static int out_fd = -1;
static int out_failed; /* the errno of the write that failed, 0 while none has */

static void out_flush(void)
{
	size_t off = 0;

	while (off < out_len && !out_failed) {
		ssize_t w = write(out_fd, out_buf + off, out_len - off);

		if (w > 0)
			off += (size_t)w;
		else if (w < 0 && errno == EINTR)
			continue;
		else
			out_failed = w < 0 ? errno : ENOSPC;
	}
	out_len = 0;
}

static void out_mem(const char *s, size_t n)
{
	while (n > 0) {
		size_t k = sizeof(out_buf) - out_len;

		if (k > n)
			k = n;
		memcpy(out_buf + out_len, s, k);
		out_len += k;
		s += k;
		n -= k;
		if (out_len == sizeof(out_buf))
			out_flush();
	}
}

static void out_str(const char *s)
{
	out_mem(s, strlen(s));
}

/* @s, at most @max bytes of it, as the inside of a JSON string. */
static void out_json_str(const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < max && s[i] != '\0'; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};

		if (c == '"' || c == '\\') {
			esc[1] = (char)c;
			out_mem(esc, 2);
		} else if (c < 0x20) {
			out_mem(esc, 6);
		} else {
			out_mem((const char *)&c, 1);
		}
	}
}

static void out_u64(uint64_t v)
{
	char d[20];
	size_t i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	out_mem(d + i, sizeof(d) - i);
}

static void out_int(int v)
{
	if (v < 0)
		out_mem("-", 1);
	out_u64(v < 0 ? (uint64_t)0 - (uint64_t)(int64_t)v : (uint64_t)v);
}

static void out_hex(uint64_t v)
{
	char d[16];
	size_t i = sizeof(d);

	do {
		d[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v != 0);
	out_mem(d + i, sizeof(d) - i);
}

/* Nanoseconds as microseconds with three decimals (what "%.3f" printed of ns / 1000.0). */
static void out_us(uint64_t ns)
{
	char frac[4] = {'.', (char)('0' + ns / 100 % 10), (char)('0' + ns / 10 % 10), (char)('0' + ns % 10)};

	out_u64(ns / 1000);
	out_mem(frac, sizeof(frac));
}

static void write_span(bool *first, const char *ph, const char *name, const struct trace_rec *r, int pid,
		       const char *args_key, const char *args_val, bool args_num)
{
	out_str(*first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
	out_str(ph);
	out_str("\",\"cat\":\"task\",\"name\":\"");
	out_str(name);
	out_str("\",\"id\":\"0x");
	out_hex(r->id);
	out_str("\",\"ts\":");
	out_us(r->ts_ns);
	out_str(",\"pid\":");
	out_int(pid);
	out_str(",\"tid\":");
	out_u64(r->ctx);
	if (args_key != NULL) {
		out_str(",\"args\":{\"");
		out_str(args_key);
		out_str("\":");
		if (args_num) {
			out_u64(r->a);
		} else {
			out_str("\"");
			out_str(args_val);
			out_str("\"");
		}
		out_str("}");
	}
	out_str("}");
	*first = false;
}

static void write_inflight(const struct trace_rec *r, int pid)
{
	out_str(",\n{\"ph\":\"C\",\"name\":\"inflight ctx ");
	out_u64(r->ctx);
	out_str("\",\"ts\":");
	out_us(r->ts_ns);
	out_str(",\"pid\":");
	out_int(pid);
	out_str(",\"args\":{\"inflight\":");
	out_u64(r->b);
	out_str("}}");
}

/* One line on stderr from a signal handler, where the log's formatting cannot be used. */
static void say_in_signal(const char *a, const char *b, const char *c)
{
	const char *parts[] = {"[softdoca:" COMP "] ", a, b, c, "\n"};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (write(STDERR_FILENO, parts[i], strlen(parts[i])) < 0)
			return;
}

/* Writes the whole trace; @in_signal: called from a signal handler (no logging through the log). */
static void trace_write_file(bool in_signal)
{
	uint64_t n = atomic_load(&ring_next), start = n > ring_size ? n - ring_size : 0;
	int pid = (int)getpid(), nctx = atomic_load(&nb_ctx);
	bool first = true;
	struct stat st;

	priv_doca_trace_on = false;
	/* Non-blocking open (a FIFO with no reader fails instead of hanging the exit), and only a
	 * regular file is written. */
	out_fd = open(trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0644);
	if (out_fd >= 0 && (fstat(out_fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(out_fd);
		out_fd = -1;
		errno = EINVAL;
	}
	if (out_fd < 0) {
		if (in_signal)
			say_in_signal("SOFTDOCA_TRACE: cannot write ", trace_path,
				      "; name a regular file (or a new one)");
		else
			SD_ERR(COMP, "SOFTDOCA_TRACE: cannot write %s: %s; name a regular file (or a new one)",
			       trace_path, errno == EINVAL ? "not a regular file" : strerror(errno));
		return;
	}
	out_len = 0;
	out_failed = 0;
	out_str("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"softdoca_events\":");
	out_u64(n - start);
	out_str(",\"dropped\":");
	out_u64(start);
	out_str("},\"traceEvents\":[");
	for (int c = 0; c < nctx && c < 256; c++) {
		out_str(first ? "\n" : ",\n");
		out_str("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":");
		out_int(pid);
		out_str(",\"tid\":");
		out_int(c);
		out_str(",\"args\":{\"name\":\"");
		if (ctx_names[c][0] != '\0') {
			out_json_str(ctx_names[c], 40);
			out_str(" (");
			out_int(c);
			out_str(")");
		} else {
			out_str("context ");
			out_int(c);
		}
		out_str("\"}}");
		first = false;
	}
	for (uint64_t i = start; i < n; i++) {
		const struct trace_rec *r = &ring[i % ring_size];

		switch (r->ev) {
		case TR_ALLOC:
			write_span(&first, "n", "alloc", r, pid, NULL, NULL, false);
			break;
		case TR_SUBMIT:
			write_span(&first, "b", "task", r, pid, "bytes", NULL, true);
			write_span(&first, "b", "engine", r, pid, NULL, NULL, false);
			write_inflight(r, pid);
			break;
		case TR_ENGINE_DONE:
			write_span(&first, "e", "engine", r, pid, NULL, NULL, false);
			write_inflight(r, pid);
			break;
		case TR_CB_START:
			write_span(&first, "b", "callback", r, pid, "status", doca_error_get_name((doca_error_t)r->a),
				   false);
			break;
		case TR_CB_END:
			write_span(&first, "e", "callback", r, pid, NULL, NULL, false);
			write_span(&first, "e", "task", r, pid, NULL, NULL, false);
			break;
		case TR_FREE:
			write_span(&first, "n", "free", r, pid, NULL, NULL, false);
			break;
		case TR_ENGINE_BEGIN:
			write_span(&first, "b", "copy", r, pid, "bytes", NULL, true);
			break;
		case TR_ENGINE_END:
			write_span(&first, "e", "copy", r, pid, NULL, NULL, false);
			break;
		default:
			break;
		}
	}
	out_str("\n]}\n");
	out_flush();
	close(out_fd);
	out_fd = -1;
	if (in_signal) {
		if (out_failed)
			say_in_signal("SOFTDOCA_TRACE: could not write all of ", trace_path, "");
	} else if (out_failed) {
		SD_ERR(COMP, "SOFTDOCA_TRACE: could not write all of %s: %s; check the space left there", trace_path,
		       strerror(out_failed));
	} else {
		SD_INFO(COMP, "trace of %" PRIu64 " events written to %s", n - start, trace_path);
	}
}

/*
 * The trace is written once, by whichever comes first: exit or one of the signals below. A
 * second signal arriving in another thread while it is being written waits for the end of it
 * (at most TRACE_WAIT_MS), so that the file is complete when the process dies.
 */
#define TRACE_WAIT_MS 60000
enum { TRACE_UNWRITTEN, TRACE_WRITING, TRACE_WRITTEN };
static atomic_int trace_state = TRACE_UNWRITTEN;
static const int trace_signals[] = {SIGINT, SIGTERM, SIGABRT};

static bool trace_claim(void)
{
	int expect = TRACE_UNWRITTEN;

	return atomic_compare_exchange_strong(&trace_state, &expect, TRACE_WRITING);
}

static void trace_write(void)
{
	sigset_t block, old;

	if (!trace_claim())
		return;
	/* This thread takes none of the signals while it writes: one that came now would find the
	 * trace being written and wait for this very thread. */
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(trace_signals) / sizeof(trace_signals[0]); i++)
		sigaddset(&block, trace_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	trace_write_file(false);
	atomic_store(&trace_state, TRACE_WRITTEN);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * A program stopped with Ctrl-C, SIGTERM or abort() never reaches atexit(), and that is when a
 * trace is wanted most. For each of these signals whose disposition is still the default (a
 * program's own handler is left alone), a handler writes the trace once, restores the default
 * and raises the signal again, so the process ends as it would have. The handler blocks the
 * three signals while it runs and the writer is async-signal-safe.
 */
static void trace_on_signal(int sig)
{
	int saved = errno;

	if (trace_claim()) {
		trace_write_file(true);
		atomic_store(&trace_state, TRACE_WRITTEN);
	} else {
		struct timespec ms = {0, 1000000};

		for (int i = 0; i < TRACE_WAIT_MS && atomic_load(&trace_state) == TRACE_WRITING; i++)
			nanosleep(&ms, NULL);
	}
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
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
		for (size_t j = 0; j < sizeof(trace_signals) / sizeof(trace_signals[0]); j++)
			sigaddset(&sa.sa_mask, trace_signals[j]);
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
