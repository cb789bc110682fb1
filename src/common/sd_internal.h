/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sd_internal.h - helpers shared by every softdoca library (libdoca_common, libdoca_dma,
 * libdoca_argp, ...).
 *
 * Functions prefixed priv_doca_ are exported from libdoca_common under the SOFTDOCA_PRIVATE
 * version node so the other softdoca libraries can reach them; they are not part of the DOCA
 * API and programs must not call them.
 */
#ifndef SD_INTERNAL_H_
#define SD_INTERNAL_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_error.h>
#include <doca_log.h>

#define SD_PRIV				   __attribute__((visibility("default")))
#define SD_UNUSED			   __attribute__((unused))
#define SD_LIKELY(x)			   __builtin_expect(!!(x), 1)
#define SD_UNLIKELY(x)			   __builtin_expect(!!(x), 0)
#define SD_CACHELINE			   64
#define SD_ARRAY_SIZE(a)		   (sizeof(a) / sizeof((a)[0]))
#define SD_CONTAINER_OF(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

/*
 * A full barrier (StoreLoad included), for the wake-up protocols where one side stores a
 * word and then loads another that the other side stores before loading the first. gcc refuses
 * atomic_thread_fence under -fsanitize=thread (-Werror=tsan: TSan does not model fences); there
 * a seq_cst read-modify-write of a word of the caller's own stands in, a locked instruction on
 * x86, the same barrier in hardware. Only sanitizer builds take that branch.
 */
#if defined(__SANITIZE_THREAD__)
#define SD_FULL_FENCE(word) ((void)atomic_fetch_add_explicit((word), 0, memory_order_seq_cst))
#else
#define SD_FULL_FENCE(word) ((void)(word), atomic_thread_fence(memory_order_seq_cst))
#endif

/* Tells the core that this thread is spinning on a word (pause on x86, yield on Arm). */
static inline void sd_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* @n zeroed elements of @size bytes on a cache-line boundary (free() releases them); NULL when
 * out of memory or when @n * @size does not fit a size_t. */
static inline void *sd_calloc_lines(size_t n, size_t size)
{
	void *p = NULL;

	if (size != 0 && n > SIZE_MAX / size)
		return NULL;
	if (posix_memalign(&p, SD_CACHELINE, n * size) != 0)
		return NULL;
	return memset(p, 0, n * size);
}

/* CLOCK_MONOTONIC in nanoseconds (vDSO: no system call). */
static inline uint64_t sd_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * SDK-world logging. @component names the softdoca module ("mmap", "dma", "argp", ...).
 * Messages go to the SDK backends (or stderr when a program created none) when @level passes
 * the global SDK limit.
 */
SD_PRIV void priv_doca_log(uint32_t level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
SD_PRIV void priv_doca_vlog(uint32_t level, const char *component, const char *fmt, va_list ap);
/* Whether a message of @level would be written at all (cheap; use to skip formatting). */
SD_PRIV int priv_doca_log_enabled(uint32_t level);
/*
 * How many error lines this thread has said so far (SD_ERR, SD_REJECT; also those the log level
 * hides). A caller that adds its own line after a failed call compares the count before and
 * after it: when the callee said why, one line is enough.
 */
SD_PRIV uint64_t priv_doca_errors_said(void);

#define SD_ERR(comp, ...)  priv_doca_log(DOCA_LOG_LEVEL_ERROR, comp, __VA_ARGS__)
#define SD_WARN(comp, ...) priv_doca_log(DOCA_LOG_LEVEL_WARNING, comp, __VA_ARGS__)
#define SD_INFO(comp, ...) priv_doca_log(DOCA_LOG_LEVEL_INFO, comp, __VA_ARGS__)
#define SD_DBG(comp, ...)                                                                                              \
	do {                                                                                                           \
		if (priv_doca_log_enabled(DOCA_LOG_LEVEL_DEBUG))                                                       \
			priv_doca_log(DOCA_LOG_LEVEL_DEBUG, comp, __VA_ARGS__);                                        \
	} while (0)
#define SD_TRC(comp, ...)                                                                                              \
	do {                                                                                                           \
		if (priv_doca_log_enabled(DOCA_LOG_LEVEL_TRACE))                                                       \
			priv_doca_log(DOCA_LOG_LEVEL_TRACE, comp, __VA_ARGS__);                                        \
	} while (0)

/*
 * A rejected call: logs one error line "<object>: <rule>; <fix>" and returns @err, so every
 * validation failure reads `return SD_REJECT(DOCA_ERROR_..., "dma", "...", ...)`.
 * SD_REJECT_DBG is for a refusal a correct program meets while it polls (a call made before the
 * context it waits for is RUNNING): the same line and code, at DEBUG.
 */
SD_PRIV doca_error_t priv_doca_reject(doca_error_t err, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
SD_PRIV doca_error_t priv_doca_reject_at(doca_error_t err, uint32_t level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define SD_REJECT(err, comp, ...)     priv_doca_reject(err, comp, __VA_ARGS__)
#define SD_REJECT_DBG(err, comp, ...) priv_doca_reject_at(err, DOCA_LOG_LEVEL_DEBUG, comp, __VA_ARGS__)

/*
 * Repeated SDK lines (log.c): the same line about the same object (same call site, same text) is
 * written at most SOFTDOCA_LOG_REPEATS times (default 3); later ones are counted and summarised
 * in one line when the repetition ends. The context state machine calls
 * priv_doca_log_flush_repeats() at every state change: it writes the pending summaries and
 * forgets the entries (one relaxed load when there are none).
 */
SD_PRIV void priv_doca_log_flush_repeats(void);

/*
 * Strict parsers for SOFTDOCA_* values (env.c). Decimal digits only, no sign or space, no wrap:
 * 0, -EINVAL (not a number) or -ERANGE (outside [min, max] or too large). Probabilities are
 * plain decimals in 0..1 ("0.25", ".5", "1"; no exponent, "inf", "nan" or hex). @out is written only on 0.
 */
SD_PRIV int priv_sd_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
SD_PRIV int priv_sd_parse_prob(const char *s, double *out);
/* "not a number" / "out of range", for the one line that refuses a value. */
SD_PRIV const char *priv_sd_parse_error(int rc);

/* Parses a level given as a number (10..70) or a name ("debug", "WARNING", "err", ...). -1 if bad. */
SD_PRIV int priv_doca_log_level_parse(const char *text);
SD_PRIV const char *priv_doca_log_level_name(uint32_t level);

/*
 * Opens softdoca's private runtime directory, creating it 0700 when absent; writes its path into
 * @dir. Returns an O_DIRECTORY fd, or -errno after logging why (too long, not creatable, a
 * symlink, another owner, not private). @user names who needs it in the log lines ("comch").
 */
SD_PRIV int priv_sd_rundir_open(char *dir, size_t dir_len, const char *user);

#endif /* SD_INTERNAL_H_ */
