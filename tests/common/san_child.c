/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * san_child.c - a parent that never looks at how its child ended, for test_san_child.sh.
 *
 *   san_child          forks and execs "san_child bad", ignores its status, exits 0
 *   san_child clean    the same with "san_child ok", a child the sanitizers find nothing in
 *   san_child bad      under ThreadSanitizer two threads race on a counter, under
 *                      AddressSanitizer it reads past a heap buffer; then exits 0 if it can
 *   san_child ok       exits 0
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SAN_THREAD 1
#endif
#endif

#ifdef SAN_THREAD
static volatile int counter; /* written by two threads without a lock: the race */

static void *bump(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		counter = counter + 1;
	return NULL;
}
#endif

static int misbehave(void)
{
#ifdef SAN_THREAD
	pthread_t a, b;

	pthread_create(&a, NULL, bump, NULL);
	pthread_create(&b, NULL, bump, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
#else
	volatile size_t len = 16;
	char *p = malloc(len);

	memset(p, 1, len);
	printf("%d\n", p[len]); /* one byte past the end */
	free(p);
	return 0;
#endif
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	pid_t pid;

	if (strcmp(mode, "bad") == 0)
		return misbehave();
	if (strcmp(mode, "ok") == 0)
		return 0;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		execl(argv[0], argv[0], strcmp(mode, "clean") == 0 ? "ok" : "bad", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0); /* whatever the child's status: the report is all there is */
	printf("san_child: parent done\n");
	return 0;
}
