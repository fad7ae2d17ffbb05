/* amo_store_fill.S -- a store that misses the D-cache (write-through: its
 * write goes out on the bus), then k = 0..2 instructions, then an AMO that
 * misses ([pipeline] amo_fill_first). On VexRiscv_IMAC.v's bus and retire
 * traces the AMO asks for its fill when a load there would: the fill's
 * first beat W + 2 cycles after the write's, the AMO retiring W + 6 cycles
 * after the fill's last beat (a load W + 5: its read-modify-write cycle
 * comes after the fill), so the write holds the fill back from the cycle a
 * load's would go out, a cycle before the AMO's issue ends (rand_gen.py's
 * rand_22: lhu that misses, sw, addi, amomax.w at 0x400000e4, 1 cycle late
 * at W = 1..3). A: sw, addi, amomax.w (k = 1); B: sw, addi, lw (a load, for
 * comparison); C: nop, addi, amomax.w (no write); D: lhu that misses, sw,
 * addi, amomax.w (rand_22's); E: sw, amomax.w (k = 0); F: sw, addi, nop,
 * amomax.w (k = 2). Each case's lines are new to the D-cache (s2 moves on
 * 64 bytes a case). Built rv32imac. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s2, buf
    li s0, 4
    li a3, 5
    li a5, 9
    li a0, 0
pass:
    .irp c, a, b, c, d, e, f
    jal case_\c
    addi s2, s2, 64
    .endr
    addi s0, s0, -1
    bnez s0, pass
    main_return 12, 1

    .balign 64
case_a:  /* sw (misses), addi, amomax.w (misses) */
    sw a3, 32(s2)
    addi t6, s2, 4
    amomax.w t0, a5, (t6)
    add a0, a0, t0
    ret
    .balign 64
case_b:  /* sw, addi, lw (misses) */
    sw a3, 32(s2)
    addi t6, s2, 4
    lw t0, 0(t6)
    add a0, a0, t0
    ret
    .balign 64
case_c:  /* nop, addi, amomax.w: no write before it */
    nop
    addi t6, s2, 4
    amomax.w t0, a5, (t6)
    add a0, a0, t0
    ret
    .balign 64
case_d:  /* lhu (misses), sw, addi, amomax.w */
    lhu t1, 40(s2)
    sw a3, 32(s2)
    addi t6, s2, 4
    amomax.w t0, a5, (t6)
    add a0, a0, t0
    ret
    .balign 64
case_e:  /* sw, amomax.w right after it */
    sw a3, 32(s2)
    amomax.w t0, a5, (s2)
    add a0, a0, t0
    ret
    .balign 64
case_f:  /* sw, addi, nop, amomax.w */
    sw a3, 32(s2)
    addi t6, s2, 4
    nop
    amomax.w t0, a5, (t6)
    add a0, a0, t0
    ret
    .data
    .balign 64
buf:
    .fill 1536, 1, 0
