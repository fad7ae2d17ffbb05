# An ELF file with no executable section at all: only data. Reading its
# symbols and line table finds nothing, which must be said, not crash.
  .section .data
  .globl _start
_start:
  .word 0x12345678
