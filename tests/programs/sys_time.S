# SYS_TIME (semihosting 0x11) reads the simulated clock, not the host's:
# 0 s at reset, and after sleeping in wfi until mtime = 35,000,000 ticks
# (the 10 MHz timebase: 3.5 s simulated) it is 3 (whole seconds, rounded
# down). Exits through HTIF with that second reading, or 99 when the first
# was not 0.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  li a0, 0x11            # SYS_TIME
  li a1, 0
  call semihost
  mv s0, a0
  li t0, 0x02004000      # CLINT mtimecmp
  li t1, 35000000
  sw t1, 0(t0)
  sw zero, 4(t0)
  li t1, 0x80            # mie.MTIE (mstatus.MIE stays 0: wfi wakes, no trap)
  csrw mie, t1
1:
  wfi
  csrr t2, mip
  andi t2, t2, 0x80
  beqz t2, 1b
  li a0, 0x11
  li a1, 0
  call semihost
  mv s1, a0
  li t0, (99 << 1) | 1
  bnez s0, 2f
  slli t0, s1, 1
  ori t0, t0, 1
2:
  la t1, tohost
  sw t0, 0(t1)
  sw zero, 4(t1)
3: j 3b

  .balign 16
semihost:
  slli x0, x0, 0x1f
  ebreak
  srai x0, x0, 7
  ret

  .data
  .balign 8
  .globl tohost
tohost: .dword 0
  .globl fromhost
fromhost: .dword 0
