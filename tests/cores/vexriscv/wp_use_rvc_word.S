/* wp_use_rvc_word.S -- a 16-bit jump at 2 mod 4 that redirects from
 * memory, its first two wrong-path instructions a 16-bit load and a 16-bit
 * reader of its result, the word after the jump's own
 * ([pipeline] wrong_path_use_hold; Embench sglib-combined built rv32imac:
 * sglib___rbtree_add_recursive's c.jr ra at 0x400001b2 before
 * `c.lw a5, 0(s0); c.lw a4, 8(a5)`).
 *   A  jal to a leaf: c.addi, c.jr ra at 2 mod 4, then c.lw a5, c.lw of
 *      a5, 8 passes
 *   B  (control) the same, the second c.lw reading s0
 *   C  (control) c.lw a5, c.addi a5 after the c.jr, then a word of two
 *      c.nop (redirect_rvc_pair's held word: one cycle, not two)
 *   E  c.beqz at 2 mod 4 taken forward (against its prediction), then
 *      c.lw a5, c.lw of a5, 8 passes
 * On VexRiscv_IMAC.v, in the redirect's cycle the c.lw is in execute and
 * its reader in decode, held for its result, and the hold keeps the
 * fetch's ready chain low: the target comes a cycle later (in A and E the
 * target retires 5 cycles after the jump, in B 4, in C 5). Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal, exit 0x102). */
#include "vex.h"
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 12
    li a0, 0
    la s0, src
    li s1, 8
    .balign 32
1:  jal ra, leafA
    rvc c.addi s1, -1
    bnez s1, 1b
    li s1, 8
    .balign 32
2:  jal ra, leafB
    rvc c.addi s1, -1
    bnez s1, 2b
    li s1, 8
    .balign 32
3:  jal ra, leafC
    rvc c.addi s1, -1
    bnez s1, 3b
    li s1, 8
    li a1, 0
    .balign 32
4:  rvc c.addi a0, 1             /* E */
    rvc c.beqz a1, 5f
    rvc c.lw a5, 0(s0)
    rvc c.lw a4, 8(a5)
    rvc c.lw a3, 12(a5)
    lbu a2, 4(a4)
5:  rvc c.addi s1, -1
    bnez s1, 4b
    andi a0, a0, 0x7ff
    xori a0, a0, 32
    main_return 12
    .balign 32
leafA:                       /* A */
    rvc c.addi a0, 1
    rvc c.jr ra
    rvc c.lw a5, 0(s0)
    rvc c.lw a4, 8(a5)
    rvc c.lw a3, 12(a5)
    lbu a2, 4(a4)
    .balign 32
leafB:                       /* B */
    rvc c.addi a0, 1
    rvc c.jr ra
    rvc c.lw a5, 0(s0)
    rvc c.lw a4, 8(s0)
    rvc c.lw a3, 12(a5)
    lbu a2, 4(a4)
    .balign 32
leafC:                       /* C */
    rvc c.addi a0, 1
    rvc c.jr ra
    rvc c.lw a5, 0(s0)
    rvc c.addi a5, 1
    rvc c.nop
    rvc c.nop
    .data
    .balign 64
src:                         /* words that point at src: c.lw of c.lw */
    .rept 16
    .word src
    .endr
