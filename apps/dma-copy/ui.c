/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ui.c - what doca_dma_copy shows: the progress bar on a terminal, the summary line, the clock.
 */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "app.h"

/* A progress frame on stderr that no newline has ended yet (progress_bar()): every log line of
 * this program ends it first (LOG_AT), so that no message is written onto the end of the bar. */
static bool bar_open;

void bar_end(void)
{
	if (bar_open) {
		fputc('\n', stderr);
		bar_open = false;
	}
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *human(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ull << 30))
		snprintf(buf, len, "%.2f GiB", (double)bytes / (double)(1ull << 30));
	else if (bytes >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)bytes / (double)(1ull << 20));
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)bytes / 1024.0);
	else
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	return buf;
}

/*
 * The progress line on a terminal (stderr), both sides: bytes, percent, rate, ETA, redrawn in
 * place at most every 100 ms and cleared before each redraw; the final frame ends the line.
 * Nothing when stderr is not a terminal or with --quiet: then only the summary is printed.
 */
void progress_bar(struct app *app, bool final)
{
	double t = now_s(), el;
	char a[32], b[32];

	if (app->quiet || !isatty(STDERR_FILENO) || (!final && t - app->last_bar < 0.1))
		return;
	app->last_bar = t;
	el = (double)(t - ((double)app->t_start.tv_sec + (double)app->t_start.tv_nsec * 1e-9));
	double rate = el > 0 ? (double)app->done_bytes / el : 0;
	double pct = app->size ? 100.0 * (double)app->done_bytes / (double)app->size : 100.0;
	double eta = rate > 0 ? (double)(app->size - app->done_bytes) / rate : 0;
	int fill = (int)(pct / 5);

	fprintf(stderr, "\r\033[K[%.*s%*s] %5.1f%% %s / %s  %.2f GB/s  ETA %d:%02d%s", fill, "####################",
		20 - fill, "", pct, human(app->done_bytes, a, sizeof(a)), human(app->size, b, sizeof(b)), rate / 1e9,
		(int)eta / 60, (int)eta % 60, final ? "\n" : "");
	bar_open = !final;
}

void summary(struct app *app, double secs, const char *dir)
{
	char a[32];

	/* One line of at most 120 columns: 1 GiB in a second takes 106, 16 TiB in three hours 118. */
	printf("%s %s (%" PRIu64 " bytes) %s in %.3f s, %.2f GB/s, checksum %016" PRIx64 " verified\n",
	       app->fm.is_dest ? "received" : "sent", human(app->size, a, sizeof(a)), app->size, dir, secs,
	       secs > 0 ? (double)app->size / secs / 1e9 : 0.0, app->checksum);
}
