/*
 * libFuzzer target: the ELF loader through the public API, as an embedder
 * (the web front end) uses it on an uploaded program. The bytes become a
 * file (an in-memory one, memfd) that tally_load_elf loads into a small
 * board; when it loads, the program's symbols are looked up and it runs a
 * few hundred instructions, so what the loader accepted is used too.
 * Nothing may crash, leak or read outside its buffers; a refusal must say
 * why.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tally/tally.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int fd = memfd_create("fuzz.elf", MFD_CLOEXEC);
  if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
    if (fd >= 0)
      close(fd);
    return 0;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  tally_config cfg;
  tally_config_default(&cfg);
  cfg.ram_size = 1u << 20;
  cfg.in_fd = -1;
  cfg.out = cfg.err = fopen("/dev/null", "w");
  tally_sim *sim = tally_sim_new(&cfg);
  tally_error err;
  if (sim && tally_set_host_files(sim, TALLY_HOST_FILES_NONE, NULL, &err) == 0) {
    if (tally_load_elf(sim, path, &err) == 0) {
      char buf[160];
      tally_symbolize(sim, tally_pc(sim), buf, sizeof buf);
      tally_disasm_at(sim, tally_pc(sim), buf, sizeof buf);
      tally_run(sim, 500);
    } else if (!err.msg[0]) {
      __builtin_trap(); /* refused without a reason */
    }
  }
  tally_sim_free(sim);
  if (cfg.out)
    fclose(cfg.out);
  close(fd);
  return 0;
}
