# Loads from address 0: nothing is mapped there.
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  li t0, 0
  lw a0, 0(t0)
  j _start
