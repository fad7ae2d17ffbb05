# Loops whose translated loop copy skips the D-cache lookup of a line its
# latest lookup was on (jit.c's loop_dline_ok), and the cases where it must
# not (tests/api/CMakeLists.txt: api.engines.timed compares both engines on
# it, cycles and every signal; a wrong skip leaves the LRU bits otherwise and
# the third line of a set then evicts another). Passes on its own when its
# sums hold (finisher status 0, else 1, 2, ...).
#
#   1. a byte-wise fill of 256 bytes (sb, two adds, bnez: one store a round,
#      31 of 32 rounds on the line of the round before), then its sum;
#   2. loads in turn from two lines of one set (A, B 64 KiB apart: the
#      same set of any cache whose way is at most 64 KiB), a round each,
#      then a third line C of the set and A again;
#   3. stores in turn to a word in the loop's own watched 256 bytes of
#      code and to a line X of its set, then a third line of the set and
#      X again: the watched store takes the slow path, where C makes the
#      access and leaves the block (a flush pending), so the loop comes
#      back through its entry, which forgets the line.
  .option norelax
  .equ ROUNDS, 41             # odd: each loop of two lines ends on its first
  .section .text.start
  .globl _start
_start:
  # 1: fill
  la a0, buf
  li a1, 0x5a
  li a2, 256
  mv t1, a0
1:
  sb a1, 0(t1)
  addi a2, a2, -1
  addi t1, t1, 1
  bnez a2, 1b
  li s2, 0
  li a2, 64
  mv t1, a0
2:
  lw t2, 0(t1)
  add s2, s2, t2
  addi a2, a2, -1
  addi t1, t1, 4
  bnez a2, 2b
  li a7, 1
  li t0, 64 * 0x5a5a5a5a
  bne s2, t0, fail

  # 2: A and B in turn, then C, then A
  li a0, 0x80400000         # line A
  li t0, 0x10000
  add a1, a0, t0            # line B
  add a2, a1, t0            # line C
  li t1, 7
  sw t1, 0(a0)
  li t1, 9
  sw t1, 0(a1)
  xor t3, a0, a1            # A ^ B: the next round's line
  mv t4, a0
  li s3, ROUNDS
  li s2, 0
3:
  lw t1, 0(t4)
  xor t4, t4, t3
  add s2, s2, t1
  addi s3, s3, -1
  bnez s3, 3b
  lw t1, 0(a2)
  lw t1, 0(a0)
  li a7, 2
  li t0, 7 * (ROUNDS + 1) / 2 + 9 * (ROUNDS - 1) / 2
  bne s2, t0, fail

  # 3: the watched word and X in turn, then Y, then X
  la a0, wword
  li t0, 0x10000
  add a1, a0, t0            # X: the watched word's set
  add a2, a1, t0            # Y
  xor t3, a0, a1
  mv t4, a1
  li s3, ROUNDS
  .balign 256
4:
  sw s3, 0(t4)
  xor t4, t4, t3
  addi s3, s3, -1
  bnez s3, 4b
  j 5f
wword:                      # in the loop's 256 bytes of code: its stores take the slow path
  .word 0
5:
  lw t1, 0(a2)
  lw t1, 0(a1)
  li a7, 3
  li t0, 1                  # X's last store: s3 was 1
  bne t1, t0, fail
  li a7, 4
  lw t1, 0(a0)
  li t0, 2
  bne t1, t0, fail

#include "finish.inc"

  .section .bss
  .balign 32
buf:
  .space 256
