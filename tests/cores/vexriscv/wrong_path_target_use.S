/* wrong_path_target_use.S -- a branch taken against its prediction at
 * word 6 of its line, right after a load that hits; its second wrong-path
 * word (pc + 8) is first on a line not in the I-cache, and its target
 * (pc + 12, on that line) reads the load's result. The load's result is
 * ready once the target is fetched after the branch's penalty: no
 * load-use wait. Three times each, on lines of their own:
 *   A  lb, bge, or of other registers, target add of the lb's result
 *   B  lw, bge, or of other registers, target sub of the lw's result
 *   C  as A with the branch at word 1, its target on its own line (cached)
 *   D  lb, blt backward (predicted taken) not taken, add of the lb's
 *      result after it
 * and a control:
 *   E  lb, bge, or of other registers, target of other registers */
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
    or t2, a5, t1
    nop
1:  add a0, a0, t0
    addi a0, a0, 1
    .endr
    .rept 3                 /* B */
    at_word 5
    lw t0, 4(a1)
    bge zero, zero, 1f
    or t2, a5, t1
    nop
1:  sub a0, a0, t0
    addi a0, a0, 2
    .endr
    .rept 3                 /* C */
    at_word 1
    lb t0, 0(a1)
    bge zero, zero, 1f
    or t2, a5, t1
    nop
1:  add a0, a0, t0
    addi a0, a0, 1
    .endr
    .rept 3                 /* D */
    at_word 1
    j 3f
2:  nop
3:  lb t0, 0(a1)
    blt a5, zero, 2b
    add a0, a0, t0
    addi a0, a0, 1
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
