# Reports the failure of test 256 through HTIF, as riscv-tests do:
# tohost = (256 << 1) | 1. The code's low byte is 0, so an exit status of
# (code & 0xff) would say success: tally must say failure.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  li t0, (256 << 1) | 1
  la t1, tohost
  sw t0, 0(t1)
  sw zero, 4(t1)
1: j 1b
  .data
  .balign 8
  .globl tohost
tohost: .dword 0
  .globl fromhost
fromhost: .dword 0
