# Reaches an all-zero word (illegal) in a named function, no trap handler.
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  li a0, 0x1234
  li a1, -1
  call broken
  j _start
  .text
  .globl broken
  .type broken, @function
broken:
  addi a2, zero, 42
  .word 0
  ret
  .size broken, .-broken
