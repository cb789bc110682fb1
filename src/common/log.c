/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * log.c - DOCA logging: sources, backends, global limits, and softdoca's SDK log.
 *
 * Model: two worlds (application, SDK). Each has a list of backends and a global limit. A
 * message is written to a backend of its world when
 *     level <= global limit of the world (the most verbose level allowed), and
 *     backend->upper <= level <= backend->lower.
 * Until a program creates a backend of a world, that world writes to a default sink (stdout
 * for application INFO and finer, stderr for the rest) so nothing is silently lost.
 *
 * DOCA_LOG_LEVEL (name or number), read once, sets both global limits and raises every SDK
 * backend to at least that verbosity, so `DOCA_LOG_LEVEL=trace ./prog` shows everything even
 * when the program pinned its SDK backend to WARNING.
 *
 * Repeated SDK lines: a program that polls a call the SDK refuses (or that keeps meeting the
 * same condition) would write the same line once per poll. The SDK world writes a line at most
 * `repeat_limit` times (SOFTDOCA_LOG_REPEATS, default 3; 0 = no limit) for one key: its call site
 * (the format string), its level and a hash of the formatted text, which names the object. Later
 * ones are counted, and one summary line "<object>: <rule>: refused N more times" is written when
 * the repetition ends: before the next line written from the same call site (another object),
 * at every context state change and whenever SDK log settings change (the entries are then
 * forgotten, so the next start shows its first lines again), when the table must make room, and
 * at exit. The table is small and fixed (least recently used entry replaced): no allocation, and
 * a held-back line costs its formatting, a hash and a lookup under the lock, no write. TRACE
 * lines and the application's own lines (doca_log) are never held back.
 *
 * Concurrency: one mutex guards sources, backends and the repeat table; writers hold it while
 * formatting so lines from different threads never interleave. Logging is never on a hot path.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <doca_log.h>

#include "sd_internal.h"

enum log_world { WORLD_APP, WORLD_SDK };
enum log_sink { SINK_FILE, SINK_FD, SINK_SYSLOG };

struct doca_log_backend {
	struct doca_log_backend *next;
	enum log_world world;
	enum log_sink sink;
	FILE *file;
	int fd;
	uint32_t lower; /* most verbose level written */
	uint32_t upper; /* least verbose level written */
};

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static struct doca_log_backend *backends;
static bool have_app_backend, have_sdk_backend;
static uint32_t app_lower = DOCA_LOG_LEVEL_INFO;
static uint32_t app_upper = DOCA_LOG_LEVEL_CRIT;
static uint32_t sdk_limit = DOCA_LOG_LEVEL_WARNING;
static uint32_t env_level; /* 0 = DOCA_LOG_LEVEL not set */

static char **source_names;
static int nb_sources, cap_sources;

/* ---- repeated SDK lines (see the top of the file) ---- */

#define REPEATS_DEFAULT 3
#define REPEATS_MAX	1000000
#define REPEAT_SLOTS	64
#define REPEAT_HEAD	224 /* bytes of "<object>: <rule>" the summary line repeats */

struct repeat {
	const char *fmt; /* the call site; NULL: slot free */
	uint64_t hash;	 /* of the formatted message */
	uint64_t last_use;
	uint64_t shown; /* lines written */
	uint64_t held;	/* lines not written since the last summary */
	uint32_t level;
	bool reject;
	char component[24];
	char head[REPEAT_HEAD];
};

static uint32_t repeat_limit = REPEATS_DEFAULT; /* set once by log_init */
static struct repeat repeats[REPEAT_SLOTS];
static uint64_t repeat_clock;
static atomic_uint repeats_used; /* slots in use: the flush hook's lock-free test */
static bool repeat_atexit_done;

static const struct {
	const char *name;
	const char *tag;
	uint32_t level;
} level_names[] = {
    {"disable", "DIS", DOCA_LOG_LEVEL_DISABLE}, {"critical", "CRT", DOCA_LOG_LEVEL_CRIT},
    {"crit", "CRT", DOCA_LOG_LEVEL_CRIT},	{"error", "ERR", DOCA_LOG_LEVEL_ERROR},
    {"err", "ERR", DOCA_LOG_LEVEL_ERROR},	{"warning", "WRN", DOCA_LOG_LEVEL_WARNING},
    {"warn", "WRN", DOCA_LOG_LEVEL_WARNING},	{"info", "INF", DOCA_LOG_LEVEL_INFO},
    {"debug", "DBG", DOCA_LOG_LEVEL_DEBUG},	{"trace", "TRC", DOCA_LOG_LEVEL_TRACE},
};

static bool level_valid(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_DISABLE && level <= DOCA_LOG_LEVEL_TRACE && level % 10 == 0;
}

SD_PRIV int priv_doca_log_level_parse(const char *text)
{
	char *end;
	long v;

	if (text == NULL || *text == '\0')
		return -1;
	for (size_t i = 0; i < SD_ARRAY_SIZE(level_names); i++)
		if (strcasecmp(text, level_names[i].name) == 0)
			return (int)level_names[i].level;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0 || v > 1000 || !level_valid((uint32_t)v))
		return -1;
	return (int)v;
}

SD_PRIV const char *priv_doca_log_level_name(uint32_t level)
{
	for (size_t i = 0; i < SD_ARRAY_SIZE(level_names); i++)
		if (level_names[i].level == level)
			return level_names[i].tag;
	return "???";
}

static void repeats_forget_in_child(void);

static void log_init(void)
{
	const char *env = getenv("DOCA_LOG_LEVEL");
	const char *rep = getenv("SOFTDOCA_LOG_REPEATS");
	int level;

	/* A forked child starts with no held-back lines: the parent's counts are its own to say. */
	pthread_atfork(NULL, NULL, repeats_forget_in_child);
	if (rep != NULL && *rep != '\0') {
		uint64_t v;
		int rc = priv_sd_parse_u64(rep, 0, REPEATS_MAX, &v);

		if (rc == 0)
			repeat_limit = (uint32_t)v;
		else
			fprintf(stderr,
				"[DOCA][WRN][softdoca:log] SOFTDOCA_LOG_REPEATS='%s' is %s; use the number of times "
				"one SDK line is written before its repeats are only counted, 0..%u (0 = write "
				"every one); keeping %u\n",
				rep, priv_sd_parse_error(rc), REPEATS_MAX, REPEATS_DEFAULT);
	}
	if (env == NULL || *env == '\0')
		return;
	level = priv_doca_log_level_parse(env);
	if (level < 0) {
		fprintf(stderr,
			"[DOCA][WRN][softdoca:log] DOCA_LOG_LEVEL='%s' is not a level; use a number 10..70 or one of "
			"disable, critical, error, warning, info, debug, trace\n",
			env);
		return;
	}
	env_level = (uint32_t)level;
	app_lower = env_level;
	sdk_limit = env_level;
}

static void ensure_init(void)
{
	pthread_once(&log_once, log_init);
}

static void format_prefix(char *buf, size_t len, uint32_t level)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "[%02d:%02d:%02d:%06ld][%d][DOCA][%s]", tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000,
		 (int)getpid(), priv_doca_log_level_name(level));
}

static void sink_write(struct doca_log_backend *be, uint32_t level, const char *line, size_t len)
{
	switch (be->sink) {
	case SINK_FILE:
		fwrite(line, 1, len, be->file);
		fflush(be->file);
		break;
	case SINK_FD: {
		size_t off = 0;

		while (off < len) {
			ssize_t n = write(be->fd, line + off, len - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		break;
	}
	case SINK_SYSLOG: {
		int prio = level <= DOCA_LOG_LEVEL_CRIT	     ? LOG_CRIT
			   : level <= DOCA_LOG_LEVEL_ERROR   ? LOG_ERR
			   : level <= DOCA_LOG_LEVEL_WARNING ? LOG_WARNING
			   : level <= DOCA_LOG_LEVEL_INFO    ? LOG_INFO
							     : LOG_DEBUG;

		syslog(prio, "%.*s", (int)len, line);
		break;
	}
	}
}

static uint32_t backend_lower(const struct doca_log_backend *be)
{
	/* DOCA_LOG_LEVEL raises SDK backends to at least its verbosity. */
	if (be->world == WORLD_SDK && env_level > be->lower)
		return env_level;
	return be->lower;
}

/* Called with log_lock held. */
static void dispatch(enum log_world world, uint32_t level, const char *line, size_t len)
{
	bool have = world == WORLD_APP ? have_app_backend : have_sdk_backend;

	if (!have) {
		FILE *f = (world == WORLD_APP && level >= DOCA_LOG_LEVEL_INFO) ? stdout : stderr;

		fwrite(line, 1, len, f);
		fflush(f);
		return;
	}
	for (struct doca_log_backend *be = backends; be != NULL; be = be->next) {
		if (be->world != world)
			continue;
		if (level > backend_lower(be) || level < be->upper)
			continue;
		sink_write(be, level, line, len);
	}
}

static bool world_admits(enum log_world world, uint32_t level)
{
	if (level <= DOCA_LOG_LEVEL_DISABLE || level > DOCA_LOG_LEVEL_TRACE)
		return false;
	if (world == WORLD_APP)
		return level <= app_lower && level >= app_upper;
	return level <= sdk_limit;
}

SD_PRIV int priv_doca_log_enabled(uint32_t level)
{
	ensure_init();
	return world_admits(WORLD_SDK, level);
}

/* Error lines this thread has had to say (shown or filtered out): see priv_doca_errors_said(). */
static _Thread_local uint64_t errors_said;

SD_PRIV uint64_t priv_doca_errors_said(void)
{
	return errors_said;
}

/* A hash of the formatted message, 8 bytes at a time (the key's "which object" part). */
static uint64_t text_hash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

/* "[time][pid][DOCA][LVL][softdoca:comp] " into @line; returns its length. */
static int sdk_prefix(char *line, size_t len, uint32_t level, const char *component)
{
	int n;

	format_prefix(line, len, level);
	n = (int)strlen(line);
	n += snprintf(line + n, len - (size_t)n, "[softdoca:%s] ", component ? component : "sdk");
	return n < (int)len - 2 ? n : (int)len - 2; /* room for '\n' and '\0' */
}

/* 228917 as "228,917". */
static void count_text(char *buf, size_t len, uint64_t v)
{
	char digits[24];
	int nd = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	size_t o = 0;

	for (int i = 0; i < nd && o + 2 < len; i++) {
		if (i != 0 && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* Writes @r's summary line when it held lines back since the last one. Called with log_lock held. */
static void repeat_summarise(struct repeat *r)
{
	char line[512], count[32];
	int n;

	if (r->held == 0)
		return;
	count_text(count, sizeof(count), r->held);
	n = sdk_prefix(line, sizeof(line), r->level, r->component);
	n += snprintf(line + n, sizeof(line) - (size_t)n, "%s: %s %s more time%s (only the first %llu logged)", r->head,
		      r->reject ? "refused" : "repeated", count, r->held == 1 ? "" : "s", (unsigned long long)r->shown);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	line[n] = '\0';
	r->held = 0;
	dispatch(WORLD_SDK, r->level, line, (size_t)n);
}

/* Summarises and forgets every entry. Called with log_lock held. */
static void repeats_flush_locked(void)
{
	for (size_t i = 0; i < REPEAT_SLOTS; i++) {
		if (repeats[i].fmt == NULL)
			continue;
		repeat_summarise(&repeats[i]);
		repeats[i].fmt = NULL;
	}
	atomic_store_explicit(&repeats_used, 0, memory_order_relaxed);
}

SD_PRIV void priv_doca_log_flush_repeats(void)
{
	if (atomic_load_explicit(&repeats_used, memory_order_relaxed) == 0)
		return;
	pthread_mutex_lock(&log_lock);
	repeats_flush_locked();
	pthread_mutex_unlock(&log_lock);
}

/* At exit: a thread still inside a write keeps its counts (exit never waits on a log sink). */
static void repeats_at_exit(void)
{
	if (atomic_load_explicit(&repeats_used, memory_order_relaxed) == 0 || pthread_mutex_trylock(&log_lock) != 0)
		return;
	repeats_flush_locked();
	pthread_mutex_unlock(&log_lock);
}

static void repeats_forget_in_child(void)
{
	memset(repeats, 0, sizeof(repeats));
	atomic_store_explicit(&repeats_used, 0, memory_order_relaxed);
}

static struct repeat *repeat_find(const char *fmt, uint32_t level, uint64_t hash)
{
	for (size_t i = 0; i < REPEAT_SLOTS; i++)
		if (repeats[i].fmt == fmt && repeats[i].hash == hash && repeats[i].level == level)
			return &repeats[i];
	return NULL;
}

/* Before a line from @fmt is written: the other objects' repetitions at that call site end. */
static void repeat_flush_site(const char *fmt)
{
	for (size_t i = 0; i < REPEAT_SLOTS; i++)
		if (repeats[i].fmt == fmt)
			repeat_summarise(&repeats[i]);
}

/* A slot for a new key: a free one, else the least recently used (summarised first). */
static struct repeat *repeat_claim(const char *fmt, uint32_t level, uint64_t hash, const char *component,
				   const char *msg, bool reject)
{
	struct repeat *r = NULL;
	const char *semi = strstr(msg, "; ");
	size_t head = semi != NULL ? (size_t)(semi - msg) : strlen(msg);

	for (size_t i = 0; i < REPEAT_SLOTS && (r == NULL || r->fmt != NULL); i++)
		if (r == NULL || repeats[i].fmt == NULL || repeats[i].last_use < r->last_use)
			r = &repeats[i];
	if (r->fmt != NULL)
		repeat_summarise(r);
	else
		atomic_fetch_add_explicit(&repeats_used, 1, memory_order_relaxed);
	r->fmt = fmt;
	r->hash = hash;
	r->level = level;
	r->reject = reject;
	r->shown = r->held = 0;
	snprintf(r->component, sizeof(r->component), "%s", component ? component : "sdk");
	if (head >= sizeof(r->head))
		snprintf(r->head, sizeof(r->head), "%.*s...", (int)sizeof(r->head) - 4, msg);
	else
		snprintf(r->head, sizeof(r->head), "%.*s", (int)head, msg);
	return r;
}

/*
 * Whether the line @msg from @fmt is written (false: held back and counted). Called with log_lock
 * held; an entry that is written ends the held-back repetitions of the other objects of its
 * call site first, so their summaries come before it.
 */
static bool repeat_admit(uint32_t level, const char *component, const char *fmt, const char *msg, size_t len,
			 bool reject)
{
	uint64_t hash = text_hash(msg, len);
	struct repeat *r = repeat_find(fmt, level, hash);

	if (r != NULL && r->shown >= repeat_limit) {
		r->held++;
		r->last_use = ++repeat_clock;
		if (!repeat_atexit_done) {
			repeat_atexit_done = true;
			atexit(repeats_at_exit);
		}
		return false;
	}
	repeat_flush_site(fmt);
	if (r == NULL)
		r = repeat_claim(fmt, level, hash, component, msg, reject);
	r->shown++;
	r->last_use = ++repeat_clock;
	return true;
}

static void sdk_vlog(uint32_t level, const char *component, const char *fmt, va_list ap, bool reject)
{
	char line[1024], msg[1024];
	int n, m;

	if (level <= DOCA_LOG_LEVEL_ERROR)
		errors_said++;
	ensure_init();
	if (!world_admits(WORLD_SDK, level))
		return;
	m = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (m < 0)
		m = 0;
	else if (m >= (int)sizeof(msg))
		m = (int)sizeof(msg) - 1;
	pthread_mutex_lock(&log_lock);
	if (repeat_limit != 0 && level < DOCA_LOG_LEVEL_TRACE &&
	    !repeat_admit(level, component, fmt, msg, (size_t)m, reject)) {
		pthread_mutex_unlock(&log_lock);
		return;
	}
	n = sdk_prefix(line, sizeof(line), level, component);
	if (m > (int)sizeof(line) - 2 - n)
		m = (int)sizeof(line) - 2 - n;
	if (m > 0) {
		memcpy(line + n, msg, (size_t)m);
		n += m;
	}
	line[n++] = '\n';
	line[n] = '\0';
	dispatch(WORLD_SDK, level, line, (size_t)n);
	pthread_mutex_unlock(&log_lock);
}

SD_PRIV void priv_doca_vlog(uint32_t level, const char *component, const char *fmt, va_list ap)
{
	sdk_vlog(level, component, fmt, ap, false);
}

SD_PRIV void priv_doca_log(uint32_t level, const char *component, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sdk_vlog(level, component, fmt, ap, false);
	va_end(ap);
}

SD_PRIV doca_error_t priv_doca_reject(doca_error_t err, const char *component, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sdk_vlog(DOCA_LOG_LEVEL_ERROR, component, fmt, ap, true);
	va_end(ap);
	return err;
}

SD_PRIV doca_error_t priv_doca_reject_at(doca_error_t err, uint32_t level, const char *component, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sdk_vlog(level, component, fmt, ap, true);
	va_end(ap);
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func,
					const char *format, ...)
{
	char buf[2048];
	const char *src = "???";
	const char *base;
	va_list ap;
	int n, m;

	ensure_init();
	if (!level_valid(level) || format == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!world_admits(WORLD_APP, level))
		return DOCA_SUCCESS;
	base = fname ? strrchr(fname, '/') : NULL;
	base = base ? base + 1 : (fname ? fname : "?");
	pthread_mutex_lock(&log_lock);
	if (source >= 0 && source < nb_sources)
		src = source_names[source];
	format_prefix(buf, sizeof(buf), level);
	n = (int)strlen(buf);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "[%s][%s:%d][%s] ", src, base, line, func ? func : "?");
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	va_start(ap, format);
	m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, format, ap);
	va_end(ap);
	if (m > 0)
		n = (n + m >= (int)sizeof(buf) - 1) ? (int)sizeof(buf) - 2 : n + m;
	buf[n++] = '\n';
	buf[n] = '\0';
	dispatch(WORLD_APP, level, buf, (size_t)n);
	pthread_mutex_unlock(&log_lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_register_source(const char *source_name, int *source)
{
	char *copy;

	if (source_name == NULL || source == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	copy = strdup(source_name);
	if (copy == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&log_lock);
	if (nb_sources == cap_sources) {
		int ncap = cap_sources ? cap_sources * 2 : 32;
		char **n = realloc(source_names, (size_t)ncap * sizeof(*n));

		if (n == NULL) {
			pthread_mutex_unlock(&log_lock);
			free(copy);
			return DOCA_ERROR_NO_MEMORY;
		}
		source_names = n;
		cap_sources = ncap;
	}
	source_names[nb_sources] = copy;
	*source = nb_sources++;
	pthread_mutex_unlock(&log_lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_unregister_source(int source)
{
	doca_error_t ret = DOCA_SUCCESS;

	pthread_mutex_lock(&log_lock);
	if (source < 0 || source >= nb_sources || source_names[source] == NULL) {
		ret = DOCA_ERROR_INVALID_VALUE;
	} else {
		free(source_names[source]);
		source_names[source] = strdup("(unregistered)");
	}
	pthread_mutex_unlock(&log_lock);
	return ret;
}

static doca_error_t backend_add(enum log_world world, enum log_sink sink, FILE *file, int fd, uint32_t lower,
				uint32_t upper, struct doca_log_backend **out)
{
	struct doca_log_backend *be = calloc(1, sizeof(*be));

	if (be == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ensure_init();
	be->world = world;
	be->sink = sink;
	be->file = file;
	be->fd = fd;
	be->lower = lower;
	be->upper = upper;
	if (world == WORLD_SDK)
		priv_doca_log_flush_repeats(); /* said where the lines went; a new reader sees first lines */
	pthread_mutex_lock(&log_lock);
	/* Append so that output order follows creation order. */
	struct doca_log_backend **pp = &backends;

	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = be;
	if (world == WORLD_APP)
		have_app_backend = true;
	else
		have_sdk_backend = true;
	pthread_mutex_unlock(&log_lock);
	if (out != NULL)
		*out = be;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_standard(void)
{
	doca_error_t ret;

	ret = backend_add(WORLD_APP, SINK_FILE, stdout, -1, DOCA_LOG_LEVEL_TRACE, DOCA_LOG_LEVEL_INFO, NULL);
	if (ret != DOCA_SUCCESS)
		return ret;
	return backend_add(WORLD_APP, SINK_FILE, stderr, -1, DOCA_LOG_LEVEL_WARNING, DOCA_LOG_LEVEL_CRIT, NULL);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend)
{
	if (fptr == NULL || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return backend_add(WORLD_APP, SINK_FILE, fptr, -1, DOCA_LOG_LEVEL_TRACE, DOCA_LOG_LEVEL_CRIT, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend)
{
	if (fd < 0 || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return backend_add(WORLD_APP, SINK_FD, NULL, fd, DOCA_LOG_LEVEL_TRACE, DOCA_LOG_LEVEL_CRIT, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend)
{
	if (name == NULL || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	openlog(name, LOG_PID, LOG_USER);
	return backend_add(WORLD_APP, SINK_SYSLOG, NULL, -1, DOCA_LOG_LEVEL_TRACE, DOCA_LOG_LEVEL_CRIT, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend)
{
	if (fptr == NULL || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return backend_add(WORLD_SDK, SINK_FILE, fptr, -1, DOCA_LOG_LEVEL_TRACE, DOCA_LOG_LEVEL_CRIT, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend)
{
	if (fd < 0 || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return backend_add(WORLD_SDK, SINK_FD, NULL, fd, DOCA_LOG_LEVEL_TRACE, DOCA_LOG_LEVEL_CRIT, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level)
{
	if (backend == NULL || !level_valid(level) || level < backend->upper)
		return DOCA_ERROR_INVALID_VALUE;
	if (backend->world == WORLD_SDK)
		priv_doca_log_flush_repeats();
	backend->lower = level;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend,
								      uint32_t upper_limit)
{
	if (backend == NULL || !level_valid(upper_limit) || upper_limit > backend->lower)
		return DOCA_ERROR_INVALID_VALUE;
	if (backend->world == WORLD_SDK)
		priv_doca_log_flush_repeats();
	backend->upper = upper_limit;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level)
{
	if (backend == NULL || !level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	if (backend->world != WORLD_SDK)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "log",
				 "doca_log_backend_set_sdk_level: backend %p is an application backend; create it with "
				 "doca_log_backend_create_with_file_sdk()",
				 (void *)backend);
	priv_doca_log_flush_repeats();
	backend->lower = level;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_lower_limit(uint32_t level)
{
	ensure_init();
	if (!level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	app_lower = level;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_lower_limit(void)
{
	ensure_init();
	return app_lower;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit)
{
	ensure_init();
	if (!level_valid(upper_limit))
		return DOCA_ERROR_INVALID_VALUE;
	app_upper = upper_limit;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_upper_limit(void)
{
	ensure_init();
	return app_upper;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level)
{
	ensure_init();
	if (!level_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	priv_doca_log_flush_repeats();
	sdk_limit = level;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_sdk_limit(void)
{
	ensure_init();
	return sdk_limit;
}
