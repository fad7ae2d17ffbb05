/*
 * --board NAME|FILE for the subcommands that run a program (docs/boards.md):
 * the board's RAM base and size decide where a raw binary goes and how much
 * RAM an ELF file gets. A name that is no board is a usage error (64), a
 * board file that cannot be read or is damaged is bad input (66).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tally/tally.h"

static int board_status(const tally_error *err) {
  return err->code == TALLY_E_INPUT ? EXIT_NOINPUT : err->code == TALLY_E_USAGE ? EXIT_USAGE : EXIT_INTERNAL;
}

int cli_board_config(tally_config *cfg, const char *board, const char *program, bool raw, uint64_t ram_size,
                     uint32_t *ram_base, const char *cmd) {
  tally_board_info info;
  tally_error err;
  if (tally_board_lookup(board, &info, &err) != 0) {
    fprintf(stderr, "tally %s: --board %s: %s\n", cmd, board, err.msg);
    return board_status(&err);
  }
  cfg->board = board;
  cfg->ram_size = ram_size ? (uint32_t)ram_size : info.ram_size;
  if (!raw && !ram_size && program) {
    /* an ELF that needs more, up to twice the board's RAM (256 MiB on
     * virt: tally inst's output), gets it; beyond that a segment outside
     * RAM is an error */
    uint64_t need = tally_elf_ram_needed_at(program, info.ram_base);
    if (need > cfg->ram_size && need <= 2ull * info.ram_size && need <= 0x80000000ull)
      cfg->ram_size = (uint32_t)need;
  }
  if (ram_base)
    *ram_base = info.ram_base;
  return 0;
}

struct tally_sim *cli_sim_open(const tally_config *cfg, const char *cmd, int *status) {
  tally_error err;
  tally_sim *sim = tally_sim_open(cfg, &err);
  if (!sim) {
    if (cfg->board)
      fprintf(stderr, "tally %s: --board %s: %s\n", cmd, cfg->board, err.msg);
    else
      fprintf(stderr, "tally %s: %s\n", cmd, err.msg);
    *status = board_status(&err);
  }
  return sim;
}
