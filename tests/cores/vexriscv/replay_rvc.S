/* replay_rvc.S -- a load replayed after a store of its word (the D-cache's
 * redo from write-back, [dcache] store_load_replay) is a redirect of the
 * fetch: it costs a cycle more when the fetch stage then holds, for its
 * first cycle, a word of two 16-bit instructions ([pipeline]
 * redirect_rvc_pair). Built rv32imac; each case's c.lw follows its c.sw. */
#include "vex.h"
    main_entry
    la a1, buf
    li s0, 40
    li a0, 1
    .balign 4
1:  c.nop
    c.nop
    /* A: c.lw at 2 mod 4, then addi, c.nop, c.nop in the stages ahead and
     * a word of two c.nop in the fetch stage: 1 more */
    c.sw a0, 0(a1)
    c.lw a3, 0(a1)
    addi t0, a0, 3
    c.nop
    nops 3
    /* B: andi of the loaded value waits in decode, the fetch stage holds
     * the c.nop after it: no more */
    .balign 4
    c.nop
    c.sw a0, 0(a1)
    c.lw a3, 0(a1)
    andi t0, a3, 3
    c.nop
    nops 3
    /* C: the word after the three ahead begins at 2 mod 4: no more */
    .balign 4
    c.lw a4, 8(a1)
    c.sw a4, 4(a1)
    c.lw a5, 4(a1)
    addi t1, a0, 5
    c.nop
    nops 3
    /* D: c.lw, c.addi, c.nop, c.nop, then a word of two c.nop: 1 more */
    .balign 4
    c.lw a4, 8(a1)
    c.sw a4, 4(a1)
    c.lw a5, 4(a1)
    c.addi a0, 1
    nops 3
    /* E: c.sw of the loaded value, then andi of the next c.lw's value, the
     * fetch stage holding the c.nop after it: no more */
    .balign 4
    c.nop
    c.sw a0, 0(a1)
    c.lw a3, 0(a1)
    c.sw a3, 4(a1)
    c.lw a4, 4(a1)
    andi a4, a4, 0x3c
    nops 3
    /* F: hazards.S's: andi of the value waits in decode, the fetch stage
     * holds an add at 2 mod 4 before a c.sw (the decompressor keeps the
     * add's first half and is not ready while it holds the c.sw): 1 more */
    .balign 4
    c.lw a2, 8(a1)
    c.sw a2, 4(a1)
    c.lw a4, 4(a1)
    andi a4, a4, 0x3c
    add a5, a1, a4
    c.sw a0, 8(a5)
    nop
    addi s0, s0, -1
    bnez s0, 1b
    ret
    .data
    .balign 64
buf:
    .space 128
