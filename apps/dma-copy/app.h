/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app.h - what the parts of doca_dma_copy share (private to apps/dma-copy; the protocol is in
 * dma_copy.h). Each part is a file of its own:
 *
 *   args.c     the command line (doca_argp)
 *   files.c    the source, the destination under its temporary name, stale partials, commit
 *   link.c     the Comch link: device, connection, sends, the inbox, the session's order
 *   credit.c   the words that keep the rings going: PROGRESS, CREDIT, FILLED
 *   stage.c    the staging ring: filled from a source, drained into a destination
 *   window.c   the DMA window (DPU side): chunks in flight between the two rings
 *   dpu.c      the DPU side's role; host.c the host's
 *   state.c    this side's state and the cause of its failure; ui.c the progress bar, summary
 *   main.c     set-up, the exit path (reads the failure's cause), teardown
 *
 * Each side goes through one state after the other (app_set_state()):
 *
 *   CONNECTING ──▶ NEGOTIATED ──▶ COPYING ──▶ VERIFYING ──▶ DONE
 *        │              │            │             │
 *        └──────────────┴────────────┴─────────────┴──────▶ FAILED  (app_fail(): the first cause)
 *
 * CONNECTING: waiting for the other side and its START; NEGOTIATED: both STARTs agree (the
 * file is open, its size known), the host's ring is being exported or imported; COPYING: the
 * bytes move; VERIFYING: DONE, RESULT (and LANDED): checksums compared, the destination put in
 * place; DONE: this side's work is complete (the file is in place, or the other side said so).
 */
#ifndef DMA_COPY_APP_H_
#define DMA_COPY_APP_H_

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "dma_copy.h"

/* Every log line of this program ends the progress frame first (ui.c), so that no message is
 * written onto the end of the bar. Each file that logs has DOCA_LOG_REGISTER(DMA_COPY). */
void bar_end(void);
#define LOG_AT(level, ...)                                                                                             \
	do {                                                                                                           \
		bar_end();                                                                                             \
		DOCA_LOG_##level(__VA_ARGS__);                                                                         \
	} while (0)
#define LOG_ERR(...)  LOG_AT(ERR, __VA_ARGS__)
#define LOG_WARN(...) LOG_AT(WARN, __VA_ARGS__)
#define LOG_INFO(...) LOG_AT(INFO, __VA_ARGS__)
#define LOG_DBG(...)  LOG_AT(DBG, __VA_ARGS__)

/* Each build's default device; the help text names both (one manual page serves both builds). */
#define DPU_DEFAULT_PCI	 "03:00.0"
#define HOST_DEFAULT_PCI "b1:00.0"
#ifdef DOCA_ARCH_DPU
#define ROLE_DPU    1
#define DEFAULT_PCI DPU_DEFAULT_PCI
#else
#define ROLE_DPU    0
#define DEFAULT_PCI HOST_DEFAULT_PCI
#endif
#define DEFAULT_REP_PCI "b1:00.0"
#define INFLIGHT	16
#define STAGE_CHUNK	(512ull << 10) /* a chunk of a staging ring (at most): INFLIGHT of them stay in the cache */
#define HOST_RING	(8ull << 20)   /* a host's staging ring (at most; a power of two) */
#define MSG_STEPS	4	       /* PROGRESS, FILLED, CREDIT: 1/MSG_STEPS of the host's ring at least */
#define INBOX		8

/* Where this side is in the copy (see the diagram above). */
enum dc_state {
	DC_CONNECTING,
	DC_NEGOTIATED,
	DC_COPYING,
	DC_VERIFYING,
	DC_DONE,
	DC_FAILED,
};

/* What stopped the copy; the exit path treats each its own way (main.c). */
enum dc_cause {
	DC_CAUSE_NONE,
	DC_CAUSE_LOCAL,	   /* this side: its device, file, memory or DMA */
	DC_CAUSE_PEER,	   /* the other side: it said why (ERROR), sent what was not expected, or left */
	DC_CAUSE_PROTOCOL, /* a message broke the session's order (seq.c) */
	DC_CAUSE_SIGNAL,   /* SIGINT or SIGTERM */
};

/* The first failure of this side (app_fail()): what the exit path reports, what the other side
 * is told (ERROR, RESULT or LANDED carry err and why). */
struct dc_failure {
	doca_error_t err; /* DOCA_SUCCESS while nothing failed */
	enum dc_cause cause;
	char why[300];
	bool told; /* an ERROR went to the other side: it knows why the copy stops */
};

struct file_map {
	char path[4096];
	char tmp[4200]; /* destination only: where bytes land until verified */
	int fd;
	uint64_t size;
	bool is_dest;
	bool force;    /* the final rename may replace an existing regular file */
	char why[300]; /* why the destination could not be put in place, or the source not read
			* (told to the other side) */
};

struct app {
	/* Configuration (args.c). */
	char file[4096];
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char rep_pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	bool force;
	bool quiet; /* --quiet: no progress bar, only the summary */
	int timeout_s;

	/* Where this side is, and why it failed if it did (state.c). */
	enum dc_state state;
	struct dc_failure fail;

	/* DOCA objects. */
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_ctx *comch_ctx;
	struct doca_comch_connection *conn;
	uint32_t max_msg;
	struct doca_mmap *local_mmap;  /* host: the exported file; DPU: the local file */
	struct doca_mmap *remote_mmap; /* DPU: the host's export */
	struct doca_buf_inventory *inv;
	struct doca_dma *dma;
	doca_notification_handle_t pe_fd; /* -1: poll with short sleeps instead */

	/* The link (link.c). Inbox: messages copied out of the receive callback, handled by the
	 * roles. The session's order (seq.c): every message sent and received goes through it;
	 * once a message broke it (seq_broken, logged once) nothing more is taken. */
	uint8_t *inbox[INBOX];
	uint32_t inbox_len[INBOX];
	int inbox_head, inbox_count;
	struct dc_seq seq;
	bool seq_broken;
	char seq_why[200];
	bool connected;		/* the other side connected (it may have left since: peer_gone) */
	bool peer_gone;		/* the connection ended, or a message to the other side failed */
	bool progress_inflight; /* a PROGRESS message not yet sent */
	bool credit_inflight;	/* a host's CREDIT or FILLED not yet sent */
	int sends_inflight;	/* send_msg()'s messages not yet sent */
	bool stopping;		/* teardown() stops the contexts: nothing to report or send after them */

	/* Transfer. */
	struct file_map fm;
	bool file_on_host;
	/*
	 * This side's checksum of the file, folded over its first sum_pos bytes while they pass
	 * through the staging ring (in the cache). dma_ok() keeps done_bytes the prefix of the file
	 * that has landed on the DPU side.
	 */
	struct dc_sum sum;
	uint64_t sum_pos;
	uint64_t size, checksum; /* checksum: this side's, once sum_pos == size */
	uint64_t done_bytes;
	/* A source (files.c): one that could not be read (not shrunk), whose file system has no
	 * preadv2(RWF_NOWAIT), whose read ended before its size (said once: shrink_logged). */
	int read_errno;
	bool no_nowait;
	bool file_shrank;
	bool shrink_logged;

	/*
	 * Staging ring (stage.c): the bytes of a file offset live at stage[off % stage_len] while
	 * they move. DPU side: INFLIGHT chunks, read into (a source) or landed in (a destination)
	 * by the DMA. A host: the ring it exports, HOST_RING bytes at most. A destination drains it
	 * in order (stage_drain: checksum, pwrite) up to `written`; a source fills it (stage_fill),
	 * and a sending host counts in `written` what it has read into its ring.
	 */
	uint8_t *stage;
	uint64_t stage_len, written;
	doca_error_t write_error; /* a destination that could not be written (recorded by app_fail()) */

	/* DPU side: the host's ring and the host's last word on it: how much of the file it has
	 * written out (CREDIT; the DMA stays within ring_len of that) or read in (FILLED; the DMA
	 * reads no further). `reported`: the last PROGRESS. */
	uint64_t ring_len, credit, reported;
	uint64_t credit_sent; /* a host: the last CREDIT or FILLED sent */
	/* PROGRESS, CREDIT and FILLED wait until they move the ring on by this much (the host's
	 * ring / MSG_STEPS), unless the file is done or the side is about to sleep (flush):
	 * each message wakes the other process, and a wake-up costs more than the bytes' copy. */
	uint64_t msg_step;

	/* The DMA window (window.c, DPU side): chunks of `chunk` bytes; landed[] marks completed
	 * ones of the window in flight. */
	uint64_t chunk;
	bool landed[INFLIGHT];
	uint64_t next_off;
	int inflight;
	doca_error_t dma_error;

	/* The progress bar (ui.c). */
	struct timespec t_start;
	double last_bar;
};

/* Task user data of a send (link.c, credit.c): what kind of message it carries. */
#define MSG_TASK      0 /* send_msg()'s: counted in sends_inflight */
#define PROGRESS_TASK 1 /* at most one in flight, the others are skipped */
#define CREDIT_TASK   2 /* a host's CREDIT or FILLED: at most one in flight too */
#define BUSY_TASK     3 /* an ERROR to a second host while a copy runs */

/* The signal that stops the copy (SIGINT, SIGTERM), or 0 (main.c). */
extern volatile sig_atomic_t interrupted;
/* What an interrupted side tells the other one, and logs. */
const char *interrupted_why(void);

/* state.c */
const char *dc_state_name(enum dc_state s);
void app_set_state(struct app *app, enum dc_state next);
doca_error_t app_fail(struct app *app, doca_error_t err, enum dc_cause cause, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ui.c */
double now_s(void);
const char *human(uint64_t bytes, char *buf, size_t len);
void progress_bar(struct app *app, bool final);
void summary(struct app *app, double secs, const char *dir);

/* args.c */
doca_error_t register_params(void);

/* files.c */
doca_error_t open_source(struct file_map *fm, const char *path);
doca_error_t check_dest(const char *path, uint64_t size, bool force, char *why, size_t why_len);
doca_error_t open_dest(struct file_map *fm, const char *path, uint64_t size, bool force, char *why, size_t why_len);
doca_error_t commit_dest(struct file_map *fm);
void close_file(struct file_map *fm);
bool read_full(struct app *app, uint8_t *buf, uint64_t len, uint64_t off);
bool write_full(int fd, const uint8_t *p, uint64_t len, uint64_t off);
doca_error_t shrink_status(struct app *app, char *why, size_t len);

/* link.c */
doca_error_t open_device(struct app *app);
doca_error_t comch_setup(struct app *app);
doca_error_t wait_connected(struct app *app);
void pe_wait(struct app *app, int ms);
doca_error_t send_msg(struct app *app, const void *msg, uint32_t len);
void send_status(struct app *app, uint16_t type, doca_error_t status, const char *text);
void send_status_flush(struct app *app, uint16_t type, doca_error_t status, const char *text);
void sends_flush(struct app *app);
void send_failure(struct app *app, uint16_t type, bool flush);
doca_error_t wait_msg(struct app *app, void *out, uint32_t cap, uint32_t *len, bool unbounded);
bool msg_is(const void *msg, uint32_t len, uint16_t type);
doca_error_t peer_error(struct app *app, const void *msg, uint32_t len);
bool seq_note(struct app *app, bool from_peer, const void *msg, uint32_t len);

/* credit.c */
void report_progress(struct app *app, bool flush);
void send_credit(struct app *app, bool flush);
void flush_before_block(struct app *app);

/* stage.c */
doca_error_t stage_alloc(struct app *app, uint64_t len);
bool stage_drain(struct app *app, uint64_t upto);
bool stage_fill(struct app *app, uint64_t off, uint64_t len);
bool host_fill_step(struct app *app);

/* window.c */
doca_error_t dma_setup(struct app *app, const struct msg_export *exp);
doca_error_t dma_run(struct app *app, uint64_t remote_addr);

/* dpu.c, host.c */
doca_error_t run_dpu(struct app *app);
doca_error_t run_host(struct app *app);

#endif /* DMA_COPY_APP_H_ */
