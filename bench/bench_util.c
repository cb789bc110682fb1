/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_util.c - timing and memory helpers shared by the benchmark programs.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "sd_internal.h"

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t bench_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define BENCH_ARENA_MAX (UINT64_C(1) << 40) /* 1 TiB */

size_t bench_cold_arena_bytes(void)
{
	const char *env = getenv("SOFTDOCA_BENCH_ARENA");
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
	size_t cap = (size_t)1 << 30, want;

	if (env != NULL && *env != '\0') {
		uint64_t v;

		/* Refused whole, as every SOFTDOCA_* value: a bench run on a size nobody asked for
		 * would report figures for the wrong memory. */
		if (priv_sd_parse_u64(env, 1, BENCH_ARENA_MAX, &v) != 0) {
			fprintf(stderr,
				"%s: SOFTDOCA_BENCH_ARENA='%.64s': not a number of bytes in 1..%llu; fix the value or "
				"unset the variable\n",
				program_invocation_short_name, env, (unsigned long long)BENCH_ARENA_MAX);
			exit(2);
		}
		return (size_t)v;
	}
	if (l3 <= 0)
		l3 = 32l << 20;
	want = (size_t)l3 * 16;
	return want < cap ? want : cap;
}

void *bench_alloc(size_t len, uint8_t pattern)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, pattern, len);
	return p;
}

void bench_free(void *p, size_t len)
{
	if (p != NULL)
		munmap(p, len);
}

struct rtt_arg {
	_Atomic uint64_t *flag;
	int iters;
};

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *rtt_peer(void *p)
{
	struct rtt_arg *a = p;

	pin(1);
	for (int i = 0; i < a->iters; i++) {
		while (atomic_load_explicit(a->flag, memory_order_acquire) != (uint64_t)(2 * i + 1))
			;
		atomic_store_explicit(a->flag, (uint64_t)(2 * i + 2), memory_order_release);
	}
	return NULL;
}

double bench_cross_core_rtt_ns(void)
{
	static _Alignas(64) _Atomic uint64_t flag;
	struct rtt_arg a = {.flag = &flag, .iters = 200000};
	pthread_t t;
	uint64_t t0, t1;
	cpu_set_t saved;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0.0;
	pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved);
	atomic_store(&flag, 0);
	pthread_create(&t, NULL, rtt_peer, &a);
	pin(0);
	t0 = bench_now_ns();
	for (int i = 0; i < a.iters; i++) {
		atomic_store_explicit(&flag, (uint64_t)(2 * i + 1), memory_order_release);
		while (atomic_load_explicit(&flag, memory_order_acquire) != (uint64_t)(2 * i + 2))
			;
	}
	t1 = bench_now_ns();
	pthread_join(t, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	return (double)(t1 - t0) / a.iters;
}

bool bench_thread_attr_on(pthread_attr_t *attr, int nth)
{
	cpu_set_t allowed, one;
	int seen = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0 || CPU_COUNT(&allowed) < 2)
		return false;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || seen++ != nth)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		return pthread_attr_setaffinity_np(attr, sizeof(one), &one) == 0;
	}
	return false;
}
