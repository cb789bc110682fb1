/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace.h - task tracing: every task's life as Chrome trace-event JSON (Perfetto and
 * chrome://tracing open it directly).
 *
 * SOFTDOCA_TRACE=<file> turns it on (a "%p" in the name becomes the process id);
 * SOFTDOCA_TRACE_EVENTS=<n> bounds the memory (a ring of the last n events, default 1048576,
 * 32 bytes each). The file is written when the process exits.
 *
 * Off, the cost is one load and one not-taken branch per event site (priv_doca_trace_on).
 * Events are recorded by the thread that sees them: the application's PE thread for alloc,
 * submit, completion, callback and free, engine threads for engine start/end.
 */
#ifndef SD_TRACE_H_
#define SD_TRACE_H_

#include <stdbool.h>
#include <stdint.h>

#include "sd_internal.h"

enum trace_ev {
	TR_ALLOC = 1,	 /* task allocated */
	TR_SUBMIT,	 /* task handed to the engine (a = bytes, b = in flight after) */
	TR_ENGINE_DONE,	 /* the PE saw the engine finish it (b = in flight) */
	TR_CB_START,	 /* its callback starts (a = status) */
	TR_CB_END,	 /* its callback returned */
	TR_FREE,	 /* task freed */
	TR_ENGINE_BEGIN, /* an engine thread starts copying it (a = bytes) */
	TR_ENGINE_END,	 /* an engine thread finished copying it */
};

SD_PRIV extern bool priv_doca_trace_on;

/* Records one event. @ctx names the track, @id the task submission (unique per submit). */
SD_PRIV void priv_doca_trace(enum trace_ev ev, const void *ctx, uint64_t id, uint64_t a, uint64_t b);

/* Names the track of events recorded with @key (default "context N"). */
SD_PRIV void priv_doca_trace_track(const void *key, const char *name);

/* Starts tracing if SOFTDOCA_TRACE is set; called once when the first context starts. */
void trace_init(void);
/* Why SOFTDOCA_TRACE_EVENTS was refused (tracing stays off and context starts fail), or NULL. */
const char *trace_config_error(void);

#define TRACE(ev, ctx, id, a, b)                                                                                       \
	do {                                                                                                           \
		if (SD_UNLIKELY(priv_doca_trace_on))                                                                   \
			priv_doca_trace((ev), (ctx), (id), (a), (b));                                                  \
	} while (0)

#endif /* SD_TRACE_H_ */
