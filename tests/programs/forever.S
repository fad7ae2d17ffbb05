# Never ends: for --max-insns and --timeout. Four instructions per turn.
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  li a0, 0
spin:
  addi a0, a0, 1
  addi a1, a1, 2
  addi a2, a2, 3
  j spin
