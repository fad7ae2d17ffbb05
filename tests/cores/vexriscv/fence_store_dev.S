/* fence_store_dev.S -- fence.i after a load from the uncached IO region
 * that a store to IO held, and a store to IO right after fence.i (the
 * shape of rand_gen.py's std rand_43 at 0x40003e00: sw, sw to IO, lh from
 * IO, fence.i, sw to IO, lbu that misses the D-cache), each case a few
 * times in a loop, the lbu's line new each time:
 * - A: sw to RAM, sw to IO (its write waits for the sw before it at
 *   W > 0), lh from IO, fence.i, sw to IO, lbu that misses: fence.i is in
 *   decode, and has asked for the flush, while the IO store waits in
 *   memory, so that wait passes during the flush as the lh's does; the sw
 *   after fence.i goes down the pipeline during the flush and its write
 *   goes out then, the lbu's fill after the flush waiting for nothing;
 * - B: the same without the lbu (an add of the lh's result after the sw);
 * - C: fence.i, sw to IO, lbu that misses (no store before). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la s2, buf
    li s5, IO_SCRATCH
    li s8, 3
    j loop

    .balign 32
loop:
    sw a0, 0(s2)
    sw a0, 60(s5)
    lh t1, 20(s5)
    fence.i
    sw a0, 24(s5)
    lbu t2, 64(s2)
    add a0, a0, t2
    add a0, a0, t1
    sw a0, 4(s2)
    sw a0, 56(s5)
    lhu t3, 16(s5)
    fence.i
    sw a0, 28(s5)
    add a0, a0, t3
    slli t4, a0, 1
    fence.i
    sw a0, 32(s5)
    lbu t5, 96(s2)
    add a0, a0, t5
    addi s2, s2, 128
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1

    word_buf 512
