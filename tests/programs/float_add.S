# Assembled for rv32imafdc: its ELF attributes (Tag_RISCV_arch) ask for F
# and D, and its third instruction (at _start+4: the two li are compressed) is an F one, illegal on tally's
# RV32IMAC: tally run warns before the run and notes it in the trap report
# (tests/cli/newuser.py).
  .section .text.start
  .globl _start
_start:
  li a0, 1
  li a1, 2
  fadd.s fa0, fa1, fa2
  j _start
