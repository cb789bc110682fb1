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
 * Concurrency: one mutex guards sources and backends; writers hold it while formatting so
 * lines from different threads never interleave. Logging is never on a hot path.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
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

static void log_init(void)
{
	const char *env = getenv("DOCA_LOG_LEVEL");
	int level;

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

SD_PRIV void priv_doca_vlog(uint32_t level, const char *component, const char *fmt, va_list ap)
{
	char line[1024];
	int n;

	if (level <= DOCA_LOG_LEVEL_ERROR)
		errors_said++;
	ensure_init();
	if (!world_admits(WORLD_SDK, level))
		return;
	format_prefix(line, sizeof(line), level);
	n = (int)strlen(line);
	n += snprintf(line + n, sizeof(line) - (size_t)n, "[softdoca:%s] ", component ? component : "sdk");
	if (n < (int)sizeof(line) - 2) {
		int m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);

		n = (m < 0) ? n : (n + m >= (int)sizeof(line) - 1 ? (int)sizeof(line) - 2 : n + m);
	}
	line[n++] = '\n';
	line[n] = '\0';
	pthread_mutex_lock(&log_lock);
	dispatch(WORLD_SDK, level, line, (size_t)n);
	pthread_mutex_unlock(&log_lock);
}

SD_PRIV void priv_doca_log(uint32_t level, const char *component, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	priv_doca_vlog(level, component, fmt, ap);
	va_end(ap);
}

SD_PRIV doca_error_t priv_doca_reject(doca_error_t err, const char *component, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	priv_doca_vlog(DOCA_LOG_LEVEL_ERROR, component, fmt, ap);
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
	backend->lower = level;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend,
								      uint32_t upper_limit)
{
	if (backend == NULL || !level_valid(upper_limit) || upper_limit > backend->lower)
		return DOCA_ERROR_INVALID_VALUE;
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
	sdk_limit = level;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_sdk_limit(void)
{
	ensure_init();
	return sdk_limit;
}
