/* SPDX-License-Identifier: BSD-3-Clause */
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
 * Off unless set; when on, one line at first use says what is injected. A value that cannot be
 * used whole (unknown key, a number out of range or malformed, a key given twice, more than 511
 * bytes) is refused: every context start then fails with DOCA_ERROR_BAD_CONFIG and one line
 * naming the variable, the value and what is accepted. Nothing is ever half-applied.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

#define COMP "fault"

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

/* Keys given in SOFTDOCA_FAULT, for the banner and to refuse a key given twice. */
enum {
	F_AGAIN = 1 << 0,
	F_ERROR = 1 << 1,
	F_ERROR_PROB = 1 << 2,
	F_NTH = 1 << 3,
	F_DELAY = 1 << 4,
	F_STALL = 1 << 5,
	F_SEED = 1 << 6,
};

#define FAULT_MAX_LEN	   511		       /* longer values are refused, never cut */
#define FAULT_MAX_DELAY_US 60000000ull	       /* 60 s */
#define FAULT_MAX_STALL_MS 600000ull	       /* 10 min */
#define FAULT_MAX_COUNT	   (UINT64_C(1) << 62) /* task numbers */
#define FAULT_KEYS	   "again, error, error_prob, nth, delay_us, stall and seed"

/*
 * Parses a SOFTDOCA_FAULT value into @c (defaults first) and the keys given into @given.
 * Pure, so the fuzz target drives it. Returns false with the reason in @err; @c is then
 * unspecified and must not be used: a setting is applied whole or not at all.
 */
SD_PRIV bool priv_sd_fault_parse(const char *env, struct fault_config *c, unsigned int *given, char *err,
				 size_t err_len)
{
	char buf[FAULT_MAX_LEN + 1], *save = NULL, *tok;
	size_t len = strlen(env);

	*c = (struct fault_config){.error = DOCA_ERROR_DRIVER, .seed = 1};
	*given = 0;
	if (len > FAULT_MAX_LEN) {
		snprintf(err, err_len, "the value is %zu bytes long, more than %d", len, FAULT_MAX_LEN);
		return false;
	}
	memcpy(buf, env, len + 1);
	if (len == 0 || buf[0] == ',' || buf[len - 1] == ',' || strstr(buf, ",,") != NULL) {
		snprintf(err, err_len, "empty setting between commas");
		return false;
	}
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *k = tok, *v, *why = NULL;
		unsigned int key = 0;
		uint64_t a = 0, b = 0;
		int rc = 0;

		if (eq == NULL) {
			snprintf(err, err_len, "'%.64s' is not key=value", tok);
			return false;
		}
		*eq = '\0';
		v = eq + 1;
		if (strcmp(k, "again") == 0) {
			key = F_AGAIN;
			rc = priv_sd_parse_prob(v, &c->again_p);
		} else if (strcmp(k, "error_prob") == 0) {
			key = F_ERROR_PROB;
			rc = priv_sd_parse_prob(v, &c->error_p);
		} else if (strcmp(k, "nth") == 0) {
			key = F_NTH;
			rc = priv_sd_parse_u64(v, 1, FAULT_MAX_COUNT, &c->nth);
		} else if (strcmp(k, "delay_us") == 0) {
			key = F_DELAY;
			rc = priv_sd_parse_u64(v, 0, FAULT_MAX_DELAY_US, &a);
			c->delay_ns = a * 1000u;
		} else if (strcmp(k, "stall") == 0) {
			char *colon = strchr(v, ':');

			key = F_STALL;
			if (colon == NULL) {
				rc = -EINVAL;
			} else {
				*colon = '\0';
				rc = priv_sd_parse_u64(v, 1, FAULT_MAX_COUNT, &a);
				if (rc == 0)
					rc = priv_sd_parse_u64(colon + 1, 0, FAULT_MAX_STALL_MS, &b);
				*colon = ':';
			}
			c->stall_nth = a;
			c->stall_ns = b * 1000000u;
		} else if (strcmp(k, "seed") == 0) {
			key = F_SEED;
			rc = priv_sd_parse_u64(v, 0, UINT64_MAX, &c->seed);
		} else if (strcmp(k, "error") == 0) {
			key = F_ERROR;
			c->error = error_by_name(v);
			if (c->error == DOCA_SUCCESS)
				why = "not a DOCA error name (e.g. DRIVER, IO_FAILED)";
		} else {
			snprintf(err, err_len, "unknown key '%.32s' (the keys are %s)", k, FAULT_KEYS);
			return false;
		}
		if (rc != 0)
			why = key == F_AGAIN || key == F_ERROR_PROB ? "not a probability in 0..1"
			      : key == F_STALL			    ? "not N:MS (N >= 1, MS <= 600000)"
			      : key == F_DELAY			    ? "not a number of microseconds in 0..60000000"
			      : key == F_NTH			    ? "not a task number >= 1"
								    : "not a seed in 0..18446744073709551615";
		if (why == NULL && (*given & key))
			why = "given twice";
		if (why != NULL) {
			snprintf(err, err_len, "'%s=%.64s': %s", k, v, why);
			return false;
		}
		*given |= key;
	}
	if ((*given & F_ERROR) && !(*given & (F_ERROR_PROB | F_NTH))) {
		snprintf(err, err_len, "error=NAME needs error_prob=P or nth=N to say which tasks fail");
		return false;
	}
	return true;
}

static char fault_err[640];
static bool fault_bad;

static void fault_init(void)
{
	const char *env = getenv("SOFTDOCA_FAULT");
	struct fault_config c;
	unsigned int given;
	char why[256], banner[256];
	size_t n = 0;

	if (env == NULL || *env == '\0')
		return;
	if (!priv_sd_fault_parse(env, &c, &given, why, sizeof(why))) {
		snprintf(fault_err, sizeof(fault_err), "SOFTDOCA_FAULT='%.256s': %s", env, why);
		fault_bad = true;
		return;
	}
	fcfg = c;
	fault_on = true;
	/* The banner names what was asked for, and nothing else. */
	banner[0] = '\0';
#define ADD(...) (n += (size_t)snprintf(banner + n, n < sizeof(banner) ? sizeof(banner) - n : 0, __VA_ARGS__))
	if (given & F_AGAIN)
		ADD("; submit AGAIN with p=%g", c.again_p);
	if (given & F_ERROR_PROB)
		ADD("; completion %s with p=%g", doca_error_get_name(c.error), c.error_p);
	if (given & F_NTH)
		ADD("; task #%llu completes with %s", (unsigned long long)c.nth, doca_error_get_name(c.error));
	if (given & F_DELAY)
		ADD("; every completion at least %llu us late", (unsigned long long)(c.delay_ns / 1000));
	if (given & F_STALL)
		ADD("; task #%llu and those behind it %llu ms late", (unsigned long long)c.stall_nth,
		    (unsigned long long)(c.stall_ns / 1000000));
	if (given & F_SEED)
		ADD("; seed %llu", (unsigned long long)c.seed);
#undef ADD
	SD_WARN(COMP, "fault injection on (SOFTDOCA_FAULT)%s", banner);
}

bool fault_enabled(void)
{
	pthread_once(&fault_once, fault_init);
	return fault_on;
}

const char *fault_config_error(void)
{
	pthread_once(&fault_once, fault_init);
	return fault_bad ? fault_err : NULL;
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
