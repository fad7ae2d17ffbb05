# Reads its stdin through semihosting SYS_READ (the ":tt" handle) again and
# again, forever: with input that never comes it waits inside the read;
# with none at all (a board without stdin) each read says end of input.
# Either way only a stop from the host (Ctrl-C, a server's Stop or wall
# limit) ends it.
  .option norvc
  .option norelax
  .section .text.start
  .globl _start
_start:
  li a0, 0x01            # SYS_OPEN ":tt", mode 0 (read): stdin
  la a1, open_args
  call semihost
  la t0, read_args
  sw a0, 0(t0)
1:
  li a0, 0x06            # SYS_READ
  la a1, read_args
  call semihost
  j 1b

  .balign 16
semihost:
  slli x0, x0, 0x1f
  ebreak
  srai x0, x0, 7
  ret

  .data
  .balign 4
tt: .asciz ":tt"
  .balign 4
open_args: .word tt, 0, 3
read_args: .word 0, buf, 16
buf: .space 16
