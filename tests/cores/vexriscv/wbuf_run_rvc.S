/* wbuf_run_rvc.S -- wbuf_run_line.S's run of stores waiting for the write
 * buffer before a line edge whose next line misses the I-cache, in
 * compressed stores (Embench nettle-sha256 built rv32imac at 0x40000180:
 * `c.sw s1,20(sp); c.sw s10,24(sp); c.sw s8,28(sp)`, then `c.sw a2,32(sp)`
 * first on a missing line, on VexRiscv_IMAC.v). A: eight c.sw in the
 * line's last four words, c.sw first on the next line; B: five c.sw,
 * then a 32-bit addi first on the next line; C: three c.sw, c.addi next;
 * D: six c.sw and a c.addi, then c.sw next. The driver evicts each case's
 * next I-line before the case (a call to a ret at its alias 4 KiB on).
 * Built rv32imac; the other variants stop at its first 16-bit
 * instruction (illegal). */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    la a1, buf
    li a0, 0
    li s0, 4
pass:
    .irp c, a, b, c, d
    jal evict_\c
    nops 2
    jal case_\c
    .endr
    addi s0, s0, -1
    bnez s0, pass
    andi a0, a0, 0xff
    addi a0, a0, -16
    main_return 12

    .option rvc
    .org 0x400
case_a:
    .rept 8
    c.nop
    .endr
    c.sw a0, 0(a1)
    c.sw a0, 4(a1)
    c.sw a0, 8(a1)
    c.sw a0, 12(a1)
    c.sw a0, 16(a1)
    c.sw a0, 20(a1)
    c.sw a0, 24(a1)
    c.sw a0, 28(a1)
    c.sw a0, 32(a1)
    c.addi a0, 1
    c.jr ra

    .org 0x480
case_b:
    .rept 11
    c.nop
    .endr
    c.sw a0, 0(a1)
    c.sw a0, 4(a1)
    c.sw a0, 8(a1)
    c.sw a0, 12(a1)
    c.sw a0, 16(a1)
    .option norvc
    addi a0, a0, 1
    .option rvc
    c.jr ra

    .org 0x500
case_c:
    .rept 13
    c.nop
    .endr
    c.sw a0, 0(a1)
    c.sw a0, 4(a1)
    c.sw a0, 8(a1)
    c.addi a0, 1
    c.jr ra

    .org 0x580
case_d:
    .rept 9
    c.nop
    .endr
    c.sw a0, 0(a1)
    c.sw a0, 4(a1)
    c.sw a0, 8(a1)
    c.sw a0, 12(a1)
    c.sw a0, 16(a1)
    c.sw a0, 20(a1)
    c.addi a0, 1
    c.sw a0, 24(a1)
    c.jr ra
    .option norvc

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d

    .data
    .balign 32
buf:
    .skip 64
