/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_clock.h - reading device and host clocks, and cross timestamps between them.
 *
 * A doca_clock belongs to one device. doca_clock_get_timestamp() reads one clock;
 * doca_clock_get_crosstimestamp() reads a primary clock (any DOCA_CLOCK_*) and a NIC clock
 * (DOCA_CLOCK_NIC_*) as close together as possible and says how far apart the two readings may
 * be (the error margin, in nanoseconds, or in counter cycles when the primary clock is
 * DOCA_CLOCK_HOST_COUNTER_CYCLES).
 *
 * Clock readings use union doca_clock_timespec_t: `counter` for DOCA_CLOCK_HOST_COUNTER_CYCLES,
 * `ts` (seconds and nanoseconds) for every other clock.
 *
 * doca_dev.h comes with this header: programs size PCI address buffers for the clock's device
 * with DOCA_DEVINFO_PCI_ADDR_SIZE after including only this one.
 *
 * softdoca: there is no NIC, so the NIC clocks are emulated from host clocks (see README):
 * the free-running clock is CLOCK_MONOTONIC_RAW, the real-time clock is CLOCK_REALTIME (a NIC
 * clock kept in step with system time, as phc2sys would); the DPA timer is not supported.
 */
#ifndef DOCA_CLOCK_H_
#define DOCA_CLOCK_H_

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <doca_compat.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_clock;
struct doca_dev;
struct doca_devinfo;

/** The clocks, one bit each. */
#define DOCA_CLOCK_NIC_FREE_RUNNING    0x1	   /**< NIC free-running clock (ts) */
#define DOCA_CLOCK_NIC_REAL_TIME       (0x1 << 1)  /**< NIC real-time clock (ts) */
#define DOCA_CLOCK_NIC_DPA_TIMER       (0x1 << 8)  /**< NIC DPA timer (ts) */
#define DOCA_CLOCK_HOST_COUNTER_CYCLES (0x1 << 16) /**< CPU cycle counter (counter): TSC, CNTVCT_EL0 */
#define DOCA_CLOCK_HOST_REAL_TIME      (0x1 << 17) /**< CLOCK_REALTIME (ts) */
#define DOCA_CLOCK_HOST_MONOTONIC      (0x1 << 18) /**< CLOCK_MONOTONIC (ts) */
#define DOCA_CLOCK_HOST_MONOTONIC_RAW  (0x1 << 19) /**< CLOCK_MONOTONIC_RAW (ts) */

/** One clock reading. */
union doca_clock_timespec_t {
	struct timespec ts; /**< seconds and nanoseconds */
	uint64_t counter;   /**< raw counter value */
};

/** SUCCESS when @devinfo has a NIC free-running clock, else NOT_SUPPORTED; INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo);
/** SUCCESS when @devinfo has a NIC real-time clock, else NOT_SUPPORTED; INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo);
/** SUCCESS when @devinfo has a DPA timer, else NOT_SUPPORTED; INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo);

/** A clock of open device @dev. INVALID_VALUE for NULL; NO_MEMORY. */
DOCA_EXPERIMENTAL doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock);
/** INVALID_VALUE for NULL. */
DOCA_EXPERIMENTAL doca_error_t doca_clock_destroy(struct doca_clock *clock);

/**
 * Reads clock @clock_type (one DOCA_CLOCK_* bit) into @clock_ts. INVALID_VALUE for NULL or a
 * value that is not one clock; NOT_SUPPORTED for a clock the device does not have.
 */
DOCA_EXPERIMENTAL doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
							union doca_clock_timespec_t *clock_ts);

/**
 * Reads @primary_clock_type and NIC clock @nic_clock_type together. @error_margin_nsecs: how far
 * apart the two readings may lie (0 = exact). INVALID_VALUE for NULL, a value that is not one
 * clock, or a @nic_clock_type that is not a NIC clock; NOT_SUPPORTED for a clock the device does
 * not have.
 */
DOCA_EXPERIMENTAL doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock,
							     uint64_t primary_clock_type, uint64_t nic_clock_type,
							     union doca_clock_timespec_t *primary_clock_ts,
							     union doca_clock_timespec_t *nic_clock_ts,
							     uint64_t *error_margin_nsecs);

#ifdef __cplusplus
}
#endif

#endif /* DOCA_CLOCK_H_ */
