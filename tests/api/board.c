/*
 * Boards through the public API (include/tally/tally.h, docs/boards.md): a
 * client of the public API only.
 *
 *   - tally_config_default is the virt board: RAM at 0x80000000, 128 MiB;
 *   - tally_board_lookup("litex") says what boards/litex.ini says (RAM at
 *     0x40000000, 256 MiB, no semihosting, the control block at
 *     0xF0002000), and an unknown name is a usage error naming the
 *     shipped boards;
 *   - tally_config_set_board refuses a bad name and leaves the config as
 *     it was; tally_sim_open on litex runs litex_hello.elf, whose output
 *     ("litex: sum 1..10 = 55\n", by hand from its source) comes through
 *     the board's UART into the config's stream and whose exit status is 7;
 *   - a RAM size the board's map has no room for is a usage error, one
 *     that just fits is not;
 *   - the same program on virt is refused by the loader.
 *
 * usage: test_api_board LITEX_HELLO.elf
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally/tally.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_api_board LITEX_HELLO.elf\n");
    return 2;
  }
  const char *elf = argv[1];
  tally_error err;
  tally_config cfg;
  tally_config_default(&cfg);
  CHECK(cfg.board == NULL && cfg.ram_size == 0, "the default config names no board and the board's RAM size");

  tally_sim *sim = tally_sim_open(&cfg, &err);
  CHECK(sim && !strcmp(tally_board_name(sim), "virt") && tally_ram_base(sim) == 0x80000000u &&
            tally_ram_size(sim) == (128u << 20),
        "the default board is virt with 128 MiB at 0x80000000");
  tally_sim_free(sim);

  tally_board_info info;
  CHECK(tally_board_lookup("litex", &info, &err) == 0, "litex: %s", err.msg);
  CHECK(!strcmp(info.name, "litex") && info.ram_base == 0x40000000u && info.ram_size == (256u << 20) &&
            !info.semihosting && info.has_control && info.control_base == 0xF0002000u,
        "litex: %s at 0x%08x, %u bytes, semihosting %d", info.name, info.ram_base, info.ram_size, info.semihosting);
  CHECK(tally_board_lookup("nope", &info, &err) == -1 && err.code == TALLY_E_USAGE &&
            strstr(err.msg, "unknown board 'nope' (shipped boards: litex, virt"),
        "nope: %s", err.msg);

  CHECK(tally_config_set_board(&cfg, "nope", &err) == -1 && cfg.board == NULL, "a bad name leaves the config");
  CHECK(tally_config_set_board(&cfg, "litex", &err) == 0 && !strcmp(cfg.board, "litex"), "set litex: %s", err.msg);

  char out[256] = "";
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  cfg.out = f;
  sim = tally_sim_open(&cfg, &err);
  CHECK(sim != NULL, "open litex: %s", err.msg);
  if (sim) {
    CHECK(tally_ram_base(sim) == 0x40000000u, "litex's RAM base: 0x%08x", tally_ram_base(sim));
    CHECK(tally_load_elf(sim, elf, &err) == 0, "load on litex: %s", err.msg);
    tally_stop s;
    while ((s = tally_run(sim, 1000000)) == TALLY_STOP_LIMIT)
      ;
    CHECK(s == TALLY_STOP_EXIT && tally_exit_code(sim) == 7, "stop %d, exit %d", (int)s, tally_exit_code(sim));
    tally_sim_free(sim);
  }
  fclose(f);
  CHECK(!strcmp(out, "litex: sum 1..10 = 55\n"), "output '%s'", out);

  cfg.ram_size = 1u << 30; /* 0x40000000 + 1 GiB ends where the IO region at 0x80000000 starts */
  sim = tally_sim_open(&cfg, &err);
  CHECK(sim != NULL, "1 GiB on litex: %s", err.msg);
  tally_sim_free(sim);
  cfg.ram_size = (1u << 30) + 4096; /* one page into it */
  sim = tally_sim_open(&cfg, &err);
  CHECK(!sim && err.code == TALLY_E_USAGE && strstr(err.msg, "overlaps"), "1 GiB + 4 KiB on litex: %s",
        sim ? "opened" : err.msg);
  tally_sim_free(sim);

  tally_config_default(&cfg);
  sim = tally_sim_open(&cfg, &err);
  CHECK(sim && tally_load_elf(sim, elf, &err) == -1 && strstr(err.msg, "below RAM"), "on virt: %s", err.msg);
  tally_sim_free(sim);

  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
