/* dmiss_wait_branch.S -- a load that misses the D-cache, then an
 * instruction that waits in decode for the result of a load before the
 * missing one, then a branch taken against its prediction whose first
 * wrong-path word (pc + 4) is on a line not in the I-cache. Found on the
 * RTL's bus trace of rand_gen.py's std rand_37 at 0x40001f50: lb and lh
 * that miss, sb of the lb's result, bge taken to pc + 8 at a line's last
 * word; the next line's refill goes out only after the lh's fill.
 * A: lw that hits, lw that misses, addi on the first lw's result, bne.
 * B: lw that hits, lw that misses, sb of the first lw's result, bne.
 * C: lw that hits, lw that misses, addi of another register, bne (the
 *    refill during the fill, as wrong_path_dmiss.S's case D).
 * D: lw that misses, addi on its result, bne.
 * Each case three times, on lines of their own, every missing load on a
 * D-cache line of its own. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la a1, buf
    la a2, hot
    li t0, 1
    lw t3, 0(a2)
    .rept 3
    at_word 4
    lw t3, 0(a2)
    lw t4, 0(a1)
    addi t5, t3, 1
    bne t0, zero, 1f
    nop
1:  addi a1, a1, 64
    add a0, a0, t5
    .endr
    .rept 3
    at_word 4
    lw t3, 0(a2)
    lw t4, 0(a1)
    sb t3, 8(a2)
    bne t0, zero, 1f
    nop
1:  addi a1, a1, 64
    addi a0, a0, 2
    .endr
    .rept 3
    at_word 4
    lw t3, 0(a2)
    lw t4, 0(a1)
    addi t5, t0, 1
    bne t0, zero, 1f
    nop
1:  addi a1, a1, 64
    add a0, a0, t5
    .endr
    .rept 3
    at_word 5
    lw t4, 0(a1)
    addi t5, t4, 1
    bne t0, zero, 1f
    nop
1:  addi a1, a1, 64
    add a0, a0, t5
    .endr
    main_return 0, mask=1
    .bss
    .balign 64
hot: .space 64
buf: .space 1536
