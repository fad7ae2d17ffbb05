# Jumps to an address with nothing behind it.
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  li t0, 0x40000000
  jalr ra, 0(t0)
