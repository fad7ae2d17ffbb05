# uart_echo.S - interrupt-driven UART receive: sleeps in wfi; the UART's
# received-data interrupt (PLIC source 10) wakes it; the handler claims,
# echoes every byte waiting, completes. A 'q' ends the run (status 0)
# after a line "n=XX": the interrupts taken, in hex.
  .option norvc
  .option norelax
#define PLIC          0x0c000000
#define PLIC_ENABLE0  0x0c002000
#define PLIC_CTX0     0x0c200000
#define UART          0x10000000
#define FINISHER      0x00100000

  .section .text.start
  .globl _start
_start:
  la    t0, handler
  csrw  mtvec, t0
  li    s11, 0                  # interrupts taken
  li    s9, 0                   # a 'q' was seen
  li    t0, PLIC
  li    t1, 3
  sw    t1, 10*4(t0)            # priority[10] = 3
  li    t0, PLIC_ENABLE0
  li    t1, 1 << 10
  sw    t1, 0(t0)
  li    t0, UART
  li    t1, 1
  sb    t1, 1(t0)               # IER: received data available
  li    t0, 0x800
  csrw  mie, t0
  csrsi mstatus, 8
sleep:
  wfi
  beqz  s9, sleep
  csrci mstatus, 8
  li    t0, UART
  li    t1, 'n'
  sb    t1, 0(t0)
  li    t1, '='
  sb    t1, 0(t0)
  srli  t1, s11, 4
  andi  t1, t1, 15
  addi  t1, t1, '0'
  sb    t1, 0(t0)
  andi  t1, s11, 15
  addi  t1, t1, '0'
  sb    t1, 0(t0)
  li    t1, '\n'
  sb    t1, 0(t0)
  li    t0, FINISHER
  li    t1, 0x5555
  sw    t1, 0(t0)
1: j 1b

  .align 6
handler:
  addi  s11, s11, 1
  li    t5, PLIC_CTX0
  lw    t4, 4(t5)               # claim
  li    t0, UART
1:
  lbu   t1, 5(t0)               # LSR
  andi  t1, t1, 1
  beqz  t1, 2f
  lbu   t2, 0(t0)               # RBR
  sb    t2, 0(t0)               # echo
  li    t3, 'q'
  bne   t2, t3, 1b
  li    s9, 1
  j     1b
2:
  sw    t4, 4(t5)               # complete
  mret
