/*
 * Boards through the public API (include/tally/tally.h): finding a board
 * description by name or path, and what a board is before a simulation
 * is made of it. The descriptions themselves: src/board/board_desc.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../board/board_desc.h"
#include "api_internal.h"
#include "tally/tally.h"

/* The path list: $TALLY_BOARDS_PATH, then the source tree's boards/. */
static void board_path(char *buf, size_t size) {
  const char *env = getenv("TALLY_BOARDS_PATH");
  if (env && *env)
    snprintf(buf, size, "%s:%s", env, TALLY_BOARDS_DIR);
  else
    snprintf(buf, size, "%s", TALLY_BOARDS_DIR);
}

int api_board_read(const char *board, board_desc *d, tally_error *err) {
  if (!board) {
    board_desc_virt(d);
    return 0;
  }
  char dirs[8192];
  board_path(dirs, sizeof dirs);
  bool is_file;
  char msg[sizeof err->msg];
  if (board_desc_load(d, board, dirs, &is_file, msg, sizeof msg) != 0)
    return api_fail(err, is_file ? TALLY_E_INPUT : TALLY_E_USAGE, "%s", msg);
  return 0;
}

int tally_board_lookup(const char *board, tally_board_info *info, tally_error *err) {
  board_desc *d = malloc(sizeof *d);
  if (!d)
    return api_error(err, "out of memory");
  int rc = api_board_read(board, d, err);
  if (rc == 0) {
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", d->name);
    snprintf(info->description, sizeof info->description, "%s", d->description);
    info->ram_base = d->regions[0].base;
    info->ram_size = (uint32_t)d->regions[0].size;
    info->semihosting = d->semihosting;
  }
  free(d);
  return rc;
}

int tally_config_set_board(tally_config *cfg, const char *board, tally_error *err) {
  tally_board_info info;
  if (tally_board_lookup(board, &info, err) != 0)
    return -1;
  cfg->board = board;
  return 0;
}

void tally_board_names(char *buf, size_t size) {
  char dirs[8192], names[64][64];
  board_path(dirs, sizeof dirs);
  size_t n = board_desc_list(dirs, names, 64), len = 0;
  if (size)
    buf[0] = '\0';
  for (size_t i = 0; i < n && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
}
