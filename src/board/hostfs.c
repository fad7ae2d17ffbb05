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
 *    protected file (the store and its side files, by device and inode).
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
  h->nprotected = 0;
  h->root_fd = -1;
}

static int open_dir(const char *path, char *err, size_t errsize) {
  int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    snprintf(err, errsize, "%s: %s", path, errno == ENOTDIR ? "not a directory" : strerror(errno));
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

int hostfs_protect(hostfs *h, const char *path, char *err, size_t errsize) {
  if (h->nprotected == HOSTFS_MAX_PROTECTED) {
    snprintf(err, errsize, "more than %d protected files", HOSTFS_MAX_PROTECTED);
    return -1;
  }
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  char *name = strdup(slash ? slash + 1 : path);
  int fd = dir && name ? open_dir(dir, err, errsize) : -1;
  if (!dir || !name)
    snprintf(err, errsize, "out of memory");
  free(dir);
  if (fd < 0 || !*name) {
    if (fd >= 0) {
      close(fd);
      snprintf(err, errsize, "%s: names a directory, not a file", path);
    }
    free(name);
    return -1;
  }
  h->protected[h->nprotected++] = (hostfs_protected){.dir_fd = fd, .name = name};
  return 0;
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
  for (int i = 0; i < h->nprotected; i++) {
    for (size_t k = 0; k < sizeof side_suffixes / sizeof side_suffixes[0]; k++) {
      snprintf(name, sizeof name, "%s%s", h->protected[i].name, side_suffixes[k]);
      if (fstatat(h->protected[i].dir_fd, name, &p, AT_SYMLINK_NOFOLLOW) == 0 && p.st_dev == st->st_dev &&
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
        strncmp(name, base, n) == 0 && (name[n] == '\0' || name[n] == '-'))
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
    return "the store tally is writing";
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
    return refuse(why, "the store tally is writing");
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
