/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_offload.c - what the software NIC's send offloads put on the wire, byte by byte:
 * IPv4 header and TCP/UDP checksums of plain sends (queue-wide and per task; a padded frame's
 * over its IP packet only), and LSO
 * segmentation (headers repeated, IPv4 total length / ID / checksum, IPv6 payload length,
 * TCP sequence numbers and flags per segment, UDP lengths, L4 checksums, payload slices).
 */
#include "eth_test.h"

static int done, failed;

static void send_done(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	done++;
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void send_fail(struct doca_eth_txq_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	failed++;
	doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
}

static void lso_done(struct doca_eth_txq_task_lso_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	done++;
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(t));
}

static void lso_fail(struct doca_eth_txq_task_lso_send *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	failed++;
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(t));
}

static struct doca_pe *pe;
static struct doca_buf_inventory *inv;
static struct doca_mmap *mm;
static struct loop_port *pa, *pb;
static uint8_t mem[16][8192];

/* Ethernet + IPv6 + TCP header (74 bytes) for @payload bytes, checksum 0. */
static uint32_t build_ipv6_tcp_hdr(uint8_t *f, uint32_t payload)
{
	uint8_t *ip = f + 14, *tcp = ip + 40;

	memset(f, 0, 74);
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x86\xdd", 14);
	ip[0] = 0x60;
	put16(ip + 4, (uint16_t)(20 + payload));
	ip[6] = 6;
	ip[7] = 64;
	ip[8] = 0xfd;
	ip[23] = 1;
	ip[24] = 0xfd;
	ip[39] = 2;
	put16(tcp, 1234);
	put16(tcp + 2, 443);
	put16(tcp + 4, 0xfffe); /* seq 0xfffe0000: wraps during segmentation */
	tcp[12] = 5 << 4;
	tcp[13] = 0x10 | 0x08;
	put16(tcp + 14, 1000);
	return 74;
}

static struct doca_buf *buf_of(uint8_t *p, size_t len)
{
	struct doca_buf *b;

	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, mm, p, len, &b));
	return b;
}

/* Sends @len bytes at @p with per-task flags @ol; returns the wire frame. */
static const struct loop_frame *send_one(struct doca_eth_txq *txq, uint8_t *p, uint32_t len, uint16_t ol)
{
	struct doca_eth_txq_task_send *t;
	struct doca_buf *b = buf_of(p, len);
	uint32_t n = pa->nb_sent;
	int before = done;

	CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, b, (union doca_data){.u64 = 0}, &t));
	doca_eth_txq_task_send_set_ol_flags(t, ol);
	CHECK_OK(doca_task_submit(doca_eth_txq_task_send_as_doca_task(t)));
	PROGRESS_UNTIL(pe, done == before + 1, 1000);
	CHECK_EQ(done, before + 1);
	CHECK_EQ(pa->nb_sent, n + 1);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	return &pa->log[n];
}

/* The wire frame equals @orig except the 2-byte fields at @skip1 and @skip2. */
static void check_same_but(const struct loop_frame *f, const uint8_t *orig, uint32_t len, size_t skip1, size_t skip2)
{
	CHECK_EQ(f->len, len);
	for (size_t i = 0; i < len; i++) {
		if (i == skip1 || i == skip1 + 1 || i == skip2 || i == skip2 + 1)
			continue;
		if (f->data[i] != orig[i]) {
			fprintf(stderr, "byte %zu differs: 0x%02x on the wire, 0x%02x sent\n", i, f->data[i], orig[i]);
			exit(T_EXIT_FAIL);
		}
	}
}

static void test_checksums(struct doca_dev *a)
{
	struct doca_eth_txq *txq, *plain;
	const struct loop_frame *f;
	uint32_t len;

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	CHECK_OK(doca_eth_txq_task_send_set_conf(txq, send_done, send_fail, 8));
	CHECK_OK(doca_eth_txq_set_l3_chksum_offload(txq, 1));
	CHECK_OK(doca_eth_txq_set_l4_chksum_offload(txq, 1));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	/* IPv4 + TCP and IPv4 + UDP, odd payload lengths: both checksums computed, nothing else touched. */
	for (int proto = 6; proto <= 17; proto += 11) {
		len = build_ipv4(mem[0], (uint8_t)proto, 333, 9, false);
		f = send_one(txq, mem[0], len, 0);
		CHECK(ipv4_csum_ok(f->data + 14));
		CHECK(l4_csum_ok(f->data + 14, false, (uint8_t)proto, f->data + 34, len - 34));
		check_same_but(f, mem[0], len, 24, 34 + (proto == 6 ? 16 : 6));
	}
	/* IPv6 + TCP. */
	len = build_ipv6_tcp_hdr(mem[1], 101);
	for (uint32_t i = 0; i < 101; i++)
		mem[1][74 + i] = (uint8_t)(i * 7);
	len += 101;
	f = send_one(txq, mem[1], len, 0);
	CHECK(l4_csum_ok(f->data + 14, true, 6, f->data + 54, len - 54));
	check_same_but(f, mem[1], len, 54 + 16, 54 + 16);
	/*
	 * A short UDP datagram padded to Ethernet's 60 bytes: the checksum covers the IP packet, as
	 * the receiver sums it, not the padding after it.
	 */
	len = build_ipv4(mem[3], 17, 5, 4, false);
	memset(mem[3] + len, 0xa5, 60 - len);
	f = send_one(txq, mem[3], 60, 0);
	CHECK(ipv4_csum_ok(f->data + 14));
	CHECK(l4_csum_ok(f->data + 14, false, 17, f->data + 34, len - 34));
	check_same_but(f, mem[3], 60, 24, 34 + 6);
	/* A frame that is not IP cannot be checksummed: refused. */
	{
		struct doca_eth_txq_task_send *t;
		struct doca_buf *b;

		memset(mem[2], 0, 64);
		put16(mem[2] + 12, 0x88b5);
		b = buf_of(mem[2], 64);
		CHECK_OK(doca_eth_txq_task_send_allocate_init(txq, b, (union doca_data){.u64 = 0}, &t));
		CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_send_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
		doca_task_free(doca_eth_txq_task_send_as_doca_task(t));
		CHECK_OK(doca_buf_dec_refcount(b, NULL));
	}
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));

	/* No queue offload: the frame goes as it is; a task's L3 flag fixes only the IPv4 header. */
	CHECK_OK(doca_eth_txq_create(a, 32, &plain));
	CHECK_OK(doca_eth_txq_task_send_set_conf(plain, send_done, send_fail, 8));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(plain)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(plain)));
	len = build_ipv4(mem[0], 6, 200, 3, false);
	f = send_one(plain, mem[0], len, 0);
	CHECK_MEM(f->data, mem[0], len);
	f = send_one(plain, mem[0], len, DOCA_ETH_TXQ_OL_FLAGS_L3_CSUM);
	CHECK(ipv4_csum_ok(f->data + 14));
	CHECK_EQ(get16(f->data + 34 + 16), 0);
	check_same_but(f, mem[0], len, 24, 24);
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(plain), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(plain));
}

/*
 * One LSO send of @payload bytes (byte i = (uint8_t)(i * 13 + 1), split over two bufs at @split)
 * behind the header @hdr of @hlen bytes, @mss per segment; checks every segment on the wire.
 */
static void lso_case(struct doca_eth_txq *txq, const uint8_t *hdr, uint32_t hlen, uint32_t payload, uint32_t split,
		     uint16_t mss)
{
	uint32_t nseg = (payload + mss - 1) / mss, first = pa->nb_sent;
	struct doca_gather_list g1, g2;
	struct doca_eth_txq_task_lso_send *t;
	struct doca_buf *h, *tail;
	int before = done;
	bool v6 = get16(hdr + 12) == 0x86dd;
	uint32_t l4 = v6 ? 54 : 34;
	uint8_t proto = v6 ? hdr[20] : hdr[23];

	for (uint32_t i = 0; i < payload; i++)
		mem[4][i] = (uint8_t)(i * 13 + 1);
	h = buf_of(mem[4], split);
	tail = buf_of(mem[4] + split, payload - split);
	CHECK_OK(doca_buf_chain_list(h, tail));
	/* The headers as a two-element gather list: the split falls inside the IP header. */
	g1 = (struct doca_gather_list){.addr = (void *)hdr, .len = 20, .next = &g2};
	g2 = (struct doca_gather_list){.addr = (void *)(hdr + 20), .len = hlen - 20, .next = NULL};
	CHECK_OK(doca_eth_txq_task_lso_send_allocate_init(txq, h, &g1, (union doca_data){.u64 = 0}, &t));
	doca_eth_txq_task_lso_send_set_mss(t, mss);
	CHECK_OK(doca_task_submit(doca_eth_txq_task_lso_send_as_doca_task(t)));
	PROGRESS_UNTIL(pe, done == before + 1, 1000);
	CHECK_EQ(done, before + 1);
	CHECK_EQ(pa->nb_sent - first, nseg);
	for (uint32_t k = 0; k < nseg; k++) {
		const struct loop_frame *f = &pa->log[first + k];
		uint32_t seg = k + 1 < nseg ? mss : payload - k * mss;
		const uint8_t *ip = f->data + 14, *l4p = f->data + l4;

		CHECK_EQ(f->len, hlen + seg);
		CHECK_MEM(f->data, hdr, 14);
		CHECK_MEM(f->data + hlen, mem[4] + k * mss, seg);
		if (v6) {
			CHECK_EQ(get16(ip + 4), hlen - l4 + seg);
			CHECK_MEM(ip + 6, hdr + 20, 34); /* next header .. addresses */
		} else {
			CHECK_EQ(get16(ip + 2), hlen - 14 + seg);
			CHECK_EQ(get16(ip + 4), (uint16_t)(get16(hdr + 18) + k));
			CHECK(ipv4_csum_ok(ip));
			CHECK_MEM(ip + 12, hdr + 26, 8);
		}
		CHECK_MEM(l4p, hdr + l4, 4); /* ports */
		if (proto == 6) {
			uint8_t flags = hdr[l4 + 13];

			CHECK_EQ(get32(l4p + 4), get32(hdr + l4 + 4) + k * mss);
			if (k + 1 < nseg)
				flags &= (uint8_t)~0x09;
			if (k > 0)
				flags &= (uint8_t)~0x80;
			CHECK_EQ(l4p[13], flags);
			CHECK_MEM(l4p + 8, hdr + l4 + 8, 5);   /* ack, data offset */
			CHECK_MEM(l4p + 14, hdr + l4 + 14, 2); /* window */
		} else {
			CHECK_EQ(get16(l4p + 4), 8 + seg);
		}
		CHECK(l4_csum_ok(ip, v6, proto, l4p, f->len - l4));
	}
	CHECK_OK(doca_buf_dec_refcount(h, NULL));
}

/*
 * LSO behind an Ethernet header alone (as DOCA's LSO sample sends, EtherType IPv4 but no IP
 * header): the payload is cut at the MSS, each segment gets the header unchanged. Headers of
 * Ethernet plus a few stray bytes are refused.
 */
static void lso_l2_case(struct doca_eth_txq *txq)
{
	uint8_t hdr[17] = {0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45, 0, 0};
	struct doca_gather_list g = {.addr = hdr, .len = 14, .next = NULL};
	struct doca_eth_txq_task_lso_send *t;
	uint32_t first = pa->nb_sent, payload = 4000, mss = 1460, nseg = 3;
	struct doca_buf *p;
	int before = done;

	for (uint32_t i = 0; i < payload; i++)
		mem[4][i] = (uint8_t)(i * 7 + 3);
	p = buf_of(mem[4], payload);
	CHECK_OK(doca_eth_txq_task_lso_send_allocate_init(txq, p, &g, (union doca_data){.u64 = 0}, &t));
	doca_eth_txq_task_lso_send_set_mss(t, (uint16_t)mss);
	CHECK_OK(doca_task_submit(doca_eth_txq_task_lso_send_as_doca_task(t)));
	PROGRESS_UNTIL(pe, done == before + 1, 1000);
	CHECK_EQ(done, before + 1);
	CHECK_EQ(pa->nb_sent - first, nseg);
	for (uint32_t k = 0; k < nseg; k++) {
		const struct loop_frame *f = &pa->log[first + k];
		uint32_t seg = k + 1 < nseg ? mss : payload - k * mss;

		CHECK_EQ(f->len, 14 + seg);
		CHECK_MEM(f->data, hdr, 14);
		CHECK_MEM(f->data + 14, mem[4] + k * mss, seg);
	}
	g.len = sizeof(hdr);
	CHECK_OK(doca_eth_txq_task_lso_send_allocate_init(txq, p, &g, (union doca_data){.u64 = 0}, &t));
	CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_lso_send_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(t));
	CHECK_OK(doca_buf_dec_refcount(p, NULL));
}

static void test_lso(struct doca_dev *a)
{
	struct doca_eth_txq *txq;
	uint8_t hdr4[54], hdr6[74], hudp[42];

	CHECK_OK(doca_eth_txq_create(a, 32, &txq));
	CHECK_OK(doca_eth_txq_task_lso_send_set_conf(txq, lso_done, lso_fail, 4));
	CHECK_OK(doca_eth_txq_set_max_send_buf_list_len(txq, 4));
	CHECK_OK(doca_eth_txq_set_mss(txq, 1000));
	CHECK_OK(doca_eth_txq_set_max_lso_header_size(txq, 96));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_eth_txq_as_doca_ctx(txq)));
	CHECK_OK(doca_ctx_start(doca_eth_txq_as_doca_ctx(txq)));

	build_ipv4(hdr4, 6, 0, 0, false);
	build_ipv4(hudp, 17, 0, 0, false);
	build_ipv6_tcp_hdr(hdr6, 0);
	lso_case(txq, hdr4, 54, 4000, 1000, 1000); /* whole segments, split on a boundary */
	lso_case(txq, hdr4, 54, 2500, 1234, 1000); /* a short last segment, split inside one */
	lso_case(txq, hdr4, 54, 700, 100, 1000);   /* one segment: first and last */
	lso_case(txq, hdr4, 54, 6000, 10, 1460);   /* more segments than fit MTU 1514 exactly */
	lso_case(txq, hdr6, 74, 3001, 2000, 1000); /* IPv6, sequence numbers wrap past 2^32 */
	lso_case(txq, hudp, 42, 2100, 50, 1000);   /* UDP: lengths per datagram */
	lso_l2_case(txq);

	/* Headers longer than max_lso_header_size (96), and header + MSS over the MTU: refused. */
	{
		uint8_t big[128];
		struct doca_gather_list g = {.addr = big, .len = sizeof(big), .next = NULL};
		struct doca_gather_list g4 = {.addr = hdr4, .len = 54, .next = NULL};
		struct doca_eth_txq_task_lso_send *t;
		struct doca_buf *p = buf_of(mem[4], 100);

		memcpy(big, hdr4, 54);
		CHECK_OK(doca_eth_txq_task_lso_send_allocate_init(txq, p, &g, (union doca_data){.u64 = 0}, &t));
		CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_lso_send_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
		doca_eth_txq_task_lso_send_set_headers(t, &g4);
		doca_eth_txq_task_lso_send_set_mss(t, 1500);
		CHECK_OK(doca_buf_dec_refcount(p, NULL));
		p = buf_of(mem[4], 4000);
		doca_eth_txq_task_lso_send_set_pkt_payload(t, p);
		CHECK_ERR(doca_task_try_submit(doca_eth_txq_task_lso_send_as_doca_task(t)), DOCA_ERROR_INVALID_VALUE);
		doca_task_free(doca_eth_txq_task_lso_send_as_doca_task(t));
		CHECK_OK(doca_buf_dec_refcount(p, NULL));
	}
	sd_ctx_stop_idle(doca_eth_txq_as_doca_ctx(txq), pe, NULL, 5000);
	CHECK_OK(doca_eth_txq_destroy(txq));
}

int main(void)
{
	struct doca_dev *a, *b;

	eth_test_config();
	a = sd_open_dev(DEV_A);
	b = sd_open_dev(DEV_B);
	CHECK_OK(loop_pair_install(a, b, 1514, &pa, &pb));
	pe = sd_pe();
	inv = sd_inventory(64);
	mm = eth_mmap(a, mem, sizeof(mem));
	test_checksums(a);
	pb->head = pb->tail; /* nobody receives on b: empty its ring */
	test_lso(a);
	CHECK_EQ(failed, 0);
	eth_test_release(pe, inv, mm, NULL);
	printf("offload: %u frames checked\n", pa->nb_sent);
	return 0;
}
