/* io.S -- the uncached IO region: a string written to the transmit register
 * byte by byte, word loads from and stores to an IO address (each one a
 * single bus access, never cached), a load from IO used at once. */
#include "vex.h"
    main_entry
    li a0, 0
    li a1, UART_TX
    la a2, msg
1:  lbu t0, 0(a2)
    beqz t0, 2f
    sb t0, 0(a1)
    addi a2, a2, 1
    j 1b
2:  li a3, IO_SCRATCH
    li s0, 20
3:  sw s0, 0(a3)
    lw t1, 0(a3)
    add a0, a0, t1        /* IO load used at once */
    lw t2, 4(a3)
    lw t3, 8(a3)
    add a0, a0, s0
    addi s0, s0, -1
    bnez s0, 3b
    ret
    .section .rodata
msg:
    .asciz "io: hello from the IO region\n"
