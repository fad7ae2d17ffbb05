/*
 * libgcc's millicode prologues and epilogues (-msave-restore): a function
 * that keeps all twelve saved registers live across calls saves them by
 * "jal t0, __riscv_save_12" and restores them by "j __riscv_restore_12".
 * __riscv_save_12 jumps into the middle of __riscv_save_10, which jumps
 * into the middle of __riscv_save_4; __riscv_restore_12 runs on into
 * __riscv_restore_10, __riscv_restore_4 and __riscv_restore_0, whose ret
 * returns to keep12's caller (docs/profile.md, "Millicode").
 *
 * main calls keep12 3 times; keep12 calls leaf 12 times per call:
 *   keep12: 3 calls; leaf: 36 calls, all from keep12
 *   keep12 -> __riscv_save_12: 3 calls (its prologue)
 *   main -> __riscv_restore_12: 3 (keep12's epilogue jumps there in
 *   keep12's place, so the arc is from keep12's caller), and main -> each
 *   restore entry point it runs on into: 3
 * The names of the entry points (several share an address) come from the
 * ELF's own symbol table in check_profile.py, the chain from objdump.
 */
#include "pstart.h"

__attribute__((noipa)) unsigned leaf(unsigned x) { return x * 3u + 1u; }

__attribute__((noipa)) unsigned keep12(unsigned n) {
  unsigned v0 = n, v1 = n + 1, v2 = n + 2, v3 = n + 3, v4 = n + 4, v5 = n + 5;
  unsigned v6 = n + 6, v7 = n + 7, v8 = n + 8, v9 = n + 9, v10 = n + 10, v11 = n + 11;
  v0 = leaf(v0); v1 = leaf(v1); v2 = leaf(v2); v3 = leaf(v3);
  v4 = leaf(v4); v5 = leaf(v5); v6 = leaf(v6); v7 = leaf(v7);
  v8 = leaf(v8); v9 = leaf(v9); v10 = leaf(v10); v11 = leaf(v11);
  return v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7 ^ v8 ^ v9 ^ v10 ^ v11;
}

int main(void) {
  unsigned x = 0;
  for (unsigned i = 0; i < 3; i++) {
    KEEP(i);
    x += keep12(i);
  }
  KEEP(x);
  return 0;
}
