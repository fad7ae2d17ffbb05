# Prints through the ns16550 UART, then exits with status 3 through the
# SiFive test finisher ((3 << 16) | 0x3333).
  .option norvc     # fixed 4-byte encodings and no linker relaxation keep
  .option norelax   # the hand-computed addresses in the tests simple
  .section .text.start
  .globl _start
_start:
  li t0, 0x10000000
  la t1, msg
1:
  lbu t2, 0(t1)
  beqz t2, 2f
  sb t2, 0(t0)
  addi t1, t1, 1
  j 1b
2:
  lbu t2, 5(t0)          # wait for the transmitter to drain
  andi t2, t2, 0x40
  beqz t2, 2b
  li t0, 0x100000
  li t1, (3 << 16) | 0x3333
  sw t1, 0(t0)
3: j 3b
  .section .rodata
msg: .asciz "hello from the uart\n"
