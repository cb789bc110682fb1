/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * engine.c - the backend registry (generated from the list in meson), the choice of an executor
 * and of a transport per memory-domain pair, and the copy helpers every executor uses.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"
#include "topology.h"

#define COMP "engine"

const struct mem_domain mem_domain_local = {.kind = MEM_DOMAIN_LOCAL, .name = "this process"};

/* The table comes from the list in src/engines/meson.build (engine_list.h is generated). */
#define ENGINE_BACKEND(name, kind) extern const struct engine_backend engine_backend_##name;
#include "engine_list.h"
#undef ENGINE_BACKEND

const struct engine_backend *const engine_backends[] = {
#define ENGINE_BACKEND(name, kind) &engine_backend_##name,
#include "engine_list.h"
#undef ENGINE_BACKEND
    NULL,
};

#define NB_BACKENDS (SD_ARRAY_SIZE(engine_backends) - 1)

/* The kind each backend has in the meson list, checked against its definition. */
static const enum engine_backend_kind listed_kind[] = {
#define ENGINE_BACKEND(name, kind) ENGINE_##kind,
#include "engine_list.h"
#undef ENGINE_BACKEND
    ENGINE_EXECUTOR,
};

const char *mem_domain_kind_name(enum mem_domain_kind k)
{
	static const char *const names[] = {"local", "process", "gpu", "remote"};

	return (unsigned int)k < SD_ARRAY_SIZE(names) ? names[k] : "?";
}

const struct engine_backend *engine_backend_find(const char *name)
{
	for (size_t i = 0; i < NB_BACKENDS; i++)
		if (strcmp(engine_backends[i]->name, name) == 0)
			return engine_backends[i];
	return NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_backend *b = engine_backend_find(name);

	return b != NULL && b->kind == ENGINE_EXECUTOR ? b->ops : NULL;
}

static char executor_names[256];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void make_names(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NB_BACKENDS; i++)
		if (engine_backends[i]->kind == ENGINE_EXECUTOR && n < sizeof(executor_names))
			n += (size_t)snprintf(executor_names + n, sizeof(executor_names) - n, "%s%s", n ? ", " : "",
					      engine_backends[i]->name);
}

const char *engine_names(void)
{
	pthread_once(&names_once, make_names);
	return executor_names;
}

/* Probe results, one per backend: computed once per process. */
static struct {
	bool ok;
	char why[160];
} probes[NB_BACKENDS > 0 ? NB_BACKENDS : 1];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe_all(void)
{
	for (size_t i = 0; i < NB_BACKENDS; i++) {
		const struct engine_backend *b = engine_backends[i];

		if (b->kind != listed_kind[i] || (b->kind == ENGINE_EXECUTOR) != (b->ops != NULL) ||
		    (b->kind == ENGINE_TRANSPORT) != (b->xfer != NULL)) {
			snprintf(probes[i].why, sizeof(probes[i].why),
				 "its definition does not match its kind in src/engines/meson.build (executors have "
				 "ops, transports xfer)");
			SD_ERR(COMP, "backend '%s': %s", b->name, probes[i].why);
			continue;
		}
		probes[i].ok = b->probe == NULL || b->probe(probes[i].why, sizeof(probes[i].why));
		if (!probes[i].ok)
			SD_DBG(COMP, "backend '%s' is not usable here: %s", b->name, probes[i].why);
	}
}

bool engine_backend_usable(const struct engine_backend *b, char *why, size_t len)
{
	pthread_once(&probe_once, probe_all);
	for (size_t i = 0; i < NB_BACKENDS; i++) {
		if (engine_backends[i] != b)
			continue;
		if (!probes[i].ok && why != NULL)
			snprintf(why, len, "%s", probes[i].why);
		return probes[i].ok;
	}
	if (why != NULL)
		snprintf(why, len, "not a registered backend");
	return false;
}

static const struct engine_xfer *transports[ENGINE_NB_PAIRS];
static char transport_why[ENGINE_NB_PAIRS][192];
static pthread_once_t transport_once = PTHREAD_ONCE_INIT;

static void pick_transports(void)
{
	for (unsigned int s = 0; s < MEM_DOMAIN_KINDS; s++) {
		for (unsigned int d = 0; d < MEM_DOMAIN_KINDS; d++) {
			unsigned int idx = ENGINE_PAIR_INDEX(s, d);
			const struct engine_backend *best = NULL;
			char why[160] = "";

			for (size_t i = 0; i < NB_BACKENDS; i++) {
				const struct engine_backend *b = engine_backends[i];

				if (b->kind != ENGINE_TRANSPORT || !(b->pairs & ENGINE_PAIR(s, d)))
					continue;
				if (!engine_backend_usable(b, why, sizeof(why)))
					continue;
				if (best == NULL || b->priority > best->priority)
					best = b;
			}
			transports[idx] = best ? best->xfer : NULL;
			if (best == NULL)
				snprintf(transport_why[idx], sizeof(transport_why[idx]), "%s",
					 why[0] ? why : "no backend moves this pair");
		}
	}
}

const struct engine_xfer *engine_transport_for(enum mem_domain_kind src, enum mem_domain_kind dst, char *why,
					       size_t len)
{
	unsigned int idx = ENGINE_PAIR_INDEX(src, dst);

	pthread_once(&transport_once, pick_transports);
	if ((unsigned int)src >= MEM_DOMAIN_KINDS || (unsigned int)dst >= MEM_DOMAIN_KINDS) {
		if (why != NULL)
			snprintf(why, len, "unknown memory domain");
		return NULL;
	}
	if (transports[idx] == NULL && why != NULL)
		snprintf(why, len, "%s", transport_why[idx]);
	return transports[idx];
}

static const struct engine_ops *default_engine;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
/* Why there is no default engine (said by the context that needed one); a config problem or not. */
static char default_err[800];
static bool default_err_config;

static void pick_default(void)
{
	const char *env = getenv("SOFTDOCA_ENGINE");
	const struct topology *topo = topo_get();
	const struct engine_backend *b = NULL;
	const char *name = NULL;
	const char *from = "the highest-priority usable executor";
	char why[160];

	if (env != NULL && *env != '\0') {
		name = env;
		from = "SOFTDOCA_ENGINE";
	} else if (topo != NULL && topo->engine[0] != '\0') {
		name = topo->engine;
		from = "the config file";
	}
	if (name == NULL) {
		for (size_t i = 0; i < NB_BACKENDS; i++) {
			const struct engine_backend *c = engine_backends[i];

			if (c->kind == ENGINE_EXECUTOR && engine_backend_usable(c, NULL, 0) &&
			    (b == NULL || c->priority > b->priority))
				b = c;
		}
		if (b == NULL) {
			snprintf(default_err, sizeof(default_err),
				 "no executor is usable on this machine (%s); run doca-env to see why", engine_names());
			return;
		}
	} else {
		b = engine_backend_find(name);
		default_err_config = true;
		if (b == NULL) {
			snprintf(default_err, sizeof(default_err), "unknown engine '%.64s' (from %s); use one of: %s",
				 name, from, engine_names());
			return;
		}
		if (b->kind != ENGINE_EXECUTOR) {
			snprintf(
			    default_err, sizeof(default_err),
			    "engine '%.64s' (from %s) is a transport, chosen per memory domain by softdoca itself; "
			    "name an executor: %s",
			    name, from, engine_names());
			return;
		}
		if (!engine_backend_usable(b, why, sizeof(why))) {
			snprintf(default_err, sizeof(default_err),
				 "engine '%.64s' (from %s) does not work on this machine: %s; use one of: %s", name,
				 from, why, engine_names());
			return;
		}
		default_err_config = false;
	}
	default_engine = b->ops;
	SD_DBG(COMP, "engine '%s' selected (from %s)", b->name, from);
}

const struct engine_ops *engine_default(void)
{
	pthread_once(&default_once, pick_default);
	return default_engine;
}

const char *engine_default_error(bool *config)
{
	pthread_once(&default_once, pick_default);
	if (config != NULL)
		*config = default_err_config;
	return default_engine == NULL ? default_err : NULL;
}

static uint64_t cpu_workers_env;
static char engine_err[256];
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void check_env(void)
{
	const char *w = getenv("SOFTDOCA_CPU_WORKERS");
	int rc;

	if (w == NULL || *w == '\0')
		return;
	rc = priv_sd_parse_u64(w, 1, ENGINE_MAX_WORKERS, &cpu_workers_env);
	if (rc != 0) {
		cpu_workers_env = 0;
		snprintf(engine_err, sizeof(engine_err),
			 "SOFTDOCA_CPU_WORKERS='%.64s': %s; expected a number of worker threads in 1..%d", w,
			 priv_sd_parse_error(rc), ENGINE_MAX_WORKERS);
	}
}

const char *engine_env_error(void)
{
	pthread_once(&env_once, check_env);
	return engine_err[0] ? engine_err : NULL;
}

uint32_t engine_env_cpu_workers(void)
{
	pthread_once(&env_once, check_env);
	return (uint32_t)cpu_workers_env;
}

void engine_complete(struct engine_completion *c, doca_error_t status)
{
	struct engine_notify *n = c->notify;

	c->status = status;
	/* seq_cst pairs with doca_pe_request_notification(): store done, then look at armed. */
	atomic_store(&c->done, 1);
	engine_notify_wake(n);
}

void engine_copy_range(const struct engine_job *job, uint64_t off, uint64_t len)
{
	uint32_t si = 0, di = 0;
	uint64_t soff = off, doff = off;

	/* Find the segments holding byte @off on each side. */
	while (si < job->nsrc && soff >= job->src[si].len)
		soff -= job->src[si++].len;
	while (di < job->ndst && doff >= job->dst[di].len)
		doff -= job->dst[di++].len;
	while (len > 0 && si < job->nsrc && di < job->ndst) {
		uint64_t s_left = job->src[si].len - soff;
		uint64_t d_left = job->dst[di].len - doff;
		uint64_t n = s_left < d_left ? s_left : d_left;

		if (n > len)
			n = len;
		memcpy((uint8_t *)job->dst[di].addr + doff, (const uint8_t *)job->src[si].addr + soff, n);
		len -= n;
		soff += n;
		doff += n;
		if (soff == job->src[si].len) {
			si++;
			soff = 0;
		}
		if (doff == job->dst[di].len) {
			di++;
			doff = 0;
		}
	}
}

unsigned int engine_nop_poll(struct engine_queue *q, unsigned int budget)
{
	(void)q;
	(void)budget;
	return 0;
}

bool engine_nop_pending(const struct engine_queue *q)
{
	(void)q;
	return false;
}

doca_error_t engine_job_copy_range(const struct engine_job *job, uint64_t off, uint64_t len, const char *owner)
{
	if (job->xfer == NULL) {
		engine_copy_range(job, off, len);
		return DOCA_SUCCESS;
	}
	return job->xfer->copy_range(job, off, len, owner);
}

void engine_job_copy_batch(struct engine_job *const *jobs, unsigned int n, doca_error_t *status, const char *owner)
{
	const struct engine_xfer *x = n > 0 ? jobs[0]->xfer : NULL;

	if (x != NULL && x->copy_batch != NULL) {
		x->copy_batch(jobs, n, status, owner);
		return;
	}
	for (unsigned int i = 0; i < n; i++)
		status[i] = engine_job_copy_range(jobs[i], 0, jobs[i]->len, owner);
}
