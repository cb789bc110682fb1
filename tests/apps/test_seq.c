/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_seq.c - the order of doca_dma_copy's messages over a session (apps/dma-copy/seq.c):
 * sessions as the two sides run them pass, seen from either side; each kind of broken order is
 * refused with a reason that names the rule (both sides refuse it where both see it).
 */
#include <string.h>

#include "../../apps/dma-copy/dma_copy.h"
#include "../common/sd_test.h"

#define HDR(t) ((struct msg_hdr){DMA_COPY_MAGIC, (t), DMA_COPY_VERSION})
#define MIB    (1ull << 20)

/* One message of a session: who sends it (1: the DPU side), what. */
struct step {
	int by_dpu;
	int type;
	uint64_t a; /* START: size; EXPORT: len; others: bytes */
	int b;	    /* START: file_on_host; status messages: status */
};

static uint32_t build(const struct step *st, uint8_t *buf)
{
	if (st->type == MSG_START) {
		struct msg_start m = {.hdr = HDR(MSG_START), .file_on_host = (uint8_t)st->b, .size = st->a};

		memcpy(buf, &m, sizeof(m));
		return sizeof(m);
	}
	if (st->type == MSG_EXPORT) {
		struct msg_export m = {
		    .hdr = HDR(MSG_EXPORT), .addr = 0x10000, .len = st->a, .desc_len = st->a ? 8 : 0};

		memset(buf, 0, sizeof(m) + 8);
		memcpy(buf, &m, sizeof(m));
		return (uint32_t)sizeof(m) + m.desc_len;
	}
	struct msg_status m = {.hdr = HDR((uint16_t)st->type), .status = st->b, .bytes = st->a};

	memcpy(buf, &m, sizeof(m));
	return sizeof(m);
}

/*
 * Runs @n steps on both sides; all pass but the last when @want is not NULL: then it is refused
 * with a reason containing @want, on both sides.
 */
static void run(const char *name, const struct step *steps, size_t n, const char *want)
{
	for (int dpu = 0; dpu < 2; dpu++) {
		struct dc_seq s;

		dc_seq_init(&s, dpu);
		for (size_t i = 0; i < n; i++) {
			uint8_t buf[sizeof(struct msg_status) + 64];
			uint32_t len = build(&steps[i], buf);
			char why[200] = "";
			int t = dc_seq_step(&s, steps[i].by_dpu != dpu, buf, len, why, sizeof(why));
			bool last_bad = want != NULL && i == n - 1;

			if (last_bad ? t != 0 || strstr(why, want) == NULL : t != steps[i].type) {
				fprintf(stderr, "%s (%s side), message %zu: %d, '%s'%s%s\n", name, dpu ? "DPU" : "host",
					i, t, why, want ? ", want a refusal naming " : "", want ? want : "");
				exit(T_EXIT_FAIL);
			}
		}
	}
}

#define RUN(name, want, ...)                                                                                           \
	do {                                                                                                           \
		const struct step s_[] = {__VA_ARGS__};                                                                \
		run(name, s_, sizeof(s_) / sizeof(s_[0]), want);                                                       \
	} while (0)

/* The host sends 20 MiB through its 8 MiB ring; the DPU side receives it. */
#define H2D_START                                                                                                      \
	{0, MSG_START, 20 * MIB, 1}, {1, MSG_START, 20 * MIB, 1},                                                      \
	{                                                                                                              \
		0, MSG_EXPORT, 8 * MIB, 0                                                                              \
	}
/* The DPU side sends 20 MiB into the host's 8 MiB ring. */
#define D2H_START                                                                                                      \
	{0, MSG_START, 0, 0}, {1, MSG_START, 20 * MIB, 0},                                                             \
	{                                                                                                              \
		0, MSG_EXPORT, 8 * MIB, 0                                                                              \
	}

int main(void)
{
	/* Sessions as the sides run them. */
	RUN("h2d", NULL, H2D_START, {0, MSG_FILLED, 8 * MIB, 0}, {1, MSG_PROGRESS, 2 * MIB, 0},
	    {1, MSG_PROGRESS, 8 * MIB, 0}, {0, MSG_FILLED, 16 * MIB, 0}, {1, MSG_PROGRESS, 16 * MIB, 0},
	    {0, MSG_FILLED, 20 * MIB, 0}, {1, MSG_PROGRESS, 20 * MIB, 0}, {1, MSG_DONE, 0, 0}, {0, MSG_RESULT, 0, 0},
	    {1, MSG_LANDED, 0, 0});
	RUN("d2h", NULL, D2H_START, {1, MSG_PROGRESS, 8 * MIB, 0}, {0, MSG_CREDIT, 4 * MIB, 0},
	    {0, MSG_CREDIT, 8 * MIB, 0}, {1, MSG_PROGRESS, 16 * MIB, 0}, {1, MSG_DONE, 0, 0},
	    {0, MSG_CREDIT, 18 * MIB, 0}, {0, MSG_RESULT, 0, 0}, {0, MSG_CREDIT, 20 * MIB, 0});
	RUN("empty", NULL, {0, MSG_START, 0, 1}, {1, MSG_START, 0, 1}, {0, MSG_EXPORT, 0, 0}, {1, MSG_DONE, 0, 0},
	    {0, MSG_RESULT, 0, 0}, {1, MSG_LANDED, 0, 0});
	RUN("error", NULL, H2D_START, {1, MSG_ERROR, 0, 5}, {0, MSG_FILLED, 1, 0}, {1, MSG_START, 0, 0});

	/* Starts and ends out of their place. */
	RUN("start twice", "START from the host before the host's EXPORT", {0, MSG_START, 10, 1}, {1, MSG_START, 10, 1},
	    {0, MSG_START, 10, 1});
	RUN("DPU start twice", "START from the DPU side while the bytes move", H2D_START, {1, MSG_START, 20 * MIB, 1});
	RUN("export early", "EXPORT from the host before the DPU side's START", {0, MSG_START, 10, 1},
	    {0, MSG_EXPORT, 4096, 0});
	RUN("other file", "says the file is on the DPU side, the host's said on the host", {0, MSG_START, 10, 1},
	    {1, MSG_START, 10, 0});
	RUN("other size", "announces 11 bytes, the host's 10", {0, MSG_START, 10, 1}, {1, MSG_START, 11, 1});
	RUN("odd ring", "ring of 12288 bytes is not a power of two", {0, MSG_START, 10, 1}, {1, MSG_START, 10, 1},
	    {0, MSG_EXPORT, 12288, 0});
	RUN("done twice", "DONE from the DPU side after DONE", H2D_START, {0, MSG_FILLED, 8 * MIB, 0},
	    {1, MSG_PROGRESS, 8 * MIB, 0}, {0, MSG_FILLED, 16 * MIB, 0}, {1, MSG_PROGRESS, 16 * MIB, 0},
	    {0, MSG_FILLED, 20 * MIB, 0}, {1, MSG_DONE, 0, 0}, {1, MSG_DONE, 0, 0});
	RUN("done early", "DONE with 8388608 of the file's 20971520 bytes filled in", H2D_START,
	    {0, MSG_FILLED, 8 * MIB, 0}, {1, MSG_DONE, 0, 0});
	RUN("done failed", "DONE with status 5", D2H_START, {1, MSG_DONE, 0, 5});
	RUN("result early", "RESULT from the host while the bytes move", D2H_START, {0, MSG_RESULT, 0, 0});
	RUN("landed for a receiver", "LANDED from the DPU side after the copy ended", D2H_START, {1, MSG_DONE, 0, 0},
	    {0, MSG_RESULT, 0, 0}, {1, MSG_LANDED, 0, 0});
	RUN("after landed", "PROGRESS from the DPU side after the copy ended", {0, MSG_START, 0, 1},
	    {1, MSG_START, 0, 1}, {0, MSG_EXPORT, 0, 0}, {1, MSG_DONE, 0, 0}, {0, MSG_RESULT, 0, 0},
	    {1, MSG_LANDED, 0, 0}, {1, MSG_PROGRESS, 1, 0});

	/* Progress that shrinks, passes the file, or reports what was never sent. */
	RUN("progress back", "PROGRESS at 1048576 bytes after 2097152", D2H_START, {1, MSG_PROGRESS, 2 * MIB, 0},
	    {1, MSG_PROGRESS, 1 * MIB, 0});
	RUN("progress repeated", "PROGRESS at 2097152 bytes after 2097152", D2H_START, {1, MSG_PROGRESS, 2 * MIB, 0},
	    {1, MSG_PROGRESS, 2 * MIB, 0});
	RUN("progress past the file", "PROGRESS at 11 bytes after 0: it grows, up to the file's 10 bytes",
	    {0, MSG_START, 10, 1}, {1, MSG_START, 10, 1}, {0, MSG_EXPORT, 4096, 0}, {0, MSG_FILLED, 10, 0},
	    {1, MSG_PROGRESS, 11, 0});
	RUN("progress past filled", "and the 8388608 the host filled in", H2D_START, {0, MSG_FILLED, 8 * MIB, 0},
	    {1, MSG_PROGRESS, 8 * MIB + 1, 0});
	RUN("progress past the ring", "and the 12582912 the host left room for", D2H_START,
	    {1, MSG_PROGRESS, 4 * MIB, 0}, {0, MSG_CREDIT, 4 * MIB, 0}, {1, MSG_PROGRESS, 12 * MIB + 1, 0});
	RUN("filled past the ring", "FILLED at 8388609 bytes after 0", H2D_START, {0, MSG_FILLED, 8 * MIB + 1, 0});
	RUN("filled back", "FILLED at 4194304 bytes after 8388608", H2D_START, {0, MSG_FILLED, 8 * MIB, 0},
	    {0, MSG_FILLED, 4 * MIB, 0});
	RUN("credit past landed", "CREDIT at 4194305 bytes after 0: it grows, up to the 4194304 bytes that landed",
	    D2H_START, {1, MSG_PROGRESS, 4 * MIB, 0}, {0, MSG_CREDIT, 4 * MIB + 1, 0});
	RUN("credit for filled", "the host sends CREDIT while it sends the file", H2D_START, {0, MSG_CREDIT, 1, 0});
	RUN("filled for credit", "the host sends FILLED while it receives the file", D2H_START, {0, MSG_FILLED, 1, 0});
	RUN("progress from the host", "PROGRESS from the host while the bytes move", D2H_START,
	    {0, MSG_PROGRESS, 1, 0});
	RUN("credit from the DPU side", "CREDIT from the DPU side while the bytes move", D2H_START,
	    {1, MSG_CREDIT, 1, 0});
	RUN("credit before export", "CREDIT from the host before the host's EXPORT", {0, MSG_START, 0, 0},
	    {1, MSG_START, 10, 0}, {0, MSG_CREDIT, 1, 0});
	printf("dma_copy sequence: all checks passed\n");
	return 0;
}
