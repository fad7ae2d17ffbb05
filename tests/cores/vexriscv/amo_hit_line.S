/* amo_hit_line.S -- an AMO that hits the D-cache (its read-modify-write
 * cycle, amo_penalty, in memory) a few instructions before the first one
 * on a line that misses ([pipeline] amo_hit_passes). On VexRiscv_IMAC.v
 * that cycle passes during the refill as a device load's wait does: it
 * comes after the fetch's lookup of the missing line while the AMO is
 * still in execute, memory or write-back (rand_gen.py's rand_23: amoadd.w
 * at 0x400012b6, then c.nop, c.addi, c.xor to the line's end; the next
 * line's c.add retires as after an add in the AMO's place). A: amoadd.w
 * at byte 22, c.nop, c.addi, c.xor, then the next line's first word; B:
 * amoadd.w at 22, a 32-bit addi at 26 (split), c.xor at 30; C: amoadd.w
 * at 22, c.nop, a 32-bit addi at 28; D: amoadd.w at 22, c.nop, c.addi,
 * then a 32-bit addi at 30 split onto the line that misses; E: amoadd.w
 * at byte 20, four 16-bit instructions after it (the AMO a stage further
 * on at the lookup: its cycle does not pass); F: amomax.w, addi, xor,
 * addi, amoswap.w right before the next line (rand_23's amomax.w, addi,
 * sw, addi, amoswap.w at 0x40001e0c, its sw a store that waits for none):
 * only the last AMO's cycle passes. The driver evicts, before each case,
 * the case's next I-line (a call to a ret at its alias 4 KiB on) and loads
 * the AMOs' D-line. Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    la a1, buf
    li s0, 4
pass:
    .irp c, a, b, c, d, e, f
    lw t1, 0(a1)
    jal evict_\c
    nops 2
    jal case_\c
    .endr
    next_pass_return0

    /* A: amoadd.w at byte 22, three 16-bit instructions to the line's end */
    .org 0x400
case_a:
    nops 4
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    .option rvc
    c.nop
    c.addi a2, 22
    c.xor a3, s1
    .option norvc
    addi t1, a0, 1
    ret

    /* B: amoadd.w at 22, a split addi at 26, c.xor at 30 */
    .org 0x480
case_b:
    nops 4
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    addi a4, a4, 1
    rvc16 c.xor a3, s1
    addi t1, a0, 1
    ret

    /* C: amoadd.w at 22, c.nop, addi at 28 */
    .org 0x500
case_c:
    nops 4
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    rvc16 c.nop
    addi a4, a4, 1
    addi t1, a0, 1
    ret

    /* D: amoadd.w at 22, c.nop, c.addi, an addi at 30 split onto the next line */
    .org 0x580
case_d:
    nops 4
    rvc16 c.nop
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    .option rvc
    c.nop
    c.addi a2, 22
    .option norvc
    addi a4, a4, 1
    addi t1, a0, 1
    ret

    /* E: amoadd.w at byte 20, four 16-bit instructions after it */
    .org 0x600
case_e:
    nops 4
    addi t6, a1, 0
    amoadd.w a3, s0, (t6)
    .option rvc
    c.nop
    c.nop
    c.addi a2, 22
    c.xor a3, s1
    .option norvc
    addi t1, a0, 1
    ret

    /* F: amomax.w at word 3, addi, xor, addi, amoswap.w at word 7 */
    .org 0x680
case_f:
    nops 2
    addi t6, a1, 0
    amomax.w a3, t6, (t6)
    addi s8, zero, 2
    xor a2, a2, s0
    addi t6, a1, 4
    amoswap.w a5, t6, (t6)
    addi t1, a0, 1
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d, e, f

    .data
    .balign 32
buf:
    .word 1, 2, 3, 4, 5, 6, 7, 8
