/* taken_split_next.S -- a jump that redirects from decode (a backward
 * branch, predicted taken; a jal) that is a 32-bit instruction at 2 mod 4
 * ending 2 bytes before a line's end ([pipeline] taken_path_fill). The
 * fetch stage goes on by aligned words: as the jump's second word is
 * decoded it has looked up the word after that one, pc + 6, on the next
 * line, not pc + 4; when that line misses, its refill has started and the
 * target waits for it (rand_gen.py's rand_24: the loop's bne at
 * 0x400005da refills the line at 0x400005e0 in its first pass on
 * VexRiscv_IMAC.v's bus trace, and the fall-through there, a 32-bit
 * instruction split over the two lines, hits as the loop ends).
 * Case A: a loop of three passes, its bne at a line's offset 0x1a, a
 * 32-bit fall-through split over the next line. Case B: the same, a 16-bit
 * fall-through at 0x1e. Case C: a jal at 0x1a back to its line, a c.nop
 * after it. Case D: a backward bne at 0x1a that falls through at once
 * ([pipeline] predicted_target_fill, its target on its own line). Cases
 * E and F: a c.bnez loop, the c.bnez at 0x1c, a c.nop after it, or a 32-bit
 * instruction split over the lines. Case G: as C, a 32-bit instruction
 * after the jal. The next line is refilled in A, D, F and G, not in B, C
 * and E: the word looked up is the one holding the last halfword of the
 * instruction after the jump. Each case runs once
 * a pass; between passes the driver evicts the case's next line (a call
 * to a ret at its alias 4 KiB on: the I-cache is 4 KiB, direct-mapped).
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal, exit 0x102). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .globl main
main:
    .option push
    .option norvc
    addi sp, sp, -16
    sw ra, 12(sp)
    li s0, 4
pass:
    jal case_a
    jal evict_a
    jal case_b
    jal evict_b
    jal case_c
    jal evict_c
    jal case_d
    jal evict_d
    jal case_e
    jal evict_e
    jal case_f
    jal evict_f
    jal case_g
    jal evict_g
    addi s0, s0, -1
    bnez s0, pass
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, 0
    ret
    .option pop

    /* A: addi, c.addi, bne at 0x1a back, an addi split over the lines */
    .org 0x400
case_a:
    .option push
    .option norvc
    li s8, 3
    nops 4
    .option pop
    .org 0x414
1:  .option push
    .option norvc
    addi t0, t0, 1
    .option pop
    c.addi s8, -1
    .option push
    .option norvc
    bne s8, zero, 1b
    addi t1, t1, 1
    .option pop
    ret

    /* B: the same, a c.addi at 0x1e */
    .org 0x480
case_b:
    .option push
    .option norvc
    li s8, 3
    nops 4
    .option pop
    .org 0x494
1:  .option push
    .option norvc
    addi t0, t0, 1
    .option pop
    c.addi s8, -1
    .option push
    .option norvc
    bne s8, zero, 1b
    .option pop
    c.addi t1, 1
    ret

    /* C: j to 0x1a, there a jal back to 0x04 of the line */
    .org 0x500
case_c:
    .option push
    .option norvc
    j 1f
2:  addi t1, t1, 1
    ret
    .org 0x51a
1:  j 2b
    .option pop
    c.nop

    /* D: c.li, c.addi, c.addi, bne at 0x1a back, not taken at once */
    .org 0x580
case_d:
    .option push
    .option norvc
    nops 5
    .option pop
    .org 0x594
    c.li s8, 1
1:  c.addi s8, -1
    c.addi t0, 1
    .option push
    .option norvc
    bne s8, zero, 1b
    addi t1, t1, 1
    .option pop
    ret

    /* E: a c.bnez loop, the c.bnez at 0x1c, a c.nop after it */
    .org 0x600
case_e:
    .option push
    .option norvc
    nops 4
    .option pop
    .org 0x610
    c.nop
    c.li a5, 3
1:  c.addi t0, 1
    c.addi s0, -1
    c.addi s0, 1
    c.addi a5, -1
    c.bnez a5, 1b
    c.nop
    ret

    /* F: the same, a 32-bit instruction split over the lines after it */
    .org 0x680
case_f:
    .option push
    .option norvc
    nops 4
    .option pop
    .org 0x690
    c.nop
    c.li a5, 3
1:  c.addi t0, 1
    c.addi s0, -1
    c.addi s0, 1
    c.addi a5, -1
    c.bnez a5, 1b
    .option push
    .option norvc
    addi t1, t1, 1
    .option pop
    ret

    /* G: as C, a 32-bit instruction split over the lines after the jal */
    .org 0x700
case_g:
    .option push
    .option norvc
    j 1f
2:  addi t1, t1, 1
    ret
    .org 0x71a
1:  j 2b
    addi t1, t1, 1
    .option pop
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d, e, f, g
