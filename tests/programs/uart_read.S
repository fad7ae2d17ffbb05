# Reads stdin through the ns16550 UART by polling the line status (LSR.DR)
# and echoes each byte. A NUL byte read means the UART handed out data that
# was never sent: exit 3 through the test finisher. At the end of input, the
# UART must stay quiet, so the program polls on until tally stops it.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  li t0, 0x10000000
1:
  lbu t1, 5(t0)          # LSR
  andi t1, t1, 0x01      # data ready
  beqz t1, 1b
  lbu t2, 0(t0)          # RBR
  beqz t2, 2f
  sb t2, 0(t0)           # echo
  j 1b
2:
  li t0, 0x100000
  li t1, (3 << 16) | 0x3333
  sw t1, 0(t0)
3: j 3b
