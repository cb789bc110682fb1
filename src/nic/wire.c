/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wire.c - the wire medium: a cable of shared memory between two ports, usable by any two
 * processes of the same user, no privileges needed.
 *
 *   $XDG_RUNTIME_DIR/softdoca/                        (or /tmp/softdoca-<uid>/, private)
 *     wire-0000:03:00.0-0000:03:00.1.cable           the cable: lower PCI address = end 0
 *     wire-0000:03:00.0.sock                         wake-ups for the process receiving 03:00.0
 *
 *   cable file:  header | ring[0] (end 0 sends, end 1 receives) | ring[1] | slots[0] | slots[1]
 *
 *   ring:  producer line  prod, tx counters, rx_drop_full of the receiving end, tx_lock
 *          consumer line  cons, rx counters, rx_owner (pid), armed
 *          slots          WIRE_SLOTS x {len, ts_ns, frame[NIC_MAX_FRAME]}, index = seq % WIRE_SLOTS
 *
 * Each direction is a single-producer/single-consumer ring of fixed slots. Producers: any
 * process may send on a port, so a burst takes the ring's tx_lock (a robust, process-shared
 * mutex: a dead holder does not wedge the cable; uncontended, a CAS; a live holder is waited
 * for WIRE_TX_LOCK_MS at most, then the burst is refused). Consumer: one process
 * receives a port at a time, the one that claimed rx_owner with its pid (on its first rx_burst
 * or rx_fd; taken over when that process is gone). A port nobody receives is a cable without
 * a peer: frames sent are lost (counted, `lost`), as on a real unplugged link, and a receiver
 * that claims the port starts with an empty ring.
 *
 * Ordering: the producer fills slots, then release-stores prod once per burst; the consumer
 * acquire-loads prod, reads a slot, calls back, then release-stores cons so the slot can be
 * reused. A full ring never blocks: the frame is dropped and counted against the receiver
 * (rx_drop_full), which is what a NIC without room in its receive queue does.
 *
 * Wake-ups (rx_fd): the receiver binds a datagram socket at its port's .sock path. Before it
 * sleeps (rx_rearm) it sets armed and looks at the ring once more; a producer that published
 * frames and finds armed set clears it and sends one byte. Both sides use a seq_cst fence
 * between their store and their load, so one of them always sees the other (no lost wake-up),
 * and at most one datagram is sent per sleep. sendto(MSG_DONTWAIT | MSG_NOSIGNAL): a receiver
 * that has gone away costs an ECONNREFUSED, never a signal or a block.
 *
 * Trust: every byte of the cable file can be written by any process that can open it, so
 * none is believed. The receiver keeps its own cons (the cable's is a copy for the producers),
 * checks prod against it (the ring's rule, wire_ring.h; broken: said once, receiving starts
 * over from prod) and reads the slots through wire_ring_walk(), which bounds a burst by the
 * slots it visits and hands the callback a private copy of each frame. A producer that finds
 * cons breaking the rule starts over from it (said once). Header fields are checked once, at
 * mapping; the set-up wait is bounded (WIRE_INIT_WAIT_MS); rx_owner and armed can only make a
 * port refuse to receive (said) or cost a spurious wake-up.
 *
 * Within one process each cable file is mapped once, shared by both of its ports, so two
 * ports of one process see the ring at one address (and TSan sees their ordering).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv */
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "nic_internal.h"
#include "wire_ring.h"

#define COMP "nic"

/* The full barrier of the wake-up protocol (see the top of the file): SD_FULL_FENCE. */
static _Atomic int wire_fence_word;
#define WIRE_FULL_FENCE() SD_FULL_FENCE(&wire_fence_word)

#define WIRE_INIT_WAIT_MS   2000
#define WIRE_CLAIM_RETRY_NS 100000000ull /* a refused receiver looks again every 100 ms */
#define WIRE_TX_LOCK_MS	    1000	 /* longest wait for a ring's send lock */
#define WIRE_DRAIN_MAX	    64u		 /* wake-up datagrams read per rx_rearm, at most */

/* One mapping of a cable file per process, shared by the ports on it. */
struct wire_cable {
	struct wire_cable *next;
	char path[PATH_MAX];
	struct wire_shm *shm;
	int refs;
};

struct wire_port {
	struct doca_dev *dev;
	struct wire_cable *cable;
	int end;
	struct wire_ring *tx, *rx;
	uint8_t *tx_slots, *rx_slots;
	uint32_t mtu;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char peer_pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	/* receive side, this process (the receiving thread) */
	int rx_sock;	      /* bound at rx_path once claimed */
	bool rx_claimed;      /* rx_owner == our pid */
	bool rx_refused;      /* another process receives: said once */
	bool rx_broken_said;  /* the ring's rule was broken: said once */
	uint64_t rx_retry_ns; /* when refused, the next claim attempt (no kill() per burst) */
	uint64_t rx_cons;     /* the ring's cons: ours, the cable's copy is only for the producers */
	uint8_t *rx_buf;      /* the frame being delivered, copied out of the cable */
	struct sockaddr_un rx_addr;
	/* send side (any thread): wakes the peer's receiver */
	int tx_sock;
	struct sockaddr_un peer_addr;
	_Atomic bool tx_lock_stuck;  /* the send lock timed out: only tried, not waited for, until taken */
	_Atomic bool tx_lock_said;   /* ... said once */
	_Atomic bool tx_broken_said; /* the receiver's cons broke the ring's rule: said once */
	_Atomic uint64_t tx_full;    /* frames refused: the send lock was not to be had */
	struct nic_pcap *pcap;
};

static pthread_mutex_t cable_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wire_cable *cables;

static void format_pci(char out[DOCA_DEVINFO_PCI_ADDR_SIZE], const struct topo_device *d)
{
	snprintf(out, DOCA_DEVINFO_PCI_ADDR_SIZE, "%04x:%02x:%02x.%x", d->domain, d->bus, d->dev & 0x1f, d->fn & 7);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void counter_add(_Atomic uint64_t *c, uint64_t v)
{
	/* one writer per counter (tx_lock holder or rx owner): a plain read-modify-write */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v, memory_order_relaxed);
}

/* ---- runtime directory ---- */

int nic_rundir_open(char *dir, size_t dir_len)
{
	return priv_sd_rundir_open(dir, dir_len, "wire cables");
}

/* ---- cable files ---- */

static void wire_init_shm(struct wire_shm *shm, const char *pci0, const char *pci1)
{
	pthread_mutexattr_t ma;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	for (int e = 0; e < 2; e++)
		pthread_mutex_init(&shm->ring[e].tx_lock, &ma);
	pthread_mutexattr_destroy(&ma);
	shm->version = WIRE_VERSION;
	shm->nb_slots = WIRE_SLOTS;
	shm->slot_size = WIRE_SLOT_SIZE;
	shm->magic = WIRE_MAGIC;
	snprintf(shm->pci[0], sizeof(shm->pci[0]), "%s", pci0);
	snprintf(shm->pci[1], sizeof(shm->pci[1]), "%s", pci1);
	atomic_store_explicit(&shm->state, WIRE_READY, memory_order_release);
}

/* Maps (or creates) the cable file at @name in @dirfd; the first process to map it sets it up. */
static int wire_map(int dirfd, const char *path, const char *name, const char *pci0, const char *pci1,
		    struct wire_shm **out)
{
	struct wire_shm *shm;
	struct stat st;
	uint32_t fresh = WIRE_FRESH;
	int fd, waited = 0;

	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = errno;

		SD_ERR(COMP, "cannot open the wire cable %s: %s; remove it if it is not a file of yours", path,
		       strerror(err));
		return -err;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		SD_ERR(COMP, "wire cable %s is not a regular file of yours; remove it", path);
		close(fd);
		return -EPERM;
	}
	if (st.st_size == 0 && ftruncate(fd, (off_t)WIRE_FILE_SIZE) != 0) {
		int err = errno;

		SD_ERR(COMP, "cannot size the wire cable %s to %zu bytes: %s; free space in its directory", path,
		       (size_t)WIRE_FILE_SIZE, strerror(err));
		close(fd);
		return -err;
	}
	if (fstat(fd, &st) != 0 || (size_t)st.st_size != WIRE_FILE_SIZE) {
		SD_ERR(COMP,
		       "wire cable %s has %lld bytes, this softdoca expects %zu (left by another version?); "
		       "remove it while no program uses the cable",
		       path, (long long)st.st_size, (size_t)WIRE_FILE_SIZE);
		close(fd);
		return -EPROTO;
	}
	shm = mmap(NULL, WIRE_FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (shm == MAP_FAILED) {
		int err = errno;

		SD_ERR(COMP, "cannot map the wire cable %s: %s", path, strerror(err));
		return -err;
	}
	if (atomic_compare_exchange_strong(&shm->state, &fresh, WIRE_INITIALISING))
		wire_init_shm(shm, pci0, pci1);
	while (atomic_load_explicit(&shm->state, memory_order_acquire) != WIRE_READY) {
		if (waited++ >= WIRE_INIT_WAIT_MS) {
			SD_ERR(COMP,
			       "wire cable %s was never set up (its creator died?); remove it while no program "
			       "uses the cable",
			       path);
			munmap(shm, WIRE_FILE_SIZE);
			return -ETIMEDOUT;
		}
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	}
	if (shm->magic != WIRE_MAGIC || shm->version != WIRE_VERSION || shm->nb_slots != WIRE_SLOTS ||
	    shm->slot_size != WIRE_SLOT_SIZE || strncmp(shm->pci[0], pci0, sizeof(shm->pci[0])) ||
	    strncmp(shm->pci[1], pci1, sizeof(shm->pci[1]))) {
		SD_ERR(COMP,
		       "wire cable %s does not describe the cable %s <-> %s of this softdoca (another version "
		       "or a damaged file); remove it while no program uses the cable",
		       path, pci0, pci1);
		munmap(shm, WIRE_FILE_SIZE);
		return -EPROTO;
	}
	*out = shm;
	return 0;
}

/* The process's mapping of the cable between @pci0 < @pci1 (cable_lock held). */
static int cable_get(const char *pci0, const char *pci1, struct wire_cable **out)
{
	char dir[PATH_MAX - 64], name[64];
	struct wire_cable *c;
	int dirfd, ret;

	dirfd = nic_rundir_open(dir, sizeof(dir));
	if (dirfd < 0)
		return dirfd;
	snprintf(name, sizeof(name), NIC_WIRE_CABLE_NAME, pci0, pci1);
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(dirfd);
		return -ENOMEM;
	}
	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	for (struct wire_cable *o = cables; o != NULL; o = o->next) {
		if (strcmp(o->path, c->path) == 0) {
			free(c);
			close(dirfd);
			o->refs++;
			*out = o;
			return 0;
		}
	}
	ret = wire_map(dirfd, c->path, name, pci0, pci1, &c->shm);
	close(dirfd);
	if (ret < 0) {
		free(c);
		return ret;
	}
	c->refs = 1;
	c->next = cables;
	cables = c;
	*out = c;
	return 0;
}

static void cable_put(struct wire_cable *c)
{
	pthread_mutex_lock(&cable_lock);
	if (--c->refs == 0) {
		for (struct wire_cable **pp = &cables; *pp != NULL; pp = &(*pp)->next) {
			if (*pp == c) {
				*pp = c->next;
				break;
			}
		}
		munmap(c->shm, WIRE_FILE_SIZE);
		free(c);
	}
	pthread_mutex_unlock(&cable_lock);
}

/* "<rundir>/wire-<pci>.sock" into @sa; -ENAMETOOLONG when it does not fit sun_path. */
static int sock_addr(const char *pci, struct sockaddr_un *sa)
{
	char dir[PATH_MAX];
	int fd = nic_rundir_open(dir, sizeof(dir)), n;

	if (fd < 0)
		return fd;
	close(fd);
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/wire-%s.sock", dir, pci);
	if (n < 0 || (size_t)n >= sizeof(sa->sun_path)) {
		SD_ERR(COMP,
		       "runtime directory %s is too long for the wake-up socket of port %s (%zu bytes "
		       "max); set XDG_RUNTIME_DIR to a shorter path",
		       dir, pci, sizeof(sa->sun_path) - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* ---- receive side ---- */

static bool pid_alive(int32_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/*
 * Makes this process the receiver of the port, once: claims rx_owner (or takes it over from a
 * process that is gone), starts from an empty ring and binds the wake-up socket.
 */
static bool rx_claim(struct wire_port *p)
{
	int32_t me = (int32_t)getpid(), cur;
	int fd;

	if (p->rx_claimed)
		return true;
	if (p->rx_refused && now_ns() < p->rx_retry_ns)
		return false;
	cur = atomic_load(&p->rx->rx_owner);
	if (cur != me && pid_alive(cur)) {
		if (!p->rx_refused)
			SD_WARN(COMP,
				"port %s: frames arriving on the wire are received by process %d; this "
				"process receives nothing on it until that one closes the device",
				p->pci, cur);
		p->rx_refused = true;
		p->rx_retry_ns = now_ns() + WIRE_CLAIM_RETRY_NS;
		return false;
	}
	if (cur != me && !atomic_compare_exchange_strong(&p->rx->rx_owner, &cur, me))
		return false; /* another process claimed it just now: try again next time */
	p->rx_cons = atomic_load_explicit(&p->rx->prod, memory_order_acquire);
	atomic_store_explicit(&p->rx->cons, p->rx_cons, memory_order_release);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		/* the owner is us, so whatever is bound there belongs to a receiver that is gone */
		unlink(p->rx_addr.sun_path);
		if (bind(fd, (struct sockaddr *)&p->rx_addr, sizeof(p->rx_addr)) != 0) {
			SD_WARN(COMP, "port %s: cannot bind the wake-up socket %s: %s; receivers will poll", p->pci,
				p->rx_addr.sun_path, strerror(errno));
			close(fd);
			fd = -1;
		}
	}
	p->rx_sock = fd;
	p->rx_claimed = true;
	p->rx_refused = false;
	return true;
}

static void rx_release(struct wire_port *p)
{
	int32_t me = (int32_t)getpid();

	if (!p->rx_claimed)
		return;
	if (p->rx_sock >= 0) {
		close(p->rx_sock);
		unlink(p->rx_addr.sun_path);
	}
	atomic_store(&p->rx->armed, 0);
	atomic_compare_exchange_strong(&p->rx->rx_owner, &me, 0);
	p->rx_claimed = false;
}

/* The receiving thread's callback when frames are also captured (SOFTDOCA_PCAP). */
struct pcap_tee {
	struct nic_pcap *pcap;
	nic_rx_fn cb;
	void *cb_arg;
};

static void pcap_tee_cb(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts_ns)
{
	const struct pcap_tee *t = arg;

	nic_pcap_write(t->pcap, NULL, 0, frame, len, ts_ns);
	t->cb(t->cb_arg, frame, len, ts_ns);
}

/*
 * The cable's prod broke the ring's rule: a process that can write the cable file moved it
 * (no honest sender does). Said once per port; the receiver starts over from that prod, as a
 * new receiver does, so the frames in between are never read and the port goes on receiving
 * what comes next.
 */
static void rx_resync(struct wire_port *p, uint64_t prod)
{
	if (!p->rx_broken_said) {
		bool behind = prod - p->rx_cons > UINT64_MAX / 2;

		SD_ERR(COMP,
		       "port %s: the wire cable %s: its producer index is %llu slots %s the receiver's (an "
		       "honest sender is at most %u ahead, never behind); receiving starts over from it, "
		       "the frames in between are dropped (said once); a process other than softdoca's "
		       "writes the cable file",
		       p->pci, p->cable->path, (unsigned long long)(behind ? p->rx_cons - prod : prod - p->rx_cons),
		       behind ? "behind" : "ahead of", WIRE_SLOTS);
		p->rx_broken_said = true;
	}
	atomic_fetch_add_explicit(&p->rx->rx_drop_bad, 1, memory_order_relaxed);
	p->rx_cons = prod;
	atomic_store_explicit(&p->rx->cons, prod, memory_order_release);
}

static unsigned int wire_rx_burst(void *port, unsigned int n, nic_rx_fn cb, void *cb_arg)
{
	struct wire_port *p = port;
	struct wire_ring *r = p->rx;
	struct wire_walk w;
	struct pcap_tee tee;
	uint64_t prod;

	if (SD_UNLIKELY(!p->rx_claimed) && !rx_claim(p))
		return 0;
	prod = atomic_load_explicit(&r->prod, memory_order_acquire);
	if (prod == p->rx_cons)
		return 0; /* nothing: no store either, so the producer's copy of this line stays valid */
	if (p->pcap != NULL) {
		tee = (struct pcap_tee){p->pcap, cb, cb_arg};
		cb = pcap_tee_cb;
		cb_arg = &tee;
	}
	w.cons = p->rx_cons;
	if (SD_UNLIKELY(!wire_ring_walk(p->rx_slots, prod, p->mtu, n, p->rx_buf, cb, cb_arg, &w))) {
		rx_resync(p, prod);
		return 0;
	}
	/* once per burst: the slots read are the producer's again (and its cache line moves once) */
	p->rx_cons = w.cons;
	atomic_store_explicit(&r->cons, w.cons, memory_order_release);
	if (w.frames) {
		counter_add(&r->rx_frames, w.frames);
		counter_add(&r->rx_bytes, w.bytes);
	}
	if (SD_UNLIKELY(w.bad))
		atomic_fetch_add_explicit(&r->rx_drop_bad, w.bad, memory_order_relaxed);
	if (p->pcap != NULL && w.frames)
		nic_pcap_flush(p->pcap);
	return w.frames;
}

static int wire_rx_fd(void *port)
{
	struct wire_port *p = port;

	if (!rx_claim(p))
		return -1;
	return p->rx_sock;
}

/*
 * Reads the wake-up datagrams waiting on @fd, a bounded number: any process of the user may
 * send there, as fast as we read. What is left only makes the next sleep end early.
 */
static void drain(int fd)
{
	char buf[16];

	for (unsigned int i = 0; i < WIRE_DRAIN_MAX && recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0; i++)
		;
}

static void wire_rx_rearm(void *port)
{
	struct wire_port *p = port;
	struct wire_ring *r = p->rx;

	if (!p->rx_claimed || p->rx_sock < 0)
		return;
	/*
	 * Still armed since the last call: nobody cleared it, so any frame published since will
	 * wake us. But a sender that cleared armed before the last arming may have sent its byte
	 * only after that arming drained the socket: a stale byte that would keep the socket
	 * readable, and a sleeping receiver spinning, until the next frame. Drain it; if armed is
	 * still set afterwards no sender cleared it meanwhile, so no byte of a real wake-up was
	 * taken. If a sender did clear it, re-arm below as after a wake-up (one more look at the
	 * ring). One recv() per sleep, none per frame.
	 */
	if (atomic_load_explicit(&r->armed, memory_order_relaxed)) {
		drain(p->rx_sock);
		if (atomic_load(&r->armed))
			return;
	}
	drain(p->rx_sock);
	atomic_store_explicit(&r->armed, 1, memory_order_relaxed);
	WIRE_FULL_FENCE();
	if (atomic_load_explicit(&r->prod, memory_order_relaxed) != p->rx_cons) {
		/* frames came in before the producer could see armed: wake ourselves */
		uint32_t one = 1;

		if (atomic_compare_exchange_strong(&r->armed, &one, 0))
			sendto(p->rx_sock, "w", 1, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&p->rx_addr,
			       sizeof(p->rx_addr));
	}
}

/* ---- send side ---- */

static void wake_peer(struct wire_port *p)
{
	struct wire_ring *r = p->tx;

	WIRE_FULL_FENCE();
	if (atomic_load_explicit(&r->armed, memory_order_relaxed) == 0 ||
	    atomic_exchange_explicit(&r->armed, 0, memory_order_relaxed) == 0)
		return;
	if (p->tx_sock >= 0)
		sendto(p->tx_sock, "w", 1, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&p->peer_addr,
		       sizeof(p->peer_addr));
}

/*
 * Takes the send lock of the port's ring. It lives in the cable, where any process that can
 * write the file can hold it (a stopped sender, a damaged or hostile file): waited for at most
 * WIRE_TX_LOCK_MS, then, until it is taken again, only tried, so that a send never waits on it
 * twice. false when not taken (said once per port).
 */
static bool tx_lock(struct wire_port *p)
{
	pthread_mutex_t *m = &p->tx->tx_lock;
	int rc;

	/* tried first: uncontended, or left by a holder that died, no wait (and what TSan follows) */
	rc = pthread_mutex_trylock(m);
	if (rc == EBUSY && !atomic_load_explicit(&p->tx_lock_stuck, memory_order_relaxed)) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += WIRE_TX_LOCK_MS / 1000;
		until.tv_nsec += (long)(WIRE_TX_LOCK_MS % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		rc = pthread_mutex_timedlock(m, &until);
	}
	if (rc == EOWNERDEAD) {
		pthread_mutex_consistent(m); /* its burst was never published: nothing to repair */
		rc = 0;
	}
	if (SD_LIKELY(rc == 0)) {
		if (SD_UNLIKELY(atomic_load_explicit(&p->tx_lock_stuck, memory_order_relaxed)))
			atomic_store_explicit(&p->tx_lock_stuck, false, memory_order_relaxed);
		return true;
	}
	if (rc == EBUSY)
		return false; /* only tried: said when the wait timed out */
	atomic_store_explicit(&p->tx_lock_stuck, true, memory_order_relaxed);
	if (atomic_exchange_explicit(&p->tx_lock_said, true, memory_order_relaxed))
		return false;
	if (rc == ETIMEDOUT)
		SD_ERR(COMP,
		       "port %s: the wire cable %s: its send lock was held for more than %d ms; frames to %s "
		       "are refused while it is (said once); stop the process that holds it, or remove the "
		       "cable file while no program uses it",
		       p->pci, p->cable->path, WIRE_TX_LOCK_MS, p->peer_pci);
	else
		SD_ERR(COMP,
		       "port %s: the wire cable %s: its send lock is unusable (%s, a damaged cable file); "
		       "frames to %s are refused (said once); remove the cable file while no program uses it",
		       p->pci, p->cable->path, strerror(rc), p->peer_pci);
	return false;
}

static unsigned int wire_tx_burst(void *port, const struct nic_tx_frame *frames, unsigned int n)
{
	struct wire_port *p = port;
	struct wire_ring *r = p->tx;
	uint64_t prod, cons, ts = now_ns(), sent = 0, bytes = 0, lost = 0, full = 0, bad = 0;
	bool peer_up, reloaded = false;

	if (SD_UNLIKELY(!tx_lock(p))) {
		/* not taken, not lost: the caller tries again */
		atomic_fetch_add_explicit(&p->tx_full, n, memory_order_relaxed);
		return 0;
	}
	peer_up = atomic_load_explicit(&r->rx_owner, memory_order_acquire) != 0;
	prod = atomic_load_explicit(&r->prod, memory_order_relaxed);
	cons = atomic_load_explicit(&r->cons, memory_order_acquire);
	if (SD_UNLIKELY(!wire_ring_ok(prod, cons))) {
		/*
		 * The cable's indices were moved by something other than a sender and its receiver:
		 * every frame would count as a full ring, for good. Start over from the receiver's
		 * index (it finds prod where it was, or breaks the rule too and starts over from it).
		 */
		if (!atomic_exchange_explicit(&p->tx_broken_said, true, memory_order_relaxed)) {
			bool ahead = prod - cons > UINT64_MAX / 2;

			SD_ERR(COMP,
			       "port %s: the wire cable %s: the receiver's index is %llu slots %s the "
			       "producer's (an honest receiver is at most %u behind, never ahead); sending "
			       "starts over from it (said once); a process other than softdoca's writes the "
			       "cable file",
			       p->pci, p->cable->path, (unsigned long long)(ahead ? cons - prod : prod - cons),
			       ahead ? "ahead of" : "behind", WIRE_SLOTS);
		}
		prod = cons;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct nic_tx_frame *f = &frames[i];
		struct wire_slot *s;
		uint32_t off = 0;

		if (SD_UNLIKELY(f->len < 14 || f->len > p->mtu)) {
			bad++;
			continue;
		}
		if (p->pcap != NULL)
			nic_pcap_write(p->pcap, f->iov, f->iovcnt, NULL, f->len, ts);
		sent++;
		bytes += f->len;
		if (!peer_up) {
			lost++;
			continue;
		}
		if (prod - cons >= WIRE_SLOTS) {
			/* one fresh look per burst: a full ring is not re-read for every frame it drops */
			if (!reloaded) {
				cons = atomic_load_explicit(&r->cons, memory_order_acquire);
				reloaded = true;
			}
			/* a cons moved behind prod by someone else reads as a full ring */
			if (prod - cons >= WIRE_SLOTS) {
				full++;
				continue;
			}
		}
		s = (struct wire_slot *)wire_slot_at(p->tx_slots, prod);
		for (unsigned int j = 0; j < f->iovcnt && off < f->len; j++) {
			size_t l = f->iov[j].iov_len;

			if (l > f->len - off)
				l = f->len - off;
			memcpy(s->data + off, f->iov[j].iov_base, l);
			off += (uint32_t)l;
		}
		s->len = off;
		s->ts_ns = ts;
		prod++;
	}
	atomic_store_explicit(&r->prod, prod, memory_order_release);
	counter_add(&r->tx_frames, sent);
	counter_add(&r->tx_bytes, bytes);
	if (SD_UNLIKELY(lost | full | bad)) {
		counter_add(&r->lost, lost);
		counter_add(&r->rx_drop_full, full);
		atomic_fetch_add_explicit(&r->rx_drop_bad, bad, memory_order_relaxed); /* the receiver adds too */
	}
	pthread_mutex_unlock(&r->tx_lock);
	if (p->pcap != NULL && sent)
		nic_pcap_flush(p->pcap);
	if (sent > lost + full)
		wake_peer(p);
	return n;
}

static void wire_stats(void *port, struct nic_port_stats *out)
{
	const struct wire_port *p = port;

	*out = (struct nic_port_stats){
	    .tx_frames = atomic_load_explicit(&p->tx->tx_frames, memory_order_relaxed),
	    .tx_bytes = atomic_load_explicit(&p->tx->tx_bytes, memory_order_relaxed),
	    .tx_full = atomic_load_explicit(&p->tx_full, memory_order_relaxed),
	    .rx_frames = atomic_load_explicit(&p->rx->rx_frames, memory_order_relaxed),
	    .rx_bytes = atomic_load_explicit(&p->rx->rx_bytes, memory_order_relaxed),
	    .rx_drop_full = atomic_load_explicit(&p->rx->rx_drop_full, memory_order_relaxed),
	    .rx_drop_bad = atomic_load_explicit(&p->rx->rx_drop_bad, memory_order_relaxed),
	};
}

static uint32_t wire_mtu(void *port)
{
	return ((const struct wire_port *)port)->mtu;
}

static const struct nic_port_ops wire_ops = {
    .medium = "wire",
    .tx_burst = wire_tx_burst,
    .rx_burst = wire_rx_burst,
    .rx_fd = wire_rx_fd,
    .rx_rearm = wire_rx_rearm,
    .stats = wire_stats,
    .mtu = wire_mtu,
};

/* ---- the device backend: one port per open device with medium = wire ---- */

static void wire_close(struct doca_dev *dev, void *priv)
{
	struct wire_port *p = priv;

	priv_doca_nic_port_install(dev, NULL, NULL);
	rx_release(p);
	if (p->tx_sock >= 0)
		close(p->tx_sock);
	nic_pcap_close(p->pcap);
	cable_put(p->cable);
	free(p->rx_buf);
	free(p);
}

static doca_error_t wire_open(struct doca_dev *dev, void **priv)
{
	const struct topology *topo = topo_get();
	const struct topo_device *td = dev->info.tdev, *peer;
	const struct topo_profile *prof = dev->info.profile;
	struct wire_port *p;
	doca_error_t err;
	int ret;

	if (topo == NULL || td == NULL || td->medium != TOPO_MEDIUM_WIRE || td->wire_peer >= topo->nb_devices)
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "device %s has no wire in the topology; add medium = "
				 "wire and wire = PCI to its [device] section",
				 priv_doca_dev_name(&dev->info));
	peer = &topo->devices[td->wire_peer];
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->dev = dev;
	p->rx_sock = -1;
	p->tx_sock = -1;
	p->rx_buf = malloc(NIC_MAX_FRAME);
	if (p->rx_buf == NULL) {
		free(p);
		return DOCA_ERROR_NO_MEMORY;
	}
	p->mtu = prof != NULL && prof->eth.max_packet_size < NIC_MAX_FRAME ? prof->eth.max_packet_size : NIC_MAX_FRAME;
	format_pci(p->pci, td);
	format_pci(p->peer_pci, peer);
	p->end = strcmp(p->pci, p->peer_pci) < 0 ? 0 : 1;
	if (sock_addr(p->pci, &p->rx_addr) < 0 || sock_addr(p->peer_pci, &p->peer_addr) < 0) {
		err = DOCA_ERROR_BAD_CONFIG;
		goto fail;
	}
	pthread_mutex_lock(&cable_lock);
	ret = cable_get(p->end == 0 ? p->pci : p->peer_pci, p->end == 0 ? p->peer_pci : p->pci, &p->cable);
	pthread_mutex_unlock(&cable_lock);
	if (ret < 0) {
		err = ret == -ENOMEM ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_OPERATING_SYSTEM;
		goto fail;
	}
	{
		uint8_t *base = (uint8_t *)p->cable->shm + WIRE_SLOTS_OFF;

		p->tx = &p->cable->shm->ring[p->end];
		p->rx = &p->cable->shm->ring[!p->end];
		p->tx_slots = base + (size_t)p->end * WIRE_SLOTS * WIRE_SLOT_SIZE;
		p->rx_slots = base + (size_t)!p->end * WIRE_SLOTS * WIRE_SLOT_SIZE;
	}
	/* made here, not on the first wake-up: tx_burst may run on any thread */
	p->tx_sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->tx_sock < 0)
		SD_WARN(COMP,
			"port %s: no socket to wake its peer's receiver (%s); a sleeping receiver of %s "
			"sees frames only when it polls",
			p->pci, strerror(errno), p->peer_pci);
	if (nic_pcap_open(p->pci, &p->pcap) < 0) {
		err = DOCA_ERROR_BAD_CONFIG;
		goto fail_cable;
	}
	err = priv_doca_nic_port_install(dev, &wire_ops, p);
	if (err != DOCA_SUCCESS)
		goto fail_pcap;
	*priv = p;
	return DOCA_SUCCESS;
fail_pcap:
	nic_pcap_close(p->pcap);
fail_cable:
	if (p->tx_sock >= 0)
		close(p->tx_sock);
	cable_put(p->cable);
fail:
	free(p->rx_buf);
	free(p);
	return err;
}

/* media.c attaches it once per device (nic_media_provider). */
const struct dev_backend_ops nic_wire_backend = {
    .name = "nic-wire",
    .open = wire_open,
    .close = wire_close,
};
