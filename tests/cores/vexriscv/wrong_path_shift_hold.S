/* wrong_path_shift_hold.S -- wrong_path_use_hold with a shift: a jump that
 * redirects from memory (a branch taken against its prediction, or ret)
 * whose first wrong-path word (pc + 4) is a shift and whose second
 * (pc + 8) reads its result, every line cached. On VexRiscv.v a shift's
 * result comes in memory (shift_use_penalty 1), so as for a load or a
 * multiply decode is held for it in the redirect's cycle and the target
 * goes into the I-cache's lookup a cycle later. Embench md5sum built
 * rv32im (md5's `bltu s3, a2` at 0x40000380, first word of its line, taken
 * forward; `slli a3, a3, 2; add a3, s0, a3` after it) and CoreMark's
 * crcu16 (`beqz a4` at 0x40001fc0 taken forward; `slli a0, a1, 16;
 * srli a0, a0, 16` after it). Three times each:
 *   A  beq taken forward at a line's first word; slli, add of its result
 *   B  beq taken forward; slli, srli of its result (crcu16), the target a
 *      bnez taken backward (predicted taken in decode)
 *   C  ret; srl by a register, add of its result
 * and three controls, exact without the rule:
 *   D  beq taken forward; slli, add of other registers
 *   E  beq taken forward; add, add of its result (bypassed from execute)
 *   F  lw right before the beq; slli of the lw's result, add of the
 *      slli's (Embench huffbench's heap_adjust at 0x40000150): the slli
 *      waits in decode for the lw, no hold */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 3
    li a1, 5
    .rept 3                 /* A */
    at_word 0
    beq zero, zero, 1f
    slli a3, a0, 2
    add t4, s0, a3
    nops 2
1:  addi a2, a2, 1
    .endr
    li a5, 3                /* B */
    at_word 0
2:  addi a5, a5, -1
    srli a2, a2, 1
    beq zero, zero, 3f
    slli a0, a1, 16
    srli a0, a0, 16
3:  bnez a5, 2b
    .rept 3                 /* C */
    call leafC
    bne zero, zero, .
    .endr
    .rept 3                 /* D */
    at_word 0
    beq zero, zero, 1f
    slli a3, a0, 2
    add t4, s0, a1
    nops 2
1:  addi a2, a2, 1
    .endr
    .rept 3                 /* E */
    at_word 0
    beq zero, zero, 1f
    add a3, a0, a1
    add t4, s0, a3
    nops 2
1:  addi a2, a2, 1
    .endr
    .rept 3                 /* F */
    at_word 0
    lw a4, 0(sp)
    beq zero, zero, 1f
    slli a3, a4, 2
    add t4, s0, a3
    nops 2
1:  addi a2, a2, 1
    .endr
    main_return 12, 1

    at_word 2
leafC:
    addi a2, a2, 1
    ret
    srl a3, a0, a1
    add t4, a3, a0
    nops 2
