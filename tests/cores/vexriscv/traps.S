/* traps.S -- ecall and illegal instructions taken into a handler that reads
 * mcause/mepc/mtval, steps mepc over the instruction and returns with mret;
 * CSR reads and writes of mtvec, mepc, mstatus. */
#include "vex.h"
    main_entry 0
    csrr s3, mtvec
    la t0, handler
    csrw mtvec, t0
    li a0, 0
    li s0, 25
1:  ecall
    addi a0, a0, 1
    .word 0x00000000      /* illegal */
    addi a0, a0, 2
    csrr t1, mtvec
    csrr t2, mstatus
    andi t2, t2, 0x88
    add a0, a0, t2
    addi s0, s0, -1
    bnez s0, 1b
    csrw mtvec, s3
    main_return 0

    .balign 4
handler:
    csrr t3, mcause
    csrr t4, mepc
    add a0, a0, t3
    addi t4, t4, 4
    csrw mepc, t4
    mret
