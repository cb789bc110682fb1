/*
 * engine.c - the engine registry and the helpers every engine may use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "topology.h"

#define COMP "engine"

/* Every engine softdoca has; a new one is added here and nowhere else. */
static const struct engine_ops *const engines[] = {
	&engine_auto_ops,
	&engine_cpu_ops,
	&engine_inline_ops,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < SD_ARRAY_SIZE(engines); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *engine_names(void)
{
	return "auto, cpu, inline";
}

static const struct engine_ops *default_engine;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void pick_default(void)
{
	const char *env = getenv("SOFTDOCA_ENGINE");
	const struct topology *topo = topo_get();
	const char *name = "auto";
	const char *from = "default";

	if (env != NULL && *env != '\0') {
		name = env;
		from = "SOFTDOCA_ENGINE";
	} else if (topo != NULL && topo->engine[0] != '\0') {
		name = topo->engine;
		from = "the config file";
	}
	default_engine = engine_find(name);
	if (default_engine == NULL)
		SD_ERR(COMP, "unknown engine '%s' (from %s); use one of: %s", name, from, engine_names());
	else
		SD_DBG(COMP, "engine '%s' selected (from %s)", name, from);
}

const struct engine_ops *engine_default(void)
{
	pthread_once(&default_once, pick_default);
	return default_engine;
}

void engine_task_complete(struct engine_job *job, doca_error_t status)
{
	struct engine_notify *n = job->notify;

	job->status = status;
	/* seq_cst pairs with doca_pe_request_notification(): store done, then look at armed. */
	atomic_store(&job->done, 1);
	if (n != NULL && atomic_load(&n->armed) && atomic_exchange(&n->armed, 0)) {
		uint64_t one = 1;
		ssize_t r = write(n->efd, &one, sizeof(one));

		(void)r; /* EAGAIN means the counter is already non-zero: the waiter wakes anyway. */
	}
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

void engine_copy_local(const struct engine_job *job)
{
	if (SD_LIKELY(job->nsrc == 1 && job->ndst == 1)) {
		memcpy(job->dst[0].addr, job->src[0].addr, job->len);
		return;
	}
	engine_copy_range(job, 0, job->len);
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
