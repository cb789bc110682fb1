/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_wire_hostile.c - a wire cable (src/nic/wire.c) written by a process that breaks its
 * rules: any process of the user can map the cable file. The victim, the receiver of 03:00.0
 * or the sender of 03:00.1, must return promptly, say one line naming the cable and the rule,
 * and go on working.
 *
 *   prod far ahead    prod moved 2^40 slots ahead over slots of impossible lengths
 *   prod just ahead   WIRE_SLOTS + 1 ahead
 *   prod behind       one slot behind the receiver
 *   cons far ahead    the receiver's index moved ahead of the producer: the sender starts over
 *   full ring, bad    a legal full ring of bad slots: a burst of n visits n slots, not more
 *   lock held         a live process holds the send lock: tx_burst returns (refused, counted)
 *                     after a bounded wait, then without waiting, and sends once it is free;
 *                     a holder that died leaves the lock usable
 *
 * Each case runs in a forked child with an alarm, so a victim that spins fails the test rather
 * than hang it; the child's log is collected and the rule's line counted.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../common/sd_test.h"
#include "core.h"
#include "nic.h"
#include "wire_ring.h"

#define DEADLINE_S 30
#define POLLS	   1000

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

static uint32_t make_frame(uint8_t *f, uint32_t seq, uint32_t len)
{
	memset(f, 0xff, 6);
	memcpy(f + 6, (uint8_t[]){2, 0, 0, 0, 0, 1}, 6);
	f[12] = 0x88;
	f[13] = 0xb5;
	memcpy(f + 14, &seq, 4);
	for (uint32_t i = 18; i < len; i++)
		f[i] = (uint8_t)(seq * 31 + i);
	return len;
}

static bool frame_ok(const uint8_t *f, uint32_t len, uint32_t seq, uint32_t want_len)
{
	uint32_t s;

	if (len != want_len)
		return false;
	memcpy(&s, f + 14, 4);
	if (s != seq)
		return false;
	for (uint32_t i = 18; i < len; i++)
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

/* The cable of 03:00.0 <-> 03:00.1, mapped again as a stranger would (the devices made it). */
static struct wire_shm *map_cable(void)
{
	char path[PATH_MAX];
	struct wire_shm *shm;
	int fd;

	snprintf(path, sizeof(path), "%s/softdoca/" NIC_WIRE_CABLE_NAME, getenv("XDG_RUNTIME_DIR"), "0000:03:00.0",
		 "0000:03:00.1");
	fd = open(path, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0);
	shm = mmap(NULL, WIRE_FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	CHECK(shm != MAP_FAILED);
	return shm;
}

/* The slots of ring[1]: 03:00.1 sends there, 03:00.0 receives. */
static struct wire_slot *slot1(struct wire_shm *shm, uint32_t i)
{
	return (struct wire_slot *)((uint8_t *)shm + WIRE_SLOTS_OFF + ((size_t)WIRE_SLOTS + i) * WIRE_SLOT_SIZE);
}

static void spoil_slots(struct wire_shm *shm)
{
	static const uint32_t lens[] = {0, 13, NIC_MAX_FRAME + 1, UINT32_MAX};

	for (uint32_t i = 0; i < WIRE_SLOTS; i++)
		slot1(shm, i)->len = lens[i % 4];
}

struct env {
	struct doca_dev *d0, *d1;
	const struct nic_port_ops *o0, *o1;
	void *p0, *p1;
	struct wire_shm *shm;
};

/* Both ports, 03:00.0 receiving, one frame through; then the stranger's mapping. */
static void env_open(struct env *e)
{
	static uint8_t f[128];

	get_port("03:00.0", &e->d0, &e->o0, &e->p0);
	get_port("03:00.1", &e->d1, &e->o1, &e->p1);
	CHECK(e->o0->rx_fd(e->p0) >= 0);
	CHECK_EQ(send_one(e->o1, e->p1, f, make_frame(f, 1, 100)), 1);
	rx_count = 0;
	CHECK_EQ(e->o0->rx_burst(e->p0, 16, count_cb, NULL), 1);
	e->shm = map_cable();
}

/* The port still works: of a few frames sent one at a time, the last arrives intact. */
static void env_still_works(struct env *e, uint32_t seq)
{
	static uint8_t f[512];

	for (uint32_t i = 0; i < 3; i++) {
		rx_count = 0;
		CHECK_EQ(send_one(e->o1, e->p1, f, make_frame(f, seq + i, 300 + i)), 1);
		if (e->o0->rx_burst(e->p0, 16, count_cb, NULL) == 1 && i > 0) {
			CHECK_EQ(rx_count, 1);
			CHECK(frame_ok(rx_last, rx_last_len, seq + i, 300 + i));
			return;
		}
	}
	CHECK(!"no frame arrived after the cable was damaged");
}

static void env_close(struct env *e)
{
	munmap(e->shm, WIRE_FILE_SIZE);
	CHECK_OK(doca_dev_close(e->d0));
	CHECK_OK(doca_dev_close(e->d1));
}

/* ---- the producer index ---- */

static int64_t prod_shift;

static int prod_moved(void *arg)
{
	struct wire_ring *r;
	struct env e;
	uint64_t cons;

	(void)arg;
	alarm(DEADLINE_S);
	env_open(&e);
	r = &e.shm->ring[1];
	spoil_slots(e.shm);
	cons = atomic_load(&r->cons);
	atomic_store(&r->prod, cons + (uint64_t)prod_shift);
	rx_count = 0;
	for (int i = 0; i < POLLS; i++) {
		CHECK_EQ(e.o0->rx_burst(e.p0, 64, count_cb, NULL), 0);
		if (i % 100 == 0)
			e.o0->rx_rearm(e.p0);
	}
	CHECK_EQ(rx_count, 0);
	env_still_works(&e, 10);
	env_close(&e);
	return T_EXIT_PASS;
}

static int count_lines(const char *out, const char *needle)
{
	int n = 0;

	for (const char *s = strstr(out, needle); s != NULL; s = strstr(s + 1, needle))
		n++;
	return n;
}

static char out[64 << 10];

static void test_prod(int64_t shift, const char *what)
{
	prod_shift = shift;
	if (check_run_child_output(prod_moved, NULL, what, out, sizeof(out)) != 0) {
		fputs(out, stderr);
		sd_die_at(__FILE__, __LINE__, "%s: the receiver failed", what);
	}
	if (count_lines(out, "its producer index is") != 1 || count_lines(out, "wire-0000:03:00.0-0000:03:00.1") != 1) {
		fputs(out, stderr);
		sd_die_at(__FILE__, __LINE__, "%s: not exactly one line naming the cable and the rule", what);
	}
}

/* ---- the consumer index, seen by the sender ---- */

static int cons_moved(void *arg)
{
	struct env e;

	(void)arg;
	alarm(DEADLINE_S);
	env_open(&e);
	atomic_store(&e.shm->ring[1].cons, atomic_load(&e.shm->ring[1].prod) + (1ull << 40));
	env_still_works(&e, 20);
	env_close(&e);
	return T_EXIT_PASS;
}

static void test_cons(void)
{
	if (check_run_child_output(cons_moved, NULL, "cons far ahead", out, sizeof(out)) != 0) {
		fputs(out, stderr);
		sd_die_at(__FILE__, __LINE__, "cons far ahead: the port failed");
	}
	if (count_lines(out, "the receiver's index is") != 1) {
		fputs(out, stderr);
		sd_die_at(__FILE__, __LINE__, "cons far ahead: not exactly one line from the sender");
	}
}

/* ---- a legal full ring of bad slots: a burst visits at most n ---- */

static int full_of_bad(void *arg)
{
	struct nic_port_stats st0, st;
	struct wire_ring *r;
	struct env e;
	uint64_t cons;

	(void)arg;
	alarm(DEADLINE_S);
	env_open(&e);
	r = &e.shm->ring[1];
	spoil_slots(e.shm);
	e.o0->stats(e.p0, &st0);
	cons = atomic_load(&r->cons);
	atomic_store(&r->prod, cons + WIRE_SLOTS);
	for (uint32_t i = 0; i < WIRE_SLOTS / 16; i++) {
		CHECK_EQ(e.o0->rx_burst(e.p0, 16, count_cb, NULL), 0);
		CHECK_EQ(atomic_load(&r->cons), cons + 16 * (i + 1));
	}
	e.o0->stats(e.p0, &st);
	CHECK_EQ(st.rx_drop_bad - st0.rx_drop_bad, WIRE_SLOTS);
	env_still_works(&e, 30);
	env_close(&e);
	return T_EXIT_PASS;
}

/* ---- the send lock ---- */

static void put(int fd, char c)
{
	CHECK(write(fd, &c, 1) == 1);
}

static char get(int fd)
{
	char c = 0;

	CHECK(read(fd, &c, 1) == 1);
	return c;
}

/* Holds ring[1]'s send lock until told, then lets it go (or dies holding it). */
static void holder(int to_holder, int to_test, bool die_holding)
{
	struct wire_shm *shm = map_cable();

	CHECK_EQ(pthread_mutex_lock(&shm->ring[1].tx_lock), 0);
	put(to_test, 'L');
	if (die_holding)
		_exit(0);
	get(to_holder);
	CHECK_EQ(pthread_mutex_unlock(&shm->ring[1].tx_lock), 0);
	_exit(0);
}

static pid_t start_holder(int pipes[2][2], bool die_holding)
{
	pid_t pid;

	CHECK(pipe(pipes[0]) == 0 && pipe(pipes[1]) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		alarm(DEADLINE_S);
		holder(pipes[0][0], pipes[1][1], die_holding);
	}
	CHECK_EQ(get(pipes[1][0]), 'L');
	return pid;
}

static void reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) != pid)
		CHECK(errno == EINTR);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int lock_held(void *arg)
{
	static uint8_t f[128];
	struct nic_port_stats st;
	struct env e;
	int pipes[2][2];
	pid_t pid;

	(void)arg;
	alarm(DEADLINE_S);
	env_open(&e);
	/* a live holder: refused after the bounded wait, then at once; counted, not lost */
	pid = start_holder(pipes, false);
	CHECK_EQ(send_one(e.o1, e.p1, f, make_frame(f, 40, 100)), 0);
	CHECK_EQ(send_one(e.o1, e.p1, f, make_frame(f, 40, 100)), 0);
	e.o1->stats(e.p1, &st);
	CHECK_EQ(st.tx_full, 2);
	put(pipes[0][1], 'U');
	reap(pid);
	env_still_works(&e, 40);
	/* a holder that dies holding it: the next sender takes it over */
	pid = start_holder(pipes, true);
	reap(pid);
	env_still_works(&e, 50);
	env_close(&e);
	return T_EXIT_PASS;
}

static void test_lock(void)
{
	if (check_run_child_output(lock_held, NULL, "lock held", out, sizeof(out)) != 0) {
		fputs(out, stderr);
		sd_die_at(__FILE__, __LINE__, "lock held: the sender failed");
	}
	if (count_lines(out, "its send lock was held") != 1) {
		fputs(out, stderr);
		sd_die_at(__FILE__, __LINE__, "lock held: not exactly one line");
	}
}

static void fresh_rundir(const char *name)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", sd_tmpdir(), name);
	CHECK(mkdir(dir, 0700) == 0);
	sd_setenv("XDG_RUNTIME_DIR", dir);
}

/* One case, or all: `test_nic_wire_hostile [far|just|behind|cons|bad|lock]`. */
int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;

#define CASE(name) (only == NULL || strcmp(only, name) == 0) && (fresh_rundir(name), true)
	sd_setenv("SOFTDOCA_PCAP", NULL);
	if (CASE("far"))
		test_prod((int64_t)1 << 40, "prod 2^40 ahead");
	if (CASE("just"))
		test_prod(WIRE_SLOTS + 1, "prod WIRE_SLOTS + 1 ahead");
	if (CASE("behind"))
		test_prod(-1, "prod behind cons");
	if (CASE("cons"))
		test_cons();
	if (CASE("bad"))
		CHECK_EQ(check_run_child(full_of_bad, NULL, "a full ring of bad slots"), 0);
	if (CASE("lock"))
		test_lock();
	printf("wire_hostile: all checks passed\n");
	return T_EXIT_PASS;
}
