/* dmiss_dev_branch.S -- a load that misses the D-cache, a load from the
 * uncached IO region, then a forward branch in its line's last word
 * (predicted not taken, so the fetch stage looks up the next line's first
 * word, which misses the I-cache, while the load waits for its fill:
 * rand_25's lhu, lhu, bne at 0x40000f14 on VexRiscv.v). Straight code,
 * each case four times, every line new, every missing load on a D-cache
 * line of its own.
 * A: lhu that misses, lhu from IO, bne taken to the next line's word 3.
 * B: lw that misses, lbu from IO, beq not taken: its fall-through, first
 *    on the next line, misses. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 100
    la a1, buf
    li s5, IO_SCRATCH
    /* A */
    .rept 4
    at_word 5
    lhu t1, 0(a1)         /* word 5: misses the D-cache */
    lhu t2, 4(s5)         /* word 6: IO */
    bne s1, zero, 1f      /* word 7: taken, against its prediction */
    addi a0, a0, 1        /* next line: skipped */
    addi a0, a0, 2
    addi a0, a0, 4
1:  addi s1, s1, -1       /* next line, word 3 */
    addi a1, a1, 64
    .endr
    /* B */
    .rept 4
    at_word 5
    lw t1, 0(a1)          /* word 5: misses the D-cache */
    lbu t2, 8(s5)         /* word 6: IO */
    beq s1, zero, 1f      /* word 7: not taken */
    add a0, a0, s1        /* next line: misses */
1:  addi a1, a1, 64
    .endr
    add a0, a0, t1
    add a0, a0, t2
    andi a0, a0, 0x7ff
    main_return 0

    .bss
    .balign 64
buf: .space 1024
