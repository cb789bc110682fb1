/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc_pair.c - runs the example pair the way a user does: dma_copy_host in one process
 * (default device b1:00.0) waiting on its stdin, dma_copy_dpu in another (default 03:00.0)
 * reading the two files and printing the text. Then the refusals a user meets: a DPU device
 * that does not pair with the host's, and a host that has already gone.
 *
 *   xproc_pair HOST_PROGRAM DPU_PROGRAM
 *
 * Every wait is bounded; both programs are reaped whatever happens.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/sd_test.h"

#define WAIT_MS 20000
#define TEXT "softdoca: the DPU read this from the host's memory"

static char desc_path[PATH_MAX], buf_path[PATH_MAX];
static pid_t host = -1;

static pid_t spawn(char *const argv[], int in_fd, int out_fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (in_fd >= 0)
			dup2(in_fd, STDIN_FILENO);
		if (out_fd >= 0)
			dup2(out_fd, STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Waits at most WAIT_MS for @pid; its exit status, or -1 after killing it. */
static int reap(pid_t pid)
{
	uint64_t deadline = sd_now_ms() + WAIT_MS;
	int st;

	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (sd_now_ms() > deadline) {
			fprintf(stderr, "pid %d did not exit in %d ms; killed\n", (int)pid, WAIT_MS);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		usleep(2000);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Runs the DPU side with @pci (NULL: its default); its exit status, its stdout in @out. */
static int run_dpu(const char *prog, const char *pci, char *out, size_t out_len)
{
	char *argv[] = {(char *)prog, "-d", desc_path, "-b", buf_path, NULL, NULL, NULL};
	uint64_t deadline = sd_now_ms() + WAIT_MS;
	size_t have = 0;
	int p[2], st;
	pid_t pid;

	if (pci != NULL) {
		argv[5] = "-p";
		argv[6] = (char *)pci;
	}
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid = spawn(argv, -1, p[1]);
	close(p[1]);
	while (have + 1 < out_len && sd_now_ms() < deadline) {
		struct pollfd pfd = {.fd = p[0], .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(p[0], out + have, out_len - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	out[have] = '\0';
	close(p[0]);
	st = reap(pid);
	return st;
}

#define VICTIM "not to be overwritten"
static char victim_path[PATH_MAX], link_path[2][PATH_MAX + 8];

static int fail(const char *what)
{
	fprintf(stderr, "xproc_pair: %s\n", what);
	if (host > 0) {
		kill(host, SIGKILL);
		waitpid(host, NULL, 0);
	}
	return 1;
}

int main(int argc, char **argv)
{
	char out[4096];
	const char *dir;
	int in[2], st;
	uint64_t deadline;
	struct stat sb;

	if (argc != 3) {
		fprintf(stderr, "usage: %s HOST_PROGRAM DPU_PROGRAM\n", argv[0]);
		return 2;
	}
	dir = sd_tmpdir();
	snprintf(desc_path, sizeof(desc_path), "%s/export_desc.txt", dir);
	snprintf(buf_path, sizeof(buf_path), "%s/buffer_info.txt", dir);
	/*
	 * Someone else's symlinks where a naive writer puts its temporary files ("<name>.tmp", as
	 * in a shared /tmp): the host must neither follow them nor write through them.
	 */
	snprintf(victim_path, sizeof(victim_path), "%s/victim", dir);
	snprintf(link_path[0], sizeof(link_path[0]), "%s.tmp", desc_path);
	snprintf(link_path[1], sizeof(link_path[1]), "%s.tmp", buf_path);
	{
		int fd = open(victim_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd < 0 || write(fd, VICTIM, sizeof(VICTIM) - 1) != (ssize_t)(sizeof(VICTIM) - 1) || close(fd) != 0)
			return fail("cannot create the victim file");
		if (symlink(victim_path, link_path[0]) != 0 || symlink(victim_path, link_path[1]) != 0)
			return fail("symlink");
	}
	if (pipe2(in, O_CLOEXEC) != 0)
		return fail("pipe");
	{
		char *hargv[] = {argv[1], "-t", TEXT, "-d", desc_path, "-b", buf_path, NULL};

		host = spawn(hargv, in[0], -1);
	}
	close(in[0]);

	/* The host writes both files (each by rename, so complete when present), then waits. */
	deadline = sd_now_ms() + WAIT_MS;
	while (stat(desc_path, &sb) != 0 || stat(buf_path, &sb) != 0) {
		if (waitpid(host, &st, WNOHANG) == host) {
			host = -1;
			return fail("dma_copy_host exited before writing its files");
		}
		if (sd_now_ms() > deadline)
			return fail("dma_copy_host wrote no files in time");
		usleep(5000);
	}

	{
		char got[64] = "";
		int fd = open(victim_path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, got, sizeof(got) - 1) : -1;

		if (fd >= 0)
			close(fd);
		if (n != (ssize_t)(sizeof(VICTIM) - 1) || memcmp(got, VICTIM, sizeof(VICTIM) - 1) != 0)
			return fail("dma_copy_host wrote through a symlink planted next to its files");
		if (lstat(desc_path, &sb) != 0 || !S_ISREG(sb.st_mode))
			return fail("the descriptor file is not a regular file");
	}

	/* DPU defaults: 03:00.0, the representor of the host's b1:00.0. */
	st = run_dpu(argv[2], NULL, out, sizeof(out));
	if (st != 0 || strstr(out, TEXT) == NULL) {
		fprintf(stderr, "dma_copy_dpu exited %d and printed \"%s\"\n", st, out);
		return fail("the DPU side did not print the host's text");
	}
	/* 03:00.1 represents b1:00.1: it must be refused. */
	st = run_dpu(argv[2], "03:00.1", out, sizeof(out));
	if (st == 0 || strstr(out, TEXT) != NULL)
		return fail("dma_copy_dpu through 03:00.1 was not refused");

	/* Enter: the host cleans up and exits 0. */
	if (write(in[1], "\n", 1) != 1)
		return fail("cannot press enter");
	close(in[1]);
	st = reap(host);
	host = -1;
	if (st != 0)
		return fail("dma_copy_host did not exit 0");

	/* The host is gone: its descriptor is stale. */
	st = run_dpu(argv[2], NULL, out, sizeof(out));
	if (st == 0 || strstr(out, TEXT) != NULL)
		return fail("dma_copy_dpu succeeded after the host exited");

	printf("xproc_pair: ok\n");
	return 0;
}
