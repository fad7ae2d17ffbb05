/* dmiss_load_between.S -- two shapes of loads that miss the D-cache one
 * after another beside the refill of the next I-line (Embench nettle-aes
 * rv32imac -O2, its first pass, both lines cold).
 * A ([dcache] next_fill_load): a 32-bit load at 0 mod 4 (byte 20, a 16-bit
 * op right before it) that misses, c.mv, a 32-bit load at byte 26 that
 * misses too, then a 32-bit op at byte 30 split onto the next line, which
 * misses: the first load's redo waits for that refill (_nettle_aes_encrypt's
 * lw s10 at 0x40000314, c.mv, lw s7, srli split onto 0x40000320).
 * B ([dcache] two_refill_after): lbu at byte 12 and byte 16 that miss, lbu
 * that hits, lbu at byte 24 that misses, lbu that hits, lbu first on the
 * next line, which misses: that line went out during the fill of the lbu
 * at byte 16 (dmiss_after 2), so the lbu at byte 24 waits for its own fill
 * alone (_nettle_aes_decrypt's lbu t2, t0, t6, t5, t4 at 0x400008ec, lbu
 * a4 at 0x40000900).
 * The driver evicts, before each case, the D-lines the case misses on (a
 * load of the word 4 KiB on) and the case's next I-line (a call to a ret
 * at its alias 4 KiB on): both caches are 4 KiB and direct-mapped. Built
 * rv32imac; the other variants stop at its first 16-bit instruction. */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    la a1, buf
    li t0, 4096
    add a2, a1, t0
    li s0, 4
pass:
    /* A */
    lw t1, 0(a2)
    lw t1, 32(a2)
    jal evict_a
    addi s7, a1, 4
    addi t2, a1, 36
    li a3, 0x1234
    jal case_a
    /* B */
    lw t1, 64(a2)
    lw t1, 96(a2)
    lw t1, 128(a2)
    jal evict_b
    addi s4, a1, 161
    lbu t1, 0(s4)
    addi t2, a1, 71
    addi t0, a1, 101
    addi t6, a1, 163
    addi t5, a1, 135
    addi t4, a1, 169
    addi a4, a1, 177
    jal case_b
    addi s0, s0, -1
    bnez s0, pass
    li a0, 0
    main_return 12

    /* A: c.slli at byte 18, lw at byte 20 (misses), c.mv, lw at byte 26
     * (misses), srli at byte 30 split onto the next line */
    .org 0x400
case_a:
    nop
    nop
    nop
    nop
    .option rvc
    c.nop
    c.slli t6, 2
    .option norvc
    lw s10, 0(s7)
    .option rvc
    c.mv a5, t1
    .option norvc
    lw s7, 0(t2)
    srli t3, a3, 8
    ret

    /* B: c.nop, andi, c.srli, lbu (hits), lbu at byte 12 and 16 (miss),
     * lbu (hits), lbu at byte 24 (misses), lbu (hits), lbu first on the
     * next line */
    .org 0x500
case_b:
    .option rvc
    c.nop
    .option norvc
    andi a7, a7, 255
    .option rvc
    c.srli a5, 16
    .option norvc
    lbu s4, 0(s4)
    lbu t2, 0(t2)
    lbu t0, 0(t0)
    lbu t6, 0(t6)
    lbu t5, 0(t5)
    lbu t4, 0(t4)
    lbu a4, 0(a4)
    ret

    /* the aliases of each case's next line */
    .org 0x1420
evict_a:
    ret
    .org 0x1520
evict_b:
    ret

    .data
    .balign 32
buf:
    .fill 64, 4, 0x01020304
    .skip 4096 - 256
    .fill 64, 4, 0x05060708
