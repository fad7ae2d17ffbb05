/* split_wp_jump.S -- a 32-bit branch at a line's last halfword (byte 30,
 * its second half the next line's first) taken forward against its
 * prediction, the instruction after it on the next line a branch the
 * model predicts taken (bgeu back): that branch, in decode as the first
 * branch goes on, has sent the fetch to its target, so the word the fetch
 * holds as the first branch redirects is that target's ([pipeline]
 * redirect_rvc_pair, exec_loop.inc's wrong_path_jump_split_at). Embench
 * picojpeg built rv32imac: processMarkers' bltu at 0x40000da6 taken to
 * li a5 at 0x40000f7a (2 mod 4), beq a0, a5 at 0x40000f7e taken to c.li at
 * 0x40000fb0, bgeu back, li, bne, c.li after the beq.
 * A: picojpeg's shape: blt taken to addi at byte 26, beq at 30 taken,
 *    bgeu back, li, bne, c.li after it (the word after the two wrong-path
 *    instructions held: a 32-bit bne at 2 mod 4 before a c.li).
 * B: as A, an addi in the bgeu's place: that word is held.
 * C: as A, reached in sequence (no redirect to the addi before the beq).
 * D: as A, the bgeu's target a word of two c.addi.
 * E: as A, a jal forward in the bgeu's place.
 * F: as A, the beq falling through (not taken, as predicted), the bgeu
 *    (predicted taken, back) not taken after it.
 * G: the beq whole at byte 28, the bgeu the next line's first, then an
 *    addi and a word of two c.li (the word held).
 * VexRiscv_IMAC.v's retire trace, W = 0: the beq's target 1 + 4 cycles
 * after the instruction before the beq in A, C, E and G (1 + 4 + 1 before
 * the rule), 1 + 4 + 1 in B and D. */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    li a0, 0
    li a1, 0
    li a2, 0
    li t5, 1
    li t6, 2
    j startA
pairD:
    .option rvc
    c.addi a2, 1         /* case D's bgeu target: a word of two */
    c.addi a2, 2
    .option norvc
    j doneD

    /* case NAME: SEQ 1 reaches the beq in sequence; W1 the instruction
     * after the beq; TK 1 the beq taken */
    /* case G: blt taken to the addi at byte 24, beq at 28 */
    .macro gcase name
start\name:
    li s0, 10
    li a5, 0
    at_word 0
loop\name:
    blt t5, t6, t\name   /* byte 0: taken forward, mispredicted */
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
t\name:
    addi a5, zero, 219   /* byte 24 */
    beq a5, a5, u\name   /* byte 28: taken forward, mispredicted */
    bgeu a5, a5, loop\name /* the next line's byte 0 */
    addi a5, zero, 221
    .option rvc
    c.li a3, 0
    c.li a4, 16
    .option norvc
    bne a5, a5, done\name
u\name:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loop\name
done\name:
    .endm

    .macro scase name, seq, w1, tk=1
start\name:
    li s0, 10
    li a5, 0
    at_word 0
loop\name:
    rvc16 c.addi a0, 1         /* byte 0 */
    .if \seq
    addi a1, a1, 1       /* byte 2 */
    .else
    blt t5, t6, t\name   /* byte 2: taken forward, mispredicted */
    .endif
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
    addi a1, a1, 1
t\name:
    addi a5, zero, 219   /* byte 26 */
    .if \tk
    beq a5, a5, u\name   /* byte 30: taken forward, mispredicted */
    .else
    bne a5, a5, u\name   /* byte 30: not taken, as predicted */
    .endif
    \w1                  /* the next line's byte 2 */
    addi a5, zero, 221
    bne a5, a5, done\name
    .option rvc
    c.li a3, 0
    c.li a4, 16
    .option norvc
u\name:
    addi a0, a0, 7
    addi s0, s0, -1
    bnez s0, loop\name
done\name:
    .endm

    scase A, 0, "bgeu a5, a5, loopA"
    gcase G
    scase B, 0, "addi a1, a1, 1"
    scase C, 1, "bgeu a5, a5, loopC"
    scase D, 0, "bgeu a5, a5, pairD"
    scase E, 0, "jal zero, doneE"
    scase F, 0, "bltu a5, zero, loopF", 0
    add a0, a0, a1
    add a0, a0, a2
    andi a0, a0, 0x7ff
    ret
