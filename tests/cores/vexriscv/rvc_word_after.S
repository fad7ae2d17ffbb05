/* rvc_word_after.S -- a 32-bit jump that redirects from decode (a branch
 * predicted taken, a jal) at 2 mod 4, at byte 26 of its line: its upper
 * half comes in the word at byte 28 with the lower half of what follows.
 * When that is a 32-bit instruction (byte 30, crossing into the next
 * line), the decompressor, left with half an instruction, takes the next
 * line's first word before the jump redirects, and that line, missing, is
 * refilled then ([pipeline] taken_path_fill, predicted_target_fill:
 * exec_loop.inc's word_after); when it is a 16-bit one, whole in that
 * word, the fetch takes no word more. The shape of rand_gen.py's seed 6
 * built rv32imac (its bnez zero at 0x4000029a and 0x400002ba).
 * Case A: the seed's: a bne taken forward (mispredicted) to an xor at 2
 * mod 4, an lhu that misses the D-cache, bne zero, zero back (predicted
 * taken, falls through), an xor at byte 30: on VexRiscv_IMAC.v the
 * refill runs during the lhu's fill ([pipeline] fetch_ahead_data) and
 * the xor retires 5 cycles after the bne at W = 0. Case B: the same with
 * a c.jr at byte 30: no refill before the c.jr's own wrong path's. Case
 * C: case A without the redirect and the load: the xor retires 21 cycles
 * after the bne, the misprediction's bubbles passing during the refill.
 * Case D: a jal there, to a line that hits. Each case runs once a pass;
 * between passes the driver evicts the case's next line (a call to a ret
 * at its alias 4 KiB on) and the load's line (a load of the word 4 KiB
 * on): both caches are 4 KiB and direct-mapped. Built rv32imac; the other
 * variants stop at its first 16-bit instruction, case C's c.nop (illegal),
 * before case A's branch to 2 mod 4. */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    dline_alias
    li s0, 4
    li t4, 1
    li a3, 2
pass:
    jal case_c
    jal evict_c
    lw t1, 0(a2)
    jal case_a
    jal evict_a
    lw t1, 0(a2)
    jal case_b
    jal evict_b
    jal case_d
    jal evict_d
    li t4, 1
    li a3, 2
    next_pass_return0
    .option pop

    /* A: bne taken forward to an xor at byte 18, lhu, bne zero, zero at
     * byte 26, an xor at byte 30 */
    .org 0x400
case_a:
    .option push
    .option norvc
    nop
    bne t4, a3, 1f
    nops 2
    .option pop
    c.nop
1:  .option push
    .option norvc
    xor t1, t0, a5
    lhu a5, 0(a1)
    bne zero, zero, 1b
    xor a7, t0, a4
    ret
    .option pop

    /* B: the same with a c.jr at byte 30 */
    .org 0x480
case_b:
    .option push
    .option norvc
    nop
    bne t4, a3, 1f
    nops 2
    .option pop
    c.nop
1:  .option push
    .option norvc
    xor t1, t0, a5
    lhu a5, 0(a1)
    bne zero, zero, 1b
    .option pop
    c.jr ra

    /* C: a c.nop, an xor at byte 18, an add, bne zero, zero at byte 26, an
     * xor at byte 30 */
    .org 0x500
case_c:
    .option push
    .option norvc
    nops 4
    .option pop
    c.nop
    .option push
    .option norvc
    xor t1, t0, a5
    add a5, a5, t0
    bne zero, zero, case_c
    xor a7, t0, a4
    ret
    .option pop

    /* D: as C with a jal at byte 26, to a ret on a line that hits */
    .org 0x580
case_d:
    .option push
    .option norvc
    nops 4
    .option pop
    c.nop
    .option push
    .option norvc
    xor t1, t0, a5
    add a5, a5, t0
    jal zero, 1f
    xor a7, t0, a4
    .org 0x5c0
1:  ret
    .option pop

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d

    dline_buf
