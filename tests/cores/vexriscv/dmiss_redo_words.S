/* dmiss_redo_words.S -- a 32-bit load at 2 mod 4 (byte 26) that misses the
 * D-cache, a 16-bit ALU op at byte 30, then an instruction first on the
 * next line, which misses, reading the load's result: the fetch looked
 * that line up 2 cycles before the load's fill (redo_refill_wait's k = 2)
 * and the load's redo, a refetch of its two words, waits for the refill:
 * the load retires 9 cycles after the refill's last beat (8 at 0 mod 4).
 * A: lbu, c.mv, bgeu of the lbu's result taken forward (Embench
 * sglib-combined's sglib__rbtree_it_compute_current_elem at 0x4000045a,
 * rv32imac -O2); B: lw, c.addi, add of the lw's result. The driver evicts,
 * before each case, the D-line the cases read (a load of the word 4 KiB
 * on) and the case's next I-line (a call to a ret at its alias 4 KiB on):
 * both caches are 4 KiB and direct-mapped. Built rv32imac; the other
 * variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    dmiss_main
    li s6, 1
pass:
    evict_call_each a, b
    next_pass_return0

    /* A: lbu at byte 26, c.mv, bgeu of its result first on the next line */
    .org 0x400
case_a:
    addi t6, a1, 0
    nops 5
    rvc16 c.nop
    lbu a4, 1(t6)
    rvc16 c.mv a5, a3
    bgeu s6, a4, out_a
    nop
out_a:
    ret

    /* B: lw at byte 26, c.addi, add of its result first on the next line */
    .org 0x500
case_b:
    addi t6, a1, 0
    nops 5
    rvc16 c.nop
    lw a4, 4(t6)
    rvc16 c.addi a3, 1
    add a5, a4, a3
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x100, a, b

    dline_buf
