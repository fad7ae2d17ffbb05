/* wp_jalr_jal_halt.S -- wp_jalr_jump_halt.S with 32-bit instructions, for
 * the standard variant (VexRiscv.v): a jalr whose first wrong-path
 * instruction is a jal, which decode predicts taken and sends the fetch
 * to, flushing the fetch stages behind it before the jalr redirects from
 * memory: the word after the jal is not looked up and the next line is
 * not refilled on the wrong path. Case A: ret at a line's byte 24, `j .`
 * at byte 28 (rand_gen.py's std rand_22 at 0x400003b8, rand_32 at
 * 0x40000338: a call by jalr, a jal after it, the next line refilled on
 * the RTL's bus trace only when the call returns to the jal's target);
 * control B: nop there (the wrong path reaches the next line and refills
 * it). Each function's next line shares its I-cache set with a function
 * 4 KiB on (g*), called after it, so a wrong-path refill evicts that one:
 * it misses then. Built rv32im. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li s0, 40
1:  call fA
    call gA
    call fB
    call gB
    addi s0, s0, -1
    bnez s0, 1b
    li a0, 0
    main_return 12

    .balign 4096
    .skip 0x400
fA: nops 5                  /* from its line's start */
    addi a0, a0, 1          /* byte 20 */
    ret                     /* byte 24 */
    j .                     /* byte 28: A's jump */
    nops 8                  /* the next line: the wrong path's only */
    .skip 0x40
fB: nops 5                  /* 0x480 */
    addi a0, a0, 1          /* byte 20 */
    ret                     /* byte 24 */
    nop                     /* byte 28: control B, no jump */
    nops 8
    .balign 4096
    .skip 0x420
gA: ret                     /* fA's next line's set */
    .skip 0x7c
gB: ret                     /* fB's next line's set (0x4a0) */
