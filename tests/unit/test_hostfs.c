/*
 * unit.hostfs: the host-file policy of semihosting (src/board/hostfs.c)
 * with both resolvers: the kernel's openat2 RESOLVE_BENEATH, and the
 * component walk used where openat2 is missing, which follows no symbolic
 * link at all. Expected outcomes follow from the policy's rules
 * (docs/tally-run.md, "Host files"), checked on a directory made here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tests/check.h"
#include "board/hostfs.h"

static char work[64], root[96];

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void make_tree(void) {
  char p[160];
  snprintf(work, sizeof work, "/tmp/tally-hostfs-XXXXXX");
  if (!mkdtemp(work))
    exit(2);
  snprintf(root, sizeof root, "%s/root", work);
  mkdir(root, 0755);
  snprintf(p, sizeof p, "%s/sub", root), mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/in.txt", root), put(p, "in");
  snprintf(p, sizeof p, "%s/out.txt", work), put(p, "out");
  snprintf(p, sizeof p, "%s/link_in", root), (void)!symlink("in.txt", p);
  snprintf(p, sizeof p, "%s/sub/link_in_up", root), (void)!symlink("../in.txt", p);
  snprintf(p, sizeof p, "%s/link_out", root), (void)!symlink("../out.txt", p);
}

/* Opens name with mode under the policy; returns the fd or -errno and
 * whether the policy (not the host) refused. */
static int try_open(hostfs *h, const char *name, uint32_t mode, bool *policy) {
  const char *why = NULL;
  int fd = hostfs_open(h, name, strlen(name), mode, &why);
  *policy = why != NULL;
  return fd;
}

static void expect_ok(hostfs *h, const char *name, uint32_t mode, const char *resolver) {
  bool policy;
  int fd = try_open(h, name, mode, &policy);
  CHECK(fd >= 0, "%s: '%s' mode %u refused (%d)", resolver, name, mode, fd);
  if (fd >= 0)
    close(fd);
}

static void expect_refused(hostfs *h, const char *name, uint32_t mode, const char *resolver) {
  bool policy;
  int fd = try_open(h, name, mode, &policy);
  CHECK(fd < 0 && policy, "%s: '%s' mode %u not refused by the policy (%d)", resolver, name, mode, fd);
  if (fd >= 0)
    close(fd);
}

static void with_resolver(bool no_openat2) {
  const char *r = no_openat2 ? "walk" : "openat2";
  char err[256], store[160];
  hostfs h;
  hostfs_init(&h);
  CHECK(hostfs_set(&h, HOSTFS_RW, root, err, sizeof err) == 0, "%s", err);
  snprintf(store, sizeof store, "%s/tally.db", root);
  CHECK(hostfs_protect(&h, store, true, err, sizeof err) == 0, "%s", err);
  h.no_openat2 = no_openat2;

  expect_ok(&h, "in.txt", 0, r);
  expect_refused(&h, "../out.txt", 0, r);
  expect_refused(&h, "link_out", 0, r);
  expect_refused(&h, "sub", 0, r);            /* a directory */
  expect_refused(&h, "tally.db", 4, r);       /* does not exist yet: by name */
  expect_refused(&h, "tally.db-wal", 8, r);
  expect_refused(&h, "sub/../tally.db", 4, r);
  expect_ok(&h, "tally.dbx", 4, r);           /* only the store's own names */
  if (no_openat2) {
    /* the walk follows no symbolic link, even one that stays inside */
    expect_refused(&h, "link_in", 0, r);
    expect_refused(&h, "sub/link_in_up", 0, r);
  } else if (!h.no_openat2) {
    expect_ok(&h, "link_in", 0, r);
    expect_ok(&h, "sub/link_in_up", 0, r);    /* ".." inside a link, still beneath */
  }
  hostfs_free(&h);
}

int main(void) {
  make_tree();
  with_resolver(false);
  with_resolver(true);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
  (void)!system(cmd);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
