/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dp.c - the comch fast data path: consumers post buffers, producers on the other side of the
 * connection write into them at memory speed, across processes, without the message socket.
 *
 *   consumer process                                        producer process
 *   ----------------                                        ----------------
 *   doca_ctx_start(consumer)
 *     memfd ring + doorbell pipe, CONSUMER{NEW, id, fds} --> control context (server/client):
 *                                                            opens both through /proc/<pid>/fd,
 *     STARTING ... attached = 1, doorbell <---------------- sets attached, new-consumer callback
 *   RUNNING
 *   post_recv task -> posts[] {addr, cap, seq} ----------->  producer submit: takes a post (or
 *                                                            AGAIN when there is none), copies
 *                                                            buf -> addr with process_vm_writev
 *   progress: comps[] -> task completes <------------------- (memcpy in one process), pushes
 *                      (doorbell when it was quiet)          comps[] {seq, len, status, imm}
 *   doca_ctx_stop: gone = 1, CONSUMER{GONE, id} ---------->  expired-consumer callback
 *
 * The ring (struct dp_shm) lives in a memfd of the consumer; the peer maps it shared. The
 * consumer alone writes posts[] and post_head; producers take posts and push completions under
 * a lock of their own process (struct dp_remote: every producer of one consumer lives in the
 * process at the other end of its connection), held for a few instructions. Completions reach
 * the consumer's PE through a pipe watched by its notification handle; `bell` makes it one byte
 * per quiet period, so a busy stream costs no system call on the consumer's side per task and
 * one process_vm_writev per task on the producer's side.
 *
 * Trust: the ring is shared with the peer, a process that may be buggy or hostile. Each side
 * keeps what it relies on in its own memory and reads the page only for what the other side
 * says, once per use, into a local:
 *   - the ring's size: checked by the producer once, at attach (dp_remote.ring), and known to
 *     the consumer from its own start (cs->mask); neither reads it from the page again;
 *   - the producers' indices (post_tail, comp_head) are kept in dp_remote and only published
 *     to the page; the consumer's post_head is read once per take and must be at most a ring
 *     ahead of what was taken, or the consumer is failed for the producers with one line;
 *   - every post (addr, cap, seq) is copied before use; addr is written only with
 *     process_vm_writev into the consumer's own address space, so a wrong one hurts only it;
 *   - the consumer checks every completion against its own table (sequence number, length,
 *     immediate data length) before touching a task, and a completion index more than a ring
 *     ahead fails the consumer;
 *   - no lock lives in the page: a peer that stores into it cannot stall the other side.
 *
 * Threading: a consumer or producer may be progressed by another thread (its own PE) than the
 * server/client context of its connection (NVIDIA's secure_channel runs the connection on the
 * main thread and one thread each for its producer and consumer). What they share:
 *   - conn->dp_word: gen and CONN_UP, published by the connection's thread (atomic);
 *   - conn->remotes and every dp_remote: written by the connection's thread only, under
 *     dp_lock held for writing; producers read them under dp_lock held for reading, from the
 *     lookup to the end of the copy, so a ring is never unmapped under a producer;
 *   - conn->fd: the control packets of consumers (CONSUMER NEW/GONE) are sent under dp_lock
 *     held for reading after checking dp_word, and comch_dp_conn_closed() clears dp_word under
 *     the write lock before the socket is closed, so such a send never reaches a recycled fd;
 *   - conn->nb_dp: atomic.
 * No lock is held across a user callback. Read locks of an uncontended rwlock are an atomic
 * each, no system call. The shared ring is the only thing another process touches, through
 * atomics.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>

#include "comch_internal.h"
#include "dp_page.h"

#define COMP "comch"

#define DP_WRITEV_CHUNK (64u << 20) /* process_vm_writev moves at most this per call */

_Static_assert(DP_RING_MAX >= TOPO_COMCH_MAX_DP_TASKS, "a consumer's largest ring is a ring a producer takes");

static void ring_bell(struct dp_shm *s, int fd)
{
	char b = 1;

	if (atomic_exchange(&s->bell, 1) == 0 && write(fd, &b, 1) < 0 && errno != EAGAIN)
		SD_DBG(COMP, "doorbell write: %s", strerror(errno));
}

static atomic_uint next_consumer_id = 1, next_producer_id = 1;

/* Guards every connection's remotes list (see Threading above); writers are rare. */
static pthread_rwlock_t dp_lock;
static pthread_once_t dp_lock_once = PTHREAD_ONCE_INIT;

static void dp_lock_init(void)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
#ifdef __GLIBC__
	/* Producers busy-retrying AGAIN take the read lock in a loop; the connection's thread must
	 * still get in to mark a consumer gone. */
	pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
	pthread_rwlock_init(&dp_lock, &a);
	pthread_rwlockattr_destroy(&a);
}

static void dp_rdlock(void)
{
	pthread_once(&dp_lock_once, dp_lock_init);
	pthread_rwlock_rdlock(&dp_lock);
}

static void dp_wrlock(void)
{
	pthread_once(&dp_lock_once, dp_lock_init);
	pthread_rwlock_wrlock(&dp_lock);
}

static void dp_unlock(void)
{
	pthread_rwlock_unlock(&dp_lock);
}

/* A consumer of the peer, as this side's producers see it. */
struct dp_remote {
	struct dp_remote *next;
	uint32_t id;
	bool gone;
	bool local; /* the consumer lives in this process: memcpy */
	pid_t pid;
	struct dp_shm *shm;
	size_t size;
	uint32_t ring, imm_max; /* checked at attach; the page's fields are not read again */
	int bell_fd;
	int pidfd; /* -1 when pidfd_open is unavailable */
	/*
	 * This process's producers of this consumer take posts and push completions under lock;
	 * post_tail and comp_head are the truth, the page gets a copy. broken: the consumer broke a
	 * rule of the ring (said once); every later send to it fails.
	 */
	pthread_mutex_t lock;
	uint64_t post_tail, comp_head;
	atomic_bool broken;
};

/* Any thread: @c is still the connection of generation @gen and up. */
static bool conn_live(const struct doca_comch_connection *c, uint32_t gen)
{
	return atomic_load_explicit(&c->dp_word, memory_order_acquire) == (((uint64_t)gen << 1) | 1);
}

static uint32_t conn_gen(const struct doca_comch_connection *c)
{
	return (uint32_t)(atomic_load_explicit(&c->dp_word, memory_order_acquire) >> 1);
}

/*
 * Sends one control packet on connection @c of generation @gen from a consumer's thread. The
 * socket is shared with the connection's own sends; SOCK_SEQPACKET keeps packets whole. The
 * read lock keeps the fd open (see Threading). The socket is rarely full; then wait for it a
 * little.
 */
static int dp_send_ctrl(struct doca_comch_connection *c, uint32_t gen, const void *pkt, size_t len)
{
	int rc = -EAGAIN;

	dp_rdlock();
	for (int tries = 0; tries < 2000; tries++) {
		if (!conn_live(c, gen)) {
			rc = -ENOTCONN;
			break;
		}
		if (send(c->fd, pkt, len, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
			rc = 0;
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS) {
			rc = -errno;
			break;
		}
		usleep(500);
	}
	dp_unlock();
	return rc;
}

static void remote_unmap(struct dp_remote *r)
{
	if (r->shm != NULL)
		munmap(r->shm, r->size);
	r->shm = NULL;
	if (r->bell_fd >= 0)
		close(r->bell_fd);
	r->bell_fd = -1;
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
	r->gone = true;
}

static void remote_free(struct dp_remote *r)
{
	remote_unmap(r);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

void comch_dp_conn_closed(struct doca_comch_connection *c)
{
	struct dp_remote *list;

	dp_wrlock();
	atomic_store_explicit(&c->dp_word, (uint64_t)c->gen << 1, memory_order_release);
	list = c->remotes;
	c->remotes = NULL;
	dp_unlock();
	while (list != NULL) {
		struct dp_remote *r = list;

		list = r->next;
		remote_free(r);
	}
}

/* Under dp_lock, or on the connection's thread. */
static struct dp_remote *remote_find(struct doca_comch_connection *c, uint32_t id)
{
	struct dp_remote *r;

	for (r = c->remotes; r != NULL; r = r->next)
		if (r->id == id)
			break;
	return r;
}

static int open_peer_fd(pid_t pid, uint32_t fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd/%u", (int)pid, fd);
	return open(path, flags | O_CLOEXEC);
}

/* The peer announced a consumer: map its ring, tell it, run the new-consumer callback. */
static void remote_new(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m)
{
	struct dp_remote *r, *old = NULL;
	struct dp_shm hdr;
	const char *why;
	struct stat st;
	int fd;

	/* Only this thread writes the list: reading it needs no lock. */
	for (r = c->remotes; r != NULL; r = r->next) {
		if (r->id != m->consumer.id)
			continue;
		if (!r->gone) {
			SD_WARN(COMP, "%s: the peer (pid %u) announced consumer %u twice; ignored",
				priv_doca_ctx_name(&ep->ctx), c->peer_pid, m->consumer.id);
			return;
		}
		break;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return;
	r->id = m->consumer.id;
	r->pid = (pid_t)c->peer_pid;
	{
		/* The kernel's word for who is on the other end, not the pid the handshake claimed. */
		struct ucred cr = {0};
		socklen_t crlen = sizeof(cr);

		if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) == 0 && cr.pid > 0)
			r->pid = cr.pid;
	}
	r->local = r->pid == getpid();
	r->bell_fd = -1;
	r->pidfd = -1;
	pthread_mutex_init(&r->lock, NULL);
	fd = open_peer_fd(r->pid, m->consumer.shm_fd, O_RDWR);
	if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(struct dp_shm)) {
		SD_ERR(COMP,
		       "%s: cannot open the ring of consumer %u of pid %u (/proc/%u/fd/%u: %s); the kernel's ptrace "
		       "rule must let this process reach the peer (same user, see docs/cross-process.md)",
		       priv_doca_ctx_name(&ep->ctx), r->id, (unsigned)r->pid, (unsigned)r->pid, m->consumer.shm_fd,
		       fd < 0 ? strerror(errno) : "too small");
		goto fail;
	}
	r->size = (size_t)st.st_size;
	r->shm = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	fd = -1;
	if (r->shm == MAP_FAILED) {
		r->shm = NULL;
		SD_ERR(COMP, "%s: mmap of the ring of consumer %u: %s", priv_doca_ctx_name(&ep->ctx), r->id,
		       strerror(errno));
		goto fail;
	}
	/* Once, into our memory: the peer may change the page while it is checked. */
	memcpy(&hdr, r->shm, DP_HDR_ID_LEN);
	why = dp_page_check(&hdr, r->size, r->id);
	if (why != NULL) {
		SD_ERR(COMP,
		       "%s: the ring of consumer %u of pid %u is refused: %s (magic %#x, version %u, id %u, %u "
		       "entries, %zu bytes); the consumer is ignored: run the same softdoca on both sides",
		       priv_doca_ctx_name(&ep->ctx), r->id, c->peer_pid, why, hdr.magic, hdr.version, hdr.consumer_id,
		       hdr.ring, r->size);
		goto fail;
	}
	r->ring = hdr.ring;
	r->imm_max = hdr.imm_max;
	r->bell_fd = open_peer_fd(r->pid, m->consumer.bell_fd, O_WRONLY | O_NONBLOCK);
	if (r->bell_fd < 0) {
		SD_ERR(COMP, "%s: cannot open the doorbell of consumer %u of pid %u: %s", priv_doca_ctx_name(&ep->ctx),
		       r->id, c->peer_pid, strerror(errno));
		goto fail;
	}
#ifdef SYS_pidfd_open
	r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
#endif
	dp_wrlock();
	/* A consumer that stopped and starts again keeps its id: its old entry goes. */
	for (struct dp_remote **pp = &c->remotes; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->id == r->id) {
			old = *pp;
			*pp = old->next;
			break;
		}
	}
	r->next = c->remotes;
	c->remotes = r;
	dp_unlock();
	if (old != NULL)
		remote_free(old);
	atomic_store(&r->shm->attached, 1);
	ring_bell(r->shm, r->bell_fd);
	SD_DBG(COMP, "%s: the peer (pid %d) has consumer %u (%u posts)", priv_doca_ctx_name(&ep->ctx), (int)r->pid,
	       r->id, r->ring);
	if (ep->new_consumer_cb != NULL)
		ep->new_consumer_cb(&ep->ev_consumer, c, r->id);
	return;
fail:
	if (fd >= 0)
		close(fd);
	remote_free(r);
}

void comch_dp_packet(struct comch_ep *ep, struct doca_comch_connection *c, const struct comch_wire_msg *m)
{
	struct dp_remote *r;

	if (m->consumer.op == COMCH_CONSUMER_NEW) {
		remote_new(ep, c, m);
		return;
	}
	for (r = c->remotes; r != NULL; r = r->next)
		if (r->id == m->consumer.id && !r->gone)
			break;
	if (r == NULL)
		return;
	/* Producers on other threads may be copying into this ring right now. */
	dp_wrlock();
	remote_unmap(r);
	dp_unlock();
	SD_DBG(COMP, "%s: consumer %u of the peer (pid %u) expired", priv_doca_ctx_name(&ep->ctx), r->id, c->peer_pid);
	if (ep->expired_consumer_cb != NULL)
		ep->expired_consumer_cb(&ep->ev_consumer, c, r->id);
}

/* ---- capabilities ---- */

/* @off: a uint32_t of struct topo_caps_comch, read from the device's profile; SIZE_MAX: @v. */
static doca_error_t dp_cap(const struct doca_devinfo *devinfo, uint32_t *out, size_t off, uint32_t v, const char *call)
{
	if (devinfo == NULL || out == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (off == SIZE_MAX)
		*out = v;
	else
		memcpy(out, (const uint8_t *)&devinfo->profile->comch + off, sizeof(*out));
	return DOCA_SUCCESS;
}

#define CAP(field) offsetof(struct topo_caps_comch, field), 0
#define FIXED(v)   SIZE_MAX, (v)

DOCA_STABLE doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_cap_is_supported: NULL devinfo");
	return devinfo->profile->comch.supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_producer_cap_is_supported: NULL devinfo");
	return devinfo->profile->comch.supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
								   uint32_t *max_num_tasks)
{
	return dp_cap(devinfo, max_num_tasks, CAP(consumer_max_num_tasks), "doca_comch_consumer_cap_get_max_num_tasks");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
								  uint32_t *max_buf_size)
{
	return dp_cap(devinfo, max_buf_size, CAP(consumer_max_buf_size), "doca_comch_consumer_cap_get_max_buf_size");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_buf_list_len)
{
	return dp_cap(devinfo, max_buf_list_len, FIXED(1), "doca_comch_consumer_cap_get_max_buf_list_len");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo,
								   uint32_t *max_consumers)
{
	return dp_cap(devinfo, max_consumers, CAP(max_consumers), "doca_comch_consumer_cap_get_max_consumers");
}

DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_imm_data_len)
{
	return dp_cap(devinfo, max_imm_data_len, FIXED(DP_IMM_MAX), "doca_comch_consumer_cap_get_max_imm_data_len");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo,
								   uint32_t *max_num_tasks)
{
	return dp_cap(devinfo, max_num_tasks, CAP(producer_max_num_tasks), "doca_comch_producer_cap_get_max_num_tasks");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo,
								  uint32_t *max_buf_size)
{
	return dp_cap(devinfo, max_buf_size, CAP(producer_max_buf_size), "doca_comch_producer_cap_get_max_buf_size");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo,
								      uint32_t *max_buf_list_len)
{
	return dp_cap(devinfo, max_buf_list_len, FIXED(1), "doca_comch_producer_cap_get_max_buf_list_len");
}

DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo,
								   uint32_t *max_producers)
{
	return dp_cap(devinfo, max_producers, CAP(max_producers), "doca_comch_producer_cap_get_max_producers");
}

/* ---- consumer ---- */

struct doca_comch_consumer_task_post_recv {
	struct doca_task base; /* first */
	struct doca_buf *buf;
	uint64_t seq;
	uint32_t producer_id;
	uint32_t imm_len;
	uint8_t imm[DP_IMM_MAX];
};

struct doca_comch_consumer {
	struct doca_ctx ctx; /* first: as_ctx is a cast */
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	struct doca_mmap *mmap;
	uint32_t id;
	uint32_t imm_len;
	doca_comch_consumer_task_post_recv_completion_cb_t comp_cb, err_cb;
	uint32_t num_tasks;
	/* While STARTING/RUNNING/STOPPING: */
	struct dp_shm *shm;
	size_t size;
	int shm_fd, bell_r, bell_w;
	uint32_t mask;
	struct doca_comch_consumer_task_post_recv **slots; /* by seq & mask: posted, not completed */
	uint64_t next_seq;
	uint64_t comp_tail;
	uint32_t bell_owed; /* doorbell bytes of rings this side reset and has not read yet */
	bool announced;
};

struct ctx_dp_queue {
	struct doca_comch_consumer *cons; /* NULL in a producer's queue */
};

static doca_error_t dpq_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q)
{
	(void)attr;
	*q = calloc(1, sizeof(**q));
	return *q != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
}

static doca_error_t cons_queue_create(const struct ctx_dp_attr *attr, struct ctx_dp_queue **q)
{
	doca_error_t ret = dpq_create(attr, q);

	if (ret == DOCA_SUCCESS)
		(*q)->cons = (struct doca_comch_consumer *)attr->ctx; /* the context is its first member */
	return ret;
}

static void dpq_destroy(struct ctx_dp_queue *q)
{
	free(q);
}

/* Posting a buffer: one ring entry, no system call. The ring holds the whole task pool. */
static int cons_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	struct doca_comch_consumer *cs = q->cons;
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	uint64_t seq = cs->next_seq++;
	struct dp_post *p = &dp_page_posts(cs->shm)[seq & cs->mask];

	t->seq = seq;
	t->producer_id = 0;
	t->imm_len = 0;
	p->addr = (uint64_t)(uintptr_t)t->buf->head;
	p->cap = t->buf->len;
	p->seq = seq;
	cs->slots[seq & cs->mask] = t;
	atomic_store_explicit(&cs->shm->post_head, seq + 1, memory_order_release);
	return 0;
}

static void cons_cancel(struct ctx_dp_queue *q, doca_error_t status)
{
	struct doca_comch_consumer *cs = q->cons;

	if (cs == NULL || cs->shm == NULL)
		return;
	atomic_store(&cs->shm->gone, 1);
	for (uint32_t i = 0; i <= cs->mask; i++) {
		if (cs->slots[i] != NULL) {
			priv_doca_task_complete_pe(&cs->slots[i]->base, status);
			cs->slots[i] = NULL;
		}
	}
}

static const struct ctx_dp_ops consumer_dp_ops = {
    .name = "comch consumer: buffers posted to the peer's producers",
    .queue_create = cons_queue_create,
    .queue_destroy = dpq_destroy,
    .submit = cons_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = priv_doca_dp_nop_pending,
    .cancel = cons_cancel,
};

static void cons_close(struct doca_comch_consumer *cs)
{
	if (cs->bell_r >= 0) {
		priv_doca_pe_unwatch_fd(cs->ctx.pe, cs->bell_r);
		close(cs->bell_r);
	}
	if (cs->bell_w >= 0)
		close(cs->bell_w);
	if (cs->shm_fd >= 0)
		close(cs->shm_fd);
	if (cs->shm != NULL)
		munmap(cs->shm, cs->size);
	free(cs->slots);
	cs->slots = NULL;
	cs->shm = NULL;
	cs->shm_fd = cs->bell_r = cs->bell_w = -1;
	cs->announced = false;
}

static doca_error_t cons_start(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)ctx;
	uint8_t pkt[COMCH_WIRE_HDR_LEN + 16];
	uint32_t ring = 1;
	int pfd[2], rc;
	doca_error_t ret;

	if (cs->comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s has no post-receive configuration; call "
				 "doca_comch_consumer_task_post_recv_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(ctx));
	if (!conn_live(cs->conn, cs->conn_gen))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "doca_ctx_start: %s: its connection went away; create consumers on a live connection",
				 priv_doca_ctx_name(ctx));
	while (ring < cs->num_tasks)
		ring <<= 1;
	cs->size = dp_page_size(ring);
	cs->mask = ring - 1;
	cs->shm_fd = (int)syscall(SYS_memfd_create, "softdoca-comch-consumer", MFD_CLOEXEC);
	if (cs->shm_fd < 0 || ftruncate(cs->shm_fd, (off_t)cs->size) != 0) {
		ret = SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: memfd for %u posts: %s",
				priv_doca_ctx_name(ctx), ring, strerror(errno));
		goto fail;
	}
	cs->shm = mmap(NULL, cs->size, PROT_READ | PROT_WRITE, MAP_SHARED, cs->shm_fd, 0);
	if (cs->shm == MAP_FAILED) {
		cs->shm = NULL;
		ret = SD_REJECT(DOCA_ERROR_NO_MEMORY, COMP, "doca_ctx_start: %s: mmap: %s", priv_doca_ctx_name(ctx),
				strerror(errno));
		goto fail;
	}
	cs->slots = calloc(ring, sizeof(*cs->slots));
	if (cs->slots == NULL || pipe2(pfd, O_NONBLOCK | O_CLOEXEC) != 0) {
		ret = DOCA_ERROR_NO_MEMORY;
		goto fail;
	}
	cs->bell_r = pfd[0];
	cs->bell_w = pfd[1];
	ret = priv_doca_pe_watch_fd(ctx->pe, cs->bell_r);
	if (ret != DOCA_SUCCESS) {
		close(cs->bell_r);
		cs->bell_r = -1;
		goto fail;
	}
	cs->shm->magic = DP_MAGIC;
	cs->shm->version = DP_VERSION;
	cs->shm->consumer_id = cs->id;
	cs->shm->ring = ring;
	cs->shm->imm_max = cs->imm_len;
	cs->next_seq = cs->comp_tail = 0;
	cs->bell_owed = 0;
	rc = dp_send_ctrl(
	    cs->conn, cs->conn_gen, pkt,
	    comch_wire_consumer(pkt, COMCH_CONSUMER_NEW, cs->id, (uint32_t)cs->shm_fd, (uint32_t)cs->bell_w));
	if (rc != 0) {
		ret =
		    SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP, "doca_ctx_start: %s: cannot announce it to the peer: %s",
			      priv_doca_ctx_name(ctx), strerror(-rc));
		goto fail;
	}
	cs->announced = true;
	/* Last: a start that fails must not leave the core's pool behind. */
	ret = priv_doca_ctx_pool_init(ctx, sizeof(struct doca_comch_consumer_task_post_recv), cs->num_tasks,
				      cs->num_tasks, &consumer_dp_ops);
	if (ret != DOCA_SUCCESS) {
		(void)dp_send_ctrl(cs->conn, cs->conn_gen, pkt,
				   comch_wire_consumer(pkt, COMCH_CONSUMER_GONE, cs->id, 0, 0));
		goto fail;
	}
	ctx->keep_running_on_error = true;
	ctx->keep_done_on_stop = true;
	SD_DBG(COMP, "%s: consumer %u announced to pid %u (%u posts)", priv_doca_ctx_name(ctx), cs->id,
	       cs->conn->peer_pid, ring);
	return DOCA_ERROR_IN_PROGRESS;
fail:
	cons_close(cs);
	return ret;
}

/* Completions the producers pushed: each checked against our own table before use. */
static unsigned int cons_reap(struct doca_comch_consumer *cs)
{
	uint64_t head = atomic_load_explicit(&cs->shm->comp_head, memory_order_acquire);
	unsigned int n = 0;

	if (!dp_page_comps_ok(cs->comp_tail, head, cs->mask + 1)) {
		SD_ERR(COMP,
		       "%s: the peer (pid %u) moved the completion index %llu entries past the %u its ring holds; "
		       "stopping the consumer",
		       priv_doca_ctx_name(&cs->ctx), cs->conn->peer_pid, (unsigned long long)(head - cs->comp_tail),
		       cs->mask + 1);
		(void)priv_doca_ctx_fail(&cs->ctx); /* RUNNING -> STOPPING: the context stays */
		return 1;
	}
	for (; cs->comp_tail != head; cs->comp_tail++, n++) {
		const struct dp_comp *cp = &dp_page_comps(cs->shm, cs->mask + 1)[cs->comp_tail & cs->mask];
		struct dp_comp c = *cp;
		struct doca_comch_consumer_task_post_recv *t = cs->slots[c.seq & cs->mask];
		int st =
		    dp_comp_status(&c, t != NULL, t != NULL ? t->seq : 0, t != NULL ? t->buf->len : 0, cs->imm_len);

		if (st < 0) {
			SD_WARN(COMP, "%s: the peer (pid %u) completed post %llu, which is not outstanding; ignored",
				priv_doca_ctx_name(&cs->ctx), cs->conn->peer_pid, (unsigned long long)c.seq);
			continue;
		}
		if (st == DOCA_ERROR_IO_FAILED && c.status == DOCA_SUCCESS)
			SD_WARN(COMP,
				"%s: the peer (pid %u) completed post %llu with more than its buffer or immediate data "
				"holds; the post fails",
				priv_doca_ctx_name(&cs->ctx), cs->conn->peer_pid, (unsigned long long)c.seq);
		cs->slots[c.seq & cs->mask] = NULL;
		t->producer_id = c.producer_id;
		if (st == DOCA_SUCCESS) {
			t->buf->data = t->buf->head;
			t->buf->data_len = c.len;
			t->imm_len = c.imm_len;
			memcpy(t->imm, c.imm, c.imm_len);
		}
		priv_doca_task_complete_pe(&t->base, (doca_error_t)st);
	}
	return n;
}

/*
 * Re-arms the doorbell. Each ring that finds the bell clear writes exactly one byte, so the
 * consumer reads one byte per ring it reset and never more: a byte rung after the reset (for a
 * completion this side may already have reaped, or one it has not) stays in the pipe and wakes
 * the next sleep. Draining the pipe whole would eat that byte and leave the bell set with the
 * pipe empty, so no later completion would wake a sleeping application.
 */
static void cons_bell_rearm(struct doca_comch_consumer *cs)
{
	char drain[64];
	ssize_t k;

	if (atomic_load_explicit(&cs->shm->bell, memory_order_relaxed) != 0 && atomic_exchange(&cs->shm->bell, 0))
		cs->bell_owed++;
	while (cs->bell_owed != 0) {
		k = read(cs->bell_r, drain, cs->bell_owed < sizeof(drain) ? cs->bell_owed : sizeof(drain));
		if (k <= 0)
			break; /* the ringer has not written yet: read on the next idle look */
		cs->bell_owed -= (uint32_t)k;
	}
}

static unsigned int cons_events(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)ctx;
	unsigned int n = 0;

	if (cs->shm == NULL || (ctx->state != DOCA_CTX_STATE_STARTING && ctx->state != DOCA_CTX_STATE_RUNNING))
		return 0;
	if (!conn_live(cs->conn, cs->conn_gen)) {
		SD_INFO(COMP, "%s: its connection went away; stopping the consumer", priv_doca_ctx_name(ctx));
		cs->announced = false;
		if (ctx->state == DOCA_CTX_STATE_STARTING)
			(void)priv_doca_ctx_start_done(ctx, DOCA_ERROR_NOT_CONNECTED); /* last touch */
		else
			(void)priv_doca_ctx_fail(ctx); /* last touch */
		return 1;
	}
	if (ctx->state == DOCA_CTX_STATE_STARTING) {
		if (!atomic_load(&cs->shm->attached)) {
			cons_bell_rearm(cs);
			return atomic_load(&cs->shm->attached) ? cons_events(ctx) : 0;
		}
		/* Its RUNNING callback may stop the consumer and its IDLE callback destroy it. */
		if (!priv_doca_ctx_start_done(ctx, DOCA_SUCCESS))
			return 1;
		n++;
		if (ctx->state != DOCA_CTX_STATE_RUNNING)
			return n;
	}
	n += cons_reap(cs);
	if (n != 0)
		return n;
	/*
	 * Idle: only now re-arm the doorbell, so a busy stream costs producers no write(). A
	 * completion pushed before a producer saw the bell armed is caught by the second look.
	 */
	cons_bell_rearm(cs);
	return cons_reap(cs);
}

/* Leaving STARTING/RUNNING: producers must stop taking posts; the peer hears it expired. */
static void cons_stopping(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)ctx;
	uint8_t pkt[COMCH_WIRE_HDR_LEN + 16];

	if (cs->shm != NULL)
		atomic_store(&cs->shm->gone, 1);
	if (cs->announced && conn_live(cs->conn, cs->conn_gen))
		(void)dp_send_ctrl(cs->conn, cs->conn_gen, pkt,
				   comch_wire_consumer(pkt, COMCH_CONSUMER_GONE, cs->id, 0, 0));
	cs->announced = false;
}

static void cons_stopped(struct doca_ctx *ctx)
{
	cons_close((struct doca_comch_consumer *)ctx);
}

static doca_error_t cons_prepare(struct doca_task *task)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)task->ctx;

	if (SD_UNLIKELY(t->buf == NULL || t->buf->mmap != cs->mmap || t->buf->len == 0))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: post-receive task %p: its buffer is not a buffer of the consumer's mmap %p (or "
				 "was released); post buffers of the mmap given to doca_comch_consumer_create()",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)cs->mmap);
	task->bytes = 0;
	return DOCA_SUCCESS;
}

static void cons_deliver(struct doca_task *task, bool success)
{
	struct doca_comch_consumer *cs = (struct doca_comch_consumer *)task->ctx;

	(success ? cs->comp_cb : cs->err_cb)((struct doca_comch_consumer_task_post_recv *)task, task->user_data,
					     task->ctx->user_data);
}

static const struct ctx_ops consumer_ops = {
    .name = "comch consumer",
    .start = cons_start,
    .stopped = cons_stopped,
    .prepare = cons_prepare,
    .deliver = cons_deliver,
    .events = cons_events,
    .stopping = cons_stopping,
};

static doca_error_t check_conn_for_dp(struct doca_comch_connection *c, const char *call)
{
	if (!(atomic_load_explicit(&c->dp_word, memory_order_acquire) & 1))
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "%s: connection %p is not established; create it from a connect event or after the "
				 "client is RUNNING",
				 call, (void *)c);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection,
						    struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer)
{
	const char *call = "doca_comch_consumer_create";
	struct doca_comch_consumer *cs;
	doca_error_t ret;

	if (comch_connection == NULL || buf_mmap == NULL || consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	ret = check_conn_for_dp(comch_connection, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (!buf_mmap->started || buf_mmap->kind != MMAP_LOCAL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: mmap %p is %s; pass a started mmap of this process's memory", call,
				 (void *)buf_mmap, buf_mmap->started ? "an imported mmap" : "not started");
	if (!priv_doca_mmap_has_dev(buf_mmap, comch_connection->ep->ctx.dev))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: mmap %p was not given device %s of the connection; call doca_mmap_add_dev() "
				 "before doca_mmap_start()",
				 call, (void *)buf_mmap, priv_doca_dev_name(&comch_connection->ep->ctx.dev->info));
	if (!(buf_mmap->access & DOCA_ACCESS_FLAG_PCI_READ_WRITE))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: mmap %p does not let the peer write; pass DOCA_ACCESS_FLAG_PCI_READ_WRITE to "
				 "doca_mmap_set_permissions() before doca_mmap_start()",
				 call, (void *)buf_mmap);
	cs = calloc(1, sizeof(*cs));
	if (cs == NULL)
		return DOCA_ERROR_NO_MEMORY;
	priv_doca_ctx_init(&cs->ctx, &consumer_ops, comch_connection->ep->ctx.dev);
	cs->conn = comch_connection;
	cs->conn_gen = conn_gen(comch_connection);
	cs->mmap = buf_mmap;
	cs->id = atomic_fetch_add(&next_consumer_id, 1);
	cs->imm_len = DP_IMM_MAX;
	cs->shm_fd = cs->bell_r = cs->bell_w = -1;
	comch_connection->nb_dp++;
	*consumer = cs;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer)
{
	doca_error_t ret;

	if (consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_destroy: NULL consumer");
	ret = priv_doca_ctx_fini(&consumer->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	cons_close(consumer);
	if (conn_gen(consumer->conn) == consumer->conn_gen)
		consumer->conn->nb_dp--;
	free(consumer);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id)
{
	if (consumer == NULL || id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_get_id: NULL argument");
	*id = consumer->id;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer,
							      uint32_t *imm_data_len)
{
	if (consumer == NULL || imm_data_len == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_consumer_get_imm_data_len: NULL argument");
	*imm_data_len = consumer->imm_len;
	return DOCA_SUCCESS;
}

static doca_error_t cons_check_idle(const struct doca_comch_consumer *cs, const char *call)
{
	if (cs->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: %s is %s; configure it before doca_ctx_start()", call,
				 priv_doca_ctx_name(&cs->ctx), priv_doca_ctx_state_name(cs->ctx.state));
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer,
							      uint32_t imm_data_len)
{
	const char *call = "doca_comch_consumer_set_imm_data_len";
	doca_error_t ret;

	if (consumer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL consumer", call);
	ret = cons_check_idle(consumer, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (imm_data_len > DP_IMM_MAX)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u bytes; at most %u (doca_comch_consumer_cap_get_max_imm_data_len)", call,
				 imm_data_len, DP_IMM_MAX);
	consumer->imm_len = imm_data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer)
{
	return consumer ? &consumer->ctx : NULL;
}

DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_set_conf(
    struct doca_comch_consumer *consumer, doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
    doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb, uint32_t num_post_recv_tasks)
{
	const char *call = "doca_comch_consumer_task_post_recv_set_conf";
	doca_error_t ret;
	uint32_t max;

	if (consumer == NULL || task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: NULL argument; pass the consumer and both callbacks", call);
	ret = cons_check_idle(consumer, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	max = consumer->ctx.dev->info.profile->comch.consumer_max_num_tasks;
	if (num_post_recv_tasks == 0 || num_post_recv_tasks > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u tasks requested; device %s allows 1..%u "
				 "(doca_comch_consumer_cap_get_max_num_tasks)",
				 call, num_post_recv_tasks, priv_doca_dev_name(&consumer->ctx.dev->info), max);
	consumer->comp_cb = task_completion_cb;
	consumer->err_cb = task_error_cb;
	consumer->num_tasks = num_post_recv_tasks;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer,
								       struct doca_buf *buf,
								       struct doca_comch_consumer_task_post_recv **task)
{
	const char *call = "doca_comch_consumer_task_post_recv_alloc_init";
	struct doca_task *base = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(consumer == NULL || buf == NULL || task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (SD_UNLIKELY(buf->mmap != consumer->mmap))
		return SD_REJECT(
		    DOCA_ERROR_INVALID_VALUE, COMP,
		    "%s: %s: the buffer belongs to mmap %p, not to the consumer's mmap %p; take it from the "
		    "mmap given to doca_comch_consumer_create()",
		    call, priv_doca_ctx_name(&consumer->ctx), (void *)buf->mmap, (void *)consumer->mmap);
	ret = priv_doca_task_alloc(&consumer->ctx, &base);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	((struct doca_comch_consumer_task_post_recv *)base)->buf = buf;
	((struct doca_comch_consumer_task_post_recv *)base)->producer_id = 0;
	((struct doca_comch_consumer_task_post_recv *)base)->imm_len = 0;
	base->user_data.u64 = 0;
	*task = (struct doca_comch_consumer_task_post_recv *)base;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_buf *
doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task)
{
	return task ? task->buf : NULL;
}

DOCA_STABLE void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task,
							    struct doca_buf *buf)
{
	if (task == NULL || buf == NULL) {
		SD_ERR(COMP, "doca_comch_consumer_task_post_recv_set_buf: NULL argument; nothing changed");
		return;
	}
	task->buf = buf;
}

DOCA_STABLE uint32_t
doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task)
{
	return task ? task->producer_id : 0;
}

DOCA_STABLE const uint8_t *
doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL && task->imm_len != 0 ? task->imm : NULL;
}

DOCA_STABLE uint32_t
doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task)
{
	return task ? task->imm_len : 0;
}

DOCA_STABLE struct doca_task *
doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task)
{
	return task ? &task->base : NULL;
}

/* ---- producer ---- */

struct doca_comch_producer_task_send {
	struct doca_task base; /* first */
	const struct doca_buf *buf;
	uint32_t consumer_id;
	uint32_t imm_len;
	uint8_t imm[DP_IMM_MAX];
};

struct doca_comch_producer {
	struct doca_ctx ctx; /* first */
	struct doca_comch_connection *conn;
	uint32_t conn_gen;
	uint32_t id;
	doca_comch_producer_task_send_completion_cb_t comp_cb, err_cb;
	uint32_t num_tasks;
};

static bool remote_dead(const struct dp_remote *r)
{
	struct pollfd pfd = {.fd = r->pidfd, .events = POLLIN};

	if (r->local)
		return false;
	if (r->pidfd >= 0)
		return poll(&pfd, 1, 0) == 1;
	return kill(r->pid, 0) != 0 && errno == ESRCH;
}

static doca_error_t copy_to_peer(const struct dp_remote *r, uint64_t addr, const void *src, uint64_t len)
{
	uint64_t off = 0;

	if (r->local) {
		memcpy((void *)(uintptr_t)addr, src, len);
		return DOCA_SUCCESS;
	}
	while (off < len) {
		uint64_t n = len - off < DP_WRITEV_CHUNK ? len - off : DP_WRITEV_CHUNK;
		struct iovec l = {.iov_base = (uint8_t *)(uintptr_t)src + off, .iov_len = n};
		struct iovec rv = {.iov_base = (void *)(uintptr_t)(addr + off), .iov_len = n};
		ssize_t w = process_vm_writev(r->pid, &l, 1, &rv, 1, 0);

		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0 && errno == ESRCH)
				return DOCA_ERROR_NOT_CONNECTED;
			if (w < 0 && errno == EPERM)
				return DOCA_ERROR_NOT_PERMITTED;
			return DOCA_ERROR_IO_FAILED;
		}
		off += (uint64_t)w;
	}
	return DOCA_SUCCESS;
}

/*
 * The copy happens here, in submit: a buffer posted by the consumer is taken (AGAIN when
 * there is none, so the caller keeps the task), filled, and its completion pushed. The task's
 * own completion is delivered by the next doca_pe_progress().
 */
static int prod_submit(struct ctx_dp_queue *q, struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct doca_comch_producer *p = (struct doca_comch_producer *)t->base.ctx;
	uint64_t tail, head, len = t->buf->data_len;
	struct dp_remote *r;
	struct dp_shm *s;
	struct dp_post post;
	struct dp_comp *cp;
	doca_error_t st = DOCA_SUCCESS;
	int rc = -ENOBUFS; /* AGAIN for the application: the consumer posted no buffer yet */

	(void)q;
	/* Held to the end: the connection's thread cannot unmap the ring under the copy. */
	dp_rdlock();
	r = remote_find(p->conn, t->consumer_id);
	if (SD_UNLIKELY(r == NULL || r->gone || atomic_load_explicit(&r->shm->gone, memory_order_acquire))) {
		dp_unlock();
		priv_doca_task_complete_pe(task, DOCA_ERROR_NOT_CONNECTED);
		return 0;
	}
	if (SD_UNLIKELY(atomic_load_explicit(&r->broken, memory_order_relaxed))) {
		dp_unlock();
		priv_doca_task_complete_pe(task, DOCA_ERROR_IO_FAILED);
		return 0;
	}
	s = r->shm;
	pthread_mutex_lock(&r->lock);
	tail = r->post_tail;
	head = atomic_load_explicit(&s->post_head, memory_order_acquire);
	if (tail == head) {
		pthread_mutex_unlock(&r->lock);
		/* Nothing posted: a dead consumer never will post (one system call, off the hot path). */
		if (remote_dead(r)) {
			st = DOCA_ERROR_NOT_CONNECTED;
			rc = 0;
		}
		goto out;
	}
	if (SD_UNLIKELY(dp_page_take(tail, head, r->ring) == DP_TAKE_BROKEN)) {
		pthread_mutex_unlock(&r->lock);
		if (!atomic_exchange(&r->broken, true))
			SD_ERR(
			    COMP,
			    "%s: consumer %u of pid %d broke the rule of its ring: %llu buffers posted past the %llu "
			    "taken, the ring holds %u; every send to it fails from now on (DOCA_ERROR_IO_FAILED)",
			    priv_doca_ctx_name(&p->ctx), r->id, (int)r->pid, (unsigned long long)(head - tail),
			    (unsigned long long)tail, r->ring);
		st = DOCA_ERROR_IO_FAILED;
		rc = 0;
		goto out;
	}
	post = dp_page_posts(s)[tail & (r->ring - 1)];
	r->post_tail = tail + 1;
	atomic_store_explicit(&s->post_tail, tail + 1, memory_order_relaxed);
	pthread_mutex_unlock(&r->lock);

	if (post.cap < len) {
		SD_ERR(COMP, "%s: consumer %u posted a buffer of %llu bytes, the send has %llu; both fail",
		       priv_doca_ctx_name(&p->ctx), r->id, (unsigned long long)post.cap, (unsigned long long)len);
		st = DOCA_ERROR_INVALID_VALUE;
	} else {
		st = copy_to_peer(r, post.addr, t->buf->data, len);
	}
	pthread_mutex_lock(&r->lock);
	tail = r->comp_head++;
	cp = &dp_page_comps(s, r->ring)[tail & (r->ring - 1)];
	cp->seq = post.seq;
	cp->len = st == DOCA_SUCCESS ? len : 0;
	cp->status = (uint32_t)st;
	cp->producer_id = p->id;
	cp->imm_len = t->imm_len;
	memcpy(cp->imm, t->imm, t->imm_len);
	atomic_store_explicit(&s->comp_head, tail + 1, memory_order_release);
	pthread_mutex_unlock(&r->lock);
	ring_bell(s, r->bell_fd);
	rc = 0;
out:
	dp_unlock();
	if (rc == 0)
		priv_doca_task_complete_pe(task, st);
	return rc;
}

/* Nothing waits in the data path: every accepted task completed inside submit (no cancel). */
static const struct ctx_dp_ops producer_dp_ops = {
    .name = "comch producer: writes into buffers the peer's consumers posted",
    .queue_create = dpq_create,
    .queue_destroy = dpq_destroy,
    .submit = prod_submit,
    .poll = priv_doca_dp_nop_poll,
    .pending = priv_doca_dp_nop_pending,
    .cancel = priv_doca_dp_nop_cancel,
};

static doca_error_t prod_start(struct doca_ctx *ctx)
{
	struct doca_comch_producer *p = (struct doca_comch_producer *)ctx;

	if (p->comp_cb == NULL)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP,
				 "doca_ctx_start: %s has no send configuration; call "
				 "doca_comch_producer_task_send_set_conf() before doca_ctx_start()",
				 priv_doca_ctx_name(ctx));
	if (!conn_live(p->conn, p->conn_gen))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "doca_ctx_start: %s: its connection went away; create producers on a live connection",
				 priv_doca_ctx_name(ctx));
	ctx->keep_running_on_error = true;
	ctx->keep_done_on_stop = true;
	return priv_doca_ctx_pool_init(ctx, sizeof(struct doca_comch_producer_task_send), p->num_tasks, p->num_tasks,
				       &producer_dp_ops);
}

static doca_error_t prod_prepare(struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct doca_comch_producer *p = (struct doca_comch_producer *)task->ctx;
	struct dp_remote *r;
	uint32_t imm_max;

	if (SD_UNLIKELY(!conn_live(p->conn, p->conn_gen)))
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "%s: send task %p: the connection went away; the consumer is unreachable",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	if (SD_UNLIKELY(t->buf == NULL || t->buf->mmap == NULL || t->buf->mmap->kind != MMAP_LOCAL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: send task %p: its buffer was released or is not in this process's memory",
				 priv_doca_ctx_name(task->ctx), (void *)t);
	if (SD_UNLIKELY(!priv_doca_mmap_has_dev(t->buf->mmap, task->ctx->dev)))
		return SD_REJECT(DOCA_ERROR_NOT_PERMITTED, COMP,
				 "%s: send task %p: the buffer's mmap %p was not given device %s; call "
				 "doca_mmap_add_dev() before doca_mmap_start()",
				 priv_doca_ctx_name(task->ctx), (void *)t, (void *)t->buf->mmap,
				 priv_doca_dev_name(&task->ctx->dev->info));
	if (SD_UNLIKELY(t->buf->data_len > task->ctx->dev->info.profile->comch.producer_max_buf_size))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: send task %p: %zu bytes exceed doca_comch_producer_cap_get_max_buf_size (%u)",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->buf->data_len,
				 task->ctx->dev->info.profile->comch.producer_max_buf_size);
	dp_rdlock();
	r = remote_find(p->conn, t->consumer_id);
	if (SD_UNLIKELY(r == NULL)) {
		dp_unlock();
		return SD_REJECT(DOCA_ERROR_NOT_FOUND, COMP,
				 "%s: send task %p: the peer has no consumer %u; use an id from the new-consumer event",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->consumer_id);
	}
	if (SD_UNLIKELY(r->gone)) {
		dp_unlock();
		return SD_REJECT(DOCA_ERROR_NOT_CONNECTED, COMP,
				 "%s: send task %p: consumer %u of the peer expired (it stopped)",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->consumer_id);
	}
	imm_max = r->imm_max;
	dp_unlock();
	if (SD_UNLIKELY(t->imm_len > imm_max))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: send task %p: %u bytes of immediate data; consumer %u accepts %u",
				 priv_doca_ctx_name(task->ctx), (void *)t, t->imm_len, t->consumer_id, imm_max);
	task->bytes = t->buf->data_len;
	return DOCA_SUCCESS;
}

static void prod_deliver(struct doca_task *task, bool success)
{
	struct doca_comch_producer *p = (struct doca_comch_producer *)task->ctx;

	(success ? p->comp_cb : p->err_cb)((struct doca_comch_producer_task_send *)task, task->user_data,
					   task->ctx->user_data);
}

static const struct ctx_ops producer_ops = {
    .name = "comch producer",
    .start = prod_start,
    .prepare = prod_prepare,
    .deliver = prod_deliver,
};

DOCA_STABLE doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
						    struct doca_comch_producer **producer)
{
	const char *call = "doca_comch_producer_create";
	struct doca_comch_producer *p;
	doca_error_t ret;

	if (comch_connection == NULL || producer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	ret = check_conn_for_dp(comch_connection, call);
	if (ret != DOCA_SUCCESS)
		return ret;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	priv_doca_ctx_init(&p->ctx, &producer_ops, comch_connection->ep->ctx.dev);
	p->conn = comch_connection;
	p->conn_gen = conn_gen(comch_connection);
	p->id = atomic_fetch_add(&next_producer_id, 1);
	comch_connection->nb_dp++;
	*producer = p;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer)
{
	doca_error_t ret;

	if (producer == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_producer_destroy: NULL producer");
	ret = priv_doca_ctx_fini(&producer->ctx);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (conn_gen(producer->conn) == producer->conn_gen)
		producer->conn->nb_dp--;
	free(producer);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id)
{
	if (producer == NULL || id == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "doca_comch_producer_get_id: NULL argument");
	*id = producer->id;
	return DOCA_SUCCESS;
}

DOCA_STABLE struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer)
{
	return producer ? &producer->ctx : NULL;
}

DOCA_STABLE doca_error_t doca_comch_producer_task_send_set_conf(
    struct doca_comch_producer *producer, doca_comch_producer_task_send_completion_cb_t task_completion_cb,
    doca_comch_producer_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	const char *call = "doca_comch_producer_task_send_set_conf";
	uint32_t max;

	if (producer == NULL || task_completion_cb == NULL || task_error_cb == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: NULL argument; pass the producer and both callbacks", call);
	if (producer->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT(DOCA_ERROR_BAD_STATE, COMP, "%s: %s is %s; configure it before doca_ctx_start()", call,
				 priv_doca_ctx_name(&producer->ctx), priv_doca_ctx_state_name(producer->ctx.state));
	max = producer->ctx.dev->info.profile->comch.producer_max_num_tasks;
	if (num_send_tasks == 0 || num_send_tasks > max)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u tasks requested; device %s allows 1..%u "
				 "(doca_comch_producer_cap_get_max_num_tasks)",
				 call, num_send_tasks, priv_doca_dev_name(&producer->ctx.dev->info), max);
	producer->comp_cb = task_completion_cb;
	producer->err_cb = task_error_cb;
	producer->num_tasks = num_send_tasks;
	return DOCA_SUCCESS;
}

static bool set_imm(struct doca_comch_producer_task_send *t, const uint8_t *imm, uint32_t len)
{
	if (len > DP_IMM_MAX || (imm == NULL && len != 0))
		return false;
	t->imm_len = len;
	if (len != 0)
		memcpy(t->imm, imm, len);
	return true;
}

DOCA_STABLE doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer,
								  const struct doca_buf *buf, uint8_t *imm_data,
								  uint32_t imm_data_len, uint32_t consumer_id,
								  struct doca_comch_producer_task_send **task)
{
	const char *call = "doca_comch_producer_task_send_alloc_init";
	struct doca_comch_producer_task_send *t;
	struct doca_task *base = NULL;
	doca_error_t ret;

	if (SD_UNLIKELY(producer == NULL || buf == NULL || task == NULL))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	if (SD_UNLIKELY(imm_data_len > DP_IMM_MAX || (imm_data == NULL && imm_data_len != 0)))
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP,
				 "%s: %u bytes of immediate data at %p; at most %u "
				 "(doca_comch_consumer_cap_get_max_imm_data_len)",
				 call, imm_data_len, (void *)imm_data, DP_IMM_MAX);
	ret = priv_doca_task_alloc(&producer->ctx, &base);
	if (SD_UNLIKELY(ret != DOCA_SUCCESS))
		return ret;
	t = (struct doca_comch_producer_task_send *)base;
	t->buf = buf;
	t->consumer_id = consumer_id;
	(void)set_imm(t, imm_data, imm_data_len);
	base->user_data.u64 = 0;
	*task = t;
	return DOCA_SUCCESS;
}

DOCA_STABLE const struct doca_buf *
doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task)
{
	return task ? task->buf : NULL;
}

DOCA_STABLE void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task,
						       const struct doca_buf *buf)
{
	if (task == NULL || buf == NULL) {
		SD_ERR(COMP, "doca_comch_producer_task_send_set_buf: NULL argument; nothing changed");
		return;
	}
	task->buf = buf;
}

DOCA_STABLE uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task)
{
	return task ? task->consumer_id : 0;
}

DOCA_STABLE void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task,
							       const uint32_t consumer_id)
{
	if (task == NULL) {
		SD_ERR(COMP, "doca_comch_producer_task_send_set_consumer_id: NULL task; nothing changed");
		return;
	}
	task->consumer_id = consumer_id;
}

DOCA_STABLE const uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task)
{
	return task != NULL && task->imm_len != 0 ? task->imm : NULL;
}

DOCA_STABLE uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task)
{
	return task ? task->imm_len : 0;
}

DOCA_STABLE void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task,
							    uint8_t *imm_data, uint32_t imm_data_len)
{
	if (task == NULL || !set_imm(task, imm_data, imm_data_len))
		SD_ERR(COMP,
		       "doca_comch_producer_task_send_set_imm_data: task %p, %u bytes at %p: at most %u bytes "
		       "(doca_comch_consumer_cap_get_max_imm_data_len); nothing changed",
		       (void *)task, imm_data_len, (void *)imm_data, DP_IMM_MAX);
}

DOCA_STABLE struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task)
{
	return task ? &task->base : NULL;
}

/* ---- the DPA data path: not emulated ---- */

static doca_error_t no_dpa(const void *obj, const char *call)
{
	if (obj == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, COMP, "%s: NULL argument", call);
	return SD_REJECT(DOCA_ERROR_NOT_SUPPORTED, COMP,
			 "%s: softdoca emulates no DPA; run the consumer/producer data path on the CPU "
			 "(leave doca_ctx_set_datapath_on_dpa() out)",
			 call);
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_create");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_dpa_thread(
    struct doca_comch_consumer_completion *consumer_comp, struct doca_dpa_thread *dpa_thread)
{
	(void)dpa_thread;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_set_dpa_thread");
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_destroy");
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_start");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp)
{
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_stop");
}

DOCA_EXPERIMENTAL doca_error_t
doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp,
					      doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle)
{
	(void)consumer_comp_handle;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_get_dpa_handle");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_consumers(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers)
{
	(void)max_num_consumers;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_set_max_num_consumers");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers)
{
	(void)max_num_consumers;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_get_max_num_consumers");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_recv(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv)
{
	(void)max_num_recv;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_set_max_num_recv");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_recv(
    struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv)
{
	(void)max_num_recv;
	return no_dpa(consumer_comp, "doca_comch_consumer_completion_get_max_num_recv");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_dev_num_recv(struct doca_comch_consumer *consumer,
								    uint32_t dev_num_recv)
{
	(void)dev_num_recv;
	return no_dpa(consumer, "doca_comch_consumer_set_dev_num_recv");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
								  struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t user_data)
{
	(void)consumer_comp;
	(void)user_data;
	return no_dpa(consumer, "doca_comch_consumer_set_completion");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
								  doca_dpa_dev_comch_consumer_t *dpa_consumer)
{
	(void)dpa_consumer;
	return no_dpa(consumer, "doca_comch_consumer_get_dpa_handle");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_set_dev_num_send(struct doca_comch_producer *producer,
								    uint32_t dev_num_send)
{
	(void)dev_num_send;
	return no_dpa(producer, "doca_comch_producer_set_dev_num_send");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
									 struct doca_dpa_completion *dpa_comp)
{
	(void)dpa_comp;
	return no_dpa(producer, "doca_comch_producer_dpa_completion_attach");
}

DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
								  doca_dpa_dev_comch_producer_t *dpa_producer)
{
	(void)dpa_producer;
	return no_dpa(producer, "doca_comch_producer_get_dpa_handle");
}
