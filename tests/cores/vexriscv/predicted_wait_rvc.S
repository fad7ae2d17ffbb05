/* predicted_wait_rvc.S -- a backward branch predicted taken that falls
 * through after waiting in decode for a load's result (lbu right before
 * it): the prediction redirects the fetch to the target in every cycle of
 * the wait, so the word the fetch stage holds as the branch redirects from
 * memory is the target's as it would be after a redirect from decode with
 * nothing held: the target's own layout decides whether a word of two
 * holds the redirect's lookup a cycle, the word after the branch does not
 * ([pipeline] redirect_rvc_pair, predicted_rvc_pair's `waited`).
 * Case A: c.bnez at 2 mod 4 before a word of two, target a 16-bit
 * instruction at 2 mod 4 before a word of two (Embench sglib-combined
 * built rv32imac: lbu a5, 4(s1); bnez a5 back at 0x40000152, target lw ra,
 * 12(sp) at 0x4000013e): held. Case B: the same branch, the target a word
 * of two at 0 mod 4: not held. Case C: the target a 32-bit instruction at
 * 2 mod 4 before a 16-bit one: held. Case D: c.bnez at 0 mod 4 before a
 * 16-bit instruction at 2 mod 4, target as in A: held. */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    la s1, data
    li a0, 0
    li s0, 20
    at_word 0
outerA:
    j 1f                 /* word 0 */
    .option rvc
    c.nop
tgtA:
    c.addi a0, 1         /* 2 mod 4 */
    c.addi a0, 2         /* a word of two */
    c.addi a0, 3
    c.nop
1:
    .option norvc
    lbu a5, 4(s1)        /* 2 mod 4 */
    .option rvc
    c.bnez a5, tgtA      /* 2 mod 4: predicted taken, falls through */
    c.addi a0, 4         /* a word of two after it */
    c.addi a0, 5
    .option norvc
    addi s0, s0, -1
    bnez s0, outerA
    li s0, 20
    at_word 0
outerB:
    j 1f                 /* word 0 */
tgtB:
    .option rvc
    c.addi a0, 1         /* word 1: a word of two */
    c.addi a0, 2
    c.addi a0, 3
    c.nop
    c.nop
1:
    .option norvc
    lbu a5, 4(s1)        /* 2 mod 4 */
    .option rvc
    c.bnez a5, tgtB      /* 2 mod 4 */
    c.addi a0, 4         /* a word of two after it */
    c.addi a0, 5
    .option norvc
    addi s0, s0, -1
    bnez s0, outerB
    li s0, 20
    at_word 0
outerC:
    j 1f                 /* word 0 */
    .option rvc
    c.nop
tgtC:
    .option norvc
    slli a5, a0, 24      /* 2 mod 4, 32-bit */
    .option rvc
    c.addi a0, 2         /* the upper half of the word after it */
    c.nop
1:
    .option norvc
    lbu a5, 4(s1)        /* 2 mod 4 */
    .option rvc
    c.bnez a5, tgtC      /* 2 mod 4 */
    c.addi a0, 4
    c.addi a0, 5
    .option norvc
    addi s0, s0, -1
    bnez s0, outerC
    li s0, 20
    at_word 0
outerD:
    j 1f                 /* word 0 */
    .option rvc
    c.nop
tgtD:
    c.addi a0, 1         /* 2 mod 4 */
    c.addi a0, 2         /* a word of two */
    c.addi a0, 3
    c.nop
    c.nop
1:
    .option norvc
    lbu a5, 4(s1)        /* 0 mod 4 */
    .option rvc
    c.bnez a5, tgtD      /* 0 mod 4 */
    c.addi a0, 4         /* 2 mod 4 */
    .option norvc
    addi s0, s0, -1
    bnez s0, outerD
    andi a0, a0, 0x7ff
    ret
    .data
    .balign 16
data:
    .word 0, 0, 0, 0
