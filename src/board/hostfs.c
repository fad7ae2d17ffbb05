/*
 * Host files for semihosting, as a policy (hostfs.h). How a name is
 * resolved:
 *
 *  - it must be relative, non-empty, without NUL bytes and without a ".."
 *    component: the guest names files inside its directory, nothing else;
 *  - it is resolved beneath the root's directory descriptor with openat2's
 *    RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS (Linux 5.6; Debian 12 has
 *    6.1): symbolic links that stay inside are followed, any that leads out
 *    (absolute, or up through "..") fails in the kernel, race-free. Without
 *    openat2 (ENOSYS, or a seccomp filter's EPERM) the fallback walks the
 *    name one component at a time with O_NOFOLLOW, so no symbolic link is
 *    followed at all: stricter, never looser;
 *  - the file is first opened with O_PATH, which opens nothing (a FIFO does
 *    not block, a device driver is not called), and must be a regular file,
 *    not on a kernel pseudo filesystem (/proc, /sys, ...) and not a
 *    protected file (tally's own: the store and its side files, keys,
 *    traces, outputs), by device and inode or by name in its directory,
 *    each protected path taken as the file it resolves to (links followed).
 *    Then it is opened for real and checked to be that same file;
 *  - a new file is created only as the literal last name in a directory
 *    resolved as above, with O_EXCL | O_NOFOLLOW, so a dangling symbolic
 *    link cannot make it land elsewhere; its name is checked against the
 *    protected names of that directory first (the store's journal may not
 *    exist yet when the guest asks);
 *  - truncation happens after the checks (O_TRUNC at open would truncate a
 *    protected file before we could refuse it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hostfs.h"

#define HOSTFS_PATH_MAX 4096

/* The SQLite files beside a store: all of them are the store. */
static const char *const side_suffixes[] = {"", "-journal", "-wal", "-shm"};

void hostfs_init(hostfs *h) {
  *h = (hostfs){.mode = HOSTFS_READ, .root_fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)};
}

void hostfs_free(hostfs *h) {
  if (h->root_fd >= 0)
    close(h->root_fd);
  for (int i = 0; i < h->nprotected; i++) {
    close(h->protected[i].dir_fd);
    free(h->protected[i].name);
  }
  free(h->protected);
  free(h->ids);
  h->protected = NULL;
  h->ids = NULL;
  h->nprotected = h->nids = 0;
  h->root_fd = -1;
}

static int open_dir(const char *path, char *err, size_t errsize) {
  int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    snprintf(err, errsize, "%s: %s", path, e == ENOTDIR ? "not a directory" : strerror(e));
    errno = e;
  }
  return fd;
}

int hostfs_set(hostfs *h, int mode, const char *root, char *err, size_t errsize) {
  int fd = open_dir(root ? root : ".", err, errsize);
  if (fd < 0)
    return -1;
  if (h->root_fd >= 0)
    close(h->root_fd);
  h->root_fd = fd;
  h->mode = mode;
  return 0;
}

static int add_id(hostfs *h, const struct stat *st, char *err, size_t errsize) {
  for (int i = 0; i < h->nids; i++)
    if (h->ids[i].dev == (unsigned long long)st->st_dev && h->ids[i].ino == (unsigned long long)st->st_ino)
      return 0;
  hostfs_file_id *ids = realloc(h->ids, (size_t)(h->nids + 1) * sizeof *ids);
  if (!ids) {
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  h->ids = ids;
  h->ids[h->nids++] = (hostfs_file_id){(unsigned long long)st->st_dev, (unsigned long long)st->st_ino};
  return 0;
}

/* Protects the last name of path in its directory (opened by the kernel,
 * so the directory's own symbolic links are followed). */
static int add_name(hostfs *h, const char *path, bool side, char *err, size_t errsize) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  char *name = strdup(slash ? slash + 1 : path);
  hostfs_protected *grown = realloc(h->protected, (size_t)(h->nprotected + 1) * sizeof *grown);
  if (grown)
    h->protected = grown;
  if (!dir || !name || !grown) {
    free(dir);
    free(name);
    snprintf(err, errsize, "out of memory");
    return -1;
  }
  int fd = open_dir(dir, err, errsize);
  free(dir);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
    /* no such directory: no file is made there, by tally or the program
     * (which cannot make directories); tally's own open says so */
    free(name);
    return 0;
  }
  if (fd < 0 || !*name) {
    if (fd >= 0) {
      close(fd);
      snprintf(err, errsize, "%s: names a directory, not a file", path);
    }
    free(name);
    return -1;
  }
  h->protected[h->nprotected++] = (hostfs_protected){.dir_fd = fd, .name = name, .side = side};
  return 0;
}

int hostfs_protect(hostfs *h, const char *path, bool side, char *err, size_t errsize) {
  /* the path as given, then each symbolic link's target in turn: a store
   * reached through a link is the file it leads to, which need not exist
   * yet (SQLite creates it, and its journal, beside the target) */
  char cur[HOSTFS_PATH_MAX + 1], target[HOSTFS_PATH_MAX + 1];
  if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
    snprintf(err, errsize, "the name is too long");
    return -1;
  }
  for (int hops = 0;; hops++) {
    if (add_name(h, cur, side, err, errsize) != 0)
      return -1;
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      break;
    if (hops == 40) {
      snprintf(err, errsize, "%s: too many levels of symbolic links", path);
      return -1;
    }
    ssize_t n = readlink(cur, target, sizeof target - 1);
    if (n < 0) {
      snprintf(err, errsize, "%s: %s", cur, strerror(errno));
      return -1;
    }
    target[n] = '\0';
    char *slash = strrchr(cur, '/');
    if (target[0] == '/' || !slash) {
      memcpy(cur, target, (size_t)n + 1);
    } else if ((size_t)(slash - cur) + 1 + (size_t)n < sizeof cur) {
      memcpy(slash + 1, target, (size_t)n + 1);
    } else {
      snprintf(err, errsize, "%s: the name is too long", path);
      return -1;
    }
  }
  struct stat st;
  if (stat(path, &st) == 0 && add_id(h, &st, err, errsize) != 0)
    return -1;
  return 0;
}

int hostfs_protect_fd(hostfs *h, int fd, char *err, size_t errsize) {
  struct stat st;
  if (fstat(fd, &st) != 0) {
    snprintf(err, errsize, "%s", strerror(errno));
    return -1;
  }
  return add_id(h, &st, err, errsize);
}

/* One component at a time, no symbolic link followed (no openat2). */
static int open_walk(int dirfd, const char *path, int flags) {
  char buf[HOSTFS_PATH_MAX + 1];
  snprintf(buf, sizeof buf, "%s", path);
  char *save = NULL, *comp = strtok_r(buf, "/", &save);
  if (!comp)
    comp = ".";
  int cur = dirfd;
  for (;;) {
    char *next = strtok_r(NULL, "/", &save);
    int fd = next ? openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                  : openat(cur, comp, flags | O_NOFOLLOW);
    int e = errno;
    if (cur != dirfd)
      close(cur);
    if (fd < 0)
      return -e;
    if (!next)
      return fd;
    cur = fd;
    comp = next;
  }
}

/* Opens path beneath dirfd: -errno on failure; EXDEV and ELOOP mean a link
 * that leads out (or, without openat2, any symbolic link). */
static int open_beneath(hostfs *h, int dirfd, const char *path, int flags) {
  if (!h->no_openat2) {
    struct open_how how = {.flags = (uint64_t)flags, .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
    long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd >= 0)
      return (int)fd;
    if (errno != ENOSYS && errno != EPERM)
      return -errno;
    h->no_openat2 = true;
  }
  return open_walk(dirfd, path, flags);
}

static bool pseudo_fs(int fd) {
  static const long kinds[] = {
    PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, CGROUP_SUPER_MAGIC,
    CGROUP2_SUPER_MAGIC, BPF_FS_MAGIC, EFIVARFS_MAGIC, DEVPTS_SUPER_MAGIC,
  };
  struct statfs sf;
  if (fstatfs(fd, &sf) != 0)
    return true; /* cannot tell: refuse */
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if ((long)sf.f_type == kinds[i])
      return true;
  return false;
}

static bool is_protected(const hostfs *h, const struct stat *st) {
  char name[HOSTFS_PATH_MAX + 16];
  struct stat p;
  for (int i = 0; i < h->nids; i++)
    if (h->ids[i].dev == (unsigned long long)st->st_dev && h->ids[i].ino == (unsigned long long)st->st_ino)
      return true;
  for (int i = 0; i < h->nprotected; i++) {
    size_t sides = h->protected[i].side ? sizeof side_suffixes / sizeof side_suffixes[0] : 1;
    for (size_t k = 0; k < sides; k++) {
      snprintf(name, sizeof name, "%s%s", h->protected[i].name, side_suffixes[k]);
      if (fstatat(h->protected[i].dir_fd, name, &p, 0) == 0 && p.st_dev == st->st_dev &&
          p.st_ino == st->st_ino)
        return true;
    }
  }
  return false;
}

/* Would creating `name` in directory dirfd make a protected file? */
static bool is_protected_name(const hostfs *h, int dirfd, const char *name) {
  struct stat d, p;
  if (fstat(dirfd, &d) != 0)
    return true;
  for (int i = 0; i < h->nprotected; i++) {
    const char *base = h->protected[i].name;
    size_t n = strlen(base);
    if (fstat(h->protected[i].dir_fd, &p) == 0 && p.st_dev == d.st_dev && p.st_ino == d.st_ino &&
        strncmp(name, base, n) == 0 && (name[n] == '\0' || (h->protected[i].side && name[n] == '-')))
      return true;
  }
  return false;
}

/* What may the guest do with this open file? NULL: it may use it. */
static const char *check_file(const hostfs *h, int fd, struct stat *st) {
  if (fstat(fd, st) != 0)
    return "cannot be examined";
  if (S_ISLNK(st->st_mode))
    return "a symbolic link (this kernel has no openat2, so none is followed)";
  if (!S_ISREG(st->st_mode))
    return "not a regular file (a directory, device, FIFO or socket)";
  if (pseudo_fs(fd))
    return "on a kernel pseudo filesystem (/proc, /sys, ...)";
  if (is_protected(h, st))
    return "a file tally itself uses (its store, a trace, a key or an output)";
  return NULL;
}

static int refuse(const char **why, const char *reason) {
  *why = reason;
  return -EACCES;
}

/* Creates the last name of path, in its directory resolved beneath root. */
static int create_new(hostfs *h, const char *path, int flags, const char **why) {
  const char *slash = strrchr(path, '/');
  const char *last = slash ? slash + 1 : path;
  if (!*last)
    return -EISDIR;
  char dir[HOSTFS_PATH_MAX + 1];
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  int dfd = open_beneath(h, h->root_fd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dfd == -EXDEV || dfd == -ELOOP || dfd == -ENOTDIR)
    return refuse(why, "its directory leads out of the program's directory");
  if (dfd < 0)
    return dfd;
  if (is_protected_name(h, dfd, last)) {
    close(dfd);
    return refuse(why, "a file tally itself uses (its store, a trace, a key or an output)");
  }
  int fd = openat(dfd, last, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
  int e = errno;
  close(dfd);
  if (fd < 0 && e == EEXIST)
    return refuse(why, "a symbolic link to a file that does not exist (not created through it)");
  return fd < 0 ? -e : fd;
}

/* The open(2) flags of a semihosting mode (fopen's r, r+, w, w+, a, a+;
 * odd modes are the binary twins). */
static int mode_flags(uint32_t mode, bool *create, bool *trunc) {
  static const int flags[6] = {O_RDONLY, O_RDWR, O_WRONLY, O_RDWR, O_WRONLY | O_APPEND, O_RDWR | O_APPEND};
  *create = mode >= 4;
  *trunc = mode >= 4 && mode < 8;
  return flags[mode / 2];
}

/* The name itself: relative, no "..", no NUL. NULL when it is acceptable. */
static const char *check_name(const char *path, size_t len) {
  if (strlen(path) != len)
    return "a NUL byte in the name";
  if (path[0] == '/')
    return "an absolute path (names are relative to the program's directory)";
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.')
      return "'..' in the name (names stay inside the program's directory)";
    p += n + (p[n] == '/');
  }
  return NULL;
}

static int open_existing(hostfs *h, const char *path, int flags, bool trunc, const char **why) {
  struct stat before, after;
  int pfd = open_beneath(h, h->root_fd, path, O_PATH | O_CLOEXEC);
  if (pfd == -EXDEV || pfd == -ELOOP || (h->no_openat2 && pfd == -ENOTDIR))
    return refuse(why, "a symbolic link that leads out of the program's directory");
  if (pfd < 0)
    return pfd;
  *why = check_file(h, pfd, &before);
  close(pfd);
  if (*why)
    return -EACCES;
  int fd = open_beneath(h, h->root_fd, path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return fd;
  if ((*why = check_file(h, fd, &after)) || after.st_dev != before.st_dev || after.st_ino != before.st_ino) {
    close(fd);
    return refuse(why, *why ? *why : "changed while it was being opened");
  }
  if ((trunc && ftruncate(fd, 0) != 0) || fcntl(fd, F_SETFL, flags & O_APPEND) != 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  return fd;
}

int hostfs_open(hostfs *h, const char *path, size_t len, uint32_t mode, const char **why) {
  *why = NULL;
  if (mode > 11)
    return -EINVAL;
  if (len == 0)
    return -ENOENT;
  if ((*why = check_name(path, len)))
    return -EACCES;
  if (h->mode == HOSTFS_NONE)
    return refuse(why, "the program may open no host file (--semihost-files none)");
  bool create, trunc;
  int flags = mode_flags(mode, &create, &trunc);
  if (h->mode == HOSTFS_READ && (flags & O_ACCMODE) != O_RDONLY)
    return refuse(why, "the program may only read host files (--semihost-files read, the default; "
                       "rw lets it write)");
  if (h->root_fd < 0)
    return refuse(why, "the program's directory could not be opened");
  int fd = open_existing(h, path, flags, trunc, why);
  if (fd == -ENOENT && create)
    fd = create_new(h, path, flags | O_NOCTTY | O_CLOEXEC, why);
  return fd;
}
