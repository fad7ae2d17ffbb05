/* use_hold_rvc_held.S -- [pipeline] redirect_rvc_pair with
 * wrong_path_use_hold (issue 24, CoreMark built rv32imac: core_bench_list's
 * `beqz a5` at 0x40000964, taken forward). A 32-bit branch at 0 mod 4
 * taken against its prediction, its wrong path c.lw a4 and lh of a4 at
 * 2 mod 4 (a reader of the load: wrong_path_use_hold's cycle), then andi
 * at 2 mod 4 before c.beqz (the word held, rvc_held_at: redirect_rvc_pair's
 * cycle): the target comes 1 + 3 + 1 cycles after the branch on
 * VexRiscv_IMAC.v, the two holds the same cycle (use_hold_rvc_pair.S's
 * shape, the held word after a 16-bit load and a 32-bit reader). Each case
 * is called three times, its lines cached after the first pass:
 * - A: CoreMark's list reversal: c.mv, c.lw, c.sw, c.mv, c.bnez back (the
 *   fall-through mispredicted), then the beqz at a line's byte 4;
 * - B: the beqz reached in sequence at a line's byte 4.
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
    li s9, 0
    li s8, 3
    j loop

    at_word 0
loop:
    la a1, list
    li a5, 0
    jal caseA
    add s9, s9, t0
    li a5, 0
    jal caseB
    add s9, s9, t0
    addi s8, s8, -1
    bnez s8, loop
    mv a0, s9
    main_return 0, mask=1

    at_word 0                 /* A */
caseA:
    li a3, 0
    mv s0, a1
    j 2f
    at_word 6
    rvc c.nop                 /* byte 0x18 */
1:  rvc c.mv s0, a4
2:  rvc c.lw a4, 0(s0)
    rvc c.sw a3, 4(s0)
    rvc c.mv a3, s0           /* byte 0x00 of the next line */
    rvc c.bnez a4, 1b
    beqz a5, 3f               /* byte 0x04 */
    rvc c.lw a4, 4(a5)
    lh a4, 0(a4)
    andi a3, a4, 1
    rvc c.beqz a3, 3f
    rvc c.srai a4, 9
    rvc c.andi a4, 1
    j 3f
    at_word 0
3:  addi t0, a3, 0
    ret

    at_word 0                 /* B */
caseB:
    li a3, 7
    li t0, 0
    at_word 0
    rvc c.nop
    rvc c.nop
    beqz a5, 3f               /* byte 0x04 */
    rvc c.lw a4, 4(a5)
    lh a4, 0(a4)
    andi a3, a4, 1
    rvc c.beqz a3, 3f
    rvc c.srai a4, 9
    rvc c.andi a4, 1
    j 3f
    at_word 0
3:  addi t0, a3, 0
    ret

    .data
    .balign 8
list:
    .word list + 8, 0
    .word list + 16, 0
    .word list + 24, 0
    .word 0, 0
