/* wp_jump_next_line.S -- a c.bnez at a line's last halfword, reached by a
 * j, taken forward against its prediction to the next line (cached), whose
 * first instruction, the c.bnez's first wrong-path one, is a j back to the
 * j's own line (cached) ([pipeline] redirect_rvc_pair with
 * wrong_path_jump_next_at: the fetch holds the wrong-path jump's target's
 * word at the redirect). Case A:
 * the wrong-path j's target a word of two c.addi (Embench nsichneu built
 * rv32imac: benchmark's j at 0x40003e58 to benchmark_body's c.bnez at
 * 0x4000007e, its wrong-path j at 0x40000080 to li a0, 0 and ret at
 * 0x40003e44). B: the j's target a 32-bit addi. VexRiscv_IMAC.v's retire
 * trace, W = 0: the c.bnez's target (a c.addi before an addi) 5
 * cycles after the c.bnez in A, 4 in B (1 + 3 + 5 and 1 + 2 + 4 after the
 * instruction before the j: A's j has a word of two after it). */
#include "vex.h"
    fixed_layout
    main_entry
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    li a0, 0
    li a1, 0
    li s1, 1
    .macro ncase name, pair
    li s0, 20
    at_word 0
loop\name:
    addi s0, s0, -1
    j br\name            /* to the next line's last halfword */
wp\name:                 /* the wrong-path j's target, on this line */
    .if \pair
    .option rvc
    c.addi a1, 1
    c.addi a1, 2
    .option norvc
    .else
    addi a1, a1, 1
    .endif
    j done\name
    at_word 7
    .option rvc
    c.nop
br\name:
    c.bnez s1, tgt\name  /* byte 30, taken forward: mispredicted */
    .option norvc
    j wp\name            /* next line's byte 0: its wrong path */
tgt\name:
    rvc16 c.addi a0, 3
    addi a0, a0, 5
    bnez s0, loop\name
done\name:
    .endm

    ncase A, 1
    ncase B, 0
    add a0, a0, a1
    andi a0, a0, 0x7ff
    ret
