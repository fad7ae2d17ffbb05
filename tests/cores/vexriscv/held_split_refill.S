/* held_split_refill.S -- a branch taken forward against its prediction
 * whose wrong path's held word ([pipeline] redirect_rvc_pair) begins at
 * 2 mod 4 with a 32-bit instruction split over the next line, which is not
 * cached: the wrong path refills that line and the branch waits for it
 * ([pipeline] wrong_path_fill), so the word is not held as the redirect
 * comes (exec_loop.inc's wrong_path_held_refilled). Embench picojpeg built
 * rv32imac: pjpeg_decode_init's bgeu at 0x40002bf6 (byte 22), c.li, c.li,
 * jal at 0x40002bfe before c.mv, the next line refilled.
 * Each case runs once, on lines not cached yet (copies at new addresses).
 * A: bgeu at byte 22, c.li, c.li, jal at byte 30 before c.mv; the target
 *    on the refilled line.
 * B: as A, the target on a line cached before (a call to it first).
 * C: as B, the next line cached too (the word held: a cycle more).
 * VexRiscv_IMAC.v's retire trace at W = 0: the bgeu's target 23 cycles
 * after it in A, 22 in B (no held-word cycle), 1 + 3 + 1 in C. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li s3, 5
    li a3, 1
    li s1, 0
    j startA1

    /* NAME: the case; WARM 1 calls the target's line first, 2 the next
     * line's too */
    .macro hcase name, nxt, warm=0
start\name:
    .if \warm
    jal ra, w\name
    .endif
    .if \warm == 2
    jal ra, n\name
    .endif
    j loop\name
    at_word 0
loop\name:
    nops 3
    lbu a2, 0(sp)        /* byte 12 */
    rvc16 c.nop                /* byte 16 */
    lui t4, 0x40003      /* byte 18 */
    bgeu s3, a3, t\name  /* byte 22: taken forward, mispredicted */
    .option rvc
    c.li a1, 0           /* byte 26 */
    c.li a0, 8
    .option norvc
    jal ra, start\name   /* byte 30, over the next line */
n\name:
    .option rvc
    c.mv a5, a0          /* the next line's byte 2 */
    c.jr ra              /* case C's call of the next line returns here */
    .option norvc
    .if \warm
    at_word 0
    .endif
w\name:
    .if \warm
    ret                  /* the target's line, called first */
    .endif
t\name:
    lbu a4, 0(sp)
    addi s1, s1, 1
    j \nxt
    .endm

    hcase A1, startA2
    hcase A2, startB1
    hcase B1, startB2, 1
    hcase B2, startC1, 1
    hcase C1, startC2, 2
    hcase C2, done, 2
    at_word 0
done:
    mv a0, s1
    main_return 12
