/* wp_jump.S -- a jump on the wrong path of a branch taken against its
 * prediction (issue 24): each case a forward beq, always taken, its target
 * on its own line (a hit), with a `j` among the words after it, in a loop
 * whose fence.i drops every line each pass. One thing varies:
 * - A: the j at pc + 4, its target on a line that misses;
 * - B: as A, the j at pc + 8;
 * - C: as A, the j at pc + 12;
 * - D: as A, the j's target on a line that hits (the loop's first);
 * - E: as A, a jal ra in place of the j;
 * - F: as A, a bnez taken backward (predicted taken) in place of the j;
 * - G: as A, the beq's target first on the next line (a miss too);
 * - H: as G without the j (a nop in its place).
 * VexRiscv_IMAC.v's bus trace: A, E and F refill the jump's target line
 * from the cycle the beq retires, its target 8 (W + 2) + 2 cycles later
 * than D's ([pipeline] wrong_path_jump); B, C, G and H refill no such line.
 * VexRiscv.v refills none; its G starts the next line's refill 2 cycles
 * after the beq retires, H as it retires: the j, predicted in decode, ends
 * the wrong path's lookups before pc + 8 ([pipeline] wrong_path_jump_halts). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 1
    li s8, 3
    j loop

    at_word 0
farF: nop                     /* never run */
    at_word 0
loop:
    addi a0, a0, 1            /* the words the last pass's bnez, not taken */
    nop                       /* against its prediction, has on its wrong */
    nop                       /* path: no fence.i among them */
    nop
    fence.i
    at_word 0                 /* A */
    beq s1, s1, 1f
    j farA
1:  addi a0, a0, 2
    at_word 0                 /* B */
    beq s1, s1, 1f
    nop
    j farB
1:  addi a0, a0, 3
    at_word 0                 /* C */
    beq s1, s1, 1f
    nops 2
    j farC
1:  addi a0, a0, 4
    at_word 0                 /* D */
    beq s1, s1, 1f
    j loop
1:  addi a0, a0, 5
    at_word 0                 /* E */
    beq s1, s1, 1f
    jal farE
1:  addi a0, a0, 6
    at_word 0                 /* F */
    beq s1, s1, 1f
    bnez s1, farF
1:  addi a0, a0, 7
    at_word 6                 /* G */
    beq s1, s1, 1f
    j farG
    at_word 0
1:  addi a0, a0, 8
    at_word 6                 /* H */
    beq s1, s1, 1f
    nop
    at_word 0
1:  addi a0, a0, 9
    addi s8, s8, -1
    bnez s8, loop
    main_return 0, mask=1

/* never run: the lines the wrong-path jumps aim at */
    at_word 0
farA: nop
    at_word 0
farB: nop
    at_word 0
farC: nop
    at_word 0
farE: nop
    at_word 0
farG: nop
