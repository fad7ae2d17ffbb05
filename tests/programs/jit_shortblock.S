# A short block (TIMING_HEADS instructions or fewer) entered with a load's
# late result pending, chained after its jump to a block whose first
# instruction reads that result (tests/api/CMakeLists.txt:
# api.engines.timed-shortblock). The short block leaves no late result of
# its own (tail_hz), so the translator chains its exit to the target's
# clean entry, which skips the test of late results; with a load-use
# penalty longer than the short block's cycles the load's result is still
# late at the target (timing_hazard_entry leaves it in tm->hz), and the
# target's first instruction must wait for it as the interpreter makes it.
# Run on the shipped models (load_use_penalty 1: the result is ready
# before the short block ends) and on tally5's with 20 (it is not).
# A third loop guards the loop copy of a short block that loops on itself
# entered so (its way round leaves out the test of late results; the
# late entries go on in the block's own body instead). Passes on its own
# when its sum holds (finisher status 0, else 1).
  .option norelax
  .equ LOOPS, 200
  .section .text.start
  .globl _start
_start:
  la a1, word
  li s2, 0                  # sum of the loads
  li s3, LOOPS
1:
  lw a0, 0(a1)              # late result: a0
  j 2f                      # the block ends with the load's result pending
2:
  j 3f                      # the short block: one instruction, nothing late of its own
3:
  add s2, s2, a0            # reads a0 at the target's first instruction
  addi s3, s3, -1
  bnez s3, 1b
# ... the same with two instructions in the short block, the second
# reading nothing late, and a late result in each of the two slots
  li s3, LOOPS
4:
  lw a0, 0(a1)
  lw a2, 0(a1)
  j 5f
5:
  addi t0, t0, 1
  j 6f
6:
  add s2, s2, a2
  add s2, s2, a0
  addi s3, s3, -1
  bnez s3, 4b
# ... and a short block that loops on itself (the translator's loop copy,
# whose way round leaves out the test of late results), entered with a
# load's result late, the result read after the loop
  li s3, LOOPS
7:
  li s4, 4
  lw a0, 0(a1)
  j 8f
8:
  addi s4, s4, -1
  bnez s4, 8b
  add s2, s2, a0
  addi s3, s3, -1
  bnez s3, 7b
  li a7, 1
  li t0, 4 * LOOPS * 7
  bne s2, t0, fail
#include "finish.inc"

  .data
  .balign 4
word:
  .word 7
