/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * seq.c - the order and consistency of doca_dma_copy's messages over a session (dma_copy.h):
 * a pure function of the messages both sides sent, in the order this side saw them. Each side
 * feeds it what it sends and what it receives; the first message that breaks a rule below
 * stops the copy. Fuzzed by tests/fuzz/fuzz_dma_copy_seq.c.
 *
 *   host  START {file_on_host, size}                 first message of the session
 *   DPU   START {file_on_host, size}                 the same file_on_host; the host's size when
 *                                                    the host has the file
 *   host  EXPORT {len}                               a power of two (0 for an empty file)
 *   while the bytes move (after EXPORT, before DONE):
 *   host  FILLED {bytes}   the host sends the file:  grows, <= size, <= PROGRESS + ring
 *   host  CREDIT {bytes}   the host receives it:     grows, <= size, <= PROGRESS (after DONE,
 *                                                    RESULT too: <= size)
 *   DPU   PROGRESS {bytes}                           grows, <= size; <= FILLED when the host sends,
 *                                                    <= CREDIT + ring when it receives
 *   DPU   DONE {status 0}                            once; a sending host has FILLED all of it
 *   host  RESULT                                     once, after DONE
 *   DPU   LANDED                                     once, after RESULT, when the host sent the file
 *   either side ERROR                                at any time: the session is over, what still
 *                                                    arrives is not looked at
 * Nothing may follow LANDED (the host sent the file), nor RESULT but CREDIT (the host received it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "dma_copy.h"

enum { PH_INIT, PH_ASKED, PH_STARTED, PH_MOVING, PH_DONE, PH_RESULT, PH_END, PH_ERROR };

void dc_seq_init(struct dc_seq *s, bool dpu)
{
	memset(s, 0, sizeof(*s));
	s->dpu = dpu;
	s->phase = PH_INIT;
}

static const char *type_name(int type)
{
	static const char *const names[] = {"?",     "START",  "EXPORT",   "DONE",   "RESULT",
					    "ERROR", "LANDED", "PROGRESS", "CREDIT", "FILLED"};

	return type > 0 && type <= MSG_FILLED ? names[type] : "?";
}

static int broken(char *why, size_t why_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int broken(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return 0;
}

int dc_seq_step(struct dc_seq *s, bool from_peer, const void *msg, uint32_t len, char *why, size_t why_len)
{
	bool by_dpu = from_peer != s->dpu; /* the side that sent it */
	const char *who = by_dpu ? "the DPU side" : "the host";
	uint8_t m[sizeof(struct msg_status)] = {0};
	uint64_t bytes, size = s->size, ring = s->ring;
	int type;

	if (s->phase == PH_ERROR)
		return dc_msg_check(msg, len, why, why_len); /* the session is over */
	type = dc_msg_check(msg, len, why, why_len);
	if (type == 0)
		return 0;
	/* The fixed part, copied: messages arrive at any alignment. */
	memcpy(m, msg, len < sizeof(m) ? len : sizeof(m));
	if (type == MSG_ERROR) {
		s->phase = PH_ERROR;
		return type;
	}
	if (type == MSG_START || type == MSG_EXPORT) {
		struct msg_start st;
		struct msg_export ex;

		if (type == MSG_START && !by_dpu && s->phase == PH_INIT) {
			memcpy(&st, m, sizeof(st));
			s->file_on_host = st.file_on_host != 0;
			s->size = st.size;
			s->phase = PH_ASKED;
			return type;
		}
		if (type == MSG_START && by_dpu && s->phase == PH_ASKED) {
			memcpy(&st, m, sizeof(st));
			if ((st.file_on_host != 0) != s->file_on_host)
				return broken(
				    why, why_len,
				    "the DPU side's START says the file is on the %s, the host's said on the %s",
				    st.file_on_host ? "host" : "DPU side", s->file_on_host ? "host" : "DPU side");
			if (s->file_on_host && st.size != s->size)
				return broken(why, why_len,
					      "the DPU side's START announces %llu bytes, the host's %llu",
					      (unsigned long long)st.size, (unsigned long long)s->size);
			s->size = st.size;
			s->phase = PH_STARTED;
			return type;
		}
		if (type == MSG_EXPORT && !by_dpu && s->phase == PH_STARTED) {
			memcpy(&ex, m, sizeof(ex));
			if (size > 0 && (ex.len == 0 || (ex.len & (ex.len - 1)) != 0))
				return broken(why, why_len, "the host's ring of %llu bytes is not a power of two",
					      (unsigned long long)ex.len);
			if (size == 0 && ex.len != 0)
				return broken(why, why_len, "the host exports %llu bytes for an empty file",
					      (unsigned long long)ex.len);
			s->ring = ex.len;
			s->phase = PH_MOVING;
			return type;
		}
		goto out_of_order;
	}
	memcpy(&bytes, m + offsetof(struct msg_status, bytes), sizeof(bytes));
	switch (type) {
	case MSG_FILLED:
	case MSG_CREDIT:
		/* A CREDIT may follow DONE and RESULT: the host writes out the rest meanwhile. */
		if (by_dpu || s->phase < PH_MOVING || (type == MSG_FILLED && s->phase != PH_MOVING))
			goto out_of_order;
		if ((type == MSG_FILLED) != s->file_on_host)
			return broken(why, why_len, "the host sends %s while it %s the file", type_name(type),
				      s->file_on_host ? "sends" : "receives");
		if (type == MSG_FILLED) {
			if (bytes <= s->filled || bytes > size || bytes > s->progress + ring)
				return broken(why, why_len,
					      "FILLED at %llu bytes after %llu: it grows, up to the file's %llu bytes "
					      "and the ring's %llu past the %llu taken",
					      (unsigned long long)bytes, (unsigned long long)s->filled,
					      (unsigned long long)size, (unsigned long long)ring,
					      (unsigned long long)s->progress);
			s->filled = bytes;
		} else {
			uint64_t landed = s->phase >= PH_DONE ? size : s->progress;

			if (bytes <= s->credit || bytes > landed)
				return broken(why, why_len,
					      "CREDIT at %llu bytes after %llu: it grows, up to the %llu bytes that "
					      "landed",
					      (unsigned long long)bytes, (unsigned long long)s->credit,
					      (unsigned long long)landed);
			s->credit = bytes;
		}
		return type;
	case MSG_PROGRESS: {
		uint64_t limit = s->file_on_host ? s->filled : s->credit + ring;

		if (!by_dpu || s->phase != PH_MOVING)
			goto out_of_order;
		if (bytes <= s->progress || bytes > size || bytes > limit)
			return broken(
			    why, why_len,
			    "PROGRESS at %llu bytes after %llu: it grows, up to the file's %llu bytes and the "
			    "%llu the host %s",
			    (unsigned long long)bytes, (unsigned long long)s->progress, (unsigned long long)size,
			    (unsigned long long)limit, s->file_on_host ? "filled in" : "left room for");
		s->progress = bytes;
		return type;
	}
	case MSG_DONE: {
		int32_t st;

		if (!by_dpu || s->phase != PH_MOVING)
			goto out_of_order;
		memcpy(&st, m + offsetof(struct msg_status, status), sizeof(st));
		if (st != 0)
			return broken(why, why_len, "DONE with status %d: a failed copy ends with ERROR", st);
		if (s->file_on_host && s->filled != size)
			return broken(why, why_len, "DONE with %llu of the file's %llu bytes filled in by the host",
				      (unsigned long long)s->filled, (unsigned long long)size);
		s->phase = PH_DONE;
		return type;
	}
	case MSG_RESULT:
		if (by_dpu || s->phase != PH_DONE)
			goto out_of_order;
		s->phase = s->file_on_host ? PH_RESULT : PH_END;
		return type;
	case MSG_LANDED:
		if (!by_dpu || s->phase != PH_RESULT)
			goto out_of_order;
		s->phase = PH_END;
		return type;
	default:
		break;
	}
out_of_order : {
	static const char *const phases[] = {"before the host's START",
					     "before the DPU side's START",
					     "before the host's EXPORT",
					     "while the bytes move",
					     "after DONE",
					     "after RESULT",
					     "after the copy ended"};

	return broken(why, why_len, "%s from %s %s", type_name(type), who, phases[s->phase]);
}
}
