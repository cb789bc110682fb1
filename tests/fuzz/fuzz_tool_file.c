/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_tool_file.c - libFuzzer harness for a tool that reads a file a user names: the input
 * becomes a memfd and the tool's main() (compiled in, renamed TOOL_MAIN by the build) runs on
 * /proc/self/fd/<n> with TOOL_ARGS before the path. Used for softdoca-trace (a trace) and
 * doca-capability-snapshot --diff (a snapshot). Properties: no crash, no read out of bounds, no
 * leak (LeakSanitizer), and the exit status is one the tool documents.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int TOOL_MAIN(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int quiet;
	char path[64];
	char *argv[8];
	int argc = 0, fd, rc;

	if (!quiet) {
		/* The tools print reports on stdout: drop them. stderr stays, so that sanitizer and
		 * libFuzzer reports are seen (the tools' refusals land there too). */
		quiet = freopen("/dev/null", "w", stdout) != NULL;
	}
	fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size > 0 && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	argv[argc++] = (char *)"tool";
#ifdef TOOL_ARG1
	argv[argc++] = (char *)TOOL_ARG1;
#endif
	argv[argc++] = path;
	argv[argc] = NULL;
	rc = TOOL_MAIN(argc, argv);
	close(fd);
	if (rc < 0 || rc > 3) /* not assert(): the property holds in release builds too */
		abort();
	return 0;
}
