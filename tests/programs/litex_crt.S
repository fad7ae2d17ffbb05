# Start-up for the litex board (boards/litex.ini): a stack in main RAM,
# then main(); its return value goes to the SiFive-test-style finisher at
# 0xF0000000: 0 as 0x5555 (pass), any other code as (code << 16) | 0x3333.
  .option norvc
  .section .text.start
  .globl _start
_start:
  la sp, _stack_top
  call main
  li t0, 0xF0000000
  bnez a0, 1f
  li t1, 0x5555
  sw t1, 0(t0)
  j 2f
1:
  slli t1, a0, 16
  li t2, 0x3333
  or t1, t1, t2
  sw t1, 0(t0)
2: j 2b
