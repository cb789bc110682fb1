/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wire.h - the comch wire protocol: what one packet on a comch socket may contain.
 *
 * The sockets are SOCK_SEQPACKET, so the kernel keeps message boundaries: one packet is one
 * header plus its payload, never split and never merged. Everything a peer sends is untrusted
 * (another process, possibly another softdoca version, possibly not softdoca at all), so every
 * packet goes through comch_wire_parse() before any field is used. The parser is a pure
 * function of its input bytes; tests/comch/fuzz_wire.c fuzzes it.
 *
 *   client                                   server
 *     connect() ----------------------------> accept()
 *     HELLO {max_msg, pid, name} ----------->   checks version and name
 *     <------------------------------------- WELCOME {max_msg, pid}    (or REJECT {reason})
 *     client RUNNING                          connect callback
 *     MSG {bytes} <------------------------> MSG {bytes}
 *     CONSUMER {NEW, id, fds} <------------> CONSUMER {NEW, ...}  (either side, see dp.c)
 *     CONSUMER {GONE, id} <----------------> CONSUMER {GONE, id}
 *     close() / process death ------------->  EOF: disconnect callback
 *
 * Header (12 bytes, little-endian): magic "SDCH", version, type, reserved (0), payload length.
 * A packet whose magic, type, reserved field or length is wrong is garbage; the receiver drops
 * the connection. A packet of another version is answered (if it is a HELLO) with a REJECT of
 * reason COMCH_REJECT_VERSION in this version's format, so both sides can say what went wrong.
 */
#ifndef SD_COMCH_WIRE_H_
#define SD_COMCH_WIRE_H_

#include <stddef.h>
#include <stdint.h>

#define COMCH_WIRE_MAGIC   0x48434453u /* "SDCH" read as a little-endian u32 */
#define COMCH_WIRE_VERSION 1
#define COMCH_WIRE_HDR_LEN 12
/* Longest name a HELLO may carry (bytes, no NUL). */
#define COMCH_WIRE_NAME_MAX 255
/* Largest control (non-MSG) packet payload. */
#define COMCH_WIRE_CTRL_MAX (12 + COMCH_WIRE_NAME_MAX)

enum comch_wire_type {
	COMCH_WIRE_HELLO = 1,	 /* client -> server, first packet */
	COMCH_WIRE_WELCOME = 2,	 /* server -> client: accepted */
	COMCH_WIRE_REJECT = 3,	 /* server -> client: refused, then closed */
	COMCH_WIRE_MSG = 4,	 /* either way, after WELCOME: one application message */
	COMCH_WIRE_CONSUMER = 5, /* either way, after WELCOME: a consumer appeared or went away */
};

enum comch_consumer_op {
	COMCH_CONSUMER_NEW = 1,	 /* shm_fd and bell_fd name the sender's fds of its ring and doorbell */
	COMCH_CONSUMER_GONE = 2, /* the consumer stopped; its fds are meaningless */
};

enum comch_reject_reason {
	COMCH_REJECT_VERSION = 1,  /* the server speaks another protocol version */
	COMCH_REJECT_NAME = 2,	   /* the socket belongs to a server of another name */
	COMCH_REJECT_BUSY = 3,	   /* the server has too many connections */
	COMCH_REJECT_PROTOCOL = 4, /* the HELLO was malformed */
};

struct comch_wire_msg {
	uint8_t version;
	uint8_t type;
	uint32_t len;		/* payload bytes */
	const uint8_t *payload; /* points into the parsed packet */
	union {
		struct {
			uint32_t max_msg;
			uint32_t pid;
			const char *name; /* not NUL-terminated */
			uint32_t name_len;
		} hello;
		struct {
			uint32_t max_msg;
			uint32_t pid;
		} welcome;
		struct {
			uint32_t reason;
		} reject;
		struct {
			uint32_t op;
			uint32_t id;
			uint32_t shm_fd;
			uint32_t bell_fd;
		} consumer;
	};
};

/*
 * Parses the packet @pkt of @n bytes. @max_msg: the largest MSG payload the receiver accepts.
 * Returns 0 and fills @out, or:
 *   -EPROTONOSUPPORT  good magic, another version (out->version and out->type are set)
 *   -EMSGSIZE         a MSG longer than @max_msg
 *   -EBADMSG          anything else: short packet, bad magic, unknown type, length mismatch,
 *                     malformed control payload
 */
int comch_wire_parse(const void *pkt, size_t n, uint32_t max_msg, struct comch_wire_msg *out);

/* Writes a header for a packet of @type with @len payload bytes into @buf (12 bytes). */
void comch_wire_put_hdr(void *buf, uint8_t type, uint32_t len);
/* Builds a whole control packet into @buf (at least COMCH_WIRE_HDR_LEN + COMCH_WIRE_CTRL_MAX
 * bytes); returns its length. @name_len <= COMCH_WIRE_NAME_MAX. */
size_t comch_wire_hello(void *buf, uint32_t max_msg, uint32_t pid, const char *name, uint32_t name_len);
size_t comch_wire_welcome(void *buf, uint32_t max_msg, uint32_t pid);
size_t comch_wire_reject(void *buf, uint32_t reason);
/* A CONSUMER packet (COMCH_WIRE_HDR_LEN + 16 bytes). */
size_t comch_wire_consumer(void *buf, uint32_t op, uint32_t id, uint32_t shm_fd, uint32_t bell_fd);
/* "version", "name", ... for log lines. */
const char *comch_reject_reason_name(uint32_t reason);

#endif /* SD_COMCH_WIRE_H_ */
