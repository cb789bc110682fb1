/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_dpdk_bridge.c - doca_dpdk.h: every call validates its arguments, then refuses with its
 * documented code and one logged line saying why and what to use instead.
 */
#include <sys/mman.h>

#include <doca_dpdk.h>
#include <doca_log.h>

#include "sd_test.h"

static int log_fd = -1;

/* Lines logged since the last call. */
static unsigned int new_lines(const char *want)
{
	static off_t seen;
	off_t n = lseek(log_fd, 0, SEEK_END);
	char *s = calloc(1, (size_t)(n - seen) + 1);
	unsigned int lines = 0;

	CHECK(s != NULL);
	CHECK(pread(log_fd, s, (size_t)(n - seen), seen) == n - seen);
	for (const char *p = s; *p != '\0'; p++)
		lines += *p == '\n';
	if (want != NULL)
		CHECK(strstr(s, want) != NULL);
	seen = n;
	free(s);
	return lines;
}

int main(void)
{
	struct doca_log_backend *be = NULL;
	struct doca_dev *dev = sd_open_dev("03:00.0");
	struct doca_dpdk_mempool *pool = (struct doca_dpdk_mempool *)&log_fd;
	struct doca_dev *out = (struct doca_dev *)&log_fd;
	struct doca_buf *buf = (struct doca_buf *)&log_fd;
	uint8_t rep = 7;
	uint16_t port = 0;

	log_fd = memfd_create("dpdk-log", MFD_CLOEXEC);
	CHECK(log_fd >= 0);
	CHECK_OK(doca_log_backend_create_with_fd_sdk(log_fd, &be));

	CHECK_ERR(doca_dpdk_cap_is_rep_port_supported(NULL, &rep), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(new_lines("NULL"), 1u);
	CHECK_ERR(doca_dpdk_cap_is_rep_port_supported(doca_dev_as_devinfo(dev), &rep), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_EQ(rep, 0);
	CHECK_EQ(new_lines("no DPDK ports"), 1u);
	CHECK_ERR(doca_dpdk_port_probe(NULL, "dv_flow_en=2"), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(new_lines(NULL), 1u);
	CHECK_ERR(doca_dpdk_port_probe(dev, "dv_flow_en=2"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_EQ(new_lines("dv_flow_en=2"), 1u);
	CHECK_ERR(doca_dpdk_get_first_port_id(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dpdk_get_first_port_id(dev, &port), DOCA_ERROR_NOT_FOUND);
	CHECK_EQ(new_lines("doca_eth_rxq"), 2u);
	CHECK_ERR(doca_dpdk_port_as_dev(0, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dpdk_port_as_dev(3, &out), DOCA_ERROR_NOT_FOUND);
	CHECK_EQ(new_lines("doca_dpdk_port_as_dev(3)"), 2u);
	CHECK_ERR(doca_dpdk_mempool_create(NULL, &pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dpdk_mempool_create((const struct rte_mempool *)&rep, &pool), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(pool == NULL);
	CHECK_EQ(new_lines(NULL), 2u);
	CHECK_ERR(doca_dpdk_mempool_dev_add(pool, dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dpdk_mempool_set_permissions(pool, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dpdk_mempool_start(pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dpdk_mempool_mbuf_to_buf(pool, NULL, NULL, &buf), DOCA_ERROR_INVALID_VALUE);
	CHECK(buf == NULL);
	CHECK_ERR(doca_dpdk_mempool_destroy(pool), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ(new_lines("not a pool from doca_dpdk_mempool_create()"), 5u);

	CHECK_OK(doca_dev_close(dev));
	printf("dpdk bridge: all checks passed\n");
	return 0;
}
