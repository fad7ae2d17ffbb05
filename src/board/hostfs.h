/*
 * The host files a guest program may open through semihosting: one
 * directory (the root), read-only, read-write or nothing, and never the
 * files tally itself is writing (the store). Guest programs are untrusted
 * input: every name is resolved beneath the root's directory descriptor,
 * never by the host's path lookup from its working directory.
 */
#ifndef TALLY_BOARD_HOSTFS_H
#define TALLY_BOARD_HOSTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { HOSTFS_NONE = 1, HOSTFS_READ, HOSTFS_RW };

#define HOSTFS_MAX_PROTECTED 4

typedef struct hostfs_protected {
  int dir_fd;   /* O_PATH descriptor of the file's directory */
  char *name;   /* its name there; name-journal, -wal, -shm are protected too */
} hostfs_protected;

typedef struct hostfs {
  int mode;               /* HOSTFS_* */
  int root_fd;            /* O_PATH descriptor of the root; -1: none could be opened */
  bool no_openat2;        /* the kernel lacks openat2 (or a test forces the fallback) */
  int nprotected;
  hostfs_protected protected[HOSTFS_MAX_PROTECTED];
  unsigned refusals;      /* policy refusals, for the first few notes */
} hostfs;

/* The default policy: read-only under the working directory. */
void hostfs_init(hostfs *h);
void hostfs_free(hostfs *h);

/* Sets the policy: mode HOSTFS_*, root a directory (NULL: the working
 * directory). Returns 0, or -1 with err saying what is wrong with root. */
int hostfs_set(hostfs *h, int mode, const char *root, char *err, size_t errsize);

/* Never lets the guest open `path` (which need not exist yet) nor its
 * SQLite side files. Returns 0, or -1 with err. */
int hostfs_protect(hostfs *h, const char *path, char *err, size_t errsize);

/* Opens the guest's `path` with semihosting open mode `mode` (0-11, as
 * fopen's r, rb, r+, r+b, w, wb, w+, w+b, a, ab, a+, a+b). Returns a file
 * descriptor, or -errno. When the policy refused it (rather than the host,
 * e.g. ENOENT), *why says why in a few words. */
int hostfs_open(hostfs *h, const char *path, size_t len, uint32_t mode, const char **why);

#endif
