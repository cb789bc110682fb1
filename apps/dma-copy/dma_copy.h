/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dma_copy.h - softdoca's DMA Copy application: copy a file between the host and the DPU.
 *
 * The same program runs on both sides; the personality it was built with (DOCA_ARCH_DPU or
 * DOCA_ARCH_HOST) decides its role. The side that has the file is the source.
 *
 *   host (Comch client)                               DPU (Comch server)
 *   START {file_on_host, size}            ─────────▶  checks its side (exists? --force? space?)
 *                                         ◀─────────  START {size}  (or ERROR)
 *   export a staging ring
 *   EXPORT {addr, len, descriptor}        ─────────▶  import; DMA in chunks through a ring of
 *                                                     its own, several in flight, progress bar
 *   (sending) read the file into the ring
 *   FILLED {bytes read in}                ─────────▶  (receiving) DMA what the host read in
 *                                         ◀─────────  PROGRESS {bytes landed}
 *   (receiving) write out the ring
 *   CREDIT {bytes written}                ─────────▶  (sending) refill the host's ring
 *                                         ◀─────────  DONE {bytes, checksum}  (or ERROR)
 *   compare checksums, rename into place
 *   RESULT {status, checksum}             ─────────▶  compare checksums, rename into place
 *                                         ◀─────────  LANDED {status}  (host -> DPU only)
 *
 * The bytes stream through staging rings that stay in the cache; the host exports its ring (a
 * power of two of at most 8 MiB, the EXPORT's len), read-only when it sends. Host -> DPU: the
 * host reads its file into its ring and says how far (FILLED), where PROGRESS says the DMA has
 * taken the bytes out already; the DPU DMAs what was filled into its own ring and writes it out
 * with pwrite() as the landed prefix grows. DPU -> host: the DPU reads each chunk into its ring
 * and DMAs it into the host's; the host writes out what PROGRESS reports landed and answers with
 * CREDIT, and the DPU never runs more than the host's ring ahead of that. PROGRESS, FILLED
 * and CREDIT each move the ring on by a quarter of it at least, except the last one and the
 * one a side sends before it sleeps or waits for its disk, so that neither waits for a word
 * the other holds back. Files are read with pread() and written with pwrite() into space
 * reserved first; nobody maps a file. Each side folds its own checksum while the bytes pass
 * through its ring: a source as it reads its file, a destination as it writes it. DONE carries
 * the DPU side's checksum, RESULT the host's; each side compares both.
 *
 * A destination is written under a temporary name and renamed only after the checksums matched,
 * so a failed or interrupted copy never leaves a file that looks complete. Each side exits 0
 * only once the file is in place under its final name: the host that sent the file waits for
 * LANDED; a DPU that sent it waits for RESULT, which the host sends after its rename. The
 * final rename never replaces a file that appeared meanwhile unless --force was given, and
 * never anything but a regular file.
 */
#ifndef DMA_COPY_H_
#define DMA_COPY_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DMA_COPY_MAGIC	     0x53444d43u /* "SDMC" */
#define DMA_COPY_VERSION     8
#define DMA_COPY_SERVER_NAME "doca_dma_copy"

enum dma_copy_msg_type {
	MSG_START = 1,
	MSG_EXPORT = 2,
	MSG_DONE = 3,
	MSG_RESULT = 4,
	MSG_ERROR = 5,
	MSG_LANDED = 6,	  /* destination side -> a sending host: the verified file is in place (or why not) */
	MSG_PROGRESS = 7, /* DPU -> host while the bytes move: bytes landed so far */
	MSG_CREDIT = 8,	  /* receiving host -> DPU: bytes written out of the host's ring so far */
	MSG_FILLED = 9,	  /* sending host -> DPU: bytes of the file read into the host's ring so far */
};

struct msg_hdr {
	uint32_t magic;
	uint16_t type;
	uint16_t version;
};

struct msg_start {
	struct msg_hdr hdr;
	uint8_t file_on_host;
	uint8_t pad[7];
	uint64_t size;
	uint64_t checksum; /* 0: each side folds its checksum during the copy (DONE, RESULT) */
};

struct msg_export {
	struct msg_hdr hdr;
	uint64_t addr;
	uint64_t len;
	uint32_t desc_len;
	uint32_t pad;
	uint8_t desc[]; /* desc_len bytes */
};

struct msg_status {
	struct msg_hdr hdr;
	int32_t status; /* doca_error_t */
	uint32_t pad;
	uint64_t bytes;
	uint64_t checksum;
	char text[200]; /* NUL-terminated reason when status != 0 */
};

/*
 * Checks a message of the other side: header (magic, version, a known type), the length its type
 * needs, and its fields (an export's descriptor inside the message and a range that does not
 * wrap; a status with a DOCA error code and a NUL-terminated text). Returns the type (MSG_*),
 * or 0 with the reason in @why. Reads nothing past @len.
 */
int dc_msg_check(const void *msg, uint32_t len, char *why, size_t why_len);

/*
 * The session's order (seq.c): what each side sent so far, as this side saw it. Each message
 * this side sends and each it receives goes through dc_seq_step(); the first that breaks the
 * order (a START, EXPORT, DONE, RESULT or LANDED out of its place, PROGRESS, FILLED or CREDIT
 * that shrink, pass the file's size or the host's ring, or report what was never sent) makes it
 * return 0 with the reason in @why. Returns the type otherwise (dc_msg_check first).
 */
struct dc_seq {
	bool dpu;	   /* this side */
	bool file_on_host; /* the host's START */
	uint8_t phase;
	uint64_t size;	   /* the file's, as both STARTs announced it */
	uint64_t ring;	   /* the host's ring (EXPORT) */
	uint64_t progress; /* the last PROGRESS */
	uint64_t filled;   /* the last FILLED */
	uint64_t credit;   /* the last CREDIT */
};
void dc_seq_init(struct dc_seq *s, bool dpu);
int dc_seq_step(struct dc_seq *s, bool from_peer, const void *msg, uint32_t len, char *why, size_t why_len);

/* 64-bit checksum of a byte range (64 independent 32-bit lanes, one multiply per 4 bytes). */
uint64_t dma_copy_checksum(const void *data, size_t len);

/* The same checksum computed piece by piece, in order. */
#define DC_SUM_LANES 64
#define DC_SUM_BLOCK (DC_SUM_LANES * 4)
struct dc_sum {
	uint32_t v[DC_SUM_LANES];
	uint64_t total;
	unsigned char buf[DC_SUM_BLOCK]; /* a partial block */
	size_t pending;
};
void dc_sum_init(struct dc_sum *s);
void dc_sum_update(struct dc_sum *s, const void *data, size_t len);
uint64_t dc_sum_final(const struct dc_sum *s);
/* The vector code the checksum may use, at most (default: the best this CPU has); returns the
 * level it will use. Every level gives the same result. */
enum { DC_SIMD_NONE, DC_SIMD_AVX2, DC_SIMD_AVX512 };
int dc_sum_simd(int max_level);

#endif /* DMA_COPY_H_ */
