# A fetch fault the program handles: a jump to an address with nothing
# behind it (on tally's board) goes to trap_entry, which exits through the
# SiFive test finisher with status 0 when mcause is 1 (instruction access
# fault) and mepc the jump's target, else 1. For tally_step's laws
# (tests/api/step.c): the jump retires and the fault is taken in one step.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  la t0, trap_entry
  csrw mtvec, t0
  li t1, 0x40000000
  .globl tag_jump
tag_jump:
  jalr zero, 0(t1)

  .balign 4
  .globl trap_entry
trap_entry:
  li t2, 0x13333            # finisher: fail with status 1
  csrr t0, mcause
  li t3, 1
  bne t0, t3, 1f
  csrr t0, mepc
  bne t0, t1, 1f
  li t2, 0x5555             # finisher: pass
1:
  li t0, 0x100000
  sw t2, 0(t0)
2:
  j 2b
