/* fence_store_ram.S -- a store to RAM right after fence.i, fetched before
 * the flush, goes down the pipeline while the flush runs: its write goes
 * out on the D-bus then, and its wait for the write buffer passes then
 * too (the shapes of rand_gen.py's std rand_6 at 0x40000898 and
 * 0x4000074c, rand_24 at 0x40002c28), each case a few times in a loop,
 * the loads' lines new each time:
 * - A: fence.i, sw last on its line, lh that misses first on the next:
 *   the lh's fill after the flush and the refill waits for no write;
 * - B: fence.i, sb, lw that misses on the same line, the next line
 *   missing after it;
 * - C: sh, sh, fence.i, sh: the write buffer is full as the sh after
 *   fence.i reaches write-back, during the flush. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t1, 0
    la s2, buf
    li s8, 3
    j loop

    .balign 32
loop:
    add a0, a0, t1
    addi t0, s2, 0
    xor t3, a0, s8
    add a0, a0, t3
    slli t4, a0, 1
    add a0, a0, t4
    fence.i
    sw a0, 0(s2)
    lh t1, 64(s2)
    add a0, a0, t1
    fence.i
    sb a0, 4(s2)
    lw t2, 96(s2)
    add a0, a0, t2
    sh a0, 8(s2)
    sh a0, 12(s2)
    fence.i
    sh a0, 16(s2)
    add a0, a0, t2
    addi s2, s2, 128
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    word_buf 512
