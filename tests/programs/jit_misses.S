# Cache misses on nearly every access, for the translator's miss paths
# (tests/api/CMakeLists.txt: api.engines.timed compares both engines on
# it, api.engines.misses checks that it misses as planned). Passes on its
# own when its sums hold (finisher status 0, else 1, 2, ...).
#
#   1. D-cache: three lines 64 KiB apart (one set of any cache whose way
#      is at most 64 KiB) touched in turn, A B C A B C ..., each access
#      of a different width: with two ways and LRU every access misses,
#      and every line leaving after the first three stores is dirty (a
#      writeback). Three stores set the lines up, then LOOPS trips of
#      three loads and three stores.
#   2. I-cache: a straight run of REPS pairs of a 4-byte and a 2-byte
#      instruction (8.4 KiB: twice a 4 KiB cache, and 4-byte instructions
#      that straddle two lines), run PASSES times: with two ways and LRU
#      every line of it misses on every pass.
#
# Nothing else in the program reads or writes memory, but the finisher.
  .option norelax
  .equ LOOPS, 64
  .equ REPS, 1400
  .equ PASSES, 4
  .section .text.start
  .globl _start
_start:
  li a0, 0x80400000         # line A
  li t0, 0x10000
  add a1, a0, t0            # line B
  add a2, a1, t0            # line C
  li t1, 1
  sw t1, 0(a0)
  li t1, 2
  sh t1, 0(a1)
  li t1, 3
  sb t1, 0(a2)
  li s2, 0                  # sum of the loads
  li s3, LOOPS
1:
  lw t1, 0(a0)
  add s2, s2, t1
  lhu t1, 0(a1)
  add s2, s2, t1
  lbu t1, 0(a2)
  add s2, s2, t1
  sw s3, 4(a0)              # none of the stores overlaps a loaded byte
  sh s3, 6(a1)
  sb s3, 7(a2)
  addi s3, s3, -1
  bnez s3, 1b
  li a7, 1
  li t0, 6 * LOOPS          # (1 + 2 + 3) a trip
  bne s2, t0, fail
  li a7, 2
  lw t1, 4(a0)              # the last trip's stores: s3 was 1
  li t0, 1
  bne t1, t0, fail

  li s4, PASSES
  li a4, 0
  li a5, 0
  .balign 32
2:
  .rept REPS
  .option push
  .option norvc
  addi a5, a5, 1
  .option pop
  .option push
  .option rvc
  c.addi a4, 2
  .option pop
  .endr
  addi s4, s4, -1
  bnez s4, 2b
  li a7, 3
  li t0, REPS * PASSES
  bne a5, t0, fail
  li a7, 4
  li t0, 2 * REPS * PASSES
  bne a4, t0, fail

#include "finish.inc"
