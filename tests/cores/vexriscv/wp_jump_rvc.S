/* wp_jump_rvc.S -- wp_jump.S with compressed instructions, the branch's
 * line a hit ([pipeline] wrong_path_jump; issue 24, Embench statemate
 * built rv32imac: FH_DU's `c.beqz a1` at 0x40000ff0, taken forward, its
 * next halfword a `jal` to a line not cached). Each case a forward branch,
 * always taken (against its static prediction), its target on its line,
 * right after it a jump whose target is a line that misses: the driver
 * evicts the jumps' target lines before each pass (a call to a ret at each
 * one's alias 4 KiB on: the I-cache is 4 KiB, direct-mapped). Three passes
 * (the first with the cases' lines missing, the others with them cached).
 * The jump, decoded as the branch goes on, sends the fetch to its target,
 * whose line's refill starts, when the decompressor takes its input word
 * in the jump's decode cycle: not when the instruction after the jump is
 * 32-bit at 2 mod 4 and the one after it 16-bit, or at 0 mod 4 with its
 * word's two halves 16-bit (the decompressor holds that word):
 * - A: c.beqz at 0 mod 4, j, addi at 2 mod 4, c.nop: no refill;
 * - B: as A, a c.nop right after the j: refill;
 * - C: c.beqz at 2 mod 4, j at 0 mod 4, addi: refill;
 * - D: c.beqz at 0 mod 4, c.j, addi at 0 mod 4: refill;
 * - E: c.beqz at 2 mod 4, c.j, addi at 2 mod 4, c.nop: no refill;
 * - F: as E, a c.nop right after the c.j: refill;
 * - G: beq at 2 mod 4, j, addi at 2 mod 4, c.nop: no refill;
 * - H: as G, an addi after the addi: refill;
 * - I: beq at 0 mod 4, c.j, addi at 2 mod 4, c.nop: no refill;
 * - J: as I, a c.nop right after the c.j: refill;
 * - K: statemate's order: 32-bit instructions at 2 mod 4, c.mv, c.beqz at
 *   a line's offset 0x10, jal ra, addi, addi: refill;
 * - M: beq at 0 mod 4, j, c.nop, c.nop: no refill.
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 1
    li a5, 0
    li s8, 3
    j loop

    at_word 0
loop:
    jal evict
    at_word 0                 /* A */
    rvc c.beqz a5, 1f
    j farA
1:  addi a0, a0, 2
    rvc c.nop
    at_word 0                 /* B */
    rvc c.beqz a5, 1f
    j farB
1:  rvc c.nop
    addi a0, a0, 3
    at_word 0                 /* C */
    rvc c.nop
    rvc c.beqz a5, 1f
    j farC
1:  addi a0, a0, 4
    at_word 0                 /* D */
    rvc c.beqz a5, 1f
    rvc c.j farD
1:  addi a0, a0, 5
    at_word 0                 /* E */
    rvc c.nop
    rvc c.beqz a5, 1f
    rvc c.j farE
1:  addi a0, a0, 6
    rvc c.nop
    at_word 0                 /* F */
    rvc c.nop
    rvc c.beqz a5, 1f
    rvc c.j farF
1:  rvc c.nop
    addi a0, a0, 7
    at_word 0                 /* G */
    rvc c.nop
    beq s1, s1, 1f
    j farG
1:  addi a0, a0, 8
    rvc c.nop
    at_word 0                 /* H */
    rvc c.nop
    beq s1, s1, 1f
    j farH
1:  addi a0, a0, 9
    addi a0, a0, 10
    at_word 0                 /* I */
    beq s1, s1, 1f
    rvc c.j farI
1:  addi a0, a0, 11
    rvc c.nop
    at_word 0                 /* J */
    beq s1, s1, 1f
    rvc c.j farJ
1:  rvc c.nop
    addi a0, a0, 12
    at_word 0                 /* K */
    rvc c.nop
    addi a6, a6, 0
    addi a7, a7, 0
    addi a4, a4, 0
    rvc c.mv s7, a7
    rvc c.beqz a5, 1f
    jal farK
1:  addi a0, a0, 13
    addi a0, a0, 14
    at_word 0                 /* M */
    beq s1, s1, 1f
    j farM
1:  rvc c.nop
    rvc c.nop
    addi a0, a0, 15
    addi s8, s8, -1
    bnez s8, loop
    main_return 0, mask=1

/* the driver's calls: each a ret at a far line's alias 4 KiB on */
    at_word 0
evict:
    mv t0, ra
    jal farA + 4096
    jal farB + 4096
    jal farC + 4096
    jal farD + 4096
    jal farE + 4096
    jal farF + 4096
    jal farG + 4096
    jal farH + 4096
    jal farI + 4096
    jal farJ + 4096
    jal farK + 4096
    jal farM + 4096
    jr t0
    at_word 0                 /* the line the jr's wrong path refills */
    nop

/* never run: the lines the wrong-path jumps aim at */
    .irp f, farA, farB, farC, farD, farE, farF, farG, farH, farI, farJ, farK, farM
    at_word 0
\f: nop
    .endr
    .irp f, farA, farB, farC, farD, farE, farF, farG, farH, farI, farJ, farK, farM
    .org \f + 4096 - main
    ret
    .endr
