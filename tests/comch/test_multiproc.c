/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_multiproc.c - comch between processes: the test forks and execs itself in a helper role
 * (a server, a client, or a raw socket peer that breaks the protocol on purpose) and plays the
 * other side itself, or runs two helpers against each other.
 *
 *   helper roles (argv[1]):   server NAME echo|hold       client NAME ping N|hang
 *                             raw-client NAME MODE        raw-server NAME MODE
 *
 * A helper reports on fd 3 one line per milestone ("listening", "connected", "closed", ...).
 * The cases: a ping-pong between two helper processes; a client and a server killed with
 * SIGKILL (the other side must notice, never hang); a second live server with the same name
 * (refused) and the stale socket a killed server leaves (replaced); garbage, a foreign protocol
 * version, a wrong name, oversized packets from either side.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "comch_test.h"
#include "comch_internal.h"

#define NAME	"multiproc"
#define WAIT_MS 10000

static const char *self_exe;

/* ---- helper processes ---- */

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdprintf(3, fmt, ap);
	va_end(ap);
	dprintf(3, "\n");
}

/* server NAME echo: echoes until its client leaves, then exits 0.
 * server NAME hold: serves (echo) until killed. */
static int role_server(const char *name, const char *mode)
{
	struct side s;

	server_new(&s, name, 0, 1024);
	s.echo = true;
	CHECK_OK(doca_ctx_start(s.ctx));
	report("listening");
	for (;;) {
		if (doca_pe_progress(s.pe) == 0)
			usleep(100);
		if (strcmp(mode, "echo") == 0 && s.disconnects > 0)
			break;
	}
	report("done %d", s.recvs);
	side_free(&s);
	return 0;
}

/* client NAME ping N: N numbered messages of growing size, each echoed back in order.
 * client NAME hang: connects, then stops progressing and waits to be killed. */
static int role_client(const char *name, const char *mode, int n)
{
	struct side c;
	uint8_t msg[4080];

	client_new(&c, name, 0, 256);
	CHECK_ERR(doca_ctx_start(c.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.state == DOCA_CTX_STATE_RUNNING, WAIT_MS));
	CHECK_OK(doca_comch_client_get_connection(c.cl, &c.conn));
	report("connected");
	if (strcmp(mode, "hang") == 0)
		for (;;)
			pause();
	c.seq_mode = true;
	for (uint64_t i = 0; i < (uint64_t)n; i++) {
		uint32_t len = 8 + (uint32_t)(i * 37 % (sizeof(msg) - 8));
		doca_error_t ret;

		memcpy(msg, &i, sizeof(i));
		memset(msg + 8, (int)i, len - 8);
		/*
		 * Keep both task pools from running dry (an empty pool is a logged error): this
		 * side's, by the sends not yet completed, and the echoing server's, by the echoes
		 * not yet received. A server's echo waits as a task of its pool while this side is
		 * too slow to read (a TSan build): 200 pings ahead at most, against its 1024 tasks.
		 */
		while (i - (uint64_t)(c.send_ok + c.send_err) >= 200 || i - (uint64_t)c.recvs >= 200)
			(void)doca_pe_progress(c.pe);
		ret = side_send(&c, c.conn, msg, len);
		CHECK_OK(ret);
		(void)doca_pe_progress(c.pe);
	}
	CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.recvs == n, WAIT_MS));
	CHECK(c.send_err == 0);
	report("pinged %d", n);
	side_free(&c);
	return 0;
}

static int raw_connect(const char *name)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	char dir[108];
	int dfd, fd;

	dfd = comch_rundir_open(dir, sizeof(dir));
	CHECK(dfd >= 0);
	close(dfd);
	CHECK(comch_sock_path(dir, "0000:b1:00.0", name, strlen(name), addr.sun_path, sizeof(addr.sun_path)) == 0);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	CHECK(fd >= 0);
	CHECK(connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	return fd;
}

/* Waits (up to 10 s) for the peer to close; returns the packets received before. */
static int drain_until_closed(int fd, uint8_t *last, ssize_t *last_len)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	uint8_t buf[16384];
	int n = 0;

	for (;;) {
		ssize_t r;

		CHECK(poll(&p, 1, WAIT_MS) == 1);
		r = recv(fd, buf, sizeof(buf), 0);
		if (r <= 0)
			return n;
		n++;
		if (last != NULL) {
			memcpy(last, buf, (size_t)r);
			*last_len = r;
		}
	}
}

static void raw_send(int fd, const void *p, size_t len)
{
	CHECK(send(fd, p, len, MSG_NOSIGNAL) == (ssize_t)len);
}

static void raw_hello(int fd, const char *name)
{
	uint8_t buf[COMCH_WIRE_HDR_LEN + COMCH_WIRE_CTRL_MAX];

	raw_send(fd, buf, comch_wire_hello(buf, 4080, (uint32_t)getpid(), name, (uint32_t)strlen(name)));
}

/* Expects the server's reply to a HELLO: WELCOME, or REJECT (reported with its reason). */
static void raw_expect_reply(int fd, uint8_t type)
{
	uint8_t buf[256];
	struct comch_wire_msg m;
	ssize_t r = recv(fd, buf, sizeof(buf), 0);

	CHECK(r > 0);
	CHECK(comch_wire_parse(buf, (size_t)r, 4080, &m) == 0);
	CHECK(m.type == type);
	if (type == COMCH_WIRE_REJECT)
		report("rejected %u", m.reject.reason);
}

/*
 * raw-client NAME MODE: connects to the server's socket without softdoca and misbehaves:
 *   junk      bytes that are no packet, instead of a HELLO
 *   version   a HELLO of protocol version 9            (REJECT version expected)
 *   badname   a HELLO naming another server            (REJECT name expected)
 *   after     a correct handshake, then junk
 *   oversize  a correct handshake, then a MSG longer than the max message size
 *   bigpkt    a correct handshake, then a 64 KiB packet
 *   lastword  a correct handshake; once a message of the server is there (left unread), a
 *             MSG "last word", then it closes: the kernel reports ECONNRESET to the server
 *             before the packets that came ahead of the close, which must still be delivered
 * Reports "closed" once the server dropped the connection (lastword: once it closed itself).
 */
static int role_raw_client(const char *name, const char *mode)
{
	uint8_t buf[65536];
	int fd = raw_connect(name);

	memset(buf, 0x5a, sizeof(buf));
	if (strcmp(mode, "junk") == 0) {
		raw_send(fd, "GET / HTTP/1.0\r\n\r\n", 18);
	} else if (strcmp(mode, "version") == 0) {
		size_t len = comch_wire_hello(buf, 4080, (uint32_t)getpid(), name, (uint32_t)strlen(name));

		buf[4] = 9;
		raw_send(fd, buf, len);
		raw_expect_reply(fd, COMCH_WIRE_REJECT);
	} else if (strcmp(mode, "badname") == 0) {
		raw_hello(fd, "someone-else");
		raw_expect_reply(fd, COMCH_WIRE_REJECT);
	} else {
		raw_hello(fd, name);
		raw_expect_reply(fd, COMCH_WIRE_WELCOME);
		report("welcomed");
		if (strcmp(mode, "lastword") == 0) {
			struct pollfd p = {.fd = fd, .events = POLLIN};

			CHECK(poll(&p, 1, WAIT_MS) == 1); /* the server's message, never read */
			comch_wire_put_hdr(buf, COMCH_WIRE_MSG, 9);
			memcpy(buf + COMCH_WIRE_HDR_LEN, "last word", 9);
			raw_send(fd, buf, COMCH_WIRE_HDR_LEN + 9);
			close(fd);
			report("closed");
			return 0;
		}
		if (strcmp(mode, "after") == 0) {
			raw_send(fd, "\x53\x44\x43\x48garbage!", 12);
		} else if (strcmp(mode, "oversize") == 0) {
			comch_wire_put_hdr(buf, COMCH_WIRE_MSG, 4081);
			raw_send(fd, buf, COMCH_WIRE_HDR_LEN + 4081);
		} else {
			comch_wire_put_hdr(buf, COMCH_WIRE_MSG, sizeof(buf) - COMCH_WIRE_HDR_LEN);
			raw_send(fd, buf, sizeof(buf));
		}
	}
	(void)drain_until_closed(fd, NULL, NULL);
	report("closed");
	close(fd);
	return 0;
}

/*
 * raw-server NAME MODE: listens on the socket a server NAME would use, reads the client's
 * HELLO and answers:
 *   junk     bytes that are no packet
 *   reject   REJECT (busy)
 *   version  a WELCOME of protocol version 7
 *   after    WELCOME, then junk
 *   close    closes every connection at once (the client keeps retrying)
 */
static int role_raw_server(const char *name, const char *mode)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	uint8_t buf[512];
	char dir[108];
	int dfd, lfd, fd;

	dfd = comch_rundir_open(dir, sizeof(dir));
	CHECK(dfd >= 0);
	close(dfd);
	CHECK(comch_sock_path(dir, "0000:b1:00.0", name, strlen(name), addr.sun_path, sizeof(addr.sun_path)) == 0);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	CHECK(lfd >= 0);
	CHECK(bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	CHECK(listen(lfd, 8) == 0);
	report("listening");
	for (;;) {
		struct comch_wire_msg m;
		ssize_t r;

		fd = accept(lfd, NULL, NULL);
		CHECK(fd >= 0);
		if (strcmp(mode, "close") == 0) {
			close(fd);
			continue;
		}
		r = recv(fd, buf, sizeof(buf), 0);
		CHECK(r > 0);
		CHECK(comch_wire_parse(buf, (size_t)r, 4080, &m) == 0 && m.type == COMCH_WIRE_HELLO);
		if (strcmp(mode, "junk") == 0) {
			raw_send(fd, "\x01\x02\x03", 3);
		} else if (strcmp(mode, "reject") == 0) {
			raw_send(fd, buf, comch_wire_reject(buf, COMCH_REJECT_BUSY));
		} else if (strcmp(mode, "version") == 0) {
			size_t len = comch_wire_welcome(buf, 4080, (uint32_t)getpid());

			buf[4] = 7;
			raw_send(fd, buf, len);
		} else {
			raw_send(fd, buf, comch_wire_welcome(buf, 4080, (uint32_t)getpid()));
			usleep(100 * 1000);
			raw_send(fd, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 13);
		}
		(void)drain_until_closed(fd, NULL, NULL);
		report("closed");
		close(fd);
		unlink(addr.sun_path);
		return 0;
	}
}

/* ---- the orchestrating process ---- */

struct helper {
	pid_t pid;
	int fd; /* its fd 3 */
	char buf[512];
	size_t len;
};

static void spawn(struct helper *h, const char *role, const char *name, const char *mode, const char *arg)
{
	int p[2];

	CHECK(pipe2(p, O_CLOEXEC) == 0);
	fflush(stdout);
	fflush(stderr);
	h->pid = fork();
	CHECK(h->pid >= 0);
	if (h->pid == 0) {
		if (dup2(p[1], 3) < 0)
			_exit(T_EXIT_FAIL);
		execl(self_exe, self_exe, role, name, mode, arg, (char *)NULL);
		_exit(T_EXIT_FAIL);
	}
	close(p[1]);
	h->fd = p[0];
	h->len = 0;
}

/* Waits for a line starting with @want from @h, progressing the PEs of @a and @b meanwhile. */
static void expect(struct helper *h, const char *want, struct side *a, struct side *b)
{
	uint64_t end = sd_now_ms() + WAIT_MS;

	for (;;) {
		struct pollfd p = {.fd = h->fd, .events = POLLIN};
		char *nl;

		while ((nl = memchr(h->buf, '\n', h->len)) != NULL) {
			size_t n = (size_t)(nl - h->buf) + 1;
			bool match = strncmp(h->buf, want, strlen(want)) == 0;

			if (!match)
				fprintf(stderr, "helper %d said: %.*s", (int)h->pid, (int)n, h->buf);
			memmove(h->buf, h->buf + n, h->len - n);
			h->len -= n;
			if (match)
				return;
		}
		if (sd_now_ms() > end) {
			fprintf(stderr, "helper %d did not say '%s' within %d ms\n", (int)h->pid, want, WAIT_MS);
			kill(h->pid, SIGKILL);
			exit(T_EXIT_FAIL);
		}
		if (a != NULL)
			(void)doca_pe_progress(a->pe);
		if (b != NULL)
			(void)doca_pe_progress(b->pe);
		if (poll(&p, 1, 1) == 1) {
			ssize_t r = read(h->fd, h->buf + h->len, sizeof(h->buf) - 1 - h->len);

			if (r <= 0) {
				fprintf(stderr, "helper %d exited before saying '%s'\n", (int)h->pid, want);
				exit(T_EXIT_FAIL);
			}
			h->len += (size_t)r;
		}
	}
}

/* Waits for @h to exit (progressing @a meanwhile); returns its exit status, -signal if killed. */
static int reap(struct helper *h, struct side *a)
{
	uint64_t end = sd_now_ms() + WAIT_MS;
	int status;

	for (;;) {
		pid_t r = waitpid(h->pid, &status, WNOHANG);

		if (r == h->pid)
			break;
		CHECK(r == 0);
		if (sd_now_ms() > end) {
			fprintf(stderr, "helper %d still running after %d ms; killing it\n", (int)h->pid, WAIT_MS);
			kill(h->pid, SIGKILL);
			exit(T_EXIT_FAIL);
		}
		if (a == NULL || doca_pe_progress(a->pe) == 0)
			usleep(200);
	}
	close(h->fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

static void kill_helper(struct helper *h)
{
	CHECK(kill(h->pid, SIGKILL) == 0);
	CHECK(reap(h, NULL) == -SIGKILL);
}

/* Two helper processes, nothing of comch in this one. */
static void case_two_processes(void)
{
	struct helper srv, cl;

	spawn(&srv, "server", NAME "-pp", "echo", NULL);
	expect(&srv, "listening", NULL, NULL);
	spawn(&cl, "client", NAME "-pp", "ping", "2000");
	expect(&cl, "pinged 2000", NULL, NULL);
	CHECK(reap(&cl, NULL) == 0);
	expect(&srv, "done 2000", NULL, NULL);
	CHECK(reap(&srv, NULL) == 0);
	printf("  two processes: 2000 messages echoed\n");
}

/* The client dies by SIGKILL, once idle and once with sends queued behind a full socket. */
static void case_client_killed(void)
{
	struct side s;
	struct helper cl;
	uint8_t msg[4000] = {0};
	struct doca_comch_connection *old;

	server_new(&s, NAME "-ck", 0, 4096);
	CHECK_OK(doca_ctx_start(s.ctx));

	spawn(&cl, "client", NAME "-ck", "hang", NULL);
	expect(&cl, "connected", &s, NULL);
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.connects == 1, WAIT_MS));
	kill_helper(&cl);
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.disconnects == 1, WAIT_MS));
	CHECK(s.state == DOCA_CTX_STATE_RUNNING);

	/* The helper does not read: the socket fills and sends wait; the death fails them. */
	spawn(&cl, "client", NAME "-ck", "hang", NULL);
	expect(&cl, "connected", &s, NULL);
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.connects == 2, WAIT_MS));
	old = s.conn;
	for (int i = 0; i < 2000; i++)
		CHECK_OK(side_send(&s, old, msg, sizeof(msg)));
	for (int i = 0; i < 50; i++)
		(void)doca_pe_progress(s.pe);
	CHECK(s.send_ok < 2000);
	kill_helper(&cl);
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.disconnects == 2 && s.send_ok + s.send_err == 2000, WAIT_MS));
	CHECK(s.send_err > 0 && s.last_err == DOCA_ERROR_NOT_CONNECTED);
	CHECK_ERR(side_send(&s, old, msg, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK(s.state == DOCA_CTX_STATE_RUNNING);

	/* Still serving. */
	s.echo = true;
	spawn(&cl, "client", NAME "-ck", "ping", "100");
	expect(&cl, "pinged 100", &s, NULL);
	CHECK(reap(&cl, &s) == 0);
	side_free(&s);
	printf("  client killed: server saw both deaths, %d queued sends failed\n", s.send_err);
}

/* The server dies by SIGKILL: its client stops; the name is taken while it lived and taken
 * over from the stale socket after. */
static void case_server_killed(void)
{
	struct side c, s;
	struct helper srv, cl;

	spawn(&srv, "server", NAME "-sk", "hold", NULL);
	expect(&srv, "listening", NULL, NULL);

	client_new(&c, NAME "-sk", 0, 16);
	CHECK_ERR(doca_ctx_start(c.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.state == DOCA_CTX_STATE_RUNNING, WAIT_MS));
	CHECK_OK(doca_comch_client_get_connection(c.cl, &c.conn));
	CHECK_OK(side_send(&c, c.conn, "ping", 4));
	CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.recvs == 1, WAIT_MS));

	/* A second server with the same name while the first lives: refused, nothing broken. */
	server_new(&s, NAME "-sk", 0, 16);
	CHECK_ERR(doca_ctx_start(s.ctx), DOCA_ERROR_ALREADY_EXIST);
	CHECK(s.state == DOCA_CTX_STATE_IDLE);
	CHECK_OK(side_send(&c, c.conn, "ping", 4));
	CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.recvs == 2, WAIT_MS));

	kill_helper(&srv);
	CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.state == DOCA_CTX_STATE_IDLE, WAIT_MS));
	CHECK(c.seen[2] == DOCA_CTX_STATE_STOPPING && c.seen[3] == DOCA_CTX_STATE_IDLE);

	/* The killed server left its socket file; a new server replaces it. */
	CHECK_OK(doca_ctx_start(s.ctx));
	s.echo = true;
	CHECK_ERR(doca_ctx_start(c.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(PROGRESS_UNTIL(&c, &s, c.state == DOCA_CTX_STATE_RUNNING && s.connects == 1, WAIT_MS));
	CHECK_OK(doca_comch_client_get_connection(c.cl, &c.conn));
	CHECK_OK(side_send(&c, c.conn, "ping", 4));
	CHECK(PROGRESS_UNTIL(&c, &s, c.recvs == 3, WAIT_MS));
	side_free(&c);

	/* And a helper process can reach it too. */
	spawn(&cl, "client", NAME "-sk", "ping", "10");
	expect(&cl, "pinged 10", &s, NULL);
	CHECK(reap(&cl, &s) == 0);
	side_free(&s);
	printf("  server killed: client stopped, collision refused, stale socket replaced\n");
}

/* Raw peers that break the protocol against a real server. */
static void case_garbage_to_server(void)
{
	static const struct {
		const char *mode;
		const char *said;
		bool connected;
	} modes[] = {
		{"junk", NULL, false},	    {"version", "rejected 1", false}, {"badname", "rejected 2", false},
		{"after", "welcomed", true}, {"oversize", "welcomed", true},   {"bigpkt", "welcomed", true},
	};
	struct side s;
	struct helper h;
	int connects = 0;

	server_new(&s, NAME "-gs", 0, 64);
	s.echo = true;
	CHECK_OK(doca_ctx_start(s.ctx));
	for (size_t i = 0; i < SD_ARRAY_SIZE(modes); i++) {
		spawn(&h, "raw-client", NAME "-gs", modes[i].mode, NULL);
		if (modes[i].said != NULL)
			expect(&h, modes[i].said, &s, NULL);
		expect(&h, "closed", &s, NULL);
		CHECK(reap(&h, &s) == 0);
		connects += modes[i].connected;
		CHECK(s.connects == connects);
		CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.disconnects == connects, WAIT_MS));
		CHECK(s.state == DOCA_CTX_STATE_RUNNING);
	}
	CHECK(s.recvs == 0);
	spawn(&h, "client", NAME "-gs", "ping", "20");
	expect(&h, "pinged 20", &s, NULL);
	CHECK(reap(&h, &s) == 0);
	side_free(&s);
	printf("  garbage to a server: %zu kinds dropped, server kept serving\n", SD_ARRAY_SIZE(modes));
}

/* A client's last message before it closes arrives, although it left one of ours unread. */
static void case_last_word(void)
{
	struct side s;
	struct helper h;

	server_new(&s, NAME "-lw", 0, 64);
	CHECK_OK(doca_ctx_start(s.ctx));
	spawn(&h, "raw-client", NAME "-lw", "lastword", NULL);
	expect(&h, "welcomed", &s, NULL);
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.connects == 1, WAIT_MS));
	CHECK_OK(side_send(&s, s.conn, "unread", 6));
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.send_ok == 1, WAIT_MS));
	expect(&h, "closed", &s, NULL);
	CHECK(reap(&h, &s) == 0);
	CHECK(PROGRESS_UNTIL(&s, (struct side *)NULL, s.disconnects == 1, WAIT_MS));
	CHECK(s.recvs == 1);
	CHECK(s.last_len == 9 && memcmp(s.last, "last word", 9) == 0);
	side_free(&s);
	printf("  a client's last message before it closed arrived before its disconnect\n");
}

/* Raw servers that break the protocol against a real client. */
static void case_garbage_to_client(void)
{
	static const struct {
		const char *mode;
		bool running; /* the client reaches RUNNING before it notices */
	} modes[] = {{"junk", false}, {"reject", false}, {"version", false}, {"after", true}, {"close", false}};
	struct side c;
	struct helper h;

	sd_setenv("SOFTDOCA_COMCH_CONNECT_TIMEOUT", "2");
	for (size_t i = 0; i < SD_ARRAY_SIZE(modes); i++) {
		spawn(&h, "raw-server", NAME "-gc", modes[i].mode, NULL);
		expect(&h, "listening", NULL, NULL);
		client_new(&c, NAME "-gc", 0, 4);
		CHECK_ERR(doca_ctx_start(c.ctx), DOCA_ERROR_IN_PROGRESS);
		CHECK(PROGRESS_UNTIL(&c, (struct side *)NULL, c.state == DOCA_CTX_STATE_IDLE, WAIT_MS));
		if (modes[i].running) {
			CHECK(c.nb_transitions == 4 && c.seen[1] == DOCA_CTX_STATE_RUNNING);
		} else {
			CHECK(c.nb_transitions == 2 && c.seen[1] == DOCA_CTX_STATE_IDLE);
		}
		if (strcmp(modes[i].mode, "close") == 0)
			kill_helper(&h);
		else {
			expect(&h, "closed", NULL, NULL);
			CHECK(reap(&h, NULL) == 0);
		}
		side_free(&c);
	}
	sd_setenv("SOFTDOCA_COMCH_CONNECT_TIMEOUT", NULL);
	printf("  garbage to a client: %zu kinds, each ended the start or the connection\n", SD_ARRAY_SIZE(modes));
}

int main(int argc, char **argv)
{
	self_exe = "/proc/self/exe";
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 4) {
		/* A helper: the environment (XDG_RUNTIME_DIR) comes from the orchestrator. */
		if (strcmp(argv[1], "server") == 0)
			return role_server(argv[2], argv[3]);
		if (strcmp(argv[1], "client") == 0)
			return role_client(argv[2], argv[3], argc > 4 ? atoi(argv[4]) : 0);
		if (strcmp(argv[1], "raw-client") == 0)
			return role_raw_client(argv[2], argv[3]);
		if (strcmp(argv[1], "raw-server") == 0)
			return role_raw_server(argv[2], argv[3]);
		return T_EXIT_FAIL;
	}
	side_rundir();
	sd_setenv("SOFTDOCA_CONFIG", NULL);
	sd_setenv("SOFTDOCA_FAULT", NULL);
	case_two_processes();
	case_client_killed();
	case_server_killed();
	case_garbage_to_server();
	case_last_word();
	case_garbage_to_client();
	printf("test_multiproc: ok\n");
	return T_EXIT_PASS;
}
