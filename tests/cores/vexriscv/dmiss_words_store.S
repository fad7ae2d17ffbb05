/* dmiss_words_store.S -- a 32-bit load at 2 mod 4 (byte 26) that misses the
 * D-cache, a 16-bit store at byte 30 reading nothing of it, then an
 * instruction first on the next line, which misses (dmiss_words_free.S's
 * shape with a store in place of the ALU op): the fetch looked that line up
 * 2 cycles before the load's fill all the same, and the load's redo, a
 * refetch of its two words, waits for the refill: the load retires 9
 * cycles after the refill's last beat. A: lbu, c.swsp, c.lwsp of the word
 * just stored (Embench xgboost's benchmark_body at 0x400000ba, rv32imac
 * -O2); B: lw, c.sw, addi of neither. The driver evicts, before each case,
 * the D-line the cases read (a load of the word 4 KiB on) and the case's
 * next I-line (a call to a ret at its alias 4 KiB on): both caches are
 * 4 KiB and direct-mapped. Built rv32imac; the other variants stop at its
 * first 16-bit instruction (illegal). */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    la a1, buf
    li t0, 4096
    add a2, a1, t0
    la a0, sbuf
    li s0, 4
    li s5, 12345
pass:
    .irp c, a, b
    lw t1, 0(a2)
    jal evict_\c
    nop
    nop
    jal case_\c
    .endr
    addi s0, s0, -1
    bnez s0, pass
    li a0, 0
    main_return 12

    /* A: lbu at byte 26, c.swsp, c.lwsp of that word first on the next line */
    .org 0x400
case_a:
    addi t6, a1, 0
    addi a4, s0, 1
    nop
    nop
    nop
    nop
    .option rvc
    c.nop
    .option norvc
    lbu a5, 0(t6)
    .option rvc
    c.swsp a4, 4(sp)
    c.lwsp a4, 4(sp)
    .option norvc
    ret

    /* B: lw at byte 26, c.sw, addi of neither first on the next line */
    .org 0x500
case_b:
    addi t6, a1, 0
    nop
    nop
    nop
    nop
    nop
    .option rvc
    c.nop
    .option norvc
    lw a4, 4(t6)
    .option rvc
    c.sw a3, 0(a0)
    .option norvc
    addi a5, s5, 3
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
    .word 1, 2, 3, 4, 5, 6, 7, 8
    .skip 4096 - 32
    .word 9, 10, 11, 12, 13, 14, 15, 16
sbuf:
    .word 0, 0, 0, 0
