/* wbuf_run_line.S -- a run of stores waiting for the write buffer (each
 * one a cycle or more: the buffer full of the ones before), then the next
 * line's first instruction, which misses the I-cache (a function
 * prologue's `sw s1..s11, N(sp)` before a line edge: Embench crc32 at
 * 0x400000fc, picojpeg at 0x4000343c on VexRiscv.v). A: six stores at
 * words 2..7, addi on the next line; B: three stores at words 5..7;
 * C: eight stores, the whole line; D: five stores, then a store first on
 * the next line; E: five stores, an addi, then the next line's addi.
 * The driver evicts each case's next I-line before the case (a call to a
 * ret at its alias 4 KiB on: the I-cache is 4 KiB, direct-mapped). */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry 12
    la a1, buf
    li a0, 0
    li s0, 4
pass:
    .irp c, a, b, c, d, e
    jal evict_\c
    nops 2
    jal case_\c
    .endr
    addi s0, s0, -1
    bnez s0, pass
    andi a0, a0, 0xff
    addi a0, a0, -20
    main_return 12

    .org 0x400
case_a:
    nops 2
    sw a0, 0(a1)
    sw a0, 4(a1)
    sw a0, 8(a1)
    sw a0, 12(a1)
    sw a0, 16(a1)
    sw a0, 20(a1)
    addi a0, a0, 1
    ret

    .org 0x480
case_b:
    nops 5
    sw a0, 0(a1)
    sw a0, 4(a1)
    sw a0, 8(a1)
    addi a0, a0, 1
    ret

    .org 0x500
case_c:
    sw a0, 0(a1)
    sw a0, 4(a1)
    sw a0, 8(a1)
    sw a0, 12(a1)
    sw a0, 16(a1)
    sw a0, 20(a1)
    sw a0, 24(a1)
    sw a0, 28(a1)
    addi a0, a0, 1
    ret

    .org 0x580
case_d:
    nops 3
    sw a0, 0(a1)
    sw a0, 4(a1)
    sw a0, 8(a1)
    sw a0, 12(a1)
    sw a0, 16(a1)
    sw a0, 20(a1)
    addi a0, a0, 1
    ret

    .org 0x600
case_e:
    nops 2
    sw a0, 0(a1)
    sw a0, 4(a1)
    sw a0, 8(a1)
    sw a0, 12(a1)
    sw a0, 16(a1)
    addi t0, a0, 2
    addi a0, a0, 1
    ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d, e

    .data
    .balign 32
buf:
    .skip 64
