/* fence_load_after.S -- fence.i, then a load that misses the D-cache, not
 * last on its line, an ALU op after it (rand_gen.py's rand_24 at
 * 0x40001724 and rand_23 at 0x40002a12 built rv32imac): on
 * VexRiscv_IMAC.v the load is redone from the fetch after the flush and
 * retires 128 + 8 (W + 2) + 8 cycles after fence.i, a cycle later again
 * when it is a 32-bit load at 2 mod 4. Case A: lw at 0 mod 4; case B: c.nop
 * before fence.i, lh at 2 mod 4. Each pass loads from lines not read
 * before. */
#include "vex.h"
    .option norelax
    .text
    main_entry 0
    la s2, after_buf
    li a0, 0
    li s8, 3
    j loop_a

    .balign 32
loop_a:
    .option norvc
    addi a0, a0, 1
    nops 2
    fence.i
    lw t0, 0(s2)
    addi t1, a0, 3
    add a0, a0, t1
    addi s2, s2, 32
    addi s8, s8, -1
    bne s8, zero, loop_a
    li s8, 3
    j loop_b

    .balign 32
loop_b:
    addi a0, a0, 1
    nop
    rvc16 c.nop
    fence.i
    lh t0, 0(s2)
    addi t1, a0, 3
    add a0, a0, t1
    addi s2, s2, 32
    addi s8, s8, -1
    bne s8, zero, loop_b
    main_return 0, 1

    .bss
    .balign 32
after_buf:
    .space 256
