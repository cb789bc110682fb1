/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_wire.c - libFuzzer target for the comch packet parser (src/comch/wire.c), the only code
 * that reads bytes a peer process sent.
 *
 * Besides "no crash, no read past the input" (the sanitizers watch that), it checks what the
 * parser promises: an accepted packet's fields lie inside the input, and building the same
 * packet again from the parsed fields gives back exactly the input bytes, so nothing the parser
 * accepts is ambiguous.
 *
 * The seeds in corpus/wire are replayed by every test run (tests/comch/meson.build); fuzzing by
 * hand is described in tests/fuzz/meson.build (the target here is tests/comch/fuzz_wire).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define MUST(cond)                                                                                                     \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			fprintf(stderr, "fuzz_wire: broken promise: %s\n", #cond);                                     \
			abort();                                                                                       \
		}                                                                                                      \
	} while (0)

static void check(const uint8_t *data, size_t size, uint32_t max_msg)
{
	uint8_t again[COMCH_WIRE_HDR_LEN + COMCH_WIRE_CTRL_MAX];
	struct comch_wire_msg m;
	int rc = comch_wire_parse(data, size, max_msg, &m);
	size_t n;

	if (rc == -EMSGSIZE) {
		MUST(m.type == COMCH_WIRE_MSG && m.len > max_msg);
		return;
	}
	if (rc == -EPROTONOSUPPORT) {
		MUST(size >= COMCH_WIRE_HDR_LEN && m.version != COMCH_WIRE_VERSION);
		return;
	}
	if (rc != 0) {
		MUST(rc == -EBADMSG);
		return;
	}
	MUST(size == COMCH_WIRE_HDR_LEN + (size_t)m.len);
	MUST(m.payload == data + COMCH_WIRE_HDR_LEN);
	switch (m.type) {
	case COMCH_WIRE_MSG:
		MUST(m.len <= max_msg);
		comch_wire_put_hdr(again, COMCH_WIRE_MSG, m.len);
		MUST(memcmp(again, data, COMCH_WIRE_HDR_LEN) == 0);
		return;
	case COMCH_WIRE_HELLO:
		MUST(m.hello.name_len >= 1 && m.hello.name_len <= COMCH_WIRE_NAME_MAX);
		MUST((const uint8_t *)m.hello.name >= m.payload &&
		     (const uint8_t *)m.hello.name + m.hello.name_len == data + size);
		MUST(memchr(m.hello.name, '\0', m.hello.name_len) == NULL);
		n = comch_wire_hello(again, m.hello.max_msg, m.hello.pid, m.hello.name, m.hello.name_len);
		break;
	case COMCH_WIRE_WELCOME:
		MUST(m.welcome.max_msg != 0);
		n = comch_wire_welcome(again, m.welcome.max_msg, m.welcome.pid);
		break;
	case COMCH_WIRE_REJECT:
		MUST(comch_reject_reason_name(m.reject.reason) != NULL);
		n = comch_wire_reject(again, m.reject.reason);
		break;
	case COMCH_WIRE_CONSUMER:
		MUST(m.consumer.id != 0);
		MUST(m.consumer.op == COMCH_CONSUMER_NEW || m.consumer.op == COMCH_CONSUMER_GONE);
		n = comch_wire_consumer(again, m.consumer.op, m.consumer.id, m.consumer.shm_fd, m.consumer.bell_fd);
		break;
	default:
		MUST(!"an unknown type was accepted");
		return;
	}
	MUST(n == size && memcmp(again, data, size) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size, 4080);
	check(data, size, 0);
	check(data, size, size > 20 ? (uint32_t)(size - 20) : 1);
	return 0;
}
