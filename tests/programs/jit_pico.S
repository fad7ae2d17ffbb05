# The dynamic parts of the PicoRV32 models' timing, for the translator's
# copies of them (src/core/jit_pico.c; tests/api/CMakeLists.txt:
# api.engines.timed-picorv32 compares both engines on it):
#
#   1. shifts by a register amount (sll, srl, sra), every amount 0..31:
#      their steps depend on the amount (two-stage or serial shifter),
#      less what the fetch of the next instruction hides;
#   2. jalr to each kind of target: a 32-bit instruction at 0 mod 4, a
#      32-bit one at 2 mod 4 (two words fetched), a compressed one at 2
#      mod 4 and at 0 mod 4, and from both alignments of the jalr itself;
#   3. loads and stores of every width (the bus transfers counted).
#
# Passes on its own when its sums hold (finisher status 0, else 1, 2, ...).
  .option norelax
  .option rvc
  .section .text.start
  .globl _start
_start:
  # 1. shifts: s2 sums x << n, x >> n, x >>> n for n = 0..31
  li s2, 0
  li t0, 0                  # n
  li t1, 0x80000001         # x
  li t2, 32
1:
  sll t3, t1, t0
  add s2, s2, t3
  srl t3, t1, t0
  add s2, s2, t3
  sra t3, t1, t0
  add s2, s2, t3
  addi t0, t0, 1
  bne t0, t2, 1b
  # (mod 2^32) sll: x + 2 + 4 + ... + 2^31 = 0x7fffffff; srl: x + 2^30 +
  # ... + 1 = 0; sra: x >>> n = -2^(31-n) for n > 0, so x - (2^31 - 1) = 2
  li a7, 1
  li t4, 0x7fffffff + 0 + 2
  bne s2, t4, fail

  # 2. jalr to each target kind, from a jalr at 0 and at 2 mod 4, 16 times
  li s3, 0                  # calls made (each target adds 1)
  li s4, 16
2:
  la a0, t_word0
  la a1, t_word2
  la a2, t_half2
  la a3, t_half0
  .balign 4
  jalr ra, 0(a0)            # jalr at 0 mod 4
  c.nop
  jalr ra, 0(a1)            # ... at 2 mod 4
  jalr ra, 0(a2)
  c.nop
  jalr ra, 0(a3)
  c.jalr a0                 # compressed jalr
  c.jalr a1
  addi s4, s4, -1
  bnez s4, 2b
  li a7, 2
  li t4, 16 * 6
  bne s3, t4, fail

  # 3. loads and stores of every width
  la a0, data
  li t0, 0x12345678
  sw t0, 0(a0)
  sh t0, 4(a0)
  sb t0, 6(a0)
  lw t1, 0(a0)
  lh t2, 4(a0)
  lhu t3, 4(a0)
  lb t4, 6(a0)
  lbu t5, 6(a0)
  add t1, t1, t2
  add t1, t1, t3
  add t1, t1, t4
  add t1, t1, t5
  li a7, 3
  li t6, 0x12345678 + 0x5678 + 0x5678 + 0x78 + 0x78
  bne t1, t6, fail

#include "finish.inc"

  .balign 4
t_word0:                    # a 32-bit instruction at 0 mod 4
  addi s3, s3, 1
  ret
  .balign 4
  c.nop
t_word2:                    # a 32-bit instruction at 2 mod 4
  addi s3, s3, 1
  ret
  .balign 4
  c.nop
t_half2:                    # a compressed instruction at 2 mod 4
  c.addi s3, 1
  ret
  .balign 4
t_half0:                    # a compressed instruction at 0 mod 4
  c.addi s3, 1
  ret

  .section .data
  .balign 4
data:
  .word 0, 0
