/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_clock.c - doca_clock.h: capabilities, single readings, cross timestamps.
 *
 * No timing thresholds: each reading is checked to lie between two readings of the host clock
 * softdoca documents behind it, taken just before and just after; a cross timestamp of two
 * clocks with the same base must differ by at most the error margin it reports; counters must
 * not go backwards.
 */
#include <stdint.h>
#include <time.h>

#include <doca_clock.h>
#include <doca_dev.h>

#include "../common/sd_test.h"

#define T_N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t ts_ns(const union doca_clock_timespec_t *t)
{
	CHECK(t->ts.tv_nsec >= 0 && t->ts.tv_nsec < 1000000000);
	return (uint64_t)t->ts.tv_sec * 1000000000u + (uint64_t)t->ts.tv_nsec;
}

static const struct {
	uint64_t type;
	clockid_t base;
} ts_clocks[] = {
	{DOCA_CLOCK_NIC_FREE_RUNNING, CLOCK_MONOTONIC_RAW}, {DOCA_CLOCK_NIC_REAL_TIME, CLOCK_REALTIME},
	{DOCA_CLOCK_HOST_REAL_TIME, CLOCK_REALTIME},	    {DOCA_CLOCK_HOST_MONOTONIC, CLOCK_MONOTONIC},
	{DOCA_CLOCK_HOST_MONOTONIC_RAW, CLOCK_MONOTONIC_RAW},
};

static void test_caps(struct doca_dev *dev)
{
	struct doca_devinfo *info = doca_dev_as_devinfo(dev);

	CHECK_OK(doca_clock_cap_nic_free_running_is_supported(info));
	CHECK_OK(doca_clock_cap_nic_real_time_is_supported(info));
	CHECK_ERR(doca_clock_cap_nic_dpa_timer_is_supported(info), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_cap_nic_free_running_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_cap_nic_real_time_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_cap_nic_dpa_timer_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_single(const struct doca_clock *clk)
{
	union doca_clock_timespec_t t;

	for (size_t i = 0; i < T_N(ts_clocks); i++) {
		uint64_t before = now_ns(ts_clocks[i].base);

		CHECK_OK(doca_clock_get_timestamp(clk, ts_clocks[i].type, &t));
		uint64_t after = now_ns(ts_clocks[i].base);
		uint64_t v = ts_ns(&t);

		if (ts_clocks[i].base != CLOCK_REALTIME) /* CLOCK_REALTIME may be stepped meanwhile */
			CHECK(before <= v && v <= after);
	}

	union doca_clock_timespec_t c1, c2;

	CHECK_OK(doca_clock_get_timestamp(clk, DOCA_CLOCK_HOST_COUNTER_CYCLES, &c1));
	CHECK_OK(doca_clock_get_timestamp(clk, DOCA_CLOCK_HOST_COUNTER_CYCLES, &c2));
	CHECK(c2.counter >= c1.counter && c1.counter != 0);

	CHECK_ERR(doca_clock_get_timestamp(clk, DOCA_CLOCK_NIC_DPA_TIMER, &t), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_get_timestamp(clk, 0, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clk, DOCA_CLOCK_NIC_REAL_TIME | DOCA_CLOCK_HOST_REAL_TIME, &t),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clk, 1u << 5, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(NULL, DOCA_CLOCK_HOST_REAL_TIME, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clk, DOCA_CLOCK_HOST_REAL_TIME, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_cross(const struct doca_clock *clk)
{
	union doca_clock_timespec_t p, n;
	uint64_t margin = 12345;

	/* Different bases: each side lies within its own base clock's bracket. */
	uint64_t mono0 = now_ns(CLOCK_MONOTONIC), raw0 = now_ns(CLOCK_MONOTONIC_RAW);

	CHECK_OK(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_MONOTONIC, DOCA_CLOCK_NIC_FREE_RUNNING, &p, &n,
					       &margin));
	uint64_t raw1 = now_ns(CLOCK_MONOTONIC_RAW), mono1 = now_ns(CLOCK_MONOTONIC);

	CHECK(mono0 <= ts_ns(&p) && ts_ns(&p) <= mono1);
	CHECK(raw0 <= ts_ns(&n) && ts_ns(&n) <= raw1);
	CHECK(margin <= mono1 - mono0);

	/* Same base (host monotonic raw vs the emulated free-running clock): within the margin. */
	CHECK_OK(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_MONOTONIC_RAW, DOCA_CLOCK_NIC_FREE_RUNNING, &p,
					       &n, &margin));
	uint64_t a = ts_ns(&p), b = ts_ns(&n);

	CHECK((a > b ? a - b : b - a) <= margin);

	/* Cycle counter as the primary clock: the margin is in cycles, the counter moves forward. */
	union doca_clock_timespec_t c0, c1;

	CHECK_OK(doca_clock_get_timestamp(clk, DOCA_CLOCK_HOST_COUNTER_CYCLES, &c0));
	CHECK_OK(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_COUNTER_CYCLES, DOCA_CLOCK_NIC_REAL_TIME, &p, &n,
					       &margin));
	CHECK_OK(doca_clock_get_timestamp(clk, DOCA_CLOCK_HOST_COUNTER_CYCLES, &c1));
	CHECK(c0.counter <= p.counter && p.counter <= c1.counter);
	CHECK(margin <= c1.counter - c0.counter);
#if defined(__x86_64__)
	/* The TSC ticks every cycle: a NIC read between two TSC reads cannot take none. */
	CHECK(margin > 0);
#endif

	/* A NIC clock as the primary one is fine; a host clock as the NIC clock is not. */
	CHECK_OK(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_NIC_REAL_TIME, DOCA_CLOCK_NIC_FREE_RUNNING, &p, &n,
					       &margin));
	CHECK_ERR(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_HOST_MONOTONIC, &p, &n,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_DPA_TIMER, &p, &n,
						&margin),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_get_crosstimestamp(clk, 0, DOCA_CLOCK_NIC_REAL_TIME, &p, &n, &margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_REAL_TIME, NULL, &n,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clk, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_REAL_TIME, &p, &n, NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(NULL, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_REAL_TIME, &p, &n,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	/* One device of each side: the emulated clocks do not depend on it. */
	const char *pcis[] = {"03:00.0", "b1:00.0"};

	for (size_t i = 0; i < T_N(pcis); i++) {
		struct doca_dev *dev = sd_open_dev(pcis[i]);
		struct doca_clock *clk = NULL;

		test_caps(dev);
		CHECK_ERR(doca_clock_create(NULL, &clk), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_clock_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_clock_create(dev, &clk));
		test_single(clk);
		test_cross(clk);
		CHECK_OK(doca_clock_destroy(clk));
		CHECK_ERR(doca_clock_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_dev_close(dev));
	}
	printf("clock: ok\n");
	return T_EXIT_PASS;
}
