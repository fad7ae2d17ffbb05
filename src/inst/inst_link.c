/*
 * Building the analysis image with the standard cross toolchain, run as a
 * subprocess: riscv64-unknown-elf-gcc (or $TALLY_RISCV_CC) compiles the
 * runtime, the site tables and the tool's or user's analysis sources
 * freestanding (no C library: the program's picolibc state must stay the
 * program's) and links them with analysis.ld at the analysis region. Its
 * messages are kept in a file and shown when it fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inst_impl.h"

#define MAX_ARGV 64

static const char *compiler(void) {
  const char *cc = getenv("TALLY_RISCV_CC");
  return cc && *cc ? cc : "riscv64-unknown-elf-gcc";
}

/* Runs argv with stdout+stderr into log; returns the exit status, 127 when
 * it could not be started, -1 when killed. */
static int run(char *const argv[], const char *log) {
  pid_t pid = fork();
  if (pid < 0)
    return 127;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execvp(argv[0], argv);
    dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The end of the toolchain's messages, for the error. */
static void read_log(const char *log, char *buf, size_t size) {
  buf[0] = 0;
  FILE *f = fopen(log, "r");
  if (!f)
    return;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  if (len > (long)size - 1)
    fseek(f, len - (long)size + 1, SEEK_SET);
  else
    fseek(f, 0, SEEK_SET);
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = 0;
  fclose(f);
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
    buf[--n] = 0;
}

int inst_link_run(const tally_inst *ti, const char *dir, tally_error *err) {
  char paths[10][4200], defsym[64], holesym[64], log[4200];
  const char *argv[MAX_ARGV + 8];
  int n = 0, p = 0;
  argv[n++] = compiler();
  argv[n++] = ti->rvc ? "-march=rv32imac" : "-march=rv32i";
  argv[n++] = "-mabi=ilp32";
  argv[n++] = "-misa-spec=2.2";
  argv[n++] = "-O2";
  argv[n++] = "-ffreestanding";
  argv[n++] = "-nostdlib";
  argv[n++] = "-nostartfiles";
  argv[n++] = "-fno-pic";
  argv[n++] = "-mcmodel=medany";
  snprintf(paths[p], sizeof paths[p], "-I%s/include", dir), argv[n++] = paths[p++];
  snprintf(paths[p], sizeof paths[p], "-I%s", dir), argv[n++] = paths[p++];
  snprintf(paths[p], sizeof paths[p], "-T%s/analysis.ld", dir), argv[n++] = paths[p++];
  snprintf(defsym, sizeof defsym, "-Wl,--defsym=__tally_inst_orig_entry=0x%08x", ti->entry);
  argv[n++] = defsym;
  /* where analysis.ld puts the trampolines (tramps.S): the program's hole */
  snprintf(holesym, sizeof holesym, "-Wl,--defsym=__tally_inst_tramp_base=0x%08x", ti->hole_lo);
  argv[n++] = holesym;
  static const char *const rt[] = {"rt_entry.S", "rt.c", "sites.c", "tramps.S"};
  for (size_t i = 0; i < 4; i++)
    snprintf(paths[p], sizeof paths[p], "%s/%s", dir, rt[i]), argv[n++] = paths[p++];
  if (ti->tool)
    snprintf(paths[p], sizeof paths[p], "%s/%s", dir, ti->tool), argv[n++] = paths[p++];
  for (size_t i = 0; i < ti->nsources && n < MAX_ARGV; i++)
    argv[n++] = ti->sources[i];
  if (ti->nsources > MAX_ARGV - 24)
    return inst_fail(err, TALLY_INST_EUSAGE, "too many analysis sources (%zu)", ti->nsources);
  argv[n++] = "-lgcc";
  argv[n++] = "-o";
  snprintf(paths[p], sizeof paths[p], "%s/analysis.elf", dir), argv[n++] = paths[p++];
  argv[n] = NULL;
  snprintf(log, sizeof log, "%s/toolchain.log", dir);
  int st = run((char *const *)argv, log);
  if (st == 0)
    return 0;
  char msg[400];
  read_log(log, msg, sizeof msg);
  if (st == 127)
    return inst_fail(err, TALLY_INST_ETOOLCHAIN,
                     "%s not found on PATH (Debian: gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf; or set "
                     "TALLY_RISCV_CC): %s", compiler(), msg);
  return inst_fail(err, TALLY_INST_ETOOLCHAIN, "the analysis code did not build (%s exit %d):\n%s", compiler(), st,
                   msg);
}
