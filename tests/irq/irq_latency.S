# irq_latency.S - a loop of RV32I instructions (no M, no C: every shipped
# core model decodes it) that PLIC sources 5 and 6 interrupt.
#
# Sources 5 (priority 1) and 6 (priority 2) are enabled for hart 0's
# M-mode context, threshold 0, mie.MEIE and mstatus.MIE set. The handler's
# first instruction reads mcycle: the cycle it begins at. The handler
# claims, logs "SRC CYCLE" and completes, until the loop ends; then the
# log is printed in hex, one interrupt a line ("06 0000012a"), and the
# program exits with status 0 through the test finisher.
  .option norvc
  .option norelax
#define PLIC          0x0c000000
#define PLIC_ENABLE0  0x0c002000
#define PLIC_CTX0     0x0c200000
#define UART          0x10000000
#define FINISHER      0x00100000
#define ITERATIONS    150

  .section .text.start
  .globl _start
_start:
  la    sp, _stack_top
  la    t0, handler
  csrw  mtvec, t0
  la    s10, log                # the handler's log pointer
  li    t0, PLIC
  li    t1, 1
  sw    t1, 5*4(t0)             # priority[5] = 1
  li    t1, 2
  sw    t1, 6*4(t0)             # priority[6] = 2
  li    t0, PLIC_ENABLE0
  li    t1, (1 << 5) | (1 << 6)
  sw    t1, 0(t0)
  li    t0, PLIC_CTX0
  sw    zero, 0(t0)             # threshold 0
  li    t0, 0x800
  csrw  mie, t0                 # MEIE
  csrsi mstatus, 8              # MIE
  li    s1, ITERATIONS
  la    s2, data
loop:
  lw    a0, 0(s2)
  addi  a1, a0, 7
  xor   a2, a1, a0
  sll   a3, a2, a1
  sw    a3, 4(s2)
  add   a4, a3, a2
  jal   ra, leaf
  sltu  a5, a4, a3
  addi  s1, s1, -1
  bnez  s1, loop
  csrci mstatus, 8              # no more interrupts: print the log
  la    s3, log
print:
  bgeu  s3, s10, done
  lw    a0, 0(s3)
  li    a1, 2
  jal   ra, puthex
  li    a0, ' '
  jal   ra, putc
  lw    a0, 4(s3)
  li    a1, 8
  jal   ra, puthex
  li    a0, '\n'
  jal   ra, putc
  addi  s3, s3, 8
  j     print
done:
  li    t0, FINISHER
  li    t1, 0x5555
  sw    t1, 0(t0)
1: j 1b

leaf:
  addi  a6, a6, 1
  ret

# a0: the value, a1: hex digits (from the top of those)
puthex:
  mv    t3, ra
  mv    t4, a0
  slli  t5, a1, 2
1:
  addi  t5, t5, -4
  srl   a0, t4, t5
  andi  a0, a0, 15
  li    t0, 10
  blt   a0, t0, 2f
  addi  a0, a0, 'a' - '0' - 10
2:
  addi  a0, a0, '0'
  jal   ra, putc
  bnez  t5, 1b
  mv    ra, t3
  ret

putc:
  li    t0, UART
  sb    a0, 0(t0)
  ret

  .align 6
handler:
  csrr  t6, mcycle              # first instruction: the cycle it begins at
  li    t5, PLIC_CTX0
  lw    t4, 4(t5)               # claim
  sw    t4, 0(s10)
  sw    t6, 4(s10)
  addi  s10, s10, 8
  sw    t4, 4(t5)               # complete
  mret

  .data
  .align 4
data: .word 0x1234, 0
log:  .space 8 * 64
