/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_proto.c - doca_dma_copy's message checks (apps/dma-copy/proto.c): each well-formed
 * message is accepted with its type, each kind of malformed one refused with a reason. And the
 * buffer-info file of the dma_copy pair examples (examples/dma_copy_pair.h).
 */
#include <string.h>

#include "../../apps/dma-copy/dma_copy.h"
#include "../../examples/dma_copy_pair.h"
#include "../common/sd_test.h"

#define HDR(t) ((struct msg_hdr){DMA_COPY_MAGIC, (t), DMA_COPY_VERSION})

static int check(const void *m, uint32_t len, const char *want_why)
{
	char why[160] = "";
	int t = dc_msg_check(m, len, why, sizeof(why));

	if (want_why != NULL) {
		CHECK_EQ(t, 0);
		if (strstr(why, want_why) == NULL) {
			fprintf(stderr, "reason '%s' lacks '%s'\n", why, want_why);
			exit(T_EXIT_FAIL);
		}
	}
	return t;
}

int main(void)
{
	struct msg_start st = {.hdr = HDR(MSG_START), .file_on_host = 1, .size = 10};
	struct msg_status s = {.hdr = HDR(MSG_DONE)};
	union {
		struct msg_export e;
		uint8_t raw[sizeof(struct msg_export) + 16];
	} x = {.e = {.hdr = HDR(MSG_EXPORT), .addr = 0x1000, .len = 4096, .desc_len = 16}};

	CHECK_EQ(check(&st, sizeof(st), NULL), MSG_START);
	CHECK_EQ(check(&s, sizeof(s), NULL), MSG_DONE);
	CHECK_EQ(check(&x, sizeof(x), NULL), MSG_EXPORT);
	check(&st, 3, "shorter than a message header");
	check(&st, sizeof(st) - 1, "it needs");
	st.hdr.magic = 1;
	check(&st, sizeof(st), "not a doca_dma_copy message");
	st.hdr = (struct msg_hdr){DMA_COPY_MAGIC, MSG_START, 1};
	check(&st, sizeof(st), "protocol version 1");
	st.hdr.type = 77;
	st.hdr.version = DMA_COPY_VERSION;
	check(&st, sizeof(st), "unknown message type 77");
	x.e.desc_len = 17;
	check(&x, sizeof(x), "export descriptor of 17 bytes");
	x.e.desc_len = 0;
	check(&x, sizeof(x), "export descriptor of 0 bytes for 4096");
	x.e.len = 0; /* an empty file: nothing exported */
	CHECK_EQ(check(&x, sizeof(x), NULL), MSG_EXPORT);
	x.e.len = 4096;
	x.e.desc_len = 16;
	x.e.addr = ~0ull - 10;
	check(&x, sizeof(x), "wraps");
	memset(s.text, 'a', sizeof(s.text));
	check(&s, sizeof(s), "terminating NUL");
	s.text[5] = '\0';
	s.status = -3;
	check(&s, sizeof(s), "not a DOCA error code");
	s.status = 6;
	s.hdr.type = MSG_ERROR;
	CHECK_EQ(check(&s, sizeof(s), NULL), MSG_ERROR);
	s.hdr.type = MSG_CREDIT;
	CHECK_EQ(check(&s, sizeof(s), NULL), MSG_CREDIT);
	check(&s, sizeof(s) - 1, "message type 8 of");
	s.hdr.type = MSG_FILLED;
	CHECK_EQ(check(&s, sizeof(s), NULL), MSG_FILLED);
	check(&s, sizeof(s) - 1, "message type 9 of");
	{
		static const struct {
			const char *text;
			bool ok;
		} cases[] = {
		    {"140737488355328\n4096\n", true},
		    {"5\n7", true},
		    {"5\n0\n", false},
		    {"18446744073709551615\n2\n", false},
		    {"18446744073709551616\n2\n", false},
		    {"5 \n7\n", false},
		    {"-5\n7\n", false},
		    {"5\n1048577\n", false},
		    {"5\n7\n\n", false},
		    {"", false},
		    {"5\n", false},
		};
		uint64_t a, n;

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			if (pair_parse_buffer_info(cases[i].text, strlen(cases[i].text), &a, &n) != cases[i].ok) {
				fprintf(stderr, "buffer info '%s' should be %s\n", cases[i].text,
					cases[i].ok ? "accepted" : "refused");
				return T_EXIT_FAIL;
			}
		CHECK(pair_parse_buffer_info("5\n7", 3, &a, &n) && a == 5 && n == 7);
	}
	printf("doca_dma_copy messages and buffer-info files: accepted and refused as they should be\n");
	return T_EXIT_PASS;
}
