/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rundir.c - softdoca's private runtime directory ($XDG_RUNTIME_DIR/softdoca, else
 * /tmp/softdoca-<uid>): Comch's rendezvous sockets and the software NIC's wire cables live there.
 * Created 0700 if absent; refused unless it is a real directory owned by this user and private.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sd_internal.h"

#define COMP "rundir"

SD_PRIV int priv_sd_rundir_open(char *dir, size_t dir_len, const char *user)
{
	const char *base = secure_getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int fd, n;

	if (base != NULL && base[0] == '/')
		n = snprintf(dir, dir_len, "%s/softdoca", base);
	else
		n = snprintf(dir, dir_len, "/tmp/softdoca-%u", (unsigned int)geteuid());
	if (n < 0 || (size_t)n >= dir_len) {
		SD_ERR(COMP,
		       "runtime directory path under XDG_RUNTIME_DIR=%s is too long; set XDG_RUNTIME_DIR to a "
		       "shorter path",
		       base);
		return -ENAMETOOLONG;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		int err = errno;

		SD_ERR(COMP,
		       "cannot create the %s runtime directory %s: %s; check that its parent exists and is "
		       "writable, or set XDG_RUNTIME_DIR",
		       user, dir, strerror(err));
		return -err;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		SD_ERR(COMP,
		       "cannot open the %s runtime directory %s: %s (a symlink or not a directory?); remove "
		       "it so softdoca can create a private one",
		       user, dir, strerror(err));
		return -err;
	}
	if (fstat(fd, &st) != 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	if (st.st_uid != geteuid()) {
		SD_ERR(COMP,
		       "%s runtime directory %s belongs to uid %u, not to you (uid %u); someone else could "
		       "use it to impersonate you: remove it or set XDG_RUNTIME_DIR to a directory of yours",
		       user, dir, (unsigned int)st.st_uid, (unsigned int)geteuid());
		close(fd);
		return -EPERM;
	}
	if (st.st_mode & 077) {
		SD_ERR(COMP, "%s runtime directory %s has mode %04o; it must be private to you: chmod 700 %s", user,
		       dir, (unsigned int)(st.st_mode & 07777), dir);
		close(fd);
		return -EPERM;
	}
	return fd;
}
