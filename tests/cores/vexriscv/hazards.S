/* hazards.S -- read-after-write at distance 1, 2, 3 and 4 through the
 * bypasses, a store followed by a load of the same word, a load feeding a
 * store's data and address, writes to x0, a CSR read feeding an ALU op. */
#include "vex.h"
    main_entry
    la a1, buf
    li s0, 120
    li a0, 1
1:  addi t0, a0, 3
    add t1, t0, t0        /* distance 1 */
    addi t2, a0, 5
    nop
    add t3, t2, t1        /* distance 2 */
    addi t4, a0, 7
    nops 2
    add t5, t4, t3        /* distance 3 */
    addi t6, a0, 9
    nops 3
    add a2, t6, t5        /* distance 4 */
    sw a2, 0(a1)
    lw a3, 0(a1)          /* store then load, same word */
    sw a3, 4(a1)          /* load feeding store data */
    lw a4, 4(a1)
    andi a4, a4, 0x3c
    add a5, a1, a4
    sw a0, 8(a5)          /* computed store address */
    lw a6, 8(a5)
    addi zero, a6, 1      /* write to x0 */
    add a0, a0, zero
    add a0, a0, a6
    csrr a7, mstatus
    andi a7, a7, 0x88     /* MIE, MPIE: the bits every variant has */
    add a0, a0, a7
    addi s0, s0, -1
    bnez s0, 1b
    ret
    .data
    .balign 64
buf:
    .space 128
