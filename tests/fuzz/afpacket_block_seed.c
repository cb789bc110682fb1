/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * afpacket_block_seed.c - captures one TPACKET_V3 receive block as the kernel fills it and
 * writes its used part (blk_len bytes) as an input of fuzz_afpacket_block: the seeds of
 * tests/fuzz/corpus/afpacket_block come from it. Needs CAP_NET_RAW; run it on a veth pair of
 * a namespace of its own:
 *
 *   ip netns add fz && ip -n fz link add va type veth peer name vb
 *   ip -n fz link set va up && ip -n fz link set vb up
 *   ip netns exec fz afpacket_block_seed vb va OUT
 *
 * Receives on the first interface, sends on the second: frames of 60, 200 and 1514 bytes and
 * one with an 802.1Q tag (which veth strips into the packet header, TP_STATUS_VLAN_VALID).
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define BLOCK (64u << 10)
#define NB    4u

static int bound_socket(const char *ifname, int proto)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons((uint16_t)proto)};
	int fd = socket(AF_PACKET, SOCK_RAW, htons((uint16_t)proto));

	sll.sll_ifindex = (int)if_nametoindex(ifname);
	if (fd < 0 || sll.sll_ifindex == 0) {
		perror(ifname);
		return -1;
	}
	if (proto != 0 && bind(fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		perror("bind");
		return -1;
	}
	return fd;
}

static void send_frame(int fd, const char *ifname, uint32_t len, int vlan)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_halen = 6};
	uint8_t f[1600];
	uint32_t h = 12;

	sll.sll_ifindex = (int)if_nametoindex(ifname);
	memset(f, 0xff, 6);
	memcpy(f + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
	if (vlan) {
		memcpy(f + h, (uint8_t[]){0x81, 0x00, 0x20, 0x07}, 4); /* PCP 1, VID 7 */
		h += 4;
	}
	f[h] = 0x88;
	f[h + 1] = 0xb5;
	for (uint32_t i = h + 2; i < len; i++)
		f[i] = (uint8_t)i;
	if (sendto(fd, f, len, 0, (struct sockaddr *)&sll, sizeof(sll)) != (ssize_t)len)
		perror("sendto");
}

int main(int argc, char **argv)
{
	struct tpacket_req3 req = {.tp_block_size = BLOCK,
				   .tp_block_nr = NB,
				   .tp_frame_size = 2048,
				   .tp_frame_nr = BLOCK / 2048 * NB,
				   .tp_retire_blk_tov = 10};
	int v3 = TPACKET_V3, rx, tx;
	uint8_t *ring;
	FILE *out;

	if (argc != 4) {
		fprintf(stderr, "usage: afpacket_block_seed RX_IFNAME TX_IFNAME OUT\n");
		return 2;
	}
	rx = bound_socket(argv[1], ETH_P_ALL);
	tx = bound_socket(argv[2], 0);
	if (rx < 0 || tx < 0)
		return 1;
	if (setsockopt(rx, SOL_PACKET, PACKET_VERSION, &v3, sizeof(v3)) != 0 ||
	    setsockopt(rx, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) != 0) {
		perror("TPACKET_V3 ring");
		return 1;
	}
	ring = mmap(NULL, (size_t)BLOCK * NB, PROT_READ | PROT_WRITE, MAP_SHARED, rx, 0);
	if (ring == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	send_frame(tx, argv[2], 60, 0);
	send_frame(tx, argv[2], 200, 0);
	send_frame(tx, argv[2], 1514, 0);
	send_frame(tx, argv[2], 64, 1);
	for (uint32_t b = 0; b < NB; b++) {
		struct tpacket_block_desc *bd = (struct tpacket_block_desc *)(ring + (size_t)b * BLOCK);
		struct pollfd pfd = {rx, POLLIN, 0};

		while (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
			if (poll(&pfd, 1, 1000) <= 0) {
				fprintf(stderr, "no block filled\n");
				return 1;
			}
		if (bd->hdr.bh1.num_pkts < 4 && b + 1 < NB)
			continue; /* the frames went into the next block: look there too */
		out = fopen(argv[3], "wb");
		if (out == NULL || fwrite(bd, 1, bd->hdr.bh1.blk_len, out) != bd->hdr.bh1.blk_len || fclose(out) != 0) {
			perror(argv[3]);
			return 1;
		}
		printf("block %u: %u packets, %u bytes\n", b, bd->hdr.bh1.num_pkts, bd->hdr.bh1.blk_len);
		return 0;
	}
	return 1;
}
