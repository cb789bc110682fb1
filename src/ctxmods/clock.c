/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * clock.c - DOCA clock: device and host clock readings and cross timestamps.
 *
 * softdoca has no NIC, so the NIC clocks are emulated from the host's own clocks:
 *
 *   DOCA_CLOCK_NIC_FREE_RUNNING   CLOCK_MONOTONIC_RAW: like a NIC's free-running counter, it is
 *                                 never adjusted and starts from an arbitrary epoch (boot)
 *   DOCA_CLOCK_NIC_REAL_TIME      CLOCK_REALTIME: a NIC real-time clock disciplined to system
 *                                 time (what phc2sys keeps a PHC at); follows its steps
 *   DOCA_CLOCK_NIC_DPA_TIMER      not supported (no DPA)
 *
 * A cross timestamp reads the primary clock, the NIC clock, and the primary clock again, a few
 * times, and keeps the tightest window: the primary reading returned is the window's midpoint
 * and the error margin half its width (PTP_SYS_OFFSET_EXTENDED does the same against a PHC).
 * The margin is in counter cycles when the primary clock is the cycle counter.
 */
#include <stdlib.h>
#include <time.h>

#include <doca_clock.h>

#include "core.h"

#define COMP "clock"
/* Attempts per cross timestamp; the tightest is kept. */
#define CROSS_TRIES 5

#define NIC_CLOCKS (DOCA_CLOCK_NIC_FREE_RUNNING | DOCA_CLOCK_NIC_REAL_TIME | DOCA_CLOCK_NIC_DPA_TIMER)
#define HOST_CLOCKS                                                                                                    \
	(DOCA_CLOCK_HOST_COUNTER_CYCLES | DOCA_CLOCK_HOST_REAL_TIME | DOCA_CLOCK_HOST_MONOTONIC |                      \
	 DOCA_CLOCK_HOST_MONOTONIC_RAW)

struct doca_clock {
	const struct doca_dev *dev;
};

/* ---- capabilities ---- */

static doca_error_t cap(const struct doca_devinfo *devinfo, const char *call, bool supported)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL devinfo", call);
	/* A capability answer, not a rejection: no error line. */
	return supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo)
{
	return cap(devinfo, "doca_clock_cap_nic_free_running_is_supported", true);
}

DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo)
{
	return cap(devinfo, "doca_clock_cap_nic_real_time_is_supported", true);
}

DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo)
{
	return cap(devinfo, "doca_clock_cap_nic_dpa_timer_is_supported", false);
}

/* ---- life cycle ---- */

DOCA_EXPERIMENTAL doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock)
{
	struct doca_clock *c;

	if (dev == NULL || clock == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_clock_create: NULL %s",
				 dev == NULL ? "device" : "output argument");
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_clock_create: out of memory");
	c->dev = dev;
	*clock = c;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_clock_destroy(struct doca_clock *clock)
{
	if (clock == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_clock_destroy: NULL clock");
	free(clock);
	return DOCA_SUCCESS;
}

/* ---- readings ---- */

static inline uint64_t read_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* The POSIX clock behind a timespec clock; -1 for the cycle counter or an unsupported one. */
static clockid_t posix_clock(uint64_t type)
{
	switch (type) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
	case DOCA_CLOCK_HOST_MONOTONIC_RAW:
		return CLOCK_MONOTONIC_RAW;
	case DOCA_CLOCK_NIC_REAL_TIME:
	case DOCA_CLOCK_HOST_REAL_TIME:
		return CLOCK_REALTIME;
	case DOCA_CLOCK_HOST_MONOTONIC:
		return CLOCK_MONOTONIC;
	}
	return (clockid_t)-1;
}

static const char *clock_name(uint64_t type)
{
	switch (type) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
		return "DOCA_CLOCK_NIC_FREE_RUNNING";
	case DOCA_CLOCK_NIC_REAL_TIME:
		return "DOCA_CLOCK_NIC_REAL_TIME";
	case DOCA_CLOCK_NIC_DPA_TIMER:
		return "DOCA_CLOCK_NIC_DPA_TIMER";
	case DOCA_CLOCK_HOST_COUNTER_CYCLES:
		return "DOCA_CLOCK_HOST_COUNTER_CYCLES";
	case DOCA_CLOCK_HOST_REAL_TIME:
		return "DOCA_CLOCK_HOST_REAL_TIME";
	case DOCA_CLOCK_HOST_MONOTONIC:
		return "DOCA_CLOCK_HOST_MONOTONIC";
	case DOCA_CLOCK_HOST_MONOTONIC_RAW:
		return "DOCA_CLOCK_HOST_MONOTONIC_RAW";
	}
	return "?";
}

/* Checks that @type names one clock this device has; @what says which argument for the log. */
static doca_error_t check_type(const struct doca_clock *clock, uint64_t type, const char *call, const char *what,
			       bool nic_only)
{
	uint64_t allowed = nic_only ? NIC_CLOCKS : (NIC_CLOCKS | HOST_CLOCKS);

	if (type == 0 || (type & (type - 1)) != 0 || (type & ~allowed) != 0)
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP, "%s: %s 0x%llx is not %s; pass exactly one DOCA_CLOCK_%s* value",
		    call, what, (unsigned long long)type, nic_only ? "a NIC clock" : "a clock", nic_only ? "NIC_" : "");
	if (type == DOCA_CLOCK_NIC_DPA_TIMER)
		return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
				 "%s: device %s has no %s (softdoca emulates no DPA); use "
				 "DOCA_CLOCK_NIC_FREE_RUNNING or DOCA_CLOCK_NIC_REAL_TIME",
				 call, priv_doca_dev_name(&clock->dev->info), clock_name(type));
	return DOCA_SUCCESS;
}

static inline uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static inline struct timespec ns_ts(uint64_t ns)
{
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};

	return ts;
}

/* One reading of a checked clock, as a counter (cycles) or nanoseconds. */
static inline uint64_t read_raw(uint64_t type)
{
	struct timespec ts;

	if (type == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		return read_cycles();
	clock_gettime(posix_clock(type), &ts);
	return ts_ns(&ts);
}

static inline void to_timespec(uint64_t type, uint64_t raw, union doca_clock_timespec_t *out)
{
	if (type == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		out->counter = raw;
	else
		out->ts = ns_ts(raw);
}

DOCA_EXPERIMENTAL doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
							union doca_clock_timespec_t *clock_ts)
{
	doca_error_t ret;

	if (clock == NULL || clock_ts == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_clock_get_timestamp: NULL %s",
				 clock == NULL ? "clock" : "output");
	ret = check_type(clock, clock_type, "doca_clock_get_timestamp", "clock_type", false);
	if (ret != DOCA_SUCCESS)
		return ret;
	to_timespec(clock_type, read_raw(clock_type), clock_ts);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock,
							     uint64_t primary_clock_type, uint64_t nic_clock_type,
							     union doca_clock_timespec_t *primary_clock_ts,
							     union doca_clock_timespec_t *nic_clock_ts,
							     uint64_t *error_margin_nsecs)
{
	const char *call = "doca_clock_get_crosstimestamp";
	uint64_t best_width = UINT64_MAX, best_mid = 0, best_nic = 0;
	doca_error_t ret;

	if (clock == NULL || primary_clock_ts == NULL || nic_clock_ts == NULL || error_margin_nsecs == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL %s", call,
				 clock == NULL ? "clock" : "output argument");
	ret = check_type(clock, primary_clock_type, call, "primary_clock_type", false);
	if (ret == DOCA_SUCCESS)
		ret = check_type(clock, nic_clock_type, call, "nic_clock_type", true);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (posix_clock(primary_clock_type) == posix_clock(nic_clock_type)) {
		/* Both emulated by the same host clock: one reading is exact. */
		uint64_t v = read_raw(nic_clock_type);

		to_timespec(primary_clock_type, v, primary_clock_ts);
		to_timespec(nic_clock_type, v, nic_clock_ts);
		*error_margin_nsecs = 0;
		return DOCA_SUCCESS;
	}
	for (int i = 0; i < CROSS_TRIES; i++) {
		uint64_t before = read_raw(primary_clock_type);
		uint64_t nic = read_raw(nic_clock_type);
		uint64_t after = read_raw(primary_clock_type);
		uint64_t width;

		if (after < before)
			continue; /* the primary clock was stepped back in between: useless window */
		width = after - before;
		if (width < best_width) {
			best_width = width;
			best_mid = before + width / 2;
			best_nic = nic;
		}
	}
	if (best_width == UINT64_MAX)
		return SD_REJECT(DOCA_ERROR_DRIVER, COMP,
				 "%s: %s kept stepping backwards during %d attempts; retry once it is stable", call,
				 clock_name(primary_clock_type), CROSS_TRIES);
	to_timespec(primary_clock_type, best_mid, primary_clock_ts);
	to_timespec(nic_clock_type, best_nic, nic_clock_ts);
	*error_margin_nsecs = (best_width + 1) / 2;
	return DOCA_SUCCESS;
}
