/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma_copy - copy a file between the host and the DPU with DOCA Comch and DOCA DMA.
 *
 *   DPU:  doca_dma_copy -f /path/on/dpu [-p 03:00.0] [-r b1:00.0] [--force]
 *   host: doca_dma_copy -f /path/on/host [-p b1:00.0] [--force]
 *
 * Whichever side has the file sends it; the other side creates it (refusing to replace an
 * existing file without --force). See dma_copy.h for the protocol.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "dma_copy.h"

DOCA_LOG_REGISTER(DMA_COPY);

/* A progress frame on stderr that no newline has ended yet (progress_bar()): every log line of
 * this program ends it first, so that no message is written onto the end of the bar. */
static bool bar_open;

static void bar_end(void)
{
	if (bar_open) {
		fputc('\n', stderr);
		bar_open = false;
	}
}

#define LOG_AT(level, ...)                                                                                             \
	do {                                                                                                           \
		bar_end();                                                                                             \
		DOCA_LOG_##level(__VA_ARGS__);                                                                         \
	} while (0)
#define LOG_ERR(...)  LOG_AT(ERR, __VA_ARGS__)
#define LOG_WARN(...) LOG_AT(WARN, __VA_ARGS__)
#define LOG_INFO(...) LOG_AT(INFO, __VA_ARGS__)
#define LOG_DBG(...)  LOG_AT(DBG, __VA_ARGS__)

/* Each build's default device; the help text names both (one manual page serves both builds). */
#define DPU_DEFAULT_PCI	 "03:00.0"
#define HOST_DEFAULT_PCI "b1:00.0"
#ifdef DOCA_ARCH_DPU
#define ROLE_DPU    1
#define DEFAULT_PCI DPU_DEFAULT_PCI
#else
#define ROLE_DPU    0
#define DEFAULT_PCI HOST_DEFAULT_PCI
#endif
#define DEFAULT_REP_PCI "b1:00.0"
#define INFLIGHT	16
#define STAGE_CHUNK	(512ull << 10) /* a chunk of a staging ring (at most): INFLIGHT of them stay in the cache */
#define HOST_RING	(8ull << 20)   /* a host's staging ring (at most; a power of two) */
#define MSG_STEPS	4	       /* PROGRESS, FILLED, CREDIT: 1/MSG_STEPS of the host's ring at least */
#define INBOX		8

struct file_map {
	char path[4096];
	char tmp[4200]; /* destination only: where bytes land until verified */
	int fd;
	uint64_t size;
	bool is_dest;
	bool force;    /* the final rename may replace an existing regular file */
	char why[300]; /* why the destination could not be put in place, or the source not read
			* (told to the other side) */
};

struct app {
	/* Configuration. */
	char file[4096];
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char rep_pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	bool force;
	bool quiet; /* --quiet: no progress bar, only the summary */
	int timeout_s;

	/* DOCA objects. */
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_ctx *comch_ctx;
	struct doca_comch_connection *conn;
	uint32_t max_msg;
	struct doca_mmap *local_mmap;  /* host: the exported file; DPU: the local file */
	struct doca_mmap *remote_mmap; /* DPU: the host's export */
	struct doca_buf_inventory *inv;
	struct doca_dma *dma;

	/* Inbox: messages copied out of the receive callback, handled by the main loop. */
	uint8_t *inbox[INBOX];
	uint32_t inbox_len[INBOX];
	int inbox_head, inbox_count;

	/* Transfer. */
	struct file_map fm;
	/*
	 * This side's checksum of the file, folded over its first sum_pos bytes while they pass
	 * through the staging ring (in the cache). dma_ok() keeps done_bytes the prefix of the file
	 * that has landed on the DPU side.
	 */
	struct dc_sum sum;
	uint64_t sum_pos;
	uint64_t size, checksum;	  /* checksum: this side's, once sum_pos == size */
	doca_notification_handle_t pe_fd; /* -1: poll with short sleeps instead */
	/* DPU side: chunks of `chunk` bytes; landed[] marks completed ones of the window in flight. */
	uint64_t chunk;
	bool landed[INFLIGHT];
	/*
	 * Staging ring: the bytes of a file offset live at stage[off % stage_len] while they move.
	 * DPU side: INFLIGHT chunks, read into (a source) or landed in (a destination) by the DMA.
	 * A host: the ring it exports, HOST_RING bytes at most. A destination drains it in order
	 * (stage_drain: checksum, pwrite) up to `written`; a source fills it (stage_fill), and a
	 * sending host counts in `written` what it has read into its ring.
	 */
	uint8_t *stage;
	uint64_t stage_len, written;
	/* DPU side: the host's ring and the host's last word on it: how much of the file it has
	 * written out (CREDIT; the DMA stays within ring_len of that) or read in (FILLED; the DMA
	 * reads no further). `reported`: the last PROGRESS. */
	uint64_t ring_len, credit, reported;
	uint64_t credit_sent; /* a host: the last CREDIT or FILLED sent */
	/* PROGRESS, CREDIT and FILLED wait until they move the ring on by this much (the host's
	 * ring / MSG_STEPS), unless the file is done or the side is about to sleep (flush):
	 * each message wakes the other process, and a wake-up costs more than the bytes' copy. */
	uint64_t msg_step;
	bool credit_inflight;
	int read_errno;		  /* a source that could not be read (not shrunk) */
	bool no_nowait;		  /* the source's file system has no preadv2(RWF_NOWAIT) */
	doca_error_t write_error; /* a destination that could not be written: write_why says why */
	char write_why[300];
	bool file_on_host;
	uint64_t next_off, done_bytes;
	int inflight;
	doca_error_t dma_error;
	bool file_shrank; /* a read of the source ended before its size, or the DMA failed on it */
	bool shrink_logged;
	bool peer_gone, connected;
	bool told_error;   /* an ERROR went to the other side: it knows why the copy stops */
	bool stopping;	   /* teardown() stops the contexts */
	bool peer_refused; /* the other side stopped the copy with an ERROR (already logged) */
	struct timespec t_start;
	double last_bar;
	bool progress_inflight; /* a PROGRESS message not yet sent */
	int sends_inflight;	/* send_msg()'s messages not yet sent */
	/* The session's order (seq.c): every message sent and received goes through it. */
	struct dc_seq seq;
	bool seq_broken; /* a message broke it: the copy stops (logged once) */
	char seq_why[200];
};

static volatile sig_atomic_t interrupted; /* the signal that stops the copy (SIGINT, SIGTERM), or 0 */

static void on_signal(int sig)
{
	interrupted = sig;
}

/* What an interrupted side tells the other one, and logs. */
static const char *interrupted_why(void)
{
	if (ROLE_DPU)
		return interrupted == SIGTERM ? "the DPU side was stopped (SIGTERM)"
					      : "the DPU side was interrupted (SIGINT)";
	return interrupted == SIGTERM ? "the host was stopped (SIGTERM)" : "the host was interrupted (SIGINT)";
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *human(uint64_t bytes, char *buf, size_t len)
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

/* ---------------------------------------------------------------------------------------- */
/* Arguments                                                                                */

static doca_error_t copy_arg(char *dst, size_t cap, const char *src, const char *what)
{
	if (strlen(src) >= cap) {
		LOG_ERR("%s is too long (%zu bytes, at most %zu)", what, strlen(src), cap - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(dst, src);
	return DOCA_SUCCESS;
}

static doca_error_t file_cb(void *param, void *config)
{
	if (*(const char *)param == '\0') {
		LOG_ERR("-f/--file is empty: give the path of the file to copy or to create");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return copy_arg(((struct app *)config)->file, sizeof(((struct app *)config)->file), param, "file path");
}

/* Whether @s reads as a PCI address as doca_devinfo_is_equal_pci_addr() takes it: fixed widths,
 * BB:DD.F or DDDD:BB:DD.F in hex, device at most 1f, function at most 7. */
static bool pci_addr_ok(const char *s)
{
	size_t len = strlen(s);
	const char *shape = len == 12 ? "xxxx:xx:xx.x" : "xx:xx.x";

	if (strlen(shape) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	s += len - 7; /* BB:DD.F */
	return strtoul((char[]){s[3], s[4], '\0'}, NULL, 16) <= 0x1f && s[6] <= '7';
}

static doca_error_t pci_flag(char *dst, size_t cap, const char *arg, const char *flag)
{
	if (!pci_addr_ok(arg)) {
		LOG_ERR("%s '%s' is not a PCI address; use BB:DD.F or DDDD:BB:DD.F (hex), e.g. 03:00.0", flag, arg);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return copy_arg(dst, cap, arg, flag);
}

static doca_error_t pci_cb(void *param, void *config)
{
	return pci_flag(((struct app *)config)->pci, sizeof(((struct app *)config)->pci), param, "-p/--pci-addr");
}

static doca_error_t rep_cb(void *param, void *config)
{
	return pci_flag(((struct app *)config)->rep_pci, sizeof(((struct app *)config)->rep_pci), param,
			"-r/--rep-pci");
}

static doca_error_t force_cb(void *param, void *config)
{
	((struct app *)config)->force = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t quiet_cb(void *param, void *config)
{
	((struct app *)config)->quiet = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t timeout_cb(void *param, void *config)
{
	int t = *(int *)param;

	if (t < 1 || t > 86400) {
		LOG_ERR("timeout %d s is outside 1..86400", t);
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct app *)config)->timeout_s = t;
	return DOCA_SUCCESS;
}

static doca_error_t add_param(const char *s, const char *l, const char *desc, enum doca_argp_type type,
			      doca_argp_param_cb_t cb, bool mandatory)
{
	struct doca_argp_param *p;
	doca_error_t ret = doca_argp_param_create(&p);

	if (ret != DOCA_SUCCESS)
		return ret;
	if (s != NULL)
		doca_argp_param_set_short_name(p, s);
	doca_argp_param_set_long_name(p, l);
	doca_argp_param_set_description(p, desc);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	if (mandatory)
		doca_argp_param_set_mandatory(p);
	return doca_argp_register_param(p);
}

static doca_error_t register_params(void)
{
	doca_error_t ret;

	ret = add_param("f", "file", "file to copy (on the side that has it) or to create (on the other side)",
			DOCA_ARGP_TYPE_STRING, file_cb, true);
	if (ret == DOCA_SUCCESS)
		ret = add_param("p", "pci-addr",
				"DOCA Comch/DMA device PCI address (default " DPU_DEFAULT_PCI
				" on the DPU side, " HOST_DEFAULT_PCI " on the host)",
				DOCA_ARGP_TYPE_STRING, pci_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param("r", "rep-pci",
				"representor PCI address of the host function (DPU side only, default " DEFAULT_REP_PCI
				")",
				DOCA_ARGP_TYPE_STRING, rep_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param(NULL, "force", "replace the destination file if it exists", DOCA_ARGP_TYPE_BOOLEAN,
				force_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param("t", "timeout", "seconds to wait for the other side (default 60)", DOCA_ARGP_TYPE_INT,
				timeout_cb, false);
	if (ret == DOCA_SUCCESS)
		ret = add_param("q", "quiet", "no progress bar on a terminal, only the summary", DOCA_ARGP_TYPE_BOOLEAN,
				quiet_cb, false);
	return ret;
}

/* ---------------------------------------------------------------------------------------- */
/* Files                                                                                    */

static doca_error_t open_source(struct file_map *fm, const char *path)
{
	struct stat st;

	memset(fm, 0, sizeof(*fm));
	snprintf(fm->path, sizeof(fm->path), "%s", path);
	/* Non-blocking: a FIFO or device named by mistake is refused below instead of hanging here. */
	fm->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fm->fd < 0 || fstat(fm->fd, &st) != 0) {
		snprintf(fm->why, sizeof(fm->why), "%s", strerror(errno));
		LOG_ERR("cannot read %s: %s", path, fm->why);
		return DOCA_ERROR_IO_FAILED;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(fm->why, sizeof(fm->why), "not a regular file");
		LOG_ERR("%s is not a regular file", path);
		return DOCA_ERROR_INVALID_VALUE;
	}
	fm->size = (uint64_t)st.st_size;
	/* The kernel's own read-ahead, in large page-cache folios, streams a cold file in: asking
	 * for it ahead with POSIX_FADV_WILLNEED built 4 KiB pages and cost more (docs/performance.md). */
	(void)posix_fadvise(fm->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return DOCA_SUCCESS;
}

/* Checks a destination can be created; fills @why on refusal. */
static doca_error_t check_dest(const char *path, uint64_t size, bool force, char *why, size_t why_len)
{
	struct statvfs vfs;
	char dir[4096], *slash;

	struct stat st;

	if (lstat(path, &st) == 0) {
		/* --force replaces a regular file, never a directory, device, FIFO, socket or link. */
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, why_len, "%.160s exists and is %s; it is never replaced, not even with --force",
				 path,
				 S_ISLNK(st.st_mode)   ? "a symbolic link (name the file it points to)"
				 : S_ISDIR(st.st_mode) ? "a directory (name a file in it)"
						       : "not a regular file");
			return DOCA_ERROR_ALREADY_EXIST;
		}
		if (!force) {
			snprintf(why, why_len, "%.200s already exists; pass --force to replace it", path);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (statvfs(dir, &vfs) != 0) {
		snprintf(why, why_len, "cannot use directory %.200s: %.60s", dir, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < size) {
		snprintf(why, why_len, "not enough space in %.200s: %" PRIu64 " bytes needed, %" PRIu64 " free", dir,
			 size, (uint64_t)vfs.f_bavail * vfs.f_frsize);
		return DOCA_ERROR_FULL;
	}
	return DOCA_SUCCESS;
}

/*
 * Removes "<path>.partial.<pid>" files left by copies whose process is gone (killed with -9:
 * nothing else ever cleans them up). A file whose pid is alive, or not a regular file, stays.
 */
static void remove_stale_partials(const char *path)
{
	char dir[4096], prefix[4200];
	const char *base = strrchr(path, '/');
	size_t plen;
	DIR *d;
	struct dirent *de;

	if (base == NULL) {
		snprintf(dir, sizeof(dir), ".");
		base = path;
	} else {
		snprintf(dir, sizeof(dir), "%.*s", base == path ? 1 : (int)(base - path), path);
		base++;
	}
	plen = (size_t)snprintf(prefix, sizeof(prefix), "%s.partial.", base);
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		const char *p = de->d_name + plen;
		struct stat st;
		long pid = 0;

		if (strncmp(de->d_name, prefix, plen) != 0 || *p == '\0')
			continue;
		for (; *p >= '0' && *p <= '9' && pid < 1L << 30; p++)
			pid = pid * 10 + (*p - '0');
		if (*p != '\0' || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* alive (or not ours to judge) */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			LOG_INFO("removed %s/%s, left by a copy whose process (pid %ld) is gone", dir, de->d_name, pid);
	}
	closedir(d);
}

/*
 * A destination is its temporary file, not mapped: the bytes land in a staging ring of this
 * side's memory that stays in the cache, and are folded into the checksum and written with
 * pwrite() from there, in order (stage_drain). Whole pages written that way need no zeroing
 * and no page fault, unlike stores into a mapping of reserved blocks, which ext4 zero-fills on
 * the fault (bench/file_write_bench, docs/performance.md). Its blocks are reserved first with
 * fallocate() where the file system can (a few ms for 2 GiB on ext4): each pwrite() then finds
 * its blocks and skips the per-block reservation of delayed allocation, about a sixth of its
 * time. A file system that cannot, and tmpfs (where a reservation allocates the memory, 0.14 s
 * for 2 GiB before the first byte could move), get a sparse file of the size instead.
 * check_dest() made sure the space is there; a disk filled meanwhile fails with ENOSPC.
 */
static doca_error_t open_dest(struct file_map *fm, const char *path, uint64_t size, bool force, char *why,
			      size_t why_len)
{
	struct statfs fs;
	int err;

	memset(fm, 0, sizeof(*fm));
	fm->is_dest = true;
	fm->force = force;
	snprintf(fm->path, sizeof(fm->path), "%s", path);
	remove_stale_partials(path);
	snprintf(fm->tmp, sizeof(fm->tmp), "%s.partial.%d", path, (int)getpid());
	fm->fd = open(fm->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fm->fd < 0) {
		snprintf(why, why_len, "cannot create %.200s: %.60s", fm->tmp, strerror(errno));
		fm->tmp[0] = '\0';
		return DOCA_ERROR_IO_FAILED;
	}
	fm->size = size;
	if (size == 0)
		return DOCA_SUCCESS;
	if (fstatfs(fm->fd, &fs) == 0 && fs.f_type == TMPFS_MAGIC)
		err = EOPNOTSUPP; /* reserving there allocates the memory itself, serially before the copy */
	else
		err = fallocate(fm->fd, 0, 0, (off_t)size) == 0 ? 0 : errno;
	if (err == EOPNOTSUPP || err == ENOSYS || err == EINVAL) /* nothing is reserved ahead there */
		err = ftruncate(fm->fd, (off_t)size) == 0 ? 0 : errno;
	if (err == 0)
		return DOCA_SUCCESS;
	snprintf(why, why_len, "cannot reserve %" PRIu64 " bytes for %.180s: %.60s", size, fm->tmp, strerror(err));
	return err == ENOSPC || err == EFBIG || err == EDQUOT ? DOCA_ERROR_FULL : DOCA_ERROR_IO_FAILED;
}

/* A destination that cannot be put in place: says why (logged and kept for the other side). */
static doca_error_t dest_refused(struct file_map *fm, doca_error_t err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static doca_error_t dest_refused(struct file_map *fm, doca_error_t err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fm->why, sizeof(fm->why), fmt, ap);
	va_end(ap);
	LOG_ERR("%s", fm->why);
	return err;
}

/*
 * Moves the verified temporary file to its final name. Without --force nothing that appeared
 * there during the copy is replaced (RENAME_NOREPLACE); with it, only a regular file is.
 */
static doca_error_t place_dest(struct file_map *fm)
{
	struct stat st;

	if (!fm->force) {
		if (renameat2(AT_FDCWD, fm->tmp, AT_FDCWD, fm->path, RENAME_NOREPLACE) == 0)
			goto placed;
		if (errno == EEXIST)
			return dest_refused(fm, DOCA_ERROR_ALREADY_EXIST,
					    "%.200s appeared during the copy; not replaced (pass --force to replace a "
					    "regular file)",
					    fm->path);
		if (errno != EINVAL && errno != ENOSYS)
			return dest_refused(fm, DOCA_ERROR_IO_FAILED, "cannot rename %.100s to %.100s: %s", fm->tmp,
					    fm->path, strerror(errno));
		/* A file system without RENAME_NOREPLACE: a link() fails if the name exists. */
		if (link(fm->tmp, fm->path) != 0)
			return dest_refused(fm, errno == EEXIST ? DOCA_ERROR_ALREADY_EXIST : DOCA_ERROR_IO_FAILED,
					    "cannot move %.100s to %.100s: %s", fm->tmp, fm->path, strerror(errno));
		unlink(fm->tmp);
		goto placed;
	}
	if (lstat(fm->path, &st) == 0 && !S_ISREG(st.st_mode))
		return dest_refused(fm, DOCA_ERROR_ALREADY_EXIST,
				    "%.200s is not a regular file; it is never replaced, not even with --force",
				    fm->path);
	if (rename(fm->tmp, fm->path) != 0)
		return dest_refused(fm, DOCA_ERROR_IO_FAILED, "cannot rename %.100s to %.100s: %s", fm->tmp, fm->path,
				    strerror(errno));
placed:
	fm->tmp[0] = '\0';
	return DOCA_SUCCESS;
}

/*
 * Verified destination: move it into place. Like cp, the data is left to the page cache (no
 * msync, no fsync): the copy is complete and verified, durability is the file system's.
 */
static doca_error_t commit_dest(struct file_map *fm)
{
	return place_dest(fm);
}

/* Closes the file; an unverified destination is removed, never left looking complete. */
static void close_file(struct file_map *fm)
{
	if (fm->fd > 0)
		close(fm->fd);
	fm->fd = -1;
	if (fm->is_dest && fm->tmp[0] != '\0')
		unlink(fm->tmp);
	fm->tmp[0] = '\0';
}

static void flush_before_block(struct app *app);

/*
 * Reads @len bytes of the source at @off into @buf; false when the file ended early (it shrank)
 * or could not be read, both reported by shrink_status(). Bytes not in the page cache yet (the
 * read would wait for the disk: preadv2(RWF_NOWAIT) says so) are read only after what this side
 * holds back has gone to the other side, which then moves the bytes it was not told of yet while
 * this side waits (flush_before_block()).
 */
static bool read_full(struct app *app, uint8_t *buf, uint64_t len, uint64_t off)
{
	bool flushed = false;

	while (len > 0) {
		ssize_t n;

		if (!flushed && !app->no_nowait) {
			struct iovec iov = {.iov_base = buf, .iov_len = len};

			n = preadv2(app->fm.fd, &iov, 1, (off_t)off, RWF_NOWAIT);
			if (n < 0 && (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS))
				app->no_nowait = true; /* this file system (or kernel) cannot say */
			if (n < 0 && errno != EINTR) {
				flush_before_block(app);
				flushed = true;
				continue;
			}
		} else {
			n = pread(app->fm.fd, buf, len, (off_t)off);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				app->read_errno = errno;
			app->file_shrank = true;
			return false;
		}
		buf += n, len -= (uint64_t)n, off += (uint64_t)n;
	}
	return true;
}

/*
 * Whether this side's file shrank during the copy (a read into the staging ring met its end, or
 * its size says so): logs one line and fills @why for the other side the first time.
 */
static doca_error_t shrink_status(struct app *app, char *why, size_t len)
{
	struct stat st;
	long long now = fstat(app->fm.fd, &st) == 0 ? (long long)st.st_size : -1;

	if (!app->file_shrank && (now < 0 || (uint64_t)now >= app->size))
		return DOCA_SUCCESS;
	if (app->read_errno != 0) {
		if (!app->shrink_logged)
			LOG_ERR("cannot read %s at byte %" PRIu64 ": %s", app->fm.path, app->sum_pos,
				strerror(app->read_errno));
		app->shrink_logged = true;
		snprintf(why, len, "cannot read %.200s on the %s side: %.60s", app->fm.path, ROLE_DPU ? "DPU" : "host",
			 strerror(app->read_errno));
		return DOCA_ERROR_IO_FAILED;
	}
	if (!app->shrink_logged)
		LOG_ERR("%s shrank during the copy (%lld bytes now, %" PRIu64
			" at the start): another program truncated it; copy it again once nothing writes it",
			app->fm.path, now, app->size);
	app->file_shrank = app->shrink_logged = true;
	snprintf(why, len, "%.200s on the %s side shrank during the copy (another program truncated it)", app->fm.path,
		 ROLE_DPU ? "DPU" : "host");
	return DOCA_ERROR_IO_FAILED;
}

/*
 * Sleeps until the progress engine has something (a completion, a Comch message) or @ms pass.
 * Sleeping instead of spinning leaves the cores to the copy: the engine's worker thread, the
 * other side, the file system.
 */

static void pe_wait(struct app *app, int ms)
{
	struct pollfd p = {.fd = app->pe_fd, .events = POLLIN};

	if (app->pe_fd < 0 || doca_pe_request_notification(app->pe) != DOCA_SUCCESS) {
		usleep(200);
		return;
	}
	(void)poll(&p, 1, ms);
	(void)doca_pe_clear_notification(app->pe, app->pe_fd);
}

/* ---------------------------------------------------------------------------------------- */
/* Comch                                                                                    */

/* Task user data of a send: what kind of message it carries. */
#define MSG_TASK      0 /* send_msg()'s: counted in sends_inflight */
#define PROGRESS_TASK 1 /* at most one in flight, the others are skipped */
#define CREDIT_TASK   2 /* a host's CREDIT or FILLED: at most one in flight too */
#define BUSY_TASK     3 /* an ERROR to a second host while a copy runs */

static void send_credit(struct app *app, bool flush);
static bool host_fill_step(struct app *app);

/* Whether a message that moves the ring from @sent to @pos is worth waking the other side for
 * now: a step of msg_step at least, the end of the file, or @flush (this side is about to sleep). */
static bool msg_due(const struct app *app, uint64_t pos, uint64_t sent, bool flush)
{
	return flush || pos - sent >= app->msg_step || pos >= app->size;
}

/* A send of kind @kind (its task user data) is over, sent or failed: it is no longer in flight. */
static void send_settled(struct app *app, uint64_t kind)
{
	if (kind == MSG_TASK)
		app->sends_inflight--;
	else if (kind == PROGRESS_TASK)
		app->progress_inflight = false;
	else if (kind == CREDIT_TASK)
		app->credit_inflight = false;
}

static void send_done(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;

	send_settled(app, tud.u64);
	doca_task_free(doca_comch_task_send_as_task(task));
	if (tud.u64 == CREDIT_TASK && !app->stopping)
		send_credit(app, false); /* what was written while this one was out */
}

static void send_failed(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;

	send_settled(app, tud.u64);
	LOG_ERR("a message to the other side failed: %s",
		doca_error_get_descr(doca_task_get_status(doca_comch_task_send_as_task(task))));
	doca_task_free(doca_comch_task_send_as_task(task));
	app->peer_gone = true;
}

static bool msg_is(const void *msg, uint32_t len, uint16_t type);

/*
 * A message this side sends (@from_peer false) or receives, through the session's order; false
 * once the order is broken: the copy stops, and the first break is logged (one line). A
 * malformed message is left to the checks of its reader (peer_error() names it).
 */
static bool seq_note(struct app *app, bool from_peer, const void *msg, uint32_t len)
{
	char why[200];

	if (app->seq_broken)
		return false;
	if (dc_seq_step(&app->seq, from_peer, msg, len, why, sizeof(why)) != 0)
		return true;
	{
		char scratch[8]; /* the step refused it: malformed (its reader names it) or out of order */

		if (dc_msg_check(msg, len, scratch, sizeof(scratch)) == 0)
			return true;
	}
	app->seq_broken = true;
	snprintf(app->seq_why, sizeof(app->seq_why), "%s", why);
	LOG_ERR("%s the protocol: %s; the copy stops", from_peer ? "the other side broke" : "this side broke (a bug)",
		why);
	return false;
}

static struct app *g_app; /* the server connect callback has no user data to carry it */
/* User data of a host connection turned away while a copy runs: its messages get ERROR back. */
static int busy_marker;

static void refuse_busy(struct app *app, struct doca_comch_connection *conn)
{
	struct doca_comch_task_send *task;
	struct msg_status m;

	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, MSG_ERROR, DMA_COPY_VERSION};
	m.status = DOCA_ERROR_IN_USE;
	snprintf(m.text, sizeof(m.text),
		 "the DPU side is busy with another host's copy; run this copy again when that one is done");
	if (doca_comch_server_task_send_alloc_init(app->server, conn, &m, sizeof(m), &task) != DOCA_SUCCESS)
		return;
	doca_task_set_user_data(doca_comch_task_send_as_task(task), (union doca_data){.u64 = BUSY_TASK});
	if (doca_task_submit(doca_comch_task_send_as_task(task)) != DOCA_SUCCESS)
		doca_task_free(doca_comch_task_send_as_task(task));
}

static void msg_recv(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
		     struct doca_comch_connection *conn)
{
	struct app *app = doca_comch_connection_get_user_data(conn).ptr;
	int slot;

	(void)event;
	if ((void *)app == (void *)&busy_marker) {
		refuse_busy(g_app, conn);
		return;
	}
	if (app == NULL)
		return;
	if (!seq_note(app, true, buf, len))
		return; /* the main loop sees seq_broken */
	if (ROLE_DPU && (msg_is(buf, len, MSG_CREDIT) || msg_is(buf, len, MSG_FILLED))) {
		/* The host wrote this much of the file out of its ring (the DMA may refill the room),
		 * or read this much of it into its ring (the DMA may take it). */
		uint64_t bytes;

		memcpy(&bytes, buf + offsetof(struct msg_status, bytes), sizeof(bytes));
		if (bytes > app->credit && bytes <= app->size)
			app->credit = bytes;
		return;
	}
	if (app->inbox_count > 0 && msg_is(buf, len, MSG_PROGRESS)) {
		/* Only the latest report counts: reports that piled up while this side was busy (a
		 * write throttled by the page cache can stall it for 200 ms) replace each other. */
		slot = (app->inbox_head + app->inbox_count - 1) % INBOX;
		if (msg_is(app->inbox[slot], app->inbox_len[slot], MSG_PROGRESS)) {
			memcpy(app->inbox[slot], buf, len);
			app->inbox_len[slot] = len;
			return;
		}
	}
	if (app->inbox_count == INBOX || len > app->max_msg) {
		LOG_ERR("unexpected message burst from the other side (%u bytes); stopping", len);
		app->peer_gone = true;
		return;
	}
	slot = (app->inbox_head + app->inbox_count) % INBOX;
	memcpy(app->inbox[slot], buf, len);
	app->inbox_len[slot] = len;
	app->inbox_count++;
}

static void server_connected(struct doca_comch_event_connection_status_changed *event,
			     struct doca_comch_connection *conn, uint8_t ok)
{
	struct app *app = g_app;
	union doca_data ud = {.ptr = app};

	(void)event;
	if (!ok)
		return;
	if (app->conn != NULL) {
		/* One copy at a time: a second host is told so when it speaks (then it leaves). */
		union doca_data busy = {.ptr = &busy_marker};

		doca_comch_connection_set_user_data(conn, busy);
		LOG_WARN("a second host connected while a copy runs; it is told that this side is busy");
		return;
	}
	doca_comch_connection_set_user_data(conn, ud);
	app->conn = conn;
	app->connected = true;
}

static void server_disconnected(struct doca_comch_event_connection_status_changed *event,
				struct doca_comch_connection *conn, uint8_t ok)
{
	struct app *app = g_app;

	(void)event;
	(void)ok;
	if (conn == app->conn) {
		app->conn = NULL;
		app->peer_gone = true;
	}
}

static void comch_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	struct app *app = ud.ptr;

	(void)ctx;
	if (prev == DOCA_CTX_STATE_RUNNING && next != DOCA_CTX_STATE_RUNNING)
		app->peer_gone = true;
	if (prev == DOCA_CTX_STATE_STARTING && next == DOCA_CTX_STATE_IDLE)
		app->peer_gone = true;
}

static doca_error_t send_msg(struct app *app, const void *msg, uint32_t len)
{
	struct doca_comch_task_send *task;
	doca_error_t ret;
	double deadline = now_s() + app->timeout_s;

	(void)seq_note(app, false, msg, len); /* before the other side can answer it */
	for (;;) {
		if (app->conn == NULL)
			return DOCA_ERROR_NOT_CONNECTED;
		ret = ROLE_DPU ? doca_comch_server_task_send_alloc_init(app->server, app->conn, msg, len, &task)
			       : doca_comch_client_task_send_alloc_init(app->client, app->conn, msg, len, &task);
		if (ret == DOCA_SUCCESS) {
			doca_task_set_user_data(doca_comch_task_send_as_task(task), (union doca_data){.u64 = MSG_TASK});
			ret = doca_task_submit(doca_comch_task_send_as_task(task));
			if (ret == DOCA_SUCCESS) {
				app->sends_inflight++;
				return DOCA_SUCCESS;
			}
			doca_task_free(doca_comch_task_send_as_task(task));
		}
		if ((ret != DOCA_ERROR_AGAIN && ret != DOCA_ERROR_NO_MEMORY) || now_s() > deadline)
			return ret;
		doca_pe_progress(app->pe);
	}
}

static void send_status(struct app *app, uint16_t type, doca_error_t status, const char *text)
{
	struct msg_status m;

	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, type, DMA_COPY_VERSION};
	m.status = status;
	m.bytes = app->done_bytes;
	m.checksum = app->checksum;
	if (text != NULL)
		snprintf(m.text, sizeof(m.text), "%s", text);
	if (type == MSG_ERROR)
		app->told_error = true;
	(void)send_msg(app, &m, sizeof(m));
}

/* Progresses until every message this side sent has left (at most 1 s, or until the peer is gone). */
static void sends_flush(struct app *app)
{
	double deadline = now_s() + 1;

	while ((app->sends_inflight > 0 || app->progress_inflight || app->credit_inflight) && !app->peer_gone &&
	       now_s() < deadline)
		if (doca_pe_progress(app->pe) == 0)
			pe_wait(app, 1);
}

/* send_status(), then progress until every message has left (at most a second), so that none is
 * lost when the connection closes: what the socket took, the other side reads even after that. */
static void send_status_flush(struct app *app, uint16_t type, doca_error_t status, const char *text)
{
	send_status(app, type, status, text);
	sends_flush(app);
}

static doca_error_t open_device(struct app *app)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t ret;

	ret = doca_devinfo_create_list(&list, &n);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], app->pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_open(list[i], &app->dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	if (ret == DOCA_ERROR_NOT_FOUND)
		LOG_ERR("no device with PCI address %s (see doca_caps --list-devs)", app->pci);
	if (ret != DOCA_SUCCESS || !ROLE_DPU)
		return ret;

	struct doca_devinfo_rep **reps;

	ret = doca_devinfo_rep_create_list(app->dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_rep_is_equal_pci_addr(reps[i], app->rep_pci, &eq) == DOCA_SUCCESS && eq) {
			ret = doca_dev_rep_open(reps[i], &app->rep);
			break;
		}
	}
	doca_devinfo_rep_destroy_list(reps);
	if (ret == DOCA_ERROR_NOT_FOUND)
		LOG_ERR("device %s has no representor %s (see doca_caps --list-rep-devs)", app->pci, app->rep_pci);
	return ret;
}

static doca_error_t comch_setup(struct app *app)
{
	union doca_data ud = {.ptr = app};
	doca_error_t ret;

	ret = doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(app->dev), &app->max_msg);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (app->max_msg < sizeof(struct msg_status) + 64) {
		LOG_ERR("device %s allows Comch messages of %u bytes, too small for DMA Copy", app->pci, app->max_msg);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	for (int i = 0; i < INBOX; i++) {
		app->inbox[i] = malloc(app->max_msg);
		if (app->inbox[i] == NULL)
			return DOCA_ERROR_NO_MEMORY;
	}
	ret = doca_pe_create(&app->pe);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (doca_pe_get_notification_handle(app->pe, &app->pe_fd) != DOCA_SUCCESS)
		app->pe_fd = -1;
	if (ROLE_DPU) {
		ret = doca_comch_server_create(app->dev, app->rep, DMA_COPY_SERVER_NAME, &app->server);
		if (ret != DOCA_SUCCESS)
			return ret;
		app->comch_ctx = doca_comch_server_as_ctx(app->server);
		ret = doca_comch_server_set_max_msg_size(app->server, app->max_msg);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_task_send_set_conf(app->server, send_done, send_failed, 32);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_msg_recv_register(app->server, msg_recv);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_server_event_connection_status_changed_register(app->server, server_connected,
											 server_disconnected);
	} else {
		ret = doca_comch_client_create(app->dev, DMA_COPY_SERVER_NAME, &app->client);
		if (ret != DOCA_SUCCESS)
			return ret;
		app->comch_ctx = doca_comch_client_as_ctx(app->client);
		ret = doca_comch_client_set_max_msg_size(app->client, app->max_msg);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_client_task_send_set_conf(app->client, send_done, send_failed, 32);
		if (ret == DOCA_SUCCESS)
			ret = doca_comch_client_event_msg_recv_register(app->client, msg_recv);
	}
	if (ret == DOCA_SUCCESS)
		ret = doca_pe_connect_ctx(app->pe, app->comch_ctx);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(app->comch_ctx, ud);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_state_changed_cb(app->comch_ctx, comch_state);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_ctx_start(app->comch_ctx);
	if (ROLE_DPU)
		return ret;
	if (ret != DOCA_ERROR_IN_PROGRESS && ret != DOCA_SUCCESS)
		return ret;
	return DOCA_SUCCESS;
}

/* Progresses until the other side is there (or the timeout). */
static doca_error_t wait_connected(struct app *app)
{
	double deadline = now_s() + app->timeout_s;

	/* Where stderr is a terminal and not --quiet: elsewhere only the summary is printed. */
	if (ROLE_DPU && !app->quiet && isatty(STDERR_FILENO))
		LOG_INFO("waiting for the host (doca_dma_copy on the host side, server name '%s')",
			 DMA_COPY_SERVER_NAME);
	while (!app->connected) {
		if (interrupted)
			return DOCA_ERROR_SHUTDOWN; /* main() says so */
		if (app->peer_gone) {
			LOG_ERR("the DPU side is not there: start doca_dma_copy on the DPU side first");
			return DOCA_ERROR_NOT_CONNECTED;
		}
		if (now_s() > deadline) {
			LOG_ERR("no %s within %d s; start doca_dma_copy on the %s side (or raise --timeout)",
				ROLE_DPU ? "host connected" : "DPU side answered", app->timeout_s,
				ROLE_DPU ? "host" : "DPU");
			return DOCA_ERROR_TIME_OUT;
		}
		if (doca_pe_progress(app->pe) == 0)
			pe_wait(app, 10); /* woken by the connection (or the client's retry timer) */
		if (!ROLE_DPU) {
			enum doca_ctx_states st;

			doca_ctx_get_state(app->comch_ctx, &st);
			if (st == DOCA_CTX_STATE_RUNNING &&
			    doca_comch_client_get_connection(app->client, &app->conn) == DOCA_SUCCESS) {
				union doca_data ud = {.ptr = app};

				doca_comch_connection_set_user_data(app->conn, ud);
				app->connected = true;
			}
		}
	}
	return DOCA_SUCCESS;
}

/* Waits for the next message of the other side; copies at most @cap bytes of it. */
static doca_error_t wait_msg(struct app *app, void *out, uint32_t cap, uint32_t *len, bool unbounded)
{
	double deadline = now_s() + app->timeout_s;

	while (app->inbox_count == 0 || app->seq_broken) {
		if (app->seq_broken)
			return DOCA_ERROR_UNEXPECTED; /* logged by seq_note() */
		if (interrupted)
			return DOCA_ERROR_SHUTDOWN;
		if (app->peer_gone)
			return DOCA_ERROR_CONNECTION_RESET;
		if (!unbounded && now_s() > deadline)
			return DOCA_ERROR_TIME_OUT;
		send_credit(app, false);
		if (app->file_shrank)
			return DOCA_ERROR_IO_FAILED; /* a sending host's file ended early: shrink_status() */
		/* One look at the engine and one piece of the file per turn: a message in or out does
		 * not cost a turn of its own (each look is a system call). */
		int got = doca_pe_progress(app->pe);

		if (!host_fill_step(app) && got == 0) {
			send_credit(app, true); /* whatever is held back goes before this side sleeps */
			pe_wait(app, 100);
		}
	}
	uint32_t n = app->inbox_len[app->inbox_head];

	memcpy(out, app->inbox[app->inbox_head], n < cap ? n : cap);
	*len = n < cap ? n : cap; /* what was copied: the checks never look past it */
	app->inbox_head = (app->inbox_head + 1) % INBOX;
	app->inbox_count--;
	return DOCA_SUCCESS;
}

/* True when @msg is a well-formed message of @type (dc_msg_check: every field read is sound). */
static bool msg_is(const void *msg, uint32_t len, uint16_t type)
{
	char why[160];

	return dc_msg_check(msg, len, why, sizeof(why)) == type;
}

/* Reports an ERROR, unexpected or malformed message; returns the status to exit with. */
static doca_error_t peer_error(const void *msg, uint32_t len)
{
	char why[160];
	int type = dc_msg_check(msg, len, why, sizeof(why));

	if (type == MSG_ERROR) {
		struct msg_status s; /* a copy: messages arrive at any alignment */

		memcpy(&s, msg, sizeof(s));
		LOG_ERR("the other side stopped the copy: %s", s.text);
		return s.status != 0 ? (doca_error_t)s.status : DOCA_ERROR_UNKNOWN;
	}
	if (type == 0)
		LOG_ERR("malformed message from the other side: %s", why);
	else
		LOG_ERR("unexpected message of type %d from the other side", type);
	return DOCA_ERROR_UNEXPECTED;
}

/* ---------------------------------------------------------------------------------------- */
/* DMA (DPU side)                                                                           */

/*
 * The progress line on a terminal (stderr), both sides: bytes, percent, rate, ETA, redrawn in
 * place at most every 100 ms and cleared before each redraw; the final frame ends the line.
 * Nothing when stderr is not a terminal or with --quiet: then only the summary is printed.
 */
static void progress_bar(struct app *app, bool final)
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

/* DPU side: tells the host how much of the file has landed (PROGRESS); its bar moves with it.
 * @flush: this side is about to sleep, so even a small step goes now. */
static void report_progress(struct app *app, bool flush)
{
	struct doca_comch_task_send *task;
	struct msg_status m;
	union doca_data ud = {.u64 = PROGRESS_TASK};

	/* Never more than one in flight: a slow link skips reports instead of filling the send queue.
	 * The host hears of landed chunks a quarter of its ring at a time, and of all of them before
	 * this side sleeps: a receiving host writes out its ring behind these, a sending one refills
	 * its ring where they say the DMA has taken the bytes out. */
	if (app->progress_inflight || app->conn == NULL || app->done_bytes == app->reported)
		return;
	if (!msg_due(app, app->done_bytes, app->reported, flush))
		return;
	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, MSG_PROGRESS, DMA_COPY_VERSION};
	m.bytes = app->done_bytes;
	if (doca_comch_server_task_send_alloc_init(app->server, app->conn, &m, sizeof(m), &task) != DOCA_SUCCESS)
		return; /* the send queue is full: the next call tries again */
	doca_task_set_user_data(doca_comch_task_send_as_task(task), ud);
	if (doca_task_submit(doca_comch_task_send_as_task(task)) != DOCA_SUCCESS) {
		doca_task_free(doca_comch_task_send_as_task(task));
		return;
	}
	app->progress_inflight = true;
	app->reported = m.bytes;
	(void)seq_note(app, false, &m, sizeof(m));
}

/*
 * A host's word on its ring: a receiving host tells the DPU side how much of the file it has
 * written out of it (CREDIT: the DPU may fill that room again), a sending host how much it has
 * read into it (FILLED: the DPU may take that much out). One in flight; its completion sends the
 * next, and so does every turn of wait_msg(), should the send queue have been full.
 */
static void send_credit(struct app *app, bool flush)
{
	struct doca_comch_task_send *task;
	struct msg_status m;

	if (ROLE_DPU || app->credit_inflight || app->conn == NULL || app->written == app->credit_sent)
		return;
	if (!msg_due(app, app->written, app->credit_sent, flush))
		return;
	memset(&m, 0, sizeof(m));
	m.hdr = (struct msg_hdr){DMA_COPY_MAGIC, app->fm.is_dest ? MSG_CREDIT : MSG_FILLED, DMA_COPY_VERSION};
	m.bytes = app->written;
	if (doca_comch_client_task_send_alloc_init(app->client, app->conn, &m, sizeof(m), &task) != DOCA_SUCCESS)
		return;
	doca_task_set_user_data(doca_comch_task_send_as_task(task), (union doca_data){.u64 = CREDIT_TASK});
	if (doca_task_submit(doca_comch_task_send_as_task(task)) != DOCA_SUCCESS) {
		doca_task_free(doca_comch_task_send_as_task(task));
		return;
	}
	app->credit_inflight = true;
	app->credit_sent = m.bytes;
	(void)seq_note(app, false, &m, sizeof(m));
}

/* A source about to wait for its disk: the word it holds back goes now (FILLED from a host,
 * PROGRESS from the DPU side), so that the other side is not kept waiting for bytes already in. */
static void flush_before_block(struct app *app)
{
	if (ROLE_DPU)
		report_progress(app, true);
	else
		send_credit(app, true);
}

/* Writes @len bytes at @off, however many calls it takes; false with errno set on failure. */
static bool write_full(int fd, const uint8_t *p, uint64_t len, uint64_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return false;
		}
		p += n, len -= (uint64_t)n, off += (uint64_t)n;
	}
	return true;
}

#define HUGE_PAGE (2ull << 20)

/*
 * The staging ring, @len bytes of page-aligned memory made present now (torn down in
 * teardown()). A ring of whole 2 MiB pages is aligned to them and asked for transparent huge
 * pages: every copy through it (the file's, the DMA's) then misses the TLB once per 2 MiB
 * instead of once per 4 KiB.
 */
static doca_error_t stage_alloc(struct app *app, uint64_t len)
{
	uint64_t extra = len % HUGE_PAGE == 0 ? HUGE_PAGE : 0;
	uint8_t *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | (extra == 0 ? MAP_POPULATE : 0), -1, 0);

	if (p == MAP_FAILED) {
		LOG_ERR("cannot allocate the %" PRIu64 " bytes of the staging ring: %s", len, strerror(errno));
		return DOCA_ERROR_NO_MEMORY;
	}
	if (extra != 0) {
		uint64_t lead = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;

		if (lead != 0)
			munmap(p, lead);
		if (extra - lead != 0)
			munmap(p + lead + len, extra - lead);
		p += lead;
		(void)madvise(p, len, MADV_HUGEPAGE); /* a hint: 4 KiB pages work too */
		memset(p, 0, len);		      /* present now, not at the first copy */
	}
	app->stage = p;
	app->stage_len = len;
	return DOCA_SUCCESS;
}

/*
 * A destination: the bytes of the staging ring up to @upto that are not written yet, in order,
 * into the file and then into the checksum. Their room in the ring is free after. False once a
 * write failed (logged; @app->write_error says how). The bytes were put in the ring by the
 * engine, on another core: the kernel's copy in pwrite() fetches them from there faster than
 * the fold's loads do, and leaves them in this core's cache for the fold (2 GiB host -> DPU,
 * sixteen copies of each order alternated: 422 ms median against 469 ms with the fold first).
 */
static bool stage_drain(struct app *app, uint64_t upto)
{
	while (app->written < upto && app->write_error == DOCA_SUCCESS) {
		uint64_t at = app->written % app->stage_len;
		uint64_t len = upto - app->written;
		const uint8_t *p = app->stage + at;

		if (len > app->stage_len - at)
			len = app->stage_len - at;
		if (len > STAGE_CHUNK)
			len = STAGE_CHUNK;
		if (!write_full(app->fm.fd, p, len, app->written)) {
			int err = errno;

			LOG_ERR("cannot write %s at byte %" PRIu64 ": %s", app->fm.tmp, app->written, strerror(err));
			app->write_error =
			    err == ENOSPC || err == EDQUOT || err == EFBIG ? DOCA_ERROR_FULL : DOCA_ERROR_IO_FAILED;
			snprintf(app->write_why, sizeof(app->write_why), "cannot write %.200s on the %s side: %.60s",
				 app->fm.path, ROLE_DPU ? "DPU" : "host", strerror(err));
			break;
		}
		dc_sum_update(&app->sum, p, len);
		app->sum_pos += len;
		app->written += len;
		if (!ROLE_DPU) {
			/* A receiving host hands the room back piece by piece, so that the DPU refills
			 * the ring while this side writes the rest (never called from a callback here). */
			send_credit(app, false);
			doca_pe_progress(app->pe);
		}
	}
	return app->write_error == DOCA_SUCCESS;
}

/*
 * A source: reads the piece at @off into its place in the staging ring and folds it into the
 * checksum there (in the cache), once: a chunk the engine refused is not read again.
 */
static bool stage_fill(struct app *app, uint64_t off, uint64_t len)
{
	if (app->sum_pos >= off + len)
		return true;
	if (!read_full(app, app->stage + off % app->stage_len, len, off))
		return false;
	dc_sum_update(&app->sum, app->stage + off % app->stage_len, len);
	app->sum_pos = off + len;
	return true;
}

/*
 * A sending host, between two looks at the progress engine: reads the next piece of its file
 * into its ring, where the DPU side's DMA has taken the bytes out already (PROGRESS), and says
 * how far the ring is filled (FILLED). False when there is nothing to do: the file is all in,
 * the ring is full, or the file ended early (file_shrank: wait_msg() stops).
 */
static bool host_fill_step(struct app *app)
{
	uint64_t off = app->written, len = app->size - off, room = app->done_bytes + app->stage_len - off;

	if (ROLE_DPU || app->fm.is_dest || app->stage == NULL || off >= app->size || app->file_shrank ||
	    off >= app->done_bytes + app->stage_len)
		return false;
	if (len > STAGE_CHUNK)
		len = STAGE_CHUNK;
	if (len > app->stage_len - off % app->stage_len)
		len = app->stage_len - off % app->stage_len; /* never across the ring's end */
	if (len > room)
		len = room;
	if (!stage_fill(app, off, len))
		return false;
	app->written = off + len;
	send_credit(app, false);
	return true;
}

/*
 * A chunk landed. done_bytes is the prefix of the file that is complete: chunks may complete
 * in any order within the window in flight (tud: the chunk's offset). A destination writes it
 * out in dma_run(), after the progress call that delivered this, not here.
 */
static void dma_ok(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;

	app->landed[(tud.u64 / app->chunk) % INFLIGHT] = true;
	while (app->done_bytes < app->size && app->landed[(app->done_bytes / app->chunk) % INFLIGHT]) {
		uint64_t left = app->size - app->done_bytes;

		app->landed[(app->done_bytes / app->chunk) % INFLIGHT] = false;
		app->done_bytes += left < app->chunk ? left : app->chunk;
	}
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(task), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(task), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	app->inflight--;
}

static void dma_err(struct doca_dma_task_memcpy *task, union doca_data tud, union doca_data cud)
{
	struct app *app = cud.ptr;
	doca_error_t st = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)tud;
	if (app->dma_error == DOCA_SUCCESS && !app->stopping) {
		app->dma_error = st;
		LOG_ERR("DMA of the file failed: %s", doca_error_get_descr(st));
	}
	doca_buf_dec_refcount((struct doca_buf *)doca_dma_task_memcpy_get_src(task), NULL);
	doca_buf_dec_refcount(doca_dma_task_memcpy_get_dst(task), NULL);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	app->inflight--;
}

static doca_error_t dma_setup(struct app *app, const struct msg_export *exp)
{
	union doca_data ud = {.ptr = app};
	uint64_t max_size = 0;
	doca_error_t ret;

	ret = doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(app->dev), &max_size);
	if (ret != DOCA_SUCCESS)
		return ret;
	/* A power of two, so that a chunk never wraps a ring (the host's is a power of two too). */
	for (app->chunk = STAGE_CHUNK; app->chunk > max_size && app->chunk > 1;)
		app->chunk /= 2;
	app->ring_len = exp->len;
	app->msg_step = app->ring_len / MSG_STEPS;
	if (app->chunk > app->ring_len)
		app->chunk = app->ring_len;
	/* The staging ring: INFLIGHT chunks that stay in the cache. */
	ret = stage_alloc(app, INFLIGHT * app->chunk);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_mmap_create_from_export(NULL, exp->desc, exp->desc_len, app->dev, &app->remote_mmap);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_mmap_create(&app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(app->local_mmap, app->stage, app->stage_len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(app->local_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(app->local_mmap, app->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_create(2 * INFLIGHT, &app->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_buf_inventory_start(app->inv);
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_create(app->dev, &app->dma);
	if (ret != DOCA_SUCCESS)
		return ret;
	ret = doca_pe_connect_ctx(app->pe, doca_dma_as_ctx(app->dma));
	if (ret == DOCA_SUCCESS)
		ret = doca_dma_task_memcpy_set_conf(app->dma, dma_ok, dma_err, INFLIGHT);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_set_user_data(doca_dma_as_ctx(app->dma), ud);
	if (ret == DOCA_SUCCESS)
		ret = doca_ctx_start(doca_dma_as_ctx(app->dma));
	return ret;
}

/*
 * Submits DMA jobs for every chunk that has room in this side's ring (its bytes are out:
 * written to the file by a destination, landed in the host's ring from a source) and in the
 * host's (FILLED, CREDIT), until INFLIGHT fly or the engine is full.
 */
static doca_error_t dma_submit_room(struct app *app, uint64_t remote_addr)
{
	uint64_t out = app->fm.is_dest ? app->written : app->done_bytes;
	doca_error_t ret;

	while (app->next_off < app->size && app->next_off < out + app->stage_len && app->dma_error == DOCA_SUCCESS) {
		uint64_t len = app->size - app->next_off < app->chunk ? app->size - app->next_off : app->chunk;
		uint8_t *local = app->stage + app->next_off % app->stage_len;
		struct doca_buf *src, *dst;
		struct doca_dma_task_memcpy *task;
		union doca_data tud = {.u64 = app->next_off};

		void *remote = (void *)(uintptr_t)(remote_addr + app->next_off % app->ring_len);

		if (app->file_on_host) {
			if (app->next_off + len > app->credit)
				break; /* not in the host's ring yet: wait for its FILLED */
			ret = doca_buf_inventory_buf_get_by_data(app->inv, app->remote_mmap, remote, len, &src);
			if (ret == DOCA_SUCCESS)
				ret = doca_buf_inventory_buf_get_by_addr(app->inv, app->local_mmap, local, len, &dst);
		} else {
			if (app->next_off + len > app->credit + app->ring_len)
				break; /* the host's ring is full: wait for its CREDIT */
			if (!stage_fill(app, app->next_off, len))
				break;
			ret = doca_buf_inventory_buf_get_by_data(app->inv, app->local_mmap, local, len, &src);
			if (ret == DOCA_SUCCESS)
				ret = doca_buf_inventory_buf_get_by_addr(app->inv, app->remote_mmap, remote, len, &dst);
		}
		if (ret != DOCA_SUCCESS)
			return ret;
		ret = doca_dma_task_memcpy_alloc_init(app->dma, src, dst, tud, &task);
		if (ret == DOCA_SUCCESS) {
			ret = doca_task_submit(doca_dma_task_memcpy_as_task(task));
			if (ret != DOCA_SUCCESS) /* a task that was never allocated is not freed */
				doca_task_free(doca_dma_task_memcpy_as_task(task));
		}
		if (ret != DOCA_SUCCESS) {
			doca_buf_dec_refcount(src, NULL);
			doca_buf_dec_refcount(dst, NULL);
			if (ret == DOCA_ERROR_AGAIN)
				break; /* the engine is full: retry after the next completions */
			return ret;
		}
		app->inflight++;
		app->next_off += len;
	}
	return DOCA_SUCCESS;
}

/*
 * Whether the other side said why it stops. A side that stops sends an ERROR naming the cause
 * and then goes away; its leaving (a send that fails, a DMA into memory it no longer exports)
 * can be seen here before that ERROR is read. Reads what is still coming, until the
 * connection's end is seen or for at most 100 ms; true with the ERROR first in the inbox.
 */
static bool peer_said_why(struct app *app)
{
	double deadline = now_s() + 0.1;

	while (app->inbox_count == 0 && !(ROLE_DPU && app->conn == NULL) && now_s() < deadline)
		if (doca_pe_progress(app->pe) == 0)
			pe_wait(app, 10);
	return app->inbox_count > 0;
}

/* The host stopped the copy and said why (the first message in the inbox): that is the cause. */
static doca_error_t peer_stopped(struct app *app)
{
	app->peer_refused = true;
	return peer_error(app->inbox[app->inbox_head], app->inbox_len[app->inbox_head]);
}

/*
 * Moves the whole file in chunks between the host's ring and this side's, at most INFLIGHT of
 * them at a time past the landed prefix. Host -> DPU: each chunk the host has read into its
 * ring (FILLED) lands in this side's ring and is written out as the prefix completes (dma_ok);
 * PROGRESS tells the host where it may refill. DPU -> host: each chunk is read into this side's
 * ring and folded just before its DMA into the host's ring, which the host writes out, telling
 * how far (CREDIT); the DMA never runs more than that ring ahead. The queue is refilled on every
 * completion, so the engine never drains while data remains.
 */
static doca_error_t dma_run(struct app *app, uint64_t remote_addr)
{
	doca_error_t ret;

	clock_gettime(CLOCK_MONOTONIC, &app->t_start);
	while (
	    (app->next_off < app->size || app->inflight > 0 || (app->fm.is_dest && app->written < app->done_bytes)) &&
	    app->dma_error == DOCA_SUCCESS && !app->file_shrank) {
		ret = dma_submit_room(app, remote_addr);
		if (ret != DOCA_SUCCESS)
			return ret;
		int got = doca_pe_progress(app->pe);

		/* The host hears what landed, a quarter of its ring at a time (it refills or writes
		 * out its ring behind it). */
		report_progress(app, false);
		if (app->fm.is_dest && app->written < app->done_bytes) {
			/*
			 * Everything that landed goes into the file now, a chunk a write, and the room
			 * each write frees is refilled at once: an engine that copies inside
			 * doca_pe_progress() then takes the refills together at the next turn, one that
			 * copies on another core starts on them meanwhile. A DMA that waits for the
			 * host's FILLED takes a look at the progress engine between writes; what lands
			 * then is written at the next turn, after the checks below.
			 */
			uint64_t end = app->done_bytes;

			while (app->written < end && app->dma_error == DOCA_SUCCESS) {
				uint64_t upto = app->written + app->chunk;

				if (!stage_drain(app, upto < end ? upto : end)) {
					app->dma_error = app->write_error; /* stops the copy: returned below */
					break;
				}
				ret = dma_submit_room(app, remote_addr);
				if (ret != DOCA_SUCCESS)
					return ret;
				if (app->file_on_host && app->next_off < app->size &&
				    app->next_off + app->chunk > app->credit) {
					doca_pe_progress(app->pe);
					report_progress(app, false);
				}
			}
		} else if (got == 0) {
			/* Nothing completed: sleep until something does (a completion, a CREDIT, FILLED),
			 * the host told of everything that landed first. */
			report_progress(app, true);
			pe_wait(app, 10);
		}
		progress_bar(app, false);
		if (interrupted)
			return DOCA_ERROR_SHUTDOWN;
		if (app->seq_broken)
			return DOCA_ERROR_UNEXPECTED; /* logged by seq_note() */
		/* The host says nothing during the DMA but CREDIT (taken in msg_recv), unless it
		 * stops: a receiving host that could not write its file. */
		if (app->inbox_count > 0)
			return peer_stopped(app);
		if (app->peer_gone && app->inflight == 0 && app->next_off < app->size)
			return peer_said_why(app) ? peer_stopped(app) : DOCA_ERROR_CONNECTION_RESET;
	}
	progress_bar(app, true);
	/* A DMA that failed because the host stopped exporting its ring: the host said why. */
	if (app->dma_error != DOCA_SUCCESS && app->write_error == DOCA_SUCCESS && peer_said_why(app))
		return peer_stopped(app);
	return app->dma_error;
}

/* ---------------------------------------------------------------------------------------- */
/* The two roles                                                                            */

static void summary(struct app *app, double secs, const char *dir)
{
	char a[32];

	/* One line of at most 120 columns: 1 GiB in a second takes 106, 16 TiB in three hours 118. */
	printf("%s %s (%" PRIu64 " bytes) %s in %.3f s, %.2f GB/s, checksum %016" PRIx64 " verified\n",
	       app->fm.is_dest ? "received" : "sent", human(app->size, a, sizeof(a)), app->size, dir, secs,
	       secs > 0 ? (double)app->size / secs / 1e9 : 0.0, app->checksum);
}

static doca_error_t run_dpu(struct app *app)
{
	union {
		struct msg_start start;
		struct msg_status status;
		uint8_t raw[65536];
	} *m = malloc(sizeof(*m));
	struct msg_start reply;
	char why[300];
	uint32_t len;
	double t0;
	doca_error_t ret;

	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ret = wait_msg(app, m, sizeof(*m), &len, true);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_START)) {
		ret = peer_error(m, len);
		goto out;
	}
	app->file_on_host = m->start.file_on_host;
	if (app->file_on_host) {
		app->size = m->start.size;
		ret = check_dest(app->file, app->size, app->force, why, sizeof(why));
		if (ret == DOCA_SUCCESS)
			ret = open_dest(&app->fm, app->file, app->size, app->force, why, sizeof(why));
		if (ret != DOCA_SUCCESS) {
			LOG_ERR("%s", why);
			send_status(app, MSG_ERROR, ret, why);
			goto out;
		}
	} else {
		if (access(app->file, R_OK) != 0) {
			if (errno == ENOENT)
				snprintf(why, sizeof(why),
					 "no file to copy: the host's -f names no file, and %.200s does not exist on "
					 "the DPU side",
					 app->file);
			else
				snprintf(why, sizeof(why),
					 "the host's -f names no file, and the DPU side cannot read %.200s: %s",
					 app->file, strerror(errno));
			LOG_ERR("%s", why);
			ret = DOCA_ERROR_NOT_FOUND;
			send_status(app, MSG_ERROR, ret, why);
			goto out;
		}
		ret = open_source(&app->fm, app->file);
		if (ret != DOCA_SUCCESS) {
			send_status(app, MSG_ERROR, ret, "cannot read the file on the DPU side");
			goto out;
		}
		app->size = app->fm.size; /* read into the ring and folded there as the DMA goes (stage_fill) */
	}
	reply = (struct msg_start){
	    .hdr = {DMA_COPY_MAGIC, MSG_START, DMA_COPY_VERSION}, .file_on_host = app->file_on_host, .size = app->size};
	ret = send_msg(app, &reply, sizeof(reply));
	if (ret != DOCA_SUCCESS)
		goto out;
	ret = wait_msg(app, m, sizeof(*m), &len, false);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_EXPORT)) {
		ret = peer_error(m, len);
		goto out;
	}
	t0 = now_s();
	if (app->size > 0) {
		const struct msg_export *exp = (const struct msg_export *)m;

		if (exp->len == 0 || (exp->len & (exp->len - 1)) != 0) {
			ret = DOCA_ERROR_INVALID_VALUE;
			LOG_ERR("the host's ring of %" PRIu64 " bytes is not a power of two", (uint64_t)exp->len);
			send_status(app, MSG_ERROR, ret, "the exported ring's length is not a power of two");
			goto out;
		}
		double t1;

		ret = dma_setup(app, exp);
		t1 = now_s();
		if (ret == DOCA_SUCCESS)
			ret = dma_run(app, exp->addr);
		LOG_DBG("set-up %.3f s, DMA %.3f s (%.2f GB/s)", t1 - t0, now_s() - t1,
			(double)app->size / (now_s() - t1) / 1e9);
		if (ret == DOCA_SUCCESS && app->file_shrank)
			ret = DOCA_ERROR_IO_FAILED;
		if (ret != DOCA_SUCCESS) {
			if (app->seq_broken)
				snprintf(why, sizeof(why), "the protocol was broken: %s", app->seq_why);
			else if (app->write_error != DOCA_SUCCESS)
				snprintf(why, sizeof(why), "%s", app->write_why);
			else if (ret == DOCA_ERROR_SHUTDOWN && interrupted)
				snprintf(why, sizeof(why), "%s", interrupted_why());
			else if (shrink_status(app, why, sizeof(why)) == DOCA_SUCCESS)
				snprintf(why, sizeof(why), "DMA on the DPU side failed: %.200s",
					 doca_error_get_descr(ret));
			if (!app->peer_refused) /* the host knows why: it said so */
				send_status(app, MSG_ERROR, ret, why);
			goto out;
		}
	}
	/* This side's checksum, folded during the DMA; the host compares it with its own and sends
	 * that back in RESULT, which this side checks too. */
	app->checksum = dc_sum_final(&app->sum); /* every byte passed through the ring */
	ret = shrink_status(app, why, sizeof(why));
	if (ret != DOCA_SUCCESS) {
		send_status(app, MSG_ERROR, ret, why);
		goto out;
	}
	app->done_bytes = app->size;
	LOG_DBG("DMA done, checksum folded at %.3f s", now_s() - t0);
	send_status(app, MSG_DONE, DOCA_SUCCESS, NULL);
	ret = wait_msg(app, m, sizeof(*m), &len, false);
	LOG_DBG("host answered at %.3f s", now_s() - t0);
	if (ret == DOCA_SUCCESS && !msg_is(m, len, MSG_RESULT))
		ret = peer_error(m, len);
	if (ret == DOCA_SUCCESS && m->status.status != DOCA_SUCCESS) {
		LOG_ERR("the host reports: %s", m->status.text);
		ret = (doca_error_t)m->status.status;
	}
	if (ret == DOCA_SUCCESS && m->status.checksum != app->checksum) {
		LOG_ERR("checksum mismatch: the host's file has %016" PRIx64 ", this side's %016" PRIx64,
			(uint64_t)m->status.checksum, app->checksum);
		ret = DOCA_ERROR_UNEXPECTED;
		if (app->fm.is_dest)
			send_status(app, MSG_LANDED, ret, "checksum mismatch on the DPU side");
	}
	if (ret == DOCA_SUCCESS && app->fm.is_dest) {
		/* Success means the file landed: the sending host waits for this answer. */
		ret = commit_dest(&app->fm);
		send_status_flush(app, MSG_LANDED, ret, ret == DOCA_SUCCESS ? NULL : app->fm.why);
	}
	if (ret == DOCA_SUCCESS)
		summary(app, now_s() - t0, app->file_on_host ? "host -> DPU" : "DPU -> host");
out:
	if (ret == DOCA_ERROR_CONNECTION_RESET)
		LOG_ERR("the host went away before the copy finished");
	free(m);
	return ret;
}

static doca_error_t export_local(struct app *app, struct msg_export *exp, uint32_t cap, uint32_t *len)
{
	const void *desc;
	size_t desc_len;
	uint32_t access = app->file_on_host ? DOCA_ACCESS_FLAG_PCI_READ_ONLY : DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	doca_error_t ret;

	uint64_t ring = 4096;

	*exp = (struct msg_export){.hdr = {DMA_COPY_MAGIC, MSG_EXPORT, DMA_COPY_VERSION}};
	*len = sizeof(*exp);
	if (app->size == 0)
		return DOCA_SUCCESS;
	/* The host exports its staging ring (read-only when it sends the file): the smallest power
	 * of two that holds the file, HOST_RING at most. */
	while (ring < app->size && ring < HOST_RING)
		ring *= 2;
	ret = stage_alloc(app, ring);
	if (ret != DOCA_SUCCESS)
		return ret;
	app->msg_step = ring / MSG_STEPS;
	ret = doca_mmap_create(&app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_memrange(app->local_mmap, app->stage, app->stage_len);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_set_permissions(app->local_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | access);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_add_dev(app->local_mmap, app->dev);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_start(app->local_mmap);
	if (ret == DOCA_SUCCESS)
		ret = doca_mmap_export_pci(app->local_mmap, app->dev, &desc, &desc_len);
	if (ret != DOCA_SUCCESS)
		return ret;
	if (sizeof(*exp) + desc_len > cap) {
		LOG_ERR("the export descriptor (%zu bytes) does not fit a Comch message of %u bytes", desc_len, cap);
		return DOCA_ERROR_TOO_BIG;
	}
	exp->addr = (uint64_t)(uintptr_t)app->stage;
	exp->len = app->stage_len;
	exp->desc_len = (uint32_t)desc_len;
	memcpy(exp->desc, desc, desc_len);
	*len = (uint32_t)(sizeof(*exp) + desc_len);
	return DOCA_SUCCESS;
}

static doca_error_t run_host(struct app *app)
{
	union {
		struct msg_start start;
		struct msg_status status;
		struct msg_export exp;
		uint8_t raw[65536];
	} *m = malloc(sizeof(*m));
	struct msg_start start;
	char why[300];
	uint32_t len;
	double t0 = now_s();
	doca_error_t ret;

	if (m == NULL)
		return DOCA_ERROR_NO_MEMORY;
	app->file_on_host = access(app->file, F_OK) == 0;
	if (app->file_on_host) {
		ret = open_source(&app->fm, app->file);
		if (ret != DOCA_SUCCESS) {
			/* The DPU side waits for START: tell it why none comes, instead of vanishing. */
			snprintf(why, sizeof(why), "the host cannot read %.180s: %.80s", app->file, app->fm.why);
			send_status_flush(app, MSG_ERROR, ret, why);
			goto out;
		}
		app->size = app->fm.size;
	}
	start = (struct msg_start){
	    .hdr = {DMA_COPY_MAGIC, MSG_START, DMA_COPY_VERSION}, .file_on_host = app->file_on_host, .size = app->size};
	ret = send_msg(app, &start, sizeof(start));
	if (ret == DOCA_SUCCESS)
		ret = wait_msg(app, m, sizeof(*m), &len, false);
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_START)) {
		ret = peer_error(m, len);
		goto out;
	}
	if (!app->file_on_host) {
		app->size = m->start.size;
		ret = check_dest(app->file, app->size, app->force, why, sizeof(why));
		if (ret == DOCA_SUCCESS)
			ret = open_dest(&app->fm, app->file, app->size, app->force, why, sizeof(why));
		if (ret != DOCA_SUCCESS) {
			LOG_ERR("%s", why);
			send_status(app, MSG_ERROR, ret, why);
			goto out;
		}
	}
	ret = export_local(app, &m->exp, app->max_msg, &len);
	if (ret != DOCA_SUCCESS) {
		send_status(app, MSG_ERROR, ret, "the host cannot export its memory");
		goto out;
	}
	ret = send_msg(app, &m->exp, len);
	if (ret != DOCA_SUCCESS)
		goto out;
	/* The DPU moves the bytes; this side keeps its ring going (however long the file takes) and
	 * shows how far the DPU says it is: a sending host reads its file into the ring where the
	 * DPU has taken the bytes out (host_fill_step(), in wait_msg()), a receiving one writes out
	 * what the DPU reports landed. Each folds its checksum as the bytes pass. */
	clock_gettime(CLOCK_MONOTONIC, &app->t_start);
	for (;;) {
		ret = wait_msg(app, m, sizeof(*m), &len, true);
		if (ret != DOCA_SUCCESS || !msg_is(m, len, MSG_PROGRESS))
			break;
		app->done_bytes = m->status.bytes <= app->size ? m->status.bytes : app->size;
		/* Write out what landed in the ring and hand the room back; a write that fails
		 * stops both sides now (the DPU side is waiting for room). */
		if (app->fm.is_dest && !stage_drain(app, app->done_bytes)) {
			ret = app->write_error;
			send_status_flush(app, MSG_ERROR, ret, app->write_why);
			goto out;
		}
		send_credit(app, false);
		progress_bar(app, false);
	}
	if (ret == DOCA_ERROR_IO_FAILED && app->file_shrank) {
		/* The file ended before its size: the DPU side waits for the rest, tell it why. */
		(void)shrink_status(app, why, sizeof(why));
		send_status_flush(app, MSG_ERROR, ret, why);
		goto out;
	}
	if (ret != DOCA_SUCCESS)
		goto out;
	if (!msg_is(m, len, MSG_DONE)) {
		ret = peer_error(m, len);
		goto out;
	}
	app->done_bytes = app->size;
	if (app->fm.is_dest && !stage_drain(app, app->size)) {
		ret = app->write_error;
		send_status_flush(app, MSG_RESULT, ret, app->write_why);
		goto out;
	}
	if (app->size > 0)
		progress_bar(app, true);
	app->checksum = dc_sum_final(&app->sum); /* every byte passed through the ring */
	ret = shrink_status(app, why, sizeof(why));
	if (ret != DOCA_SUCCESS) {
		send_status(app, MSG_RESULT, ret, why);
		goto out;
	}
	if (app->checksum != m->status.checksum) {
		ret = DOCA_ERROR_UNEXPECTED;
		LOG_ERR("checksum mismatch: the file on the DPU side has %016" PRIx64 ", this side's %016" PRIx64,
			(uint64_t)m->status.checksum, app->checksum);
		send_status(app, MSG_RESULT, ret, "checksum mismatch on the host side");
		goto out;
	}
	if (app->fm.is_dest)
		ret = commit_dest(&app->fm);
	app->done_bytes = app->size;
	send_status_flush(app, MSG_RESULT, ret, ret == DOCA_SUCCESS ? NULL : app->fm.why);
	if (ret == DOCA_SUCCESS && !app->fm.is_dest) {
		/* The host sent the file: it succeeds only once the DPU side put it in place. */
		ret = wait_msg(app, m, sizeof(*m), &len, false);
		if (ret == DOCA_ERROR_CONNECTION_RESET) {
			LOG_ERR("the DPU side went away before confirming that the copy of %s landed there", app->file);
			ret = DOCA_ERROR_IO_FAILED;
		} else if (ret == DOCA_SUCCESS && !msg_is(m, len, MSG_LANDED)) {
			ret = peer_error(m, len);
		} else if (ret == DOCA_SUCCESS && m->status.status != DOCA_SUCCESS) {
			LOG_ERR("the DPU side reports: %s", m->status.text);
			ret = (doca_error_t)m->status.status;
		}
	}
	if (ret == DOCA_SUCCESS)
		summary(app, now_s() - t0, app->file_on_host ? "host -> DPU" : "DPU -> host");
out:
	if (ret == DOCA_ERROR_CONNECTION_RESET)
		LOG_ERR("the DPU side went away before the copy finished");
	/* The DPU side's DMA failing on this side's file: say so if it shrank under the copy. */
	if (ret != DOCA_SUCCESS && app->fm.fd >= 0 && !app->fm.is_dest && app->size > 0)
		(void)shrink_status(app, why, sizeof(why));
	free(m);
	return ret;
}

/*
 * Stops @ctx and progresses until it is IDLE: for as long as its tasks take to flush (a clock,
 * not a number of calls: completions may be slow, e.g. with SOFTDOCA_FAULT delays), at most 10 s;
 * after 1 s it says what it waits for.
 */
static void stop_ctx(struct app *app, struct doca_ctx *ctx, const char *what)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;
	double start = now_s(), deadline = start + 10;
	bool said = false;

	if (doca_ctx_stop(ctx) != DOCA_ERROR_IN_PROGRESS)
		return;
	while (doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE && now_s() < deadline) {
		if (doca_pe_progress(app->pe) == 0)
			usleep(100);
		if (!said && now_s() > start + 1) {
			/* Slow tasks (SOFTDOCA_FAULT delays, a stalled peer) keep the exit waiting: say so. */
			LOG_WARN("waiting for the %s tasks in flight to finish before exiting (at most 10 s)", what);
			said = true;
		}
	}
	if (st != DOCA_CTX_STATE_IDLE)
		LOG_WARN("the %s context did not stop within 10 s; its resources are left to the exit", what);
}

static void teardown(struct app *app)
{
	app->stopping = true; /* tasks still in flight are flushed: nothing to report or send after them */
	if (app->dma != NULL) {
		stop_ctx(app, doca_dma_as_ctx(app->dma), "DMA");
		doca_dma_destroy(app->dma);
	}
	if (app->inv != NULL)
		doca_buf_inventory_destroy(app->inv);
	if (app->remote_mmap != NULL)
		doca_mmap_destroy(app->remote_mmap);
	if (app->local_mmap != NULL)
		doca_mmap_destroy(app->local_mmap);
	if (app->stage != NULL)
		munmap(app->stage, app->stage_len);
	if (app->comch_ctx != NULL) {
		stop_ctx(app, app->comch_ctx, "Comch");
		if (app->server != NULL)
			doca_comch_server_destroy(app->server);
		if (app->client != NULL)
			doca_comch_client_destroy(app->client);
	}
	if (app->pe != NULL)
		doca_pe_destroy(app->pe);
	if (app->rep != NULL)
		doca_dev_rep_close(app->rep);
	if (app->dev != NULL)
		doca_dev_close(app->dev);
	close_file(&app->fm);
	for (int i = 0; i < INBOX; i++)
		free(app->inbox[i]);
}

int main(int argc, char **argv)
{
	static struct app app;
	struct doca_log_backend *sdk_log;
	struct sigaction sa = {.sa_handler = on_signal};
	doca_error_t ret;

	app.fm.fd = -1;
	app.pe_fd = -1;
	dc_seq_init(&app.seq, ROLE_DPU);
	dc_sum_init(&app.sum);
	snprintf(app.pci, sizeof(app.pci), "%s", DEFAULT_PCI);
	snprintf(app.rep_pci, sizeof(app.rep_pci), "%s", DEFAULT_REP_PCI);
	app.timeout_s = 60;
	g_app = &app;
	if (doca_log_backend_create_standard() != DOCA_SUCCESS ||
	    doca_log_backend_create_with_file_sdk(stderr, &sdk_log) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (doca_argp_init(NULL, &app) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (register_params() != DOCA_SUCCESS) {
		doca_argp_destroy();
		return EXIT_FAILURE;
	}
	if (doca_argp_start(argc, argv) != DOCA_SUCCESS) {
		doca_argp_destroy();
		return 2; /* bad usage: doca_argp said why */
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	ret = open_device(&app);
	if (ret == DOCA_SUCCESS)
		ret = comch_setup(&app);
	if (ret == DOCA_SUCCESS)
		ret = wait_connected(&app);
	if (ret == DOCA_SUCCESS)
		ret = ROLE_DPU ? run_dpu(&app) : run_host(&app);
	if (ret == DOCA_ERROR_SHUTDOWN && interrupted) {
		/* The other side hears it now rather than finding the connection gone. */
		if (app.connected && !app.peer_gone && !app.told_error)
			send_status_flush(&app, MSG_ERROR, ret, interrupted_why());
		LOG_ERR("%s: the copy stopped%s", interrupted_why(),
			app.fm.is_dest ? "; nothing was put in place" : "");
	} else if (ret != DOCA_SUCCESS && app.seq_broken) {
		/* Logged once already (seq_note); the other side hears why its copy stops. */
		if (app.connected && !app.peer_gone && !app.told_error) {
			char why[220];

			snprintf(why, sizeof(why), "the protocol was broken: %.190s", app.seq_why);
			send_status_flush(&app, MSG_ERROR, ret, why);
		}
	} else if (ret != DOCA_SUCCESS && ret != DOCA_ERROR_SHUTDOWN) {
		/* (SHUTDOWN here: the other side was interrupted, and peer_error() said so) */
		LOG_ERR("DMA copy failed: %s", doca_error_get_descr(ret));
	}
	/* An ERROR said just before (on a busy socket it may still be queued) leaves before the
	 * connection closes: the other side names this side's cause, not its departure. */
	if (app.told_error && app.connected && !app.peer_gone)
		sends_flush(&app);
	teardown(&app);
	doca_argp_destroy();
	if (ret == DOCA_ERROR_SHUTDOWN && interrupted)
		return 128 + interrupted; /* as the shell reports a program the signal ended */
	return ret == DOCA_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
