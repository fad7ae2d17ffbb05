/* wp_held_pairs.S -- a 16-bit jump at a line's byte 24 with a 16-bit
 * instruction after it in its word, and the word after that two 16-bit
 * instructions too: the decompressor holds each of the two words a cycle
 * (a word of two), so by the redirect the fetch has looked up only the
 * jump's line, and the next line is not refilled on the wrong path. Case
 * A: c.jr ra, c.nop, c.nop, c.nop (Embench nettle-aes built rv32imac:
 * initialise_board's `ret` at 0x40000078 before three more 16-bit `ret`s,
 * the next line refilled only when _aes_set_key's first word misses);
 * control B: c.jr ra, c.nop, c.nop, then a 32-bit instruction at byte 30
 * split over the next line (the decompressor takes that line's first word
 * with it: refilled, as nettle-sha256's initialise_board before a 32-bit
 * srli); case C: c.beqz taken forward against its prediction, c.nop,
 * c.nop, c.nop. Each function's next line shares its I-cache set with a
 * function 4 KiB on (g*), called after it, so a wrong-path refill evicts
 * that one: it misses then. Built rv32imac. */
#include "vex.h"
    main_entry 12
    li s0, 40
    li s1, 0
1:  call fA
    call gA
    call fB
    call gB
    call fC
    call gC
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
    c.nop                   /* byte 26: a word of two */
    c.nop                   /* byte 28 */
    c.nop                   /* byte 30: a word of two */
    .option push
    .option norvc
    nops 8                  /* the next line: the wrong path's only */
    .skip 0x40
fB: nops 5                  /* 0x480 */
    addi a0, a0, 1          /* byte 20 */
    .option pop
    c.jr ra                 /* byte 24 */
    c.nop                   /* byte 26 */
    c.nop                   /* byte 28 */
    .option push
    .option norvc
    addi a0, a0, 0          /* byte 30: control B, split over the next line */
    nops 7
    .skip 0x42
fC: nops 5                  /* 0x500 */
    addi a0, a0, 1          /* byte 20 */
    .option pop
    c.beqz s1, 2f           /* byte 24: taken, predicted not taken */
    c.nop                   /* byte 26 */
    c.nop                   /* byte 28 */
    c.nop                   /* byte 30 */
    .option push
    .option norvc
    nops 8                  /* 0x520: the next line */
2:  ret                     /* 0x540: the target's own line */
    .balign 4096
    .skip 0x420
gA: ret                     /* fA's next line's set */
    .skip 0x7c
gB: ret                     /* fB's next line's set (0x4a0) */
    .skip 0x7c
gC: ret                     /* fC's next line's set (0x520) */
    .option pop
