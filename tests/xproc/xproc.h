/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xproc.h - what the cross-process tests share: the byte pattern both processes compute, and
 * (in the tests, not in the exporter) control of an exporter process.
 *
 * The pattern depends on the seed and on the byte's offset in the exported buffer, so a byte
 * copied to the wrong place is as visible as a byte not copied.
 *
 * An exporter (xproc_exporter, path in $XPROC_EXPORTER) is started with fork/exec and driven by
 * lines on a pipe (xproc_exporter.c lists the commands). Every wait on it is bounded
 * (XP_WAIT_MS): a test fails, it never hangs. Exporters die with the test (PR_SET_PDEATHSIG),
 * and xp_finish()/xp_kill() reap them.
 */
#ifndef XPROC_H_
#define XPROC_H_

#include <stddef.h>
#include <stdint.h>

static inline uint8_t xp_byte(uint64_t seed, uint64_t off)
{
	uint64_t z = (off >> 3) * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull;

	z ^= z >> 31;
	z *= 0x94D049BB133111EBull;
	z ^= z >> 29;
	return (uint8_t)(z >> (8 * (off & 7)));
}

/* Fills @len bytes at @p with the pattern of offsets [@off, @off + @len). */
static inline void xp_fill(uint8_t *p, uint64_t off, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = xp_byte(seed, off + i);
}

/* Index of the first of @len bytes at @p that is not the pattern of offsets [@off, ...), or @len. */
static inline size_t xp_check(const uint8_t *p, uint64_t off, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != xp_byte(seed, off + i))
			return i;
	return len;
}

#ifndef XPROC_EXPORTER_ONLY

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/sd_test.h"

#define XP_WAIT_MS 20000
#define XP_DESC_MAX 256

struct xp_peer {
	pid_t pid;
	int to;	  /* its stdin */
	int from; /* its stdout */
	char buf[4096];
	size_t have;
	/* From the last EXPORT line. */
	uint8_t desc[XP_DESC_MAX];
	size_t desc_len;
	uint64_t addr;
	size_t size;
};

/* Reads one line (without the newline) within XP_WAIT_MS; 0, or -1 after saying why. */
static inline int xp_line(struct xp_peer *p, char *out, size_t out_len)
{
	uint64_t deadline = sd_now_ms() + XP_WAIT_MS;

	for (;;) {
		char *nl = memchr(p->buf, '\n', p->have);

		if (nl != NULL) {
			size_t n = (size_t)(nl - p->buf);

			if (n >= out_len)
				n = out_len - 1;
			memcpy(out, p->buf, n);
			out[n] = '\0';
			p->have -= (size_t)(nl - p->buf) + 1;
			memmove(p->buf, nl + 1, p->have);
			return 0;
		}
		uint64_t now = sd_now_ms();
		struct pollfd pfd = {.fd = p->from, .events = POLLIN};

		if (now >= deadline || p->have == sizeof(p->buf)) {
			fprintf(stderr, "  exporter pid %d: no answer within %d ms\n", (int)p->pid, XP_WAIT_MS);
			return -1;
		}
		if (poll(&pfd, 1, (int)(deadline - now)) <= 0)
			continue;
		ssize_t r = read(p->from, p->buf + p->have, sizeof(p->buf) - p->have);

		if (r <= 0) {
			fprintf(stderr, "  exporter pid %d closed its output (exited?)\n", (int)p->pid);
			return -1;
		}
		p->have += (size_t)r;
	}
}

static inline int xp_parse_export(struct xp_peer *p, const char *line)
{
	char hex[2 * XP_DESC_MAX + 1];
	unsigned long long addr, size;

	if (sscanf(line, "EXPORT %512s %llu %llu", hex, &addr, &size) != 3 || strlen(hex) % 2 != 0) {
		fprintf(stderr, "  exporter pid %d: expected an EXPORT line, got \"%s\"\n", (int)p->pid, line);
		return -1;
	}
	p->desc_len = strlen(hex) / 2;
	for (size_t i = 0; i < p->desc_len; i++) {
		unsigned int v;

		sscanf(hex + 2 * i, "%2x", &v);
		p->desc[i] = (uint8_t)v;
	}
	p->addr = addr;
	p->size = (size_t)size;
	return 0;
}

/* Sends a command and reads the answer into @ans (may be NULL); -1 on timeout or EOF. */
static inline int __attribute__((format(printf, 4, 5))) xp_cmd(struct xp_peer *p, char *ans, size_t ans_len,
							      const char *fmt, ...)
{
	char line[256], tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	line[n++] = '\n';
	if (write(p->to, line, (size_t)n) != n) {
		fprintf(stderr, "  exporter pid %d: cannot send \"%.*s\"\n", (int)p->pid, n - 1, line);
		return -1;
	}
	if (ans == NULL) {
		ans = tmp;
		ans_len = sizeof(tmp);
	}
	if (xp_line(p, ans, ans_len) != 0)
		return -1;
	if (strncmp(ans, "EXPORT ", 7) == 0)
		return xp_parse_export(p, ans);
	return 0;
}

/* Sends a command whose answer must be OK. */
static inline int xp_ok(struct xp_peer *p, const char *cmd)
{
	char ans[256];

	if (xp_cmd(p, ans, sizeof(ans), "%s", cmd) != 0)
		return -1;
	if (strcmp(ans, "OK") != 0) {
		fprintf(stderr, "  exporter pid %d: \"%s\" answered \"%s\"\n", (int)p->pid, cmd, ans);
		return -1;
	}
	return 0;
}

/*
 * Starts an exporter with @args (NULL-terminated, after the program name) and reads its first
 * EXPORT line; 0 or -1.
 */
static inline int xp_start_argv(struct xp_peer *p, const char *const *args)
{
	const char *prog = getenv("XPROC_EXPORTER");
	const char *argv[32];
	int in[2], out[2], n = 0;
	char line[1024];

	memset(p, 0, sizeof(*p));
	p->pid = -1;
	if (prog == NULL) {
		fprintf(stderr, "  XPROC_EXPORTER is not set (meson sets it)\n");
		return -1;
	}
	argv[n++] = prog;
	for (; args != NULL && *args != NULL && n < 31; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		return -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		execv(prog, (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	p->to = in[1];
	p->from = out[0];
	if (xp_line(p, line, sizeof(line)) != 0)
		return -1;
	return xp_parse_export(p, line);
}

#define xp_start(p, ...) xp_start_argv((p), (const char *const[]){__VA_ARGS__, NULL})

/* Waits (bounded) for the exporter to exit; returns its wait status, or -1 (then kills it). */
static inline int xp_reap(struct xp_peer *p)
{
	uint64_t deadline = sd_now_ms() + XP_WAIT_MS;
	int st = 0;

	if (p->pid <= 0)
		return -1;
	while (waitpid(p->pid, &st, WNOHANG) == 0) {
		if (sd_now_ms() >= deadline) {
			fprintf(stderr, "  exporter pid %d did not exit; killing it\n", (int)p->pid);
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &st, 0);
			st = -1;
			break;
		}
		usleep(1000);
	}
	p->pid = -1;
	close(p->to);
	close(p->from);
	return st;
}

/* Kills the exporter now (SIGKILL) and reaps it. */
static inline void xp_kill(struct xp_peer *p)
{
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		xp_reap(p);
	}
}

/* Asks the exporter to exit and reaps it; 0 when it exited with status 0. */
static inline int xp_finish(struct xp_peer *p)
{
	int st;

	if (p->pid <= 0)
		return -1;
	if (write(p->to, "exit\n", 5) != 5) {
		xp_kill(p);
		return -1;
	}
	st = xp_reap(p);
	return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

#endif /* XPROC_EXPORTER_ONLY */
#endif /* XPROC_H_ */
