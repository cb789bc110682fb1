/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_util.h - timing and memory helpers shared by the benchmark programs.
 */
#ifndef BENCH_UTIL_H_
#define BENCH_UTIL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t bench_now_ns(void);
/* CPU time (user+system) consumed by the calling thread, in ns. */
uint64_t bench_thread_cpu_ns(void);
/* Bytes of the arenas used for cold copies: 16x the L3 cache, capped, or SOFTDOCA_BENCH_ARENA
 * (1 byte to 1 TiB; any other value is refused with one line and exit status 2). */
size_t bench_cold_arena_bytes(void);
/* A page-aligned, pre-faulted buffer of @len bytes filled with a pattern. NULL on failure. */
void *bench_alloc(size_t len, uint8_t pattern);
void bench_free(void *p, size_t len);
/*
 * Puts the thread @attr makes on the @nth CPU this process may run on; false (and @attr left
 * alone) when there are fewer than two such CPUs or no @nth.
 */
bool bench_thread_attr_on(pthread_attr_t *attr, int nth);
/* Median-of-run cross-core round trip between two threads pinned to CPUs 0 and 1, in ns. */
double bench_cross_core_rtt_ns(void);

#endif /* BENCH_UTIL_H_ */
