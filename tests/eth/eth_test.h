/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_test.h - what libdoca_eth's tests share: a profile with Ethernet on, two devices cabled by
 * the loop medium (loop_port.h), frame builders with correct checksums, and a checksum check.
 */
#ifndef SD_TEST_ETH_TEST_H_
#define SD_TEST_ETH_TEST_H_

#include <doca_buf.h>
#include <doca_eth_rxq.h>
#include <doca_eth_rxq_cpu_data_path.h>
#include <doca_eth_txq.h>
#include <doca_eth_txq_cpu_data_path.h>

#include "loop_port.h"
#include "sd_test.h"

#define DEV_A "03:00.0"
#define DEV_B "03:00.1"

/* Ethernet on for every device (the built-in default profile has none). */
static inline void eth_test_config(void)
{
	char *path = sd_tmpfile("eth.conf", "[profile default]\neth.supported = yes\n");

	sd_setenv("SOFTDOCA_CONFIG", path);
	sd_setenv("SOFTDOCA_SIDE", "all");
	free(path);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* RFC 1071 sum of @n bytes starting at @p, folded, not inverted; @odd for a split sum. */
static inline uint32_t csum_sum(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static inline uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* True when the IPv4 header at @ip has a right checksum. */
static inline bool ipv4_csum_ok(const uint8_t *ip)
{
	return csum_fold(csum_sum(0, ip, (size_t)(ip[0] & 0x0f) * 4)) == 0;
}

/* True when the TCP/UDP checksum of the L4 bytes [l4, l4 + l4_len) of the IPv4/IPv6 packet at @ip is right. */
static inline bool l4_csum_ok(const uint8_t *ip, bool v6, uint8_t proto, const uint8_t *l4, size_t l4_len)
{
	uint32_t sum = v6 ? csum_sum(0, ip + 8, 32) : csum_sum(0, ip + 12, 8);

	sum += proto + (uint32_t)l4_len;
	return csum_fold(csum_sum(sum, l4, l4_len)) == 0;
}

/*
 * Builds Ethernet + IPv4 + TCP (proto 6) or UDP (17) + @payload bytes (payload[i] = seed + i)
 * into @f; checksums right when @csum, zero otherwise. Returns the frame length.
 */
static inline uint32_t build_ipv4(uint8_t *f, uint8_t proto, uint32_t payload, uint8_t seed, bool csum)
{
	uint32_t l4h = proto == 6 ? 20 : 8, ip_len = 20 + l4h + payload;
	uint8_t *ip = f + 14, *l4 = ip + 20;

	memset(f, 0, 14 + ip_len);
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00", 14);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)ip_len);
	put16(ip + 4, 0x1234);
	ip[8] = 64;
	ip[9] = proto;
	memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	put16(l4, 40000);
	put16(l4 + 2, 80);
	if (proto == 6) {
		put16(l4 + 4, 0x1000);
		put16(l4 + 6, 0x0001); /* seq 0x10000001 */
		l4[12] = 5 << 4;
		l4[13] = 0x18 | 0x01 | 0x80; /* PSH ACK FIN CWR */
		put16(l4 + 14, 65535);
	} else {
		put16(l4 + 4, (uint16_t)(8 + payload));
	}
	for (uint32_t i = 0; i < payload; i++)
		l4[l4h + i] = (uint8_t)(seed + i);
	if (csum) {
		uint32_t sum = csum_sum(0, ip + 12, 8) + proto + l4h + payload;

		put16(ip + 10, csum_fold(csum_sum(0, ip, 20)));
		put16(l4 + (proto == 6 ? 16 : 6), csum_fold(csum_sum(sum, l4, l4h + payload)));
	}
	return 14 + ip_len;
}

/* A started mmap over @len bytes of @addr, read-write, with @dev added. */
static inline struct doca_mmap *eth_mmap(struct doca_dev *dev, void *addr, size_t len)
{
	return sd_mmap_local(dev, addr, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
}

/* Releases what a test made with the helpers above (any argument may be NULL). */
static inline void eth_test_release(struct doca_pe *pe, struct doca_buf_inventory *inv, struct doca_mmap *m1,
				    struct doca_mmap *m2)
{
	if (pe != NULL)
		CHECK_OK(doca_pe_destroy(pe));
	if (inv != NULL) {
		CHECK_OK(doca_buf_inventory_stop(inv));
		CHECK_OK(doca_buf_inventory_destroy(inv));
	}
	if (m1 != NULL) {
		CHECK_OK(doca_mmap_stop(m1));
		CHECK_OK(doca_mmap_destroy(m1));
	}
	if (m2 != NULL) {
		CHECK_OK(doca_mmap_stop(m2));
		CHECK_OK(doca_mmap_destroy(m2));
	}
}

/* Progress @pe up to @rounds times or until @cond holds. */
#define PROGRESS_UNTIL(pe, cond, rounds)                                                                               \
	do {                                                                                                           \
		for (int r_ = 0; r_ < (rounds) && !(cond); r_++)                                                       \
			doca_pe_progress(pe);                                                                          \
	} while (0)

#endif /* SD_TEST_ETH_TEST_H_ */
