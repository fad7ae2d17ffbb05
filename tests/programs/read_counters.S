/* Reads mcycle, minstret and mhpmcounter3, then exits through HTIF with
   status 0 when mcycle - minstret is the same before and after a loop
   (mcycle counts instructions: no core model), 1 when it is not. The
   first read is at _start+0: tests/cli/newuser.py expects tally run's
   message to name "mcycle" at that address. */
  .option norvc
  .section .text.start
  .globl _start
_start:
  csrr s0, mcycle
  csrr s1, minstret
  csrr s2, mhpmcounter3
  li t0, 100
1:
  addi t0, t0, -1
  bnez t0, 1b
  csrr s3, mcycle
  csrr s4, minstret
  sub t1, s0, s1
  sub t2, s3, s4
  bne t1, t2, 2f
  li t0, (0 << 1) | 1
  j 3f
2:
  li t0, (1 << 1) | 1
3:
  la t1, tohost
  sw t0, 0(t1)
  sw zero, 4(t1)
4: j 4b

  .data
  .balign 8
  .globl tohost
tohost: .dword 0
  .globl fromhost
fromhost: .dword 0
