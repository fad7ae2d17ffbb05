/* fence_split_load.S -- fence.i, then a 32-bit load in the last halfword
 * of fence.i's line (its second half on the next line) that misses the
 * D-cache (found on rand_gen.py's rand_11 built rv32imac, its fence.i at
 * 0x4000065a and lh at 0x4000065e, on VexRiscv_IMAC.v's I-bus and retire
 * traces). The load's second half is refilled before the flush (the flush
 * waits for it, refill-first), the next line again after the flush for
 * the fetch, then the load's own line for its redo (DBusCachedPlugin's
 * redoBranch): three refills a pass besides fence.i's own line, where a
 * load within its line takes one after the flush (fence_load_redo.S).
 * Each pass loads from a line not read before. Built rv32imac; the other
 * variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    .option norelax
    .text
    .option push
    .option norvc
    main_entry 0
    la s2, split_buf
    li a0, 0
    li s8, 4
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    nops 5
    rvc16 c.nop
    fence.i
    lh t0, 0(s2)
    addi s2, s2, 32
    add a0, a0, t0
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, 1
    .option pop

    .bss
    .balign 32
split_buf:
    .space 256
