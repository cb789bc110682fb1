/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * file_util.h - opening the files a user names on softdoca's tools' command lines.
 *
 * A FIFO, device or directory named by mistake must neither hang the tool (a blocking open of
 * a FIFO waits for a writer) nor be read as if it were a file: regular files only.
 */
#ifndef TOOLS_FILE_UTIL_H_
#define TOOLS_FILE_UTIL_H_

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* fopen(@path, "r") of a regular file; NULL with errno (EINVAL: not a regular file). */
static inline FILE *tool_fopen_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (f == NULL)
		close(fd);
	return f;
}

#endif /* TOOLS_FILE_UTIL_H_ */
