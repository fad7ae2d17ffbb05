/* wbuf_taken_fill.S -- a branch predicted taken or a jal in its line's last
 * word, the next line missing, right behind stores that waited for the
 * write buffer ([pipeline] taken_path_held; Embench md5sum built rv32imac:
 * md5's copy loop at 0x400001c8, c.lw x4, c.sw x4, c.addi x2, bne back at
 * 0x400001dc, the next line missing in its first pass). The fetch goes on
 * while the stores hold the pipeline and looks the word after the jump up
 * sooner: the waits pass during its refill on top of the taken bubble
 * (VexRiscv_IMAC.v's bus trace at W = 0: case A's refill's first beat 3
 * cycles before the bne retires, D's 4, the controls' 2). Each loop case
 * runs 2 passes, its line entered once; the jump cases once:
 *   A  c.lw x4, c.sw x4 (the last two wait), c.addi x2, bne back at byte 28
 *   B  (control) c.lw x4, c.nop x4, c.addi x2, bne: no store
 *   C  (control) c.nop x8, c.addi x2, bne: no memory access
 *   D  c.lw x4, c.sw x4, addi, bne back at byte 28
 *   E  (control) nop x4, addi, bne, all 32-bit
 *   F  A's body, then j back to the line before (cached) at byte 28
 *   G  D's body, then j back
 *   H  lw, lw, sw, sw (32-bit, the second waits), addi, j back
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal, exit 0x102). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
/* a loop case's head: pointers set on the line before, the loop at byte 8 */
    .macro head
    .balign 32
    la a5, src
    la a4, dst
    addi a6, a5, 32
    nops 5
    .endm
    .macro tail
    addi s0, s0, 1
    nops 7
    .endm
/* a jump case's head: the line before, its target at byte 4 */
    .macro jhead
    .balign 32
    la a5, src
    la a4, dst
    .balign 32
    j 2f
3:  addi s0, s0, 1
    j 4f
    nops 5
2:  nop
    nop
    .endm
    .macro jtail
    j 3b
    nops 8
4:  nops 8
    .endm
    .macro body16
    rvc c.lw a0, 0(a5)
    rvc c.lw a1, 4(a5)
    rvc c.lw a2, 8(a5)
    rvc c.lw a3, 12(a5)
    rvc c.sw a0, 0(a4)
    rvc c.sw a1, 4(a4)
    rvc c.sw a2, 8(a4)
    rvc c.sw a3, 12(a4)
    .endm
    fixed_layout
    main_entry 12
    li s0, 0
    head                 /* A */
1:  body16
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, a6, 1b
    tail
    head                 /* B */
1:  rvc c.lw a0, 0(a5)
    rvc c.lw a1, 4(a5)
    rvc c.lw a2, 8(a5)
    rvc c.lw a3, 12(a5)
    rvc c.nop
    rvc c.nop
    rvc c.nop
    rvc c.nop
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, a6, 1b
    tail
    head                 /* C */
1:  .rept 8
    rvc c.nop
    .endr
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, a6, 1b
    tail
    head                 /* D */
1:  body16
    addi a5, a5, 16
    bne a5, a6, 1b
    tail
    head                 /* E */
1:  nops 4
    addi a5, a5, 16
    bne a5, a6, 1b
    tail
    jhead                /* F */
    body16
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    jtail
    jhead                /* G */
    body16
    addi a5, a5, 16
    jtail
    jhead                /* H */
    lw a0, 0(a5)
    lw a1, 4(a5)
    sw a0, 0(a4)
    sw a1, 4(a4)
    addi a5, a5, 16
    jtail
    mv a0, s0
    main_return 12
    .data
    .balign 64
src: .rept 32
    .word 1
    .endr
dst: .rept 32
    .word 0
    .endr
