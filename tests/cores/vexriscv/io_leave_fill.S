/* io_leave_fill.S -- a device store that leaves its block (tally ends a
 * block at a store to the finisher's window) right before an instruction
 * first on a line that misses, after an lbu that missed the D-cache and a
 * device load: the refill runs during the lbu's fill as when the store
 * had not left its block (rand_7 built rv32imac: lbu, beq, lw and sw
 * to IO, then blt on a new line; --trace, one instruction a block, must
 * give the same cycles as a plain run). Twice: the second time after a
 * taken branch, its lines and the lbu's again new. */
#include "vex.h"
    fixed_layout
    main_entry
    li a0, 0
    li s5, IO_SCRATCH
    la s3, buf
    li t1, 1
    li a5, 7
    li s0, 1
    j 1f
    at_word 4
1:  lbu a0, 0(s3)         /* misses the D-cache */
    beq t1, zero, 9f      /* not taken */
    lw t5, 36(s5)         /* device load */
    sw a5, 4(s5)          /* device store: leaves its block */
    blt zero, s0, 2f      /* first on its line, which misses; taken */
    nops 7
    at_word 2
2:  addi a0, a0, 1
    j 3f
    at_word 4
3:  lbu t2, 64(s3)        /* misses the D-cache */
    beq t1, zero, 9f
    lw t5, 36(s5)
    sw a5, 4(s5)
    blt zero, s0, 4f
    nops 7
    at_word 0
4:  add a0, a0, t2
9:  ret
    .data
    .balign 64
buf:
    .byte 5
    .fill 63, 1, 0
    .byte 9
    .fill 63, 1, 0
