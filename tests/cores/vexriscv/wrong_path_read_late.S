/* wrong_path_read_late.S -- a branch taken against its prediction at
 * word 6 of its line, right after a load that hits or a multiply; its
 * first wrong-path word (pc + 4, word 7) reads that late result, its
 * second (pc + 8) is first on a line not in the I-cache (rand_gen.py's std
 * rand_43 at 0x40002838: lb, bge, an instruction of the lb's result at
 * pc + 4). The word at pc + 4 waits in decode behind the branch, and the
 * refill of pc + 8's line goes out 2 cycles after the branch redirects.
 * Three times each, on lines of their own:
 *   A  lb, bge, or of the lb's result
 *   B  lw, bge, sub of the lw's result
 *   C  mul, bge, or of the mul's result
 * and two controls, where the refill goes out as the branch redirects:
 *   D  lb, addi, bge, or of the lb's result (the load two before)
 *   E  lb, bge, or of other registers
 * The branch's target (pc + 12, on pc + 8's line) reads none of them. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la a1, buf
    li a5, 3
    lw t0, 0(a1)            /* buf's line into the D-cache */
    .rept 3                 /* A */
    at_word 5
    lb t0, 0(a1)
    bge zero, zero, 1f
    or t2, a5, t0
    nop
1:  addi a0, a0, 1
    addi a0, a0, 2
    .endr
    .rept 3                 /* B */
    at_word 5
    lw t0, 4(a1)
    bge zero, zero, 1f
    sub t2, a5, t0
    nop
1:  addi a0, a0, 1
    addi a0, a0, 2
    .endr
    .rept 3                 /* C */
    at_word 5
    mul t0, a5, a5
    bge zero, zero, 1f
    or t2, a5, t0
    nop
1:  addi a0, a0, 1
    addi a0, a0, 2
    .endr
    .rept 3                 /* D */
    at_word 4
    lb t0, 0(a1)
    addi t1, a1, 2
    bge zero, zero, 1f
    or t2, a5, t0
    nop
1:  addi a0, a0, 1
    addi a0, a0, 2
    .endr
    .rept 3                 /* E */
    at_word 5
    lb t0, 0(a1)
    bge zero, zero, 1f
    or t2, a5, t1
    nop
1:  addi a0, a0, 1
    addi a0, a0, 2
    .endr
    main_return 0, mask=1
    .bss
    .balign 64
buf: .space 64
