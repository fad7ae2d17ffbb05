/* wbuf_rvc_branch.S -- a branch predicted taken three behind a store that
 * waits for the write buffer, before a word the decompressor holds
 * ([pipeline] redirect_rvc_pair; Embench edn built rv32imac: a copy loop
 * of four c.lw and four c.sw, c.addi, c.addi, then a bne back at 0 mod 4
 * before a word of two 16-bit instructions).
 *   A  c.lw x4, c.sw x4 (the last two wait for the write buffer), c.addi,
 *      c.addi, bne back (0 mod 4) before c.nop, c.nop, 16 passes: its
 *      target is a word of two as well (the fall-through's redirect)
 *   B  (control) c.lw x4, c.sw x2 (none waits), c.nop x2, c.addi, c.addi,
 *      the same bne
 * On VexRiscv_IMAC.v the DataCache holds a store in write-back until the
 * bus takes it, the bne waiting in decode, where its prediction sends the
 * fetch to its target, the word of two's cycle passing during the hold:
 * in A the bne retires 1 cycle after the c.addi and its target 2 after
 * it, the last pass's fall-through 4 after it; in B 3 and 5. Built
 * rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal, exit 0x102). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 12
    la a5, src
    la a4, dst
    addi s6, a5, 256
    .balign 32
1:  rvc c.lw a0, 0(a5)          /* A */
    rvc c.lw a1, 4(a5)
    rvc c.lw a2, 8(a5)
    rvc c.lw a3, 12(a5)
    rvc c.sw a0, 0(a4)
    rvc c.sw a1, 4(a4)
    rvc c.sw a2, 8(a4)
    rvc c.sw a3, 12(a4)
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 1b
    rvc c.nop
    rvc c.nop
    la a5, src
    la a4, dst
    .balign 32
2:  rvc c.lw a0, 0(a5)          /* B */
    rvc c.lw a1, 4(a5)
    rvc c.lw a2, 8(a5)
    rvc c.lw a3, 12(a5)
    rvc c.sw a0, 0(a4)
    rvc c.sw a1, 4(a4)
    rvc c.nop
    rvc c.nop
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 2b
    rvc c.nop
    rvc c.nop
    li a0, 0
    main_return 12
    .data
    .balign 64
src:
    .rept 64
    .word 7
    .endr
dst:
    .rept 64
    .word 0
    .endr
