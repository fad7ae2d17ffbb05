# Data in the last 256-byte chunk of the code (a small program's .data or
# .bss placed right after its .text, as a LiteX-style link does): stores
# there change no instruction, so they must not drop the predecoded and
# translated blocks (tests/programs/CMakeLists.txt counts the blocks
# translated), while a store into an instruction of that same chunk must
# still be seen by the next fetch. Self-checking: finisher status 0, else
# the failing check's number.
  .option norelax
  .option norvc
  .section .text.start
  .globl _start
_start:
  la sp, _stack_top
  # 1. 1000 rounds of stores into `buf`, beside the loop's own code
  la t0, buf
  li t1, 1000
  li t2, 0
1:
  sw t2, 0(t0)
  sb t2, 5(t0)
  lw t3, 0(t0)
  add t2, t2, t3
  addi t2, t2, 1
  addi t1, t1, -1
  bnez t1, 1b
  lw t4, 0(t0)
  li a7, 1
  beqz t4, fail
  # 2. a store into the next instruction of this chunk is seen at once
  la t0, patch
  lw t1, insn_li_a0_42
  sw t1, 0(t0)
patch:
  addi a0, zero, 1          # becomes addi a0, zero, 42
  li t2, 42
  li a7, 2
  bne a0, t2, fail
#include "finish.inc"
  .balign 4
insn_li_a0_42:
  addi a0, zero, 42
buf:
  .space 16
