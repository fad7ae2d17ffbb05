/* wrong_path_use_hold.S -- a jump that redirects from memory (ret, or a
 * branch taken against its prediction) whose first wrong-path word
 * (pc + 4) is a load or a multiply and whose second (pc + 8) reads its
 * result, every line cached (rand_gen.py's std rand_20 at 0x400006bc:
 * leaf0's ret at its line's last word, leaf1's lh and an sltu of its
 * result after it). In the redirect's cycle the second word is in decode,
 * held there for the first's result (HazardSimplePlugin), and the target
 * goes into the I-cache's lookup a cycle later. Three times each:
 *   A  lhu from IO, ..., ret at word 7; lh, sltu of it on the next line
 *      (warmed by a call first)
 *   B  ret; lw, add of its result
 *   C  ret; mul, add of its result
 *   D  beq taken (forward: predicted not taken); lw, add of its result
 * and two controls, exact without the rule:
 *   E  ret; lw, addi of another register, add of the lw's result (pc + 12)
 *   F  ret; lw, add of other registers */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li a1, IO_SCRATCH
    call warmA
    .rept 3                 /* A */
    call leafA
    bne zero, zero, .
    .endr
    .rept 3                 /* B */
    call leafB
    bne zero, zero, .
    .endr
    .rept 3                 /* C */
    call leafC
    bne zero, zero, .
    .endr
    .rept 3                 /* D */
    at_word 1
    beq zero, zero, 1f
    lw a5, 0(sp)
    add t4, a5, a0
    nops 2
1:  addi a3, a3, 1
    .endr
    .rept 3                 /* E */
    call leafE
    bne zero, zero, .
    .endr
    .rept 3                 /* F */
    call leafF
    bne zero, zero, .
    .endr
    main_return 12, 1

    at_word 2
leafA:
    lhu t2, 24(a1)
    sltiu a6, a0, -1620
    slt t6, t1, a5
    ori a5, a1, -1406
    sltiu t3, a1, 30
    ret
warmA:
    lh a5, 0(sp)
    sltu t4, a0, a5
    ret
    nops 5

    at_word 2
leafB:
    addi a3, a3, 1
    ret
    lw a5, 0(sp)
    add t4, a5, a0
    nops 2

    at_word 2
leafC:
    addi a3, a3, 1
    ret
    mul a5, a0, a0
    add t4, a5, a0
    nops 2

    at_word 2
leafE:
    addi a3, a3, 1
    ret
    lw a5, 0(sp)
    addi t4, t4, 1
    add t4, a5, a0
    nops 1

    at_word 2
leafF:
    addi a3, a3, 1
    ret
    lw a5, 0(sp)
    add t4, a6, a0
    nops 2
