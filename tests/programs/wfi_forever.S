# Waits for an interrupt with none enabled: can never wake.
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  csrw mie, zero
  wfi
  j _start
