# The cases where a translator of blocks into host code can part from the
# interpreter (tests/api/engines.c runs this under both engines and
# compares every register, the memory and the counts; it passes on its own
# when its checks hold: finisher status 0, else 1, 2, ...):
#
#   1. a store into the code ahead in the same straight-line run, with no
#      fence.i: the next fetch sees the new instruction (tally's rule: a
#      store into predecoded code ends the block after it);
#   2. code patched and run again after fence.i, three times;
#   3. a load access fault in the middle of a straight-line run (mepc is
#      its pc, the instructions before it retired, none after it);
#   4. a misaligned AMO in the middle of a run (an instruction the
#      translator leaves to the interpreter);
#   5. timer interrupts landing inside a 40-instruction straight-line
#      block that runs in a loop: each handler call moves mtimecmp a few
#      ticks on, so they fall at different instructions of it; their
#      mepcs are kept in irq_rec. At least one must be inside the block
#      (not its first instruction);
#   6. a load's late result used at once by the block it runs on into.
#
# The handler clobbers t3..t6 only; s0 counts exceptions, s1 interrupts.
  .option norelax
  .section .text.start
  .globl _start
_start:
  la sp, _stack_top
  la t0, trap_entry
  csrw mtvec, t0
  li s0, 0
  li s1, 0

  # 1. a store patches the code ahead, same block
  la t0, patch1
  lw t1, insn_li_a0_42
  sw t1, 0(t0)
  addi a1, zero, 7
  .option push
  .option norvc             # the patched instructions are 4 bytes
patch1:
  addi a0, zero, 1          # becomes addi a0, zero, 42
  .option pop
  li t2, 42
  li a7, 1
  bne a0, t2, fail

  # 2. patch, fence.i, call: func returns 0, then 1, then 2
  li s2, 0                  # sum
  li s3, 0                  # i
  la s4, func
  lw s5, insn_li_a0_0
2:
  slli t0, s3, 20
  or t0, t0, s5             # addi a0, zero, i
  sw t0, 0(s4)
  fence.i
  jalr ra, 0(s4)
  add s2, s2, a0
  addi s3, s3, 1
  li t0, 3
  blt s3, t0, 2b
  li a7, 2
  li t0, 3                  # 0 + 1 + 2
  bne s2, t0, fail

  # 3. a load fault in the middle of a run
  li a2, 0
  addi a2, a2, 1
  addi a2, a2, 1
  .globl tag_mid_fault
tag_mid_fault:
  lw a3, 0(zero)            # nothing at address 0: a load access fault
  addi a2, a2, 1
  addi a2, a2, 1
  li a7, 3
  li t0, 4
  bne a2, t0, fail
  li t0, 1
  bne s0, t0, fail
  la t0, tag_mid_fault
  lw t1, exc_epc
  bne t0, t1, fail

  # 4. a misaligned AMO in the middle of a run
  la t0, scratch
  addi t0, t0, 2
  addi a2, a2, 1
  amoadd.w a4, a2, (t0)     # misaligned: a store/AMO address misaligned trap
  addi a2, a2, 1
  li a7, 4
  li t0, 2
  bne s0, t0, fail
  li t0, 6
  bne a2, t0, fail

  # 5. timer interrupts inside a straight-line block
  li t0, 0x200bff8          # CLINT mtime
  lw t1, 0(t0)
  addi t1, t1, 3
  li t0, 0x2004000          # mtimecmp = mtime + 3: lo all ones, hi, lo
  li t2, -1
  sw t2, 0(t0)
  sw zero, 4(t0)
  sw t1, 0(t0)
  li t0, 0x80
  csrs mie, t0
  csrsi mstatus, 8
  li s6, 200                # trips
  li a5, 0
3:
  .globl tag_block
tag_block:
  .rept 40
  addi a5, a5, 3
  .endr
  addi s6, s6, -1
  bnez s6, 3b
  csrci mstatus, 8
  li a7, 5
  li t0, 24000              # 200 trips of 40 additions of 3
  bne a5, t0, fail
  li t0, 12
  bne s1, t0, fail          # the handler stops the timer after 12
  # at least one interrupt taken inside the block, not at its start
  la t0, irq_rec
  la t1, tag_block
  li t2, 0
  li a6, 0
4:
  lw a1, 0(t0)
  sub a1, a1, t1
  sltiu a1, a1, 160         # 40 four-byte instructions
  add a6, a6, a1
  addi t0, t0, 4
  addi t2, t2, 1
  li a1, 12
  blt t2, a1, 4b
  li a7, 6
  beqz a6, fail

  # 6. a late result across a block's end: a block cut after its 64th
  #    instruction, a load, runs on into one that uses the loaded value
  #    at once (tally5's load-use stall, charged at the next block's
  #    entry), round a loop (chained jumps go past the tests of a block's
  #    entry only from blocks that leave no late result)
  la t0, scratch
  li a2, 5
  sw a2, 0(t0)
  li a3, 0
  li a4, 0
  li a5, 4
6:
  .rept 63
  addi a4, a4, 1
  .endr
  lw a2, 0(t0)
  add a3, a3, a2
  addi a5, a5, -1
  bnez a5, 6b
  li a7, 7
  li t1, 20
  bne a3, t1, fail

#include "finish.inc"

  .balign 4
func:
  .option push
  .option norvc
  addi a0, zero, 0          # patched
  .option pop
  ret

  .balign 4
trap_entry:
  csrr t3, mcause
  bltz t3, 2f
  addi s0, s0, 1            # an exception: note mepc, step over it
  csrr t4, mepc
  la t5, exc_epc
  sw t4, 0(t5)
  lhu t5, 0(t4)
  andi t5, t5, 3
  addi t4, t4, 2
  li t6, 3
  bne t5, t6, 1f
  addi t4, t4, 2
1:
  csrw mepc, t4
  mret
2:
  csrr t4, mepc             # an interrupt: note where, then the next
  la t5, irq_rec
  slli t6, s1, 2
  add t5, t5, t6
  sw t4, 0(t5)
  addi s1, s1, 1
  li t5, 0x2004000
  li t6, -1
  sw t6, 0(t5)              # not due while it changes
  li t4, 12
  bge s1, t4, 3f            # enough: the timer stays off
  li t4, 0x200bff8
  lw t4, 0(t4)
  andi t6, s1, 7
  addi t6, t6, 5            # 5..12 ticks on: 50..120 instructions
  add t4, t4, t6
  sw zero, 4(t5)
  sw t4, 0(t5)
3:
  mret

  .data
  .balign 4
insn_li_a0_42:
  .word 0x02a00513          # addi a0, zero, 42
insn_li_a0_0:
  .word 0x00000513          # addi a0, zero, 0
exc_epc:
  .word 0
irq_rec:
  .fill 16, 4, 0
scratch:
  .fill 4, 4, 0
