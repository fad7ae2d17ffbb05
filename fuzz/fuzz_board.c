/*
 * libFuzzer target: the board-file reader (src/board/board_desc.c), which
 * reads the --board FILE a user names. The bytes are the file (a memfd
 * named by its /proc path); a bad one must be refused with a reason, a
 * good one must describe a memory map whose RAM passes its own check.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "board/board_desc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int fd = memfd_create("board.ini", MFD_CLOEXEC);
  if (fd < 0)
    return 0;
  if (write(fd, data, size) != (ssize_t)size) {
    close(fd);
    return 0;
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  board_desc d;
  bool is_file;
  char err[512] = "";
  int rc = board_desc_load(&d, path, "", &is_file, err, sizeof err);
  if (rc != 0 && !err[0])
    __builtin_trap(); /* refused without a reason */
  if (rc == 0 && board_desc_check_ram(&d, d.regions[0].size, err, sizeof err) != 0)
    __builtin_trap(); /* accepted a map whose own RAM does not fit it */
  close(fd);
  return 0;
}
