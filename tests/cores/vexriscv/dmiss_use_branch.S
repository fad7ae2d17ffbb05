/* dmiss_use_branch.S -- a load that misses the D-cache, then a branch on
 * its result taken against its prediction, whose wrong path reaches a line
 * not in the I-cache (found on the RTL's bus trace of rand_gen.py's std
 * rand_44: lh that misses, bne on it to pc + 20, pc + 8 first on the next
 * line). The branch waits in decode for the load's result, so the word
 * after pc + 4 is not looked up during the load's fill; its refill goes
 * out as the branch, run again after the load's redo, redirects. Each
 * case three times, on lines of their own, every load on a D-cache line
 * of its own.
 * A: lw, bne on it at word 6, its target on the next line.
 * B: lw, bne on it at word 6, its target on the same line (pc + 4).
 * C: lw, addi, bne on the lw's result at word 7 (pc + 4 on the next line). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la a1, buf
    li t0, 1
    .rept 3
    at_word 5
    lw t4, 0(a1)
    bne t4, t0, 1f
    addi a0, a0, 3
    .balign 32
    nops 3
1:  addi a1, a1, 64
    .endr
    .rept 3
    at_word 5
    lw t4, 0(a1)
    bne t4, t0, 1f
1:  addi a1, a1, 64
    .balign 32
    nops 8
    .endr
    .rept 3
    at_word 5
    lw t4, 0(a1)
    addi a0, a0, 1
    bne t4, t0, 1f
1:  addi a1, a1, 64
    .balign 32
    nops 8
    .endr
    main_return 0, mask=1
    .bss
    .balign 64
buf: .space 1536
