/* hazards_waw.S -- a late result overwritten before its reader (found on
 * the RTL's retire trace of rand_gen.py's programs): VexRiscv's hazard
 * check stalls decode on every stage whose writer of a source register
 * has no result yet, whatever a younger stage writes to it, so the
 * reader waits for the older, overwritten result all the same:
 * - mulhu rd, then an ALU op writing rd, then a reader of rd;
 * - lw rd, then an ALU op writing rd, then a reader of rd;
 * - a shift (its result ready in memory: no wait) the same way. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t1, 0x12345
    li a4, 0x6789
    li s8, 8
1:  mulhu a7, t1, a4
    or a7, a0, s8
    srl a1, a7, s8
    addi s8, s8, -1
    add a0, a0, a1
    bne s8, zero, 1b
    li s8, 8
2:  lw a5, 0(sp)
    addi a5, s8, 3
    add a0, a0, a5
    addi s8, s8, -1
    bne s8, zero, 2b
    li s8, 8
3:  sll a6, t1, s8
    xori a6, s8, 5
    add a0, a0, a6
    addi s8, s8, -1
    bne s8, zero, 3b
    main_return 0, mask=1
