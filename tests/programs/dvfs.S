# DVFS through the control block: a switch inside the core model's range
# (50 MHz, 1.0 V) is applied; one outside it (4,294,967 mV, as a program
# writing garbage would) is refused: STATUS bit 0 set, the clock and
# voltage unchanged. Exits 0 when all of that holds, else the number of
# the first check that failed, through the test finisher.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  li s0, 0x00110000      # control block
  li s1, 0x100000        # test finisher
  li t0, 50000
  sw t0, 0x10(s0)        # FREQ_KHZ
  li t0, 1000
  sw t0, 0x14(s0)        # VOLT_MV
  sw zero, 0x18(s0)      # APPLY
  li a0, 1
  lw t1, 0x1c(s0)        # STATUS: accepted
  bnez t1, fail
  li a0, 2
  lw t1, 0x10(s0)
  li t0, 50000
  bne t1, t0, fail
  li t0, 4294967
  sw t0, 0x14(s0)        # 4.29 MV
  sw zero, 0x18(s0)
  li a0, 3
  lw t1, 0x1c(s0)        # STATUS: refused
  li t0, 1
  bne t1, t0, fail
  li a0, 4
  lw t1, 0x14(s0)        # the voltage stayed at 1.0 V
  li t0, 1000
  bne t1, t0, fail
  li a0, 5
  lw t1, 0x10(s0)        # and the clock at 50 MHz
  li t0, 50000
  bne t1, t0, fail
  li t0, 1001000         # 1,001 MHz: above the PLL's 1,000
  sw t0, 0x10(s0)
  li t0, 1000
  sw t0, 0x14(s0)
  sw zero, 0x18(s0)
  li a0, 6
  lw t1, 0x1c(s0)
  beqz t1, fail
  li a0, 0
fail:
  slli a0, a0, 16        # (code << 16) | 0x3333: exit with code
  li t0, 0x3333
  or a0, a0, t0
  sw a0, 0(s1)
1: j 1b
