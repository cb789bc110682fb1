/*
 * fault.c - fault injection for testing applications' error paths.
 *
 * SOFTDOCA_FAULT is a comma-separated list of key=value:
 *   again=P        doca_task_submit returns DOCA_ERROR_AGAIN with probability P (0..1)
 *   error=NAME     status of injected task failures (default DRIVER); NAME is the part after
 *                  DOCA_ERROR_, e.g. IO_FAILED
 *   error_prob=P   each successful task completes with `error` instead, with probability P
 *   nth=N          the N-th completed task (1-based) fails with `error`
 *   delay_us=U     every task completes at least U microseconds after its submission
 *   stall=N:MS     the N-th submitted task (1-based) completes MS milliseconds late, and every
 *                  task behind it waits too (completions keep their order): an engine stall
 *   seed=S         seed of the random choices (default 1, so runs repeat)
 * Off unless set; when on, one line at first use says what is injected. A malformed value is
 * reported and the whole setting ignored, never half-applied.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

#define COMP "fault"

struct fault_config {
	double again_p;
	double error_p;
	uint64_t nth;
	uint64_t delay_ns;
	uint64_t stall_nth;
	uint64_t stall_ns;
	doca_error_t error;
	uint64_t seed;
};

static struct fault_config fcfg;
static bool fault_on;
static pthread_once_t fault_once = PTHREAD_ONCE_INIT;
static atomic_ullong completions;
static atomic_ullong submissions;
static _Thread_local uint64_t rng_state;

static doca_error_t error_by_name(const char *name)
{
	char full[64];

	snprintf(full, sizeof(full), "DOCA_ERROR_%s", name);
	for (int e = 1; e <= DOCA_ERROR_DEVICE_FATAL_ERROR; e++)
		if (strcmp(doca_error_get_name((doca_error_t)e), full) == 0 ||
		    strcmp(doca_error_get_name((doca_error_t)e), name) == 0)
			return (doca_error_t)e;
	return DOCA_SUCCESS;
}

static bool parse_prob(const char *v, double *out)
{
	char *end;
	double p = strtod(v, &end);

	if (*end != '\0' || end == v || !(p >= 0.0 && p <= 1.0))
		return false;
	*out = p;
	return true;
}

static void fault_init(void)
{
	const char *env = getenv("SOFTDOCA_FAULT");
	struct fault_config c = {.error = DOCA_ERROR_DRIVER, .seed = 1};
	char buf[512], *save = NULL, *tok;

	if (env == NULL || *env == '\0')
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		char *end;
		bool ok = eq != NULL;

		if (ok) {
			*eq = '\0';
			const char *k = tok, *v = eq + 1;

			if (strcmp(k, "again") == 0) {
				ok = parse_prob(v, &c.again_p);
			} else if (strcmp(k, "error_prob") == 0) {
				ok = parse_prob(v, &c.error_p);
			} else if (strcmp(k, "nth") == 0) {
				c.nth = strtoull(v, &end, 10);
				ok = *v != '\0' && *end == '\0' && c.nth > 0;
			} else if (strcmp(k, "delay_us") == 0) {
				c.delay_ns = strtoull(v, &end, 10) * 1000ull;
				ok = *v != '\0' && *end == '\0' && c.delay_ns <= 60000000000ull;
			} else if (strcmp(k, "stall") == 0) {
				unsigned long long nth, ms;
				int used = 0;

				ok = sscanf(v, "%llu:%llu%n", &nth, &ms, &used) == 2 && v[used] == '\0' && nth > 0 &&
				     ms <= 600000;
				c.stall_nth = nth;
				c.stall_ns = ms * 1000000ull;
			} else if (strcmp(k, "seed") == 0) {
				c.seed = strtoull(v, &end, 10);
				ok = *v != '\0' && *end == '\0';
			} else if (strcmp(k, "error") == 0) {
				c.error = error_by_name(v);
				ok = c.error != DOCA_SUCCESS;
			} else {
				ok = false;
			}
			if (!ok)
				*eq = '=';
		}
		if (!ok) {
			SD_ERR(COMP,
			       "SOFTDOCA_FAULT='%s': cannot use '%s'; expected again=P, error=NAME, error_prob=P, "
			       "nth=N, delay_us=U, stall=N:MS, seed=S (P in 0..1); no fault is injected",
			       env, tok);
			return;
		}
	}
	fcfg = c;
	fault_on = true;
	SD_WARN(COMP,
		"fault injection on: submit AGAIN p=%.3f; completion %s p=%.3f, on task #%llu (0 = none); "
		"delay %llu us; stall of task #%llu by %llu ms (0 = none); seed %llu",
		c.again_p, doca_error_get_name(c.error), c.error_p, (unsigned long long)c.nth,
		(unsigned long long)(c.delay_ns / 1000), (unsigned long long)c.stall_nth,
		(unsigned long long)(c.stall_ns / 1000000), (unsigned long long)c.seed);
}

bool fault_enabled(void)
{
	pthread_once(&fault_once, fault_init);
	return fault_on;
}

static double rnd(void)
{
	if (rng_state == 0)
		rng_state = fcfg.seed * 0x9E3779B97F4A7C15ull + 1;
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) / (double)(1ull << 53);
}

bool fault_submit_again(void)
{
	return fcfg.again_p > 0.0 && rnd() < fcfg.again_p;
}

doca_error_t fault_complete_status(void)
{
	uint64_t n = atomic_fetch_add(&completions, 1) + 1;

	if (fcfg.nth != 0 && n == fcfg.nth)
		return fcfg.error;
	if (fcfg.error_p > 0.0 && rnd() < fcfg.error_p)
		return fcfg.error;
	return DOCA_SUCCESS;
}

uint64_t fault_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t fault_delay_ns(void)
{
	uint64_t n = atomic_fetch_add(&submissions, 1) + 1, extra = fcfg.delay_ns;

	if (fcfg.stall_nth != 0 && n == fcfg.stall_nth)
		extra += fcfg.stall_ns;
	return extra ? fault_now_ns() + extra : 0;
}
