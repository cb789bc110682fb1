/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wire.c - parsing and building comch packets (see wire.h). No I/O, no allocation, no global
 * state: every byte of input is bounds-checked here and nowhere else.
 */
#include <errno.h>
#include <string.h>

#include "wire.h"

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t get_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_u16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void comch_wire_put_hdr(void *buf, uint8_t type, uint32_t len)
{
	uint8_t *p = buf;

	put_u32(p, COMCH_WIRE_MAGIC);
	p[4] = COMCH_WIRE_VERSION;
	p[5] = type;
	put_u16(p + 6, 0);
	put_u32(p + 8, len);
}

/* HELLO payload: max_msg u32, pid u32, name_len u16, reserved u16 (0), name bytes. */
static int parse_hello(const uint8_t *p, uint32_t len, struct comch_wire_msg *out)
{
	uint32_t name_len;

	if (len < 12)
		return -EBADMSG;
	name_len = get_u16(p + 8);
	if (get_u16(p + 10) != 0 || name_len == 0 || name_len > COMCH_WIRE_NAME_MAX || len != 12 + name_len)
		return -EBADMSG;
	if (memchr(p + 12, '\0', name_len) != NULL)
		return -EBADMSG;
	out->hello.max_msg = get_u32(p);
	out->hello.pid = get_u32(p + 4);
	out->hello.name = (const char *)(p + 12);
	out->hello.name_len = name_len;
	if (out->hello.max_msg == 0)
		return -EBADMSG;
	return 0;
}

int comch_wire_parse(const void *pkt, size_t n, uint32_t max_msg, struct comch_wire_msg *out)
{
	const uint8_t *p = pkt;
	uint32_t len;

	memset(out, 0, sizeof(*out));
	if (n < COMCH_WIRE_HDR_LEN || get_u32(p) != COMCH_WIRE_MAGIC)
		return -EBADMSG;
	out->version = p[4];
	out->type = p[5];
	if (out->version != COMCH_WIRE_VERSION)
		return -EPROTONOSUPPORT;
	len = get_u32(p + 8);
	if (get_u16(p + 6) != 0 || len != n - COMCH_WIRE_HDR_LEN)
		return -EBADMSG;
	out->len = len;
	out->payload = p + COMCH_WIRE_HDR_LEN;
	switch (out->type) {
	case COMCH_WIRE_MSG:
		return len > max_msg ? -EMSGSIZE : 0;
	case COMCH_WIRE_HELLO:
		return parse_hello(out->payload, len, out);
	case COMCH_WIRE_WELCOME:
		if (len != 8)
			return -EBADMSG;
		out->welcome.max_msg = get_u32(out->payload);
		out->welcome.pid = get_u32(out->payload + 4);
		return out->welcome.max_msg == 0 ? -EBADMSG : 0;
	case COMCH_WIRE_REJECT:
		if (len != 4)
			return -EBADMSG;
		out->reject.reason = get_u32(out->payload);
		return 0;
	case COMCH_WIRE_CONSUMER:
		if (len != 16)
			return -EBADMSG;
		out->consumer.op = get_u32(out->payload);
		out->consumer.id = get_u32(out->payload + 4);
		out->consumer.shm_fd = get_u32(out->payload + 8);
		out->consumer.bell_fd = get_u32(out->payload + 12);
		if ((out->consumer.op != COMCH_CONSUMER_NEW && out->consumer.op != COMCH_CONSUMER_GONE) ||
		    out->consumer.id == 0)
			return -EBADMSG;
		return 0;
	default:
		return -EBADMSG;
	}
}

size_t comch_wire_hello(void *buf, uint32_t max_msg, uint32_t pid, const char *name, uint32_t name_len)
{
	uint8_t *p = buf;

	comch_wire_put_hdr(p, COMCH_WIRE_HELLO, 12 + name_len);
	p += COMCH_WIRE_HDR_LEN;
	put_u32(p, max_msg);
	put_u32(p + 4, pid);
	put_u16(p + 8, (uint16_t)name_len);
	put_u16(p + 10, 0);
	memcpy(p + 12, name, name_len);
	return COMCH_WIRE_HDR_LEN + 12 + name_len;
}

size_t comch_wire_welcome(void *buf, uint32_t max_msg, uint32_t pid)
{
	uint8_t *p = buf;

	comch_wire_put_hdr(p, COMCH_WIRE_WELCOME, 8);
	put_u32(p + COMCH_WIRE_HDR_LEN, max_msg);
	put_u32(p + COMCH_WIRE_HDR_LEN + 4, pid);
	return COMCH_WIRE_HDR_LEN + 8;
}

size_t comch_wire_reject(void *buf, uint32_t reason)
{
	uint8_t *p = buf;

	comch_wire_put_hdr(p, COMCH_WIRE_REJECT, 4);
	put_u32(p + COMCH_WIRE_HDR_LEN, reason);
	return COMCH_WIRE_HDR_LEN + 4;
}

size_t comch_wire_consumer(void *buf, uint32_t op, uint32_t id, uint32_t shm_fd, uint32_t bell_fd)
{
	uint8_t *p = buf;

	comch_wire_put_hdr(p, COMCH_WIRE_CONSUMER, 16);
	p += COMCH_WIRE_HDR_LEN;
	put_u32(p, op);
	put_u32(p + 4, id);
	put_u32(p + 8, shm_fd);
	put_u32(p + 12, bell_fd);
	return COMCH_WIRE_HDR_LEN + 16;
}

const char *comch_reject_reason_name(uint32_t reason)
{
	switch (reason) {
	case COMCH_REJECT_VERSION:
		return "protocol version mismatch";
	case COMCH_REJECT_NAME:
		return "server name mismatch";
	case COMCH_REJECT_BUSY:
		return "too many connections";
	case COMCH_REJECT_PROTOCOL:
		return "malformed handshake";
	}
	return "unknown reason";
}
