/* dmiss_ret_line.S -- a load that misses the D-cache, then a jump whose
 * wrong path reaches a line not in the I-cache within the three words
 * after the load (found on the RTL's retire trace of rand_gen.py's std
 * rand_43: leaf1's lw that misses, then its ret, pc + 8 first on the next
 * line). That refill goes out while the load waits for its fill; the
 * load's redo waits for it and the jump, run again after the redo, finds
 * the line in. Each case three times, each leaf on lines of its own, a
 * line never run after it (the one the wrong path reaches), every load on
 * a D-cache line of its own.
 * A: lw, ret at word 6 (pc + 8 on the next line: the third word after
 *    the lw).
 * B: lw, ret at word 7 (pc + 4 on the next line: the second).
 * C: lw, addi, ret at word 7 (the third).
 * D: lw, bne taken to pc + 4 at word 6, then ret (the branch's pc + 8:
 *    the third). */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    la a1, buf
    .irp n, 1, 2, 3
    call la\n
    addi a1, a1, 64
    .endr
    .irp n, 1, 2, 3
    call lb\n
    addi a1, a1, 64
    .endr
    .irp n, 1, 2, 3
    call lc\n
    addi a1, a1, 64
    .endr
    .irp n, 1, 2, 3
    call ld\n
    addi a1, a1, 64
    .endr
    main_return 12, 1

    .irp n, 1, 2, 3
    at_word 5
la\n:
    lw t5, 0(a1)
    ret
    .balign 32
    nops 8
    .endr
    .irp n, 1, 2, 3
    at_word 6
lb\n:
    lw t5, 0(a1)
    ret
    .balign 32
    nops 8
    .endr
    .irp n, 1, 2, 3
    at_word 5
lc\n:
    lw t5, 0(a1)
    addi a0, a0, 1
    ret
    .balign 32
    nops 8
    .endr
    .irp n, 1, 2, 3
    at_word 5
ld\n:
    lw t5, 0(a1)
    bne a1, zero, 1f
1:  ret
    .balign 32
    nops 8
    .endr
    .bss
    .balign 64
buf: .space 1536
