/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wire_cable_seed.c - writes the frames waiting in a real wire cable as an input of
 * fuzz_wire_cable (its format is at the top of fuzz_wire_cable.c): the seeds of
 * tests/fuzz/corpus/wire_cable come from it.
 *
 *   wire_cable_seed CABLE_FILE END OUT     END: the end that sends (0 or 1)
 *
 * To fill a cable: a receiver that holds the port but does not drain it, then frames sent:
 *   softdoca-wire recv -p 03:00.1 --timeout 60 & kill -STOP $!
 *   softdoca-wire send -p 03:00.0 --count 4 --size 200 --proto udp
 *   wire_cable_seed $XDG_RUNTIME_DIR/softdoca/wire-0000:03:00.0-0000:03:00.1.cable 0 seed
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wire_ring.h"

static void wr(FILE *f, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

int main(int argc, char **argv)
{
	const struct wire_shm *shm;
	const uint8_t *slots;
	uint64_t cons, prod;
	FILE *out;
	int fd, end;

	if (argc != 4 || (argv[2][0] != '0' && argv[2][0] != '1')) {
		fprintf(stderr, "usage: wire_cable_seed CABLE_FILE END OUT\n");
		return 2;
	}
	end = argv[2][0] - '0';
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	shm = mmap(NULL, WIRE_FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (shm == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	slots = (const uint8_t *)shm + WIRE_SLOTS_OFF + (size_t)end * WIRE_SLOTS * WIRE_SLOT_SIZE;
	cons = atomic_load(&shm->ring[end].cons);
	prod = atomic_load(&shm->ring[end].prod);
	if (!wire_ring_ok(prod, cons)) {
		fprintf(stderr, "the ring breaks its rule: prod %llu, cons %llu\n", (unsigned long long)prod,
			(unsigned long long)cons);
		return 1;
	}
	out = fopen(argv[3], "wb");
	if (out == NULL) {
		perror(argv[3]);
		return 1;
	}
	wr(out, cons, 8);
	wr(out, prod - cons, 8);
	wr(out, NIC_MAX_FRAME, 4);
	wr(out, 64, 2);
	for (uint64_t s = cons; s != prod; s++) {
		const struct wire_slot *sl =
		    (const struct wire_slot *)(slots + (size_t)(s & (WIRE_SLOTS - 1)) * WIRE_SLOT_SIZE);
		uint32_t len = sl->len <= NIC_MAX_FRAME ? sl->len : NIC_MAX_FRAME;
		size_t bytes = offsetof(struct wire_slot, data) + len;

		wr(out, bytes, 2);
		fwrite(sl, 1, bytes, out);
	}
	return fclose(out) == 0 ? 0 : 1;
}
