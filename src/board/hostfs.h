/*
 * The host files a guest program may open through semihosting: one
 * directory (the root), read-only, read-write or nothing, and never the
 * files tally itself uses (the store, keys, traces, outputs). Guest programs are untrusted
 * input: every name is resolved beneath the root's directory descriptor,
 * never by the host's path lookup from its working directory.
 */
#ifndef TALLY_BOARD_HOSTFS_H
#define TALLY_BOARD_HOSTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { HOSTFS_NONE = 1, HOSTFS_READ, HOSTFS_RW };

/* A protected name: the last component of a path, in its directory as the
 * kernel resolved it (symbolic links followed) when it was protected. */
typedef struct hostfs_protected {
  int dir_fd;   /* O_PATH descriptor of the file's directory */
  char *name;   /* its name there; with `side`, name-journal, -wal, -shm too */
  bool side;
} hostfs_protected;

/* A protected file, whatever name reaches it (hard links included). */
typedef struct hostfs_file_id {
  unsigned long long dev, ino;
} hostfs_file_id;

typedef struct hostfs {
  int mode;               /* HOSTFS_* */
  int root_fd;            /* O_PATH descriptor of the root; -1: none could be opened */
  bool no_openat2;        /* the kernel lacks openat2 (or a test forces the fallback) */
  int nprotected;
  hostfs_protected *protected;
  int nids;
  hostfs_file_id *ids;
  unsigned refusals;      /* policy refusals, for the first few notes */
} hostfs;

/* The default policy: read-only under the working directory. */
void hostfs_init(hostfs *h);
void hostfs_free(hostfs *h);

/* Sets the policy: mode HOSTFS_*, root a directory (NULL: the working
 * directory). Returns 0, or -1 with err saying what is wrong with root. */
int hostfs_set(hostfs *h, int mode, const char *root, char *err, size_t errsize);

/* Never lets the guest open `path` (which need not exist yet), nor with
 * `side` its SQLite side files: by the file it resolves to (symbolic links
 * followed, its device and inode when it exists) and by the names it and
 * its resolved form have in their directories. Returns 0, or -1 with err. */
int hostfs_protect(hostfs *h, const char *path, bool side, char *err, size_t errsize);

/* Never lets the guest open the file open on fd (by device and inode).
 * Returns 0, or -1 with err. */
int hostfs_protect_fd(hostfs *h, int fd, char *err, size_t errsize);

/* Opens the guest's `path` with semihosting open mode `mode` (0-11, as
 * fopen's r, rb, r+, r+b, w, wb, w+, w+b, a, ab, a+, a+b). Returns a file
 * descriptor, or -errno. When the policy refused it (rather than the host,
 * e.g. ENOENT), *why says why in a few words. */
int hostfs_open(hostfs *h, const char *path, size_t len, uint32_t mode, const char **why);

#endif
