# Sleeps in wfi until a timer 2^52 ticks away (about 1.4 years of simulated
# time at 100 MHz): the timer interrupt is enabled in mie, so the sleep can
# end, but no run lives to see it. A stop (--timeout, Ctrl-C) must still end
# the run promptly, even when the statistics module splits the sleep into
# intervals.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  li t0, 0x02004000      # CLINT mtimecmp
  sw zero, 0(t0)
  li t1, 0x00100000      # high word: 2^52
  sw t1, 4(t0)
  li t1, 0x80            # mie.MTIE (mstatus.MIE stays 0: wfi wakes, no trap)
  csrw mie, t1
1:
  wfi
  j 1b
