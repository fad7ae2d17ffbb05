/*
 * HTIF, the host-target interface of Spike and riscv-tests: the program
 * writes a command into the `tohost` word (found from the ELF symbol table)
 * and the host answers in `fromhost`. Supported: device 0 command 0, where
 * an odd value ends the run with status value >> 1 and an even value points
 * at a syscall block (write and exit); device 1 command 1, putchar.
 * The command is taken when its low word is written, so 32-bit programs
 * that store the high word first (device and command) are served too.
 */
#include <string.h>

#include "board.h"

#define HTIF_SYS_WRITE 64
#define HTIF_SYS_EXIT 93

void board_enable_htif(core_cpu *cpu, uint32_t tohost, uint32_t fromhost) {
  board *b = cpu->board;
  b->htif = true;
  b->tohost = tohost;
  b->fromhost = fromhost;
  core_watch_set(cpu, tohost, 8, WATCH_HTIF);
}

static void htif_syscall(core_cpu *cpu, uint32_t block) {
  board *b = cpu->board;
  uint64_t m[4];
  if (!core_read_mem(cpu, block, m, sizeof m))
    return;
  uint64_t ret = (uint64_t)-1;
  if (m[0] == HTIF_SYS_EXIT) {
    cpu->exit_code = (int)m[1];
    core_set_stop(cpu, CORE_STOP_EXIT, "HTIF exit syscall (code %d)", cpu->exit_code);
    return;
  }
  if (m[0] == HTIF_SYS_WRITE && (m[1] == 1 || m[1] == 2) && m[3] < (1u << 20)) {
    char buf[4096];
    uint64_t done = 0;
    while (done < m[3]) {
      uint32_t n = m[3] - done < sizeof buf ? (uint32_t)(m[3] - done) : (uint32_t)sizeof buf;
      if (!core_read_mem(cpu, (uint32_t)m[2] + (uint32_t)done, buf, n))
        break;
      fwrite(buf, 1, n, m[1] == 1 ? b->out : b->err);
      done += n;
    }
    ret = done;
  }
  core_write_mem(cpu, block, &ret, sizeof ret);
}

void board_htif_store(core_cpu *cpu, uint32_t addr, unsigned size) {
  board *b = cpu->board;
  if (!b->htif || addr != b->tohost || size < 4)
    return;
  uint64_t cmd;
  if (!core_read_mem(cpu, b->tohost, &cmd, 8) || cmd == 0)
    return;
  unsigned dev = (unsigned)(cmd >> 56), what = (unsigned)(cmd >> 48) & 0xff;
  uint64_t payload = cmd & 0xffffffffffffull;
  uint64_t zero = 0, ack = 1;
  if (dev == 0 && what == 0) {
    if (payload & 1) {
      cpu->exit_code = (int)(payload >> 1);
      core_set_stop(cpu, CORE_STOP_EXIT, "HTIF tohost exit (code %d)", cpu->exit_code);
      return;
    }
    htif_syscall(cpu, (uint32_t)payload);
  } else if (dev == 1 && what == 1) {
    fputc((int)(payload & 0xff), b->out);
    ack = cmd;
  }
  core_write_mem(cpu, b->tohost, &zero, 8);
  if (b->fromhost)
    core_write_mem(cpu, b->fromhost, &ack, 8);
}
