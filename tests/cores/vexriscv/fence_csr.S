/* fence_csr.S -- a CSR instruction right after fence.i, fetched before the
 * I-cache's flush (rand_gen.py's rand_6 at 0x400005b4 on VexRiscv.v:
 * fence.i, csrr of mie, slli on one line, the slli retiring 153 cycles
 * after fence.i at W = 0, as after fence.i and an ALU op), each case a few
 * times in a loop:
 * - fence.i, csrr, an ALU op on the same line;
 * - fence.i first on a line, csrr of mie, an ALU op, one using the
 *   csrr's result: its wait passes during the flush too (rand_24's and
 *   rand_43's csrr of mtvec or mie then an addi of it). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    fence.i
    csrr t0, mie
    slli t1, a0, 3
    add a0, a0, t1
    .balign 32
    fence.i
    csrr t2, mie
    add a0, a0, t2
    add a0, a0, a1
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
