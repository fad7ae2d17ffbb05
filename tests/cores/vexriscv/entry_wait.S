/* entry_wait.S -- a block entered with a late result on its way whose
 * wait an earlier instruction's passes: lb, then at a function entry
 * (a profile starts a block there) lhu, an xor of lb's result, and an add
 * of lhu's on a line that misses. The xor waits for lb; the add's own
 * static wait for lhu passes during it, and the add's refill is not
 * shortened by a wait the add never had. profile_total.py checks that
 * `tally profile` (the block split at entry_lhu) counts the cycles
 * `tally run` does. */
#include "vex.h"
    .option norvc
    main_entry
    la a1, arr
    lw t0, 12(a1)
    li a4, 0
    j 1f
    .balign 32
1:  nop
    nops 4
    lb a6, 13(a1)
    .globl entry_lhu
    .type entry_lhu, @function
entry_lhu:
    lhu a7, 14(a1)        /* the block starts here in a profile */
    xor a4, a4, a6
    add a4, a4, a7        /* at a line start: misses */
    addi a0, a4, 1
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 64
arr:
    .word 0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff01
