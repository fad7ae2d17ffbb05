/* fence between compressed and 32-bit instructions, and every counter read
 * (rdtime reads the cycle counter on PicoRV32; the exit status holds
 * rdcycle - rdtime + rdcycleh + rdinstreth: the reads' spacing). */
  .option rvc
  .section .text.start, "ax"
  .globl _start
_start:
  fence
  c.nop
  fence
  addi a0, a0, 1
  fence
  rdtime a1
  rdcycle a2
  rdcycleh a3
  rdinstreth a4
  sub a0, a2, a1
  add a0, a0, a3
  add a0, a0, a4
  c.nop
  fence
  slli a0, a0, 16
  li t0, 0x100000
  li t1, 0x3333
  or a0, a0, t1
  sw a0, 0(t0)
