/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_example_pairs.c - a receive example and a send example run as a user runs them, two
 * processes on the two ends of a cable: the receiver starts first, the sender once the
 * receiver said "receiving on"; then every frame the sender put on the wire arrived, in
 * order and intact, and the receiver printed a line for each and its summary.
 *
 *   test_example_pairs RX_PROGRAM TX_PROGRAM [-f | --refusals]
 *
 * What is sent depends on the sender (its basename): plain and batched frames of a fixed size
 * with the examples' payload pattern, or LSO messages whose segments are checked one by one
 * (count, length, IPv4 total length and header checksum, TCP sequence number and checksum,
 * payload bytes). -f makes the receiver steer with its DOCA Flow root pipe: every frame line
 * then shows pkt_meta 1234. What arrived is read from the receiving port's capture
 * (SOFTDOCA_PCAP), independently of what the receiver prints, and compared with the sending
 * port's capture byte for byte. --refusals checks the failures a user meets instead: a
 * receiver nobody sends to exits 1 after its timeout with what it got, and a bad count or an
 * unknown device makes either program exit non-zero before it sends or receives anything.
 *
 * Environment: ETH_PAIR_RX_DEV / ETH_PAIR_TX_DEV name the cabled pair (default 03:00.0 and
 * 03:00.1, the default topology's wire); SOFTDOCA_CONFIG, when set, is passed on, so the same
 * test runs over another medium. The runtime directory is the test's own (XDG_RUNTIME_DIR).
 * Every wait is bounded; both programs are reaped whatever happens.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/sd_test.h"

#define WAIT_MS	   30000
#define MAX_FRAMES 1024
#define PKT_META   "pkt_meta 1234"
#define TCP_SEQ0   0x10000000u
#define LSO_HDR	   54
#define OUT_MAX	   (4u << 20)

/* What the sender is asked to send, and so what the receiver must see. */
struct plan {
	const char *kind; /* send, batch_send, lso, batch_lso */
	bool lso;
	uint32_t n, size, mss, batch;
	uint32_t frames; /* on the wire */
};

struct frame {
	uint32_t len;
	uint8_t *data;
};

static pid_t rx_pid = -1;

static void kill_rx(void)
{
	if (rx_pid > 0) {
		kill(rx_pid, SIGKILL);
		waitpid(rx_pid, NULL, 0);
		rx_pid = -1;
	}
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "test_example_pairs: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	kill_rx();
	return T_EXIT_FAIL;
}

static pid_t spawn(char *const argv[], int out_fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
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
		usleep(1000);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct out {
	char *buf;
	size_t len;
	bool eof;
};

/* Reads what @fd has, waiting at most @ms: bytes read, 0 when nothing came, -1 at EOF. */
static ssize_t read_some(int fd, struct out *o, int ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	char sink[4096];
	bool room = o->len < OUT_MAX - 1;
	ssize_t n;

	if (o->eof)
		return -1;
	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	/* Past OUT_MAX the rest is read and dropped, so the program never blocks. */
	n = read(fd, room ? o->buf + o->len : sink, room ? OUT_MAX - 1 - o->len : sizeof(sink));
	if (n <= 0) {
		o->eof = true;
		return -1;
	}
	if (room) {
		o->len += (size_t)n;
		o->buf[o->len] = '\0';
	}
	return n;
}

/* All of @fd until EOF (bounded by WAIT_MS). */
static void read_all(int fd, struct out *o)
{
	uint64_t deadline = sd_now_ms() + WAIT_MS;

	while (!o->eof && sd_now_ms() < deadline)
		read_some(fd, o, 100);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint32_t sum16(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The frames of the pcap file at @path (at most MAX_FRAMES); -1 when it is not a capture. */
static int read_pcap(const char *path, struct frame *frames)
{
	FILE *f = fopen(path, "rb");
	uint32_t hdr[6], rec[4];
	int n = 0;

	if (f == NULL)
		return -1;
	if (fread(hdr, 4, 6, f) != 6 || hdr[0] != 0xa1b23c4du || hdr[5] != 1) {
		fclose(f);
		return -1;
	}
	while (fread(rec, 4, 4, f) == 4) {
		if (n == MAX_FRAMES || rec[2] > 65536 || rec[2] != rec[3]) {
			n = -1;
			break;
		}
		frames[n].len = rec[2];
		frames[n].data = malloc(rec[2] ? rec[2] : 1);
		if (frames[n].data == NULL || fread(frames[n].data, 1, rec[2], f) != rec[2]) {
			n = -1;
			break;
		}
		n++;
	}
	fclose(f);
	return n;
}

/* Frame @k of what @p sends is @f; NULL when it is, else what is wrong. */
static const char *check_frame(const struct plan *p, uint32_t k, const struct frame *f)
{
	static char why[160];
	uint32_t per, m, s, seg;
	const uint8_t *ip, *tcp;

	if (!p->lso) {
		if (f->len != p->size)
			return snprintf(why, sizeof(why), "%u bytes, not %u", f->len, p->size), why;
		if (get16(f->data + 12) != 0x88b5)
			return "EtherType is not 0x88b5";
		for (uint32_t b = 14; b < f->len; b++)
			if (f->data[b] != (uint8_t)(k + b - 14))
				return snprintf(why, sizeof(why), "payload byte %u is 0x%02x", b - 14, f->data[b]), why;
		return NULL;
	}
	per = (p->size + p->mss - 1) / p->mss;
	m = k / per;
	s = k % per;
	seg = p->size - s * p->mss < p->mss ? p->size - s * p->mss : p->mss;
	if (f->len != LSO_HDR + seg)
		return snprintf(why, sizeof(why), "segment %u of message %u: %u bytes, not %u", s, m, f->len,
				LSO_HDR + seg),
		       why;
	ip = f->data + 14;
	tcp = ip + 20;
	if (get16(f->data + 12) != 0x0800 || ip[0] != 0x45 || ip[9] != 6)
		return "not IPv4 + TCP";
	if (get16(ip + 2) != 40 + seg)
		return snprintf(why, sizeof(why), "segment %u of message %u: IPv4 total length %u, not %u", s, m,
				get16(ip + 2), 40 + seg),
		       why;
	if (fold(sum16(0, ip, 20)) != 0)
		return snprintf(why, sizeof(why), "segment %u of message %u: bad IPv4 header checksum", s, m), why;
	if (get16(ip + 4) != (uint16_t)(0x100 * m + s))
		return snprintf(why, sizeof(why), "segment %u of message %u: IPv4 ID %u", s, m, get16(ip + 4)), why;
	if (get32(tcp + 4) != TCP_SEQ0 + m * p->size + s * p->mss)
		return snprintf(why, sizeof(why), "segment %u of message %u: TCP seq %u, not %u", s, m, get32(tcp + 4),
				TCP_SEQ0 + m * p->size + s * p->mss),
		       why;
	if ((tcp[13] & 0x08) != (s == per - 1 ? 0x08 : 0))
		return snprintf(why, sizeof(why), "segment %u of message %u: PSH flag wrong (flags 0x%02x)", s, m,
				tcp[13]),
		       why;
	if (fold(sum16(sum16(0, ip + 12, 8) + 6 + 20 + seg, tcp, 20 + seg)) != 0)
		return snprintf(why, sizeof(why), "segment %u of message %u: bad TCP checksum", s, m), why;
	for (uint32_t b = 0; b < seg; b++)
		if (tcp[20 + b] != (uint8_t)(m + s * p->mss + b))
			return snprintf(why, sizeof(why), "segment %u of message %u: payload byte %u", s, m, b), why;
	return NULL;
}

static bool plan_for(const char *tx_prog, struct plan *p)
{
	char copy[PATH_MAX];
	const char *base;

	snprintf(copy, sizeof(copy), "%s", tx_prog);
	base = basename(copy);
	memset(p, 0, sizeof(*p));
	if (strcmp(base, "eth_txq_send_ethernet_frames") == 0)
		*p = (struct plan){.kind = "send", .n = 300, .size = 700};
	else if (strcmp(base, "eth_txq_batch_send_ethernet_frames") == 0)
		*p = (struct plan){.kind = "batch_send", .n = 250, .size = 1514, .batch = 32};
	else if (strcmp(base, "eth_txq_lso_send_ethernet_frames") == 0)
		*p = (struct plan){.kind = "lso", .lso = true, .n = 40, .size = 5000, .mss = 1400};
	else if (strcmp(base, "eth_txq_batch_lso_send_ethernet_frames") == 0)
		*p = (struct plan){.kind = "batch_lso", .lso = true, .n = 45, .size = 2500, .mss = 1000, .batch = 8};
	else
		return false;
	p->frames = p->lso ? p->n * ((p->size + p->mss - 1) / p->mss) : p->n;
	return true;
}

/* "0000:03:00.0" for "03:00.0", as the capture files are named. */
static void full_pci(const char *pci, char *out, size_t len)
{
	if (strlen(pci) == 7)
		snprintf(out, len, "0000:%s", pci);
	else
		snprintf(out, len, "%s", pci);
}

/* Runs @argv to its end; its exit status (-1 when it had to be killed), its stdout in @o. */
static int run_prog(char *const argv[], struct out *o)
{
	int fds[2];
	pid_t pid;

	o->len = 0;
	o->eof = false;
	o->buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid = spawn(argv, fds[1]);
	close(fds[1]);
	read_all(fds[0], o);
	close(fds[0]);
	return reap(pid);
}

/* What a user meets when something is wrong: exit statuses, and nothing sent or received. */
static int refusals(char *rx_prog, char *tx_prog, const char *rx_dev, const char *tx_dev, struct out *o)
{
	char *quiet_rx[] = {rx_prog, "-p", (char *)rx_dev, "-n", "3", "-w", "200", NULL};
	char *bad_count[][6] = {{rx_prog, "-p", (char *)rx_dev, "-n", "0", NULL},
				{tx_prog, "-p", (char *)tx_dev, "-n", "0", NULL},
				{rx_prog, "-p", "07:00.0", "-n", "1", NULL},
				{tx_prog, "-p", "07:00.0", "-n", "1", NULL}};
	int st = run_prog(quiet_rx, o);

	if (st != 1 || strstr(o->buf, "] received 0 of 3 frames") == NULL)
		return fail("a receiver nobody sends to exited %d and printed: %s", st, o->buf);
	for (size_t i = 0; i < sizeof(bad_count) / sizeof(bad_count[0]); i++) {
		st = run_prog(bad_count[i], o);
		if (st <= 0 || st >= 128 || strstr(o->buf, "] sent ") != NULL || strstr(o->buf, "] receiving on ") != NULL)
			return fail("%s %s %s %s %s exited %d and printed: %s", bad_count[i][0], bad_count[i][1],
				    bad_count[i][2], bad_count[i][3], bad_count[i][4], st, o->buf);
	}
	printf("%s, %s: refusals as expected\n", basename(rx_prog), basename(tx_prog));
	return T_EXIT_PASS;
}

int main(int argc, char **argv)
{
	static struct frame rx_frames[MAX_FRAMES], tx_frames[MAX_FRAMES];
	const char *rx_dev = getenv("ETH_PAIR_RX_DEV"), *tx_dev = getenv("ETH_PAIR_TX_DEV");
	char run_dir[PATH_MAX], pcap_dir[PATH_MAX], path[PATH_MAX + 64], full[32], want[128];
	char n_arg[16], s_arg[16], mss_arg[16], b_arg[16], rn_arg[16];
	struct out rx_out = {0}, tx_out = {0};
	struct plan p;
	bool flow = argc == 4 && strcmp(argv[3], "-f") == 0;
	bool refuse = argc == 4 && strcmp(argv[3], "--refusals") == 0;
	uint64_t deadline, bytes = 0;
	int rx_pipe[2], tx_pipe[2], st, nrx, ntx, lines = 0;
	pid_t tx_pid;
	const char *dir, *line;

	if ((argc != 3 && !flow && !refuse) || !plan_for(argv[2], &p)) {
		fprintf(stderr, "usage: %s RX_PROGRAM TX_PROGRAM [-f | --refusals] (TX_PROGRAM: a send example)\n",
			argv[0]);
		return 2;
	}
	if (rx_dev == NULL || *rx_dev == '\0')
		rx_dev = "03:00.0";
	if (tx_dev == NULL || *tx_dev == '\0')
		tx_dev = "03:00.1";
	dir = sd_tmpdir();
	snprintf(run_dir, sizeof(run_dir), "%s/run", dir);
	snprintf(pcap_dir, sizeof(pcap_dir), "%s/pcap", dir);
	if (mkdir(run_dir, 0700) != 0 || mkdir(pcap_dir, 0700) != 0)
		return fail("mkdir: %s", strerror(errno));
	sd_setenv("XDG_RUNTIME_DIR", run_dir);
	sd_setenv("SOFTDOCA_PCAP", pcap_dir);
	rx_out.buf = malloc(OUT_MAX);
	tx_out.buf = malloc(OUT_MAX);
	if (rx_out.buf == NULL || tx_out.buf == NULL)
		return fail("out of memory");
	rx_out.buf[0] = tx_out.buf[0] = '\0';
	if (refuse) {
		st = refusals(argv[1], argv[2], rx_dev, tx_dev, &rx_out);
		free(rx_out.buf);
		free(tx_out.buf);
		return st;
	}

	/* The receiver, until it says the port is its own. */
	snprintf(rn_arg, sizeof(rn_arg), "%u", p.frames);
	{
		char *rargv[] = {argv[1], "-p", (char *)rx_dev, "-n", rn_arg, "-w", "20000", flow ? "-f" : NULL, NULL};

		if (pipe2(rx_pipe, O_CLOEXEC) != 0)
			return fail("pipe: %s", strerror(errno));
		rx_pid = spawn(rargv, rx_pipe[1]);
		close(rx_pipe[1]);
	}
	deadline = sd_now_ms() + WAIT_MS;
	while (strstr(rx_out.buf, "] receiving on ") == NULL) {
		if (read_some(rx_pipe[0], &rx_out, 100) < 0)
			return fail("the receiver exited before it was ready (status %d): %s", reap(rx_pid),
				    rx_out.buf);
		if (sd_now_ms() > deadline)
			return fail("the receiver was not ready within %d ms: %s", WAIT_MS, rx_out.buf);
	}

	/* The sender, to its end. */
	snprintf(n_arg, sizeof(n_arg), "%u", p.n);
	snprintf(s_arg, sizeof(s_arg), "%u", p.size);
	snprintf(mss_arg, sizeof(mss_arg), "%u", p.mss);
	snprintf(b_arg, sizeof(b_arg), "%u", p.batch);
	{
		char *targv[16] = {argv[2], "-p", (char *)tx_dev, "-n", n_arg, "-s", s_arg, "-q"};
		int k = 8;

		if (p.lso) {
			targv[k++] = "-mss";
			targv[k++] = mss_arg;
		}
		if (p.batch != 0) {
			targv[k++] = "-b";
			targv[k++] = b_arg;
		}
		targv[k] = NULL;
		if (pipe2(tx_pipe, O_CLOEXEC) != 0)
			return fail("pipe: %s", strerror(errno));
		tx_pid = spawn(targv, tx_pipe[1]);
		close(tx_pipe[1]);
	}
	/* Both outputs drain at once, so that neither program blocks on a full pipe. */
	deadline = sd_now_ms() + WAIT_MS;
	while (!tx_out.eof && sd_now_ms() < deadline) {
		read_some(tx_pipe[0], &tx_out, 10);
		while (read_some(rx_pipe[0], &rx_out, 0) > 0)
			;
	}
	close(tx_pipe[0]);
	st = reap(tx_pid);
	if (st != 0)
		return fail("the %s sender exited %d: %s", p.kind, st, tx_out.buf);
	if (p.lso)
		snprintf(want, sizeof(want), "] sent %u LSO messages of %u payload bytes", p.n, p.size);
	else
		snprintf(want, sizeof(want), "] sent %u frames of %u bytes", p.n, p.size);
	if (strstr(tx_out.buf, want) == NULL)
		return fail("the sender did not print \"%s\": %s", want + 2, tx_out.buf);

	read_all(rx_pipe[0], &rx_out);
	close(rx_pipe[0]);
	st = reap(rx_pid);
	rx_pid = -1;
	if (st != 0)
		return fail("the receiver exited %d: %s", st, rx_out.buf);

	/* The receiver's lines: one per frame, in order, with its size (and pkt_meta with -f). */
	for (line = strstr(rx_out.buf, "] frame "); line != NULL; line = strstr(line + 1, "] frame ")) {
		const char *eol = strchr(line, '\n');
		unsigned int idx, len;
		uint32_t want_len = p.lso ? 0 : p.size;

		if (sscanf(line, "] frame %u: %u bytes", &idx, &len) != 2 || idx != (unsigned int)lines)
			return fail("frame line %d reads \"%.80s\"", lines, line);
		if (p.lso) {
			uint32_t per = (p.size + p.mss - 1) / p.mss, s = idx % per;

			want_len = LSO_HDR + (p.size - s * p.mss < p.mss ? p.size - s * p.mss : p.mss);
		}
		if (len != want_len)
			return fail("frame line %u says %u bytes, not %u", idx, len, want_len);
		if (flow != (strstr(line, PKT_META) != NULL && (eol == NULL || strstr(line, PKT_META) < eol)))
			return fail("frame line %u: pkt_meta %s expected: \"%.200s\"", idx, flow ? "" : "not", line);
		bytes += len;
		lines++;
	}
	if ((uint32_t)lines != p.frames)
		return fail("the receiver printed %d frame lines, not %u", lines, p.frames);
	snprintf(want, sizeof(want), "] received %u of %u frames, %llu bytes", p.frames, p.frames,
		 (unsigned long long)bytes);
	if (strstr(rx_out.buf, want) == NULL)
		return fail("the receiver did not print \"%s\"", want + 2);

	/* What reached the receiving port, from its capture; the sending port's must be the same. */
	full_pci(rx_dev, full, sizeof(full));
	snprintf(path, sizeof(path), "%s/%s.pcap", pcap_dir, full);
	nrx = read_pcap(path, rx_frames);
	full_pci(tx_dev, full, sizeof(full));
	snprintf(path, sizeof(path), "%s/%s.pcap", pcap_dir, full);
	ntx = read_pcap(path, tx_frames);
	if (nrx != (int)p.frames || ntx != (int)p.frames)
		return fail("captures hold %d frames received and %d sent, not %u", nrx, ntx, p.frames);
	for (uint32_t k = 0; k < p.frames; k++) {
		const char *why = check_frame(&p, k, &rx_frames[k]);

		if (why != NULL)
			return fail("frame %u received: %s", k, why);
		if (tx_frames[k].len != rx_frames[k].len ||
		    memcmp(tx_frames[k].data, rx_frames[k].data, rx_frames[k].len) != 0)
			return fail("frame %u received differs from frame %u sent", k, k);
	}
	for (uint32_t k = 0; k < p.frames; k++) {
		free(rx_frames[k].data);
		free(tx_frames[k].data);
	}
	free(rx_out.buf);
	free(tx_out.buf);
	printf("%s -> %s%s: %u frames (%s), %llu bytes, all intact\n", p.kind, basename(argv[1]), flow ? " -f" : "",
	       p.frames, p.lso ? "LSO segments" : "frames", (unsigned long long)bytes);
	return T_EXIT_PASS;
}
