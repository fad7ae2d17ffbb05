/* wp_jalr_jump_halt.S -- a jalr whose first wrong-path instruction is a
 * jump predicted in decode: the jump sends the fetch to its target before
 * the jalr redirects, so the words after it are not looked up and the
 * next line is not refilled on the wrong path. Case A: c.jr ra at a line's
 * byte 24, `c.j .` right after it (Embench qrduino built rv32imac:
 * init_heap_beebs's `ret; j .` at 0x40000098, a 32-bit instruction
 * after them); control B: c.nop there
 * (the wrong path reaches the next line and refills it). Each function's
 * next line shares its I-cache set with a function 4 KiB on (g*), called
 * after it, so a wrong-path refill evicts that one: it misses then. Built
 * rv32imac. */
#include "vex.h"
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
    .option push
    .option norvc
    .skip 0x400
fA: nops 5                  /* from its line's start */
    addi a0, a0, 1          /* byte 20 */
    .option pop
    c.jr ra                 /* byte 24 */
    c.j .                   /* byte 26: A's jump */
    .option push
    .option norvc
    nop                     /* byte 28, 32-bit */
    nops 8                  /* the next line: the wrong path's only */
    .skip 0x40
fB: nops 5                  /* 0x480 */
    addi a0, a0, 1          /* byte 20 */
    .option pop
    c.jr ra                 /* byte 24 */
    c.nop                   /* byte 26: control B, no jump */
    .option push
    .option norvc
    nop                     /* byte 28, 32-bit */
    nops 8
    .balign 4096
    .skip 0x420
gA: ret                     /* fA's next line's set */
    .skip 0x7c
gB: ret                     /* fB's next line's set (0x4a0) */
    .option pop
