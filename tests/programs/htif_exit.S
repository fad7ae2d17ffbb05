# Ends through HTIF: tohost = (7 << 1) | 1 means exit status 7.
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  li t0, (7 << 1) | 1
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
