# Every way into a trap handler, once each, at points that are the same on
# tally and on QEMU's virt board (tests/trace checks QEMU runs the same
# pcs), for the trace's and the GDB stub's steps (tests/trace, tests/gdb):
# an ecall, an ebreak (a plain one, not a semihosting call), an illegal
# instruction, a load access fault, and two machine timer interrupts. The
# timer is made due (mtimecmp = 0) while mstatus.MIE is clear, so each
# interrupt is taken right after the instruction that sets MIE, whatever the
# clock's rate: after `csrsi mstatus, 8` (mepc = tag_irq1), and after a
# `wfi` that falls through (the timer is pending and enabled in mie) and the
# `csrsi` after it (mepc = tag_irq2, a store of s1 = 2 to irq_seen).
#
# trap_entry: an exception steps mepc over the instruction (2 or 4 bytes,
# from its low bits); an interrupt pushes mtimecmp to all ones (clearing
# MTIP) and clears MTIE. Each entry adds one to s0 (exceptions) or s1
# (interrupts). Exit through the SiFive test finisher: status 0 when
# s0 = 4 and s1 = 2, else 1.
  .option norelax
  .section .text.start
  .globl _start
_start:
  la sp, _stack_top
  la t0, trap_entry
  csrw mtvec, t0
  li s0, 0
  li s1, 0
  .globl tag_ecall
tag_ecall:
  ecall
  .globl tag_ebreak
tag_ebreak:
  ebreak
  .globl tag_illegal
tag_illegal:
  .word 0xc0001073          # csrrw zero, cycle, zero: a write to a read-only CSR
  .globl tag_load
tag_load:
  lw a0, 0(zero)            # nothing at address 0 on either board
  c.addi a0, 1
  li t1, 0x2004000          # CLINT mtimecmp: 0, due at once
  sw zero, 4(t1)
  sw zero, 0(t1)
  li t0, 0x80               # mie.MTIE
  csrs mie, t0
  csrsi mstatus, 8          # the interrupt is taken after this instruction
  .globl tag_irq1
tag_irq1:
  addi a1, a1, 1
  csrci mstatus, 8
  sw zero, 4(t1)            # due again, MIE clear
  sw zero, 0(t1)
  li t0, 0x80
  csrs mie, t0
  la t2, irq_seen
  wfi                       # pending and enabled: falls through
  csrsi mstatus, 8
  .globl tag_irq2
tag_irq2:
  sw s1, 0(t2)              # irq_seen = 2, after the interrupt (a store GDB watches)
  li t0, 4
  bne s0, t0, fail
  li t0, 2
  bne s1, t0, fail
  li t1, 0x5555             # finisher: pass
  j finish
fail:
  li t1, 0x13333            # finisher: fail with status 1
finish:
  li t0, 0x100000
  sw t1, 0(t0)
1:
  j 1b

  .balign 4
  .globl trap_entry
  .type trap_entry, @function
trap_entry:
  addi sp, sp, -8
  sw t0, 0(sp)
  sw t1, 4(sp)
  csrr t0, mcause
  bltz t0, 2f
  addi s0, s0, 1            # an exception: step over the instruction
  csrr t0, mepc
  lhu t1, 0(t0)
  andi t1, t1, 3
  addi t0, t0, 2
  li t2, 3
  bne t1, t2, 1f
  addi t0, t0, 2
1:
  csrw mepc, t0
  j 3f
2:
  addi s1, s1, 1            # the timer: not due until written again
  li t0, 0x2004000
  li t1, -1
  sw t1, 0(t0)
  sw t1, 4(t0)
  li t0, 0x80
  csrc mie, t0
3:
  lw t0, 0(sp)
  lw t1, 4(sp)
  addi sp, sp, 8
  mret
  .size trap_entry, . - trap_entry

  .data
  .globl irq_seen
irq_seen:
  .word 0
