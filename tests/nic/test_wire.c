/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_wire.c - the wire medium (src/nic/wire.c) between the default topology's cabled ports
 * 03:00.0 and 03:00.1: in one process, then across processes.
 *
 *   one process   frames sent before anyone receives are lost; a gather list arrives whole;
 *                 rx_fd turns readable after rx_rearm when a frame comes; a full ring drops
 *                 and counts at the receiver; bad sizes are counted, never delivered
 *   two processes a child receives rounds of frames of random sizes with sequence numbers,
 *                 sleeping on rx_fd; every frame arrives, in order, intact (the sender waits
 *                 for each round's ack, so it never overruns the ring); then a round sent
 *                 while the child does not drain: it gets exactly a ring's worth, the rest is
 *                 counted as rx_drop_full
 *   peer exits    a receiver that exits without closing its device is not a crash: sending
 *                 goes on, and a new receiver takes the port over, starting empty
 *
 * Every test uses its own runtime directory (XDG_RUNTIME_DIR in sd_tmpdir()).
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"

#define RING   512u /* WIRE_SLOTS */
#define ROUND  256u
#define ROUNDS 12u

static int rx_count;
static uint8_t rx_last[NIC_MAX_FRAME];
static uint32_t rx_last_len;

static void count_cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	(void)arg;
	(void)ts;
	memcpy(rx_last, frame, len);
	rx_last_len = len;
	rx_count++;
}

static void get_port(const char *pci, struct doca_dev **dev, const struct nic_port_ops **ops, void **port)
{
	*dev = sd_open_dev(pci);
	CHECK_OK(priv_doca_nic_port_get(*dev, ops, port));
	CHECK_STR((*ops)->medium, "wire");
}

/* A frame whose bytes follow from @seq and @len: 14-byte header, seq, then a pattern. */
static uint32_t make_frame(uint8_t *f, uint32_t seq, uint32_t len)
{
	memset(f, 0xff, 6);
	memcpy(f + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
	f[12] = 0x88;
	f[13] = 0xb5; /* local experimental EtherType */
	memcpy(f + 14, &seq, 4);
	memcpy(f + 18, &len, 4);
	for (uint32_t i = 22; i < len; i++)
		f[i] = (uint8_t)(seq * 31 + i);
	return len;
}

static bool frame_ok(const uint8_t *f, uint32_t len, uint32_t seq)
{
	uint32_t s, l;

	if (len < 22)
		return false;
	memcpy(&s, f + 14, 4);
	memcpy(&l, f + 18, 4);
	if (s != seq || l != len)
		return false;
	for (uint32_t i = 22; i < len; i++)
		if (f[i] != (uint8_t)(seq * 31 + i))
			return false;
	return true;
}

static unsigned int send_one(const struct nic_port_ops *ops, void *port, const uint8_t *f, uint32_t len)
{
	struct iovec iov = {(void *)f, len};
	struct nic_tx_frame tf = {&iov, 1, len};

	return ops->tx_burst(port, &tf, 1);
}

static bool readable(int fd, int ms)
{
	struct pollfd pfd = {fd, POLLIN, 0};

	return poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN);
}

static void test_one_process(void)
{
	const struct nic_port_ops *ops0, *ops1;
	void *p0, *p1;
	struct doca_dev *d0, *d1;
	struct nic_port_stats st0, st1;
	static uint8_t f[NIC_MAX_FRAME + 1];
	int fd;

	get_port("03:00.0", &d0, &ops0, &p0);
	get_port("03:00.1", &d1, &ops1, &p1);
	CHECK_EQ(ops0->mtu(p0), 9216);
	/* the same device gives the same port */
	{
		const struct nic_port_ops *o;
		void *p;

		CHECK_OK(priv_doca_nic_port_get(d0, &o, &p));
		CHECK(o == ops0 && p == p0);
	}

	/* nobody receives 03:00.1 yet: the frame leaves the port and is lost */
	CHECK_EQ(send_one(ops0, p0, f, make_frame(f, 0, 60)), 1);
	ops0->stats(p0, &st0);
	CHECK_EQ(st0.tx_frames, 1);
	CHECK_EQ(st0.tx_bytes, 60);

	/* 03:00.1 starts receiving: empty, its fd not readable */
	fd = ops1->rx_fd(p1);
	CHECK(fd >= 0);
	CHECK_EQ(ops1->rx_burst(p1, 16, count_cb, NULL), 0);
	ops1->rx_rearm(p1);
	CHECK(!readable(fd, 0));

	/* a gather list of three pieces arrives as one frame, and wakes the fd */
	{
		uint32_t len = make_frame(f, 7, 1000);
		struct iovec iov[3] = {{f, 10}, {f + 10, 500}, {f + 510, 490}};
		struct nic_tx_frame tf = {iov, 3, len};

		CHECK_EQ(ops0->tx_burst(p0, &tf, 1), 1);
	}
	CHECK(readable(fd, 5000));
	rx_count = 0;
	CHECK_EQ(ops1->rx_burst(p1, 16, count_cb, NULL), 1);
	CHECK(rx_count == 1 && frame_ok(rx_last, rx_last_len, 7));
	/* re-armed: the stale wake-up is drained, nothing readable until the next frame */
	ops1->rx_rearm(p1);
	CHECK(!readable(fd, 0));
	/*
	 * A wake-up byte that lands after the arming drained the socket (sent late by a sender
	 * that cleared armed before it): the next arming takes it, so a sleeper does not spin.
	 */
	{
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/softdoca/wire-0000:03:00.1.sock",
			 getenv("XDG_RUNTIME_DIR"));
		CHECK(s >= 0);
		CHECK(sendto(s, "w", 1, 0, (struct sockaddr *)&sa, sizeof(sa)) == 1);
		close(s);
		CHECK(readable(fd, 1000));
		ops1->rx_rearm(p1);
		CHECK(!readable(fd, 0));
	}
	/* a frame that came while not armed: rx_rearm wakes the fd itself */
	CHECK_EQ(send_one(ops0, p0, f, make_frame(f, 8, 64)), 1);
	ops1->rx_rearm(p1);
	CHECK(readable(fd, 0));
	rx_count = 0;
	CHECK_EQ(ops1->rx_burst(p1, 16, count_cb, NULL), 1);

	/* more than a ring without draining: a ring's worth arrives, the rest counted at 03:00.1 */
	ops1->stats(p1, &st1);
	CHECK_EQ(st1.rx_drop_full, 0);
	for (uint32_t i = 0; i < RING + 100; i++)
		CHECK_EQ(send_one(ops0, p0, f, make_frame(f, i, 64 + i % 200)), 1);
	ops1->stats(p1, &st1);
	CHECK_EQ(st1.rx_drop_full, 100);
	rx_count = 0;
	for (uint32_t i = 0; i < RING; i++) {
		CHECK_EQ(ops1->rx_burst(p1, 1, count_cb, NULL), 1);
		CHECK(frame_ok(rx_last, rx_last_len, i));
	}
	CHECK_EQ(ops1->rx_burst(p1, 16, count_cb, NULL), 0);

	/* bad sizes: taken, never delivered, counted at the receiver */
	{
		struct iovec iov = {f, NIC_MAX_FRAME + 1};
		struct nic_tx_frame bad[2] = {{&iov, 1, 10}, {&iov, 1, NIC_MAX_FRAME + 1}};

		CHECK_EQ(ops0->tx_burst(p0, bad, 2), 2);
		CHECK_EQ(ops1->rx_burst(p1, 16, count_cb, NULL), 0);
		ops1->stats(p1, &st1);
		CHECK_EQ(st1.rx_drop_bad, 2);
	}
	/* the largest frame goes through */
	CHECK_EQ(send_one(ops0, p0, f, make_frame(f, 99, NIC_MAX_FRAME)), 1);
	CHECK_EQ(ops1->rx_burst(p1, 16, count_cb, NULL), 1);
	CHECK(frame_ok(rx_last, rx_last_len, 99));

	/* the other direction works the same */
	CHECK(ops0->rx_fd(p0) >= 0);
	CHECK_EQ(send_one(ops1, p1, f, make_frame(f, 5, 128)), 1);
	rx_count = 0;
	CHECK_EQ(ops0->rx_burst(p0, 16, count_cb, NULL), 1);
	CHECK(frame_ok(rx_last, rx_last_len, 5));

	ops0->stats(p0, &st0);
	ops1->stats(p1, &st1);
	CHECK_EQ(st0.tx_frames, 1 + 1 + 1 + RING + 100 + 1);
	CHECK_EQ(st1.rx_frames, 1 + 1 + RING + 1);
	CHECK_EQ(st0.rx_frames, 1);
	CHECK_EQ(st1.tx_frames, 1);
	CHECK_EQ(st0.tx_full, 0);

	CHECK_OK(doca_dev_close(d0));
	CHECK_OK(doca_dev_close(d1));
}

/* ---- two threads of one process: the ring under real concurrency (run under TSan) ---- */

#define THREAD_FRAMES 20000u

struct thr {
	const struct nic_port_ops *ops;
	void *port;
	int fd;
	uint32_t next, bad;
	bool timed_out;
};

static void thr_cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	struct thr *t = arg;

	(void)ts;
	if (!frame_ok(frame, len, t->next))
		t->bad++;
	t->next++;
}

static void *thr_receiver(void *arg)
{
	struct thr *t = arg;

	while (t->next < THREAD_FRAMES) {
		if (t->ops->rx_burst(t->port, 32, thr_cb, t) > 0)
			continue;
		t->ops->rx_rearm(t->port);
		if (t->ops->rx_burst(t->port, 32, thr_cb, t) == 0 && !readable(t->fd, 10000)) {
			t->timed_out = true;
			break;
		}
	}
	return NULL;
}

static void test_threads(void)
{
	static uint8_t f[2048];
	const struct nic_port_ops *ops0, *ops1;
	struct doca_dev *d0, *d1;
	struct nic_port_stats st;
	struct thr t = {0};
	pthread_t thr;
	void *p0, *p1;

	get_port("03:00.0", &d0, &ops0, &p0);
	get_port("03:00.1", &d1, &ops1, &p1);
	t.ops = ops1;
	t.port = p1;
	t.fd = ops1->rx_fd(p1);
	CHECK(t.fd >= 0);
	CHECK(pthread_create(&thr, NULL, thr_receiver, &t) == 0);
	for (uint32_t i = 0; i < THREAD_FRAMES; i++) {
		/* never more than a ring in flight, so nothing is dropped */
		for (;;) {
			ops1->stats(p1, &st);
			if (i - st.rx_frames < RING)
				break;
			sched_yield();
		}
		CHECK_EQ(send_one(ops0, p0, f, make_frame(f, i, 22 + i % 2000)), 1);
	}
	CHECK(pthread_join(thr, NULL) == 0);
	CHECK(!t.timed_out);
	CHECK_EQ(t.next, THREAD_FRAMES);
	CHECK_EQ(t.bad, 0);
	ops1->stats(p1, &st);
	CHECK_EQ(st.rx_frames, THREAD_FRAMES);
	CHECK_EQ(st.rx_drop_full, 0);
	CHECK_OK(doca_dev_close(d0));
	CHECK_OK(doca_dev_close(d1));
}

/* ---- two processes ---- */

struct sync {
	int to_child[2], to_parent[2];
};

static void put(int fd, uint32_t v)
{
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		sd_die_at(__FILE__, __LINE__, "pipe write: %s", strerror(errno));
}

static uint32_t get(int fd)
{
	uint32_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		sd_die_at(__FILE__, __LINE__, "pipe read: %s", strerror(errno));
	return v;
}

static uint32_t expect_seq;
static int bad_frames;

static void seq_cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	(void)arg;
	(void)ts;
	if (!frame_ok(frame, len, expect_seq))
		bad_frames++;
	expect_seq++;
}

/* Receives @n frames, sleeping on the fd between bursts; false after 10 s without one. */
static bool receive_n(const struct nic_port_ops *ops, void *port, int fd, uint32_t n)
{
	uint32_t got = 0;

	while (got < n) {
		unsigned int k = ops->rx_burst(port, 64, seq_cb, NULL);

		if (k == 0) {
			ops->rx_rearm(port);
			k = ops->rx_burst(port, 64, seq_cb, NULL);
			if (k == 0 && !readable(fd, 10000))
				return false;
		}
		got += k;
	}
	return true;
}

static int child_receiver(void *arg)
{
	struct sync *s = arg;
	const struct nic_port_ops *ops;
	struct nic_port_stats st;
	struct doca_dev *dev;
	void *port;
	int fd;

	close(s->to_child[1]);
	close(s->to_parent[0]);
	get_port("03:00.0", &dev, &ops, &port);
	fd = ops->rx_fd(port);
	CHECK(fd >= 0);
	put(s->to_parent[1], 1); /* receiving */
	for (uint32_t r = 0; r < ROUNDS; r++) {
		CHECK(receive_n(ops, port, fd, ROUND));
		/* the sender waits for our ack: nothing more may have come */
		CHECK_EQ(ops->rx_burst(port, 64, seq_cb, NULL), 0);
		put(s->to_parent[1], expect_seq);
	}
	CHECK_EQ(bad_frames, 0);
	/* phase 2: the parent overruns the ring while we do not drain */
	CHECK_EQ(get(s->to_child[0]), 2);
	CHECK(receive_n(ops, port, fd, RING));
	CHECK_EQ(ops->rx_burst(port, 64, seq_cb, NULL), 0);
	CHECK_EQ(bad_frames, 0);
	ops->stats(port, &st);
	CHECK_EQ(st.rx_frames, ROUNDS * ROUND + RING);
	CHECK_EQ(st.rx_drop_full, 77);
	put(s->to_parent[1], expect_seq);
	CHECK_OK(doca_dev_close(dev));
	return T_EXIT_PASS;
}

static void test_two_processes(void)
{
	static uint8_t f[NIC_MAX_FRAME];
	const struct nic_port_ops *ops;
	struct sync s;
	struct doca_dev *dev;
	void *port;
	uint32_t seq = 0;
	int status;
	pid_t pid;

	CHECK(pipe(s.to_child) == 0 && pipe(s.to_parent) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(child_receiver(&s));
	close(s.to_child[0]);
	close(s.to_parent[1]);
	CHECK_EQ(get(s.to_parent[0]), 1);
	get_port("03:00.1", &dev, &ops, &port);
	srand(12345);
	for (uint32_t r = 0; r < ROUNDS; r++) {
		for (uint32_t i = 0; i < ROUND; i++, seq++) {
			uint32_t len = 22 + (uint32_t)rand() % (NIC_MAX_FRAME - 22 + 1);

			CHECK_EQ(send_one(ops, port, f, make_frame(f, seq, len)), 1);
		}
		CHECK_EQ(get(s.to_parent[0]), seq);
	}
	for (uint32_t i = 0; i < RING + 77; i++, seq++)
		CHECK_EQ(send_one(ops, port, f, make_frame(f, seq, 60)), 1);
	put(s.to_child[1], 2);
	CHECK_EQ(get(s.to_parent[0]), seq - 77);
	while (waitpid(pid, &status, 0) != pid)
		CHECK(errno == EINTR);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_OK(doca_dev_close(dev));
}

/* ---- one receiving process per port ---- */

static int child_holds_port(void *arg)
{
	struct sync *s = arg;
	const struct nic_port_ops *ops;
	struct doca_dev *dev;
	void *port;

	close(s->to_child[1]);
	close(s->to_parent[0]);
	get_port("03:00.0", &dev, &ops, &port);
	CHECK(ops->rx_fd(port) >= 0);
	put(s->to_parent[1], 1);
	CHECK_EQ(get(s->to_child[0]), 2); /* the parent tried and was refused */
	CHECK_OK(doca_dev_close(dev));	  /* gives the port up */
	put(s->to_parent[1], 3);
	return T_EXIT_PASS;
}

static void test_second_receiver(void)
{
	static uint8_t f[128];
	const struct nic_port_ops *o0, *o1;
	struct doca_dev *d0, *d1;
	void *p0, *p1;
	struct sync s;
	uint64_t deadline;
	int status;
	pid_t pid;

	CHECK(pipe(s.to_child) == 0 && pipe(s.to_parent) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(child_holds_port(&s));
	close(s.to_child[0]);
	close(s.to_parent[1]);
	CHECK_EQ(get(s.to_parent[0]), 1);
	get_port("03:00.0", &d0, &o0, &p0);
	get_port("03:00.1", &d1, &o1, &p1);
	/* the child receives 03:00.0: this process gets nothing on it */
	CHECK_EQ(o0->rx_fd(p0), -1);
	CHECK_EQ(o0->rx_burst(p0, 8, count_cb, NULL), 0);
	put(s.to_child[1], 2);
	CHECK_EQ(get(s.to_parent[0]), 3);
	while (waitpid(pid, &status, 0) != pid)
		CHECK(errno == EINTR);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the child closed its device: the port is ours once we look again */
	deadline = sd_now_ms() + 10000;
	while (o0->rx_fd(p0) < 0) {
		CHECK(sd_now_ms() < deadline);
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
	CHECK_EQ(send_one(o1, p1, f, make_frame(f, 3, 100)), 1);
	rx_count = 0;
	CHECK_EQ(o0->rx_burst(p0, 8, count_cb, NULL), 1);
	CHECK(frame_ok(rx_last, rx_last_len, 3));
	CHECK_OK(doca_dev_close(d0));
	CHECK_OK(doca_dev_close(d1));
}

/* ---- a peer that exits ---- */

static int child_claim_and_exit(void *arg)
{
	const struct nic_port_ops *ops;
	struct doca_dev *dev;
	void *port;

	(void)arg;
	get_port("b1:00.0", &dev, &ops, &port);
	CHECK(ops->rx_fd(port) >= 0);
	_exit(0); /* no doca_dev_close: the port stays claimed by a pid that is gone */
}

static void test_peer_exits(void)
{
	static uint8_t f[256];
	const struct nic_port_ops *ops1, *ops0;
	struct nic_port_stats st;
	struct doca_dev *d1, *d0;
	void *p1, *p0;

	CHECK_EQ(check_run_child(child_claim_and_exit, NULL, "receiver that exits"), 0);
	get_port("b1:00.1", &d1, &ops1, &p1);
	/* the receiver is gone: the ring fills, sending never blocks nor fails */
	for (uint32_t i = 0; i < RING + 10; i++)
		CHECK_EQ(send_one(ops1, p1, f, make_frame(f, i, 100)), 1);
	/* a new receiver takes the port over and starts empty */
	get_port("b1:00.0", &d0, &ops0, &p0);
	CHECK(ops0->rx_fd(p0) >= 0);
	rx_count = 0;
	CHECK_EQ(ops0->rx_burst(p0, 64, count_cb, NULL), 0);
	CHECK_EQ(send_one(ops1, p1, f, make_frame(f, 1000, 100)), 1);
	CHECK_EQ(ops0->rx_burst(p0, 64, count_cb, NULL), 1);
	CHECK(frame_ok(rx_last, rx_last_len, 1000));
	ops0->stats(p0, &st);
	CHECK_EQ(st.rx_drop_full, 10);
	CHECK_OK(doca_dev_close(d0));
	CHECK_OK(doca_dev_close(d1));
}

/*
 * A device without a medium has no port; NOT_FOUND, so the caller can say so. The topology is
 * read once per process: this runs in a fresh exec of the test with SOFTDOCA_CONFIG set.
 */
static int no_medium(void)
{
	const struct nic_port_ops *ops;
	struct doca_dev *dev;
	void *port;

	dev = sd_open_dev("03:00.0");
	CHECK_ERR(priv_doca_nic_port_get(dev, &ops, &port), DOCA_ERROR_NOT_FOUND);
	CHECK_OK(doca_dev_close(dev));
	return T_EXIT_PASS;
}

/* Cables (and their counters) live in the runtime directory: each test gets its own. */
static void fresh_rundir(const char *name)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", sd_tmpdir(), name);
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", dir);
}

/* A profile's eth.max_packet_size is the port's MTU; a larger frame never arrives. */
static int small_mtu(void)
{
	static uint8_t f[1600];
	const struct nic_port_ops *o0, *o1;
	struct nic_port_stats st;
	struct doca_dev *d0, *d1;
	void *p0, *p1;

	get_port("03:00.0", &d0, &o0, &p0);
	get_port("b1:00.0", &d1, &o1, &p1);
	CHECK_EQ(o0->mtu(p0), 1514);
	CHECK_EQ(o1->mtu(p1), 9216);
	CHECK(o1->rx_fd(p1) >= 0);
	CHECK_EQ(send_one(o0, p0, f, make_frame(f, 1, 1515)), 1);
	CHECK_EQ(send_one(o0, p0, f, make_frame(f, 2, 1514)), 1);
	rx_count = 0;
	CHECK_EQ(o1->rx_burst(p1, 8, count_cb, NULL), 1);
	CHECK(frame_ok(rx_last, rx_last_len, 2));
	o1->stats(p1, &st);
	CHECK_EQ(st.rx_drop_bad, 1);
	CHECK_OK(doca_dev_close(d0));
	CHECK_OK(doca_dev_close(d1));
	return T_EXIT_PASS;
}

static const char *exec_mode;

static int exec_self(void *arg)
{
	sd_setenv("SOFTDOCA_CONFIG", arg);
	execl("/proc/self/exe", "test_nic_wire", exec_mode, (char *)NULL);
	fprintf(stderr, "exec /proc/self/exe: %s\n", strerror(errno));
	return T_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	char *cfg;

	if (argc > 1 && strcmp(argv[1], "no-medium") == 0)
		return no_medium();
	if (argc > 1 && strcmp(argv[1], "small-mtu") == 0)
		return small_mtu();
	signal(SIGPIPE, SIG_DFL); /* a write to a gone peer must not rely on SIGPIPE being ignored */
	sd_setenv("SOFTDOCA_PCAP", NULL);
	fresh_rundir("one");
	test_one_process();
	fresh_rundir("threads");
	test_threads();
	fresh_rundir("two");
	test_two_processes();
	fresh_rundir("second");
	test_second_receiver();
	fresh_rundir("exit");
	test_peer_exits();
	cfg = sd_tmpfile("topo", "[device 03:00.0]\nside = dpu\n");
	exec_mode = "no-medium";
	CHECK_EQ(check_run_child(exec_self, cfg, "no medium"), 0);
	free(cfg);
	/* a DPU port with a small MTU cabled to a host PF with the default one */
	fresh_rundir("mtu");
	cfg = sd_tmpfile("topo", "[profile small]\neth.max_packet_size = 1514\n"
				 "[device 03:00.0]\nside = dpu\nprofile = small\nwire = b1:00.0\n"
				 "[device b1:00.0]\nside = host\nwire = 03:00.0\n");
	exec_mode = "small-mtu";
	CHECK_EQ(check_run_child(exec_self, cfg, "small mtu"), 0);
	free(cfg);
	printf("wire: all checks passed\n");
	return T_EXIT_PASS;
}
