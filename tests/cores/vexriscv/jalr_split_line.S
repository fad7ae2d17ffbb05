/* jalr_split_line.S -- a jalr's redirect ([pipeline] redirect_split_target
 * and redirect_rvc_pair from memory): a 32-bit target at 2 mod 4 costs one
 * cycle, whether or not its second half is on the next I-cache line (the
 * decompressor keeps the first word's upper half and takes the next word),
 * and a cycle more when the fetch stage holds, as the jalr redirects, a
 * word whose lower half ends a 32-bit instruction begun in the word before
 * and whose upper half is 16-bit (IBusCachedPlugin: bufferValid and
 * isInputHighRvc, stages_1_input_ready low, fetchPc_output_fire a cycle
 * after jump_pcLoad_valid on VexRiscv_IMAC.v's waveform). rand_gen.py's
 * seed 22 built rv32imac: its jalr calls of leaf0 (an auipc at
 * 0x400008de, the line's last halfword) take 5 cycles from the jalr to the
 * auipc on the RTL's retire trace, the model 6 before. Each case: nine jalr
 * calls a pass (five in case C) of a leaf (a 32-bit instruction, then a
 * jr back).
 * Case A: the jalr at a line's last halfword, its wrong path's third
 * instruction the loop's 32-bit ret at 2 mod 4 before zeros (a held word),
 * the leaf's addi split over a line edge: 1 + 1 over a jalr's redirect.
 * Case B: the jalr at byte 26, the addi after it split over the line edge:
 * the call 1 + 1 (its wrong path's third word held), the return to that
 * addi 1. Case C: as A, the leaf aligned: 1 (the held word).
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
pass:
    call_cases a, b, c
    next_pass_return0
    .option pop

    /* A: the jalr at 0x41e, leaf_a at a line's last halfword */
    .org 0x400
case_a:
    .option push
    .option rvc
    c.nop
    .option pop
    .option push
    .option norvc
    li s8, 9
    la t6, leaf_a
    nops 4
1:  jalr t0, 0(t6)
    addi s8, s8, -1
    bnez s8, 1b
    ret

    .org 0x51e
leaf_a:
    addi a2, a2, 1
    jr t0
    .option pop

    /* B: the jalr at 0x61a, the addi after it split over the line edge */
    .org 0x600
case_b:
    .option push
    .option rvc
    c.nop
    .option pop
    .option push
    .option norvc
    li s8, 9
    la t6, leaf_b
    nops 3
1:  jalr t0, 0(t6)
    addi s8, s8, -1
    bnez s8, 1b
    ret

    .org 0x71e
leaf_b:
    addi a2, a2, 1
    jr t0
    .option pop

    /* C: as A, leaf_c aligned, five calls */
    .org 0x800
case_c:
    .option push
    .option rvc
    c.nop
    .option pop
    .option push
    .option norvc
    li s8, 5
    la t6, leaf_c
    nops 4
1:  jalr t0, 0(t6)
    addi s8, s8, -1
    bnez s8, 1b
    ret

    .org 0x91c
leaf_c:
    addi a2, a2, 1
    jr t0
    .option pop
