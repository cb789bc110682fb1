/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rundir.c - where comch sockets live and what they are called.
 *
 *   $XDG_RUNTIME_DIR/softdoca/          (or /tmp/softdoca-<uid>/ without XDG_RUNTIME_DIR)
 *       0000:b1:00.0-my_server-1f3a...e2.sock
 *       ^ host function  ^ name, made safe  ^ 64-bit hash of (function, exact name)
 *
 * The directory must be private: created 0700, and refused when it is a symlink, belongs to
 * another user or can be reached by group or others, since anyone able to create files in it
 * could impersonate a server. The name part of a socket file keeps only [A-Za-z0-9._-] of the
 * server name (anything else becomes '_'), shortened to fit sun_path; the hash keeps distinct
 * names apart and the HELLO carries the exact name, so a collision is refused, never confused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "comch_internal.h"

#define COMP "comch"

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

int comch_rundir_open(char *dir, size_t dir_len)
{
	return priv_sd_rundir_open(dir, dir_len, "comch");
}

int comch_sock_path(const char *dir, const char *key, const char *name, size_t name_len, char *path, size_t path_len)
{
	char safe[48];
	uint64_t h = 0xcbf29ce484222325ull;
	size_t room, fixed, n = 0;
	int len;

	h = fnv1a(h, key, strlen(key) + 1);
	h = fnv1a(h, name, name_len);
	/* dir + '/' + key + '-' + safe + '-' + 16 hex + ".sock" + NUL */
	fixed = strlen(dir) + 1 + strlen(key) + 1 + 1 + 16 + 5 + 1;
	if (fixed >= path_len) {
		SD_ERR(COMP,
		       "comch runtime directory %s is too long for a socket path (%zu bytes max); set "
		       "XDG_RUNTIME_DIR to a shorter path",
		       dir, path_len - 1);
		return -ENAMETOOLONG;
	}
	room = path_len - fixed;
	if (room > sizeof(safe) - 1)
		room = sizeof(safe) - 1;
	for (; n < name_len && n < room; n++) {
		char c = name[n];

		safe[n] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
			   c == '-' || c == '_')
			      ? c
			      : '_';
	}
	safe[n] = '\0';
	len = snprintf(path, path_len, "%s/%s-%s-%016llx.sock", dir, key, safe, (unsigned long long)h);
	return (len < 0 || (size_t)len >= path_len) ? -ENAMETOOLONG : 0;
}
