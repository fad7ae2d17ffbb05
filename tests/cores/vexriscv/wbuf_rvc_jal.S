/* wbuf_rvc_jal.S -- a jal behind a store that waits for the write buffer,
 * before a word the decompressor holds ([pipeline] redirect_rvc_pair;
 * Embench sglib-combined built rv32imac: sglib_hashed_ilist_it_next's
 * four c.sw, c.mv, then c.jal at 2 mod 4 before a word of two 16-bit
 * instructions; picojpeg's huffDecode the same with its last store three
 * before the c.jal).
 *   A  c.lw x4, c.sw x4 (the last two wait for the write buffer), c.mv,
 *      c.jal at 2 mod 4 before c.addi, c.addi, 16 passes (the callee
 *      c.addi, c.jr ra): the jal two behind the last store, three behind
 *      the one before it
 *   B  the same with a 32-bit addi after the c.mv: the jal three behind
 *      the last store
 *   C  (control) c.addi, c.nop in its place: four behind
 *   D  (control) c.lw x4, c.sw x2 (none waits), c.nop x2, c.mv, the same
 *      c.jal
 * On VexRiscv_IMAC.v the DataCache holds a store in write-back until the
 * bus takes it, the jal waiting in decode, where its prediction interface
 * sends the fetch to its target, the word of two's cycle passing during
 * the hold: in A and B the c.jal retires 1 cycle after the instruction
 * before it and its target 2 after it; in C and D 1 and 3. Built
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
    li a0, 0
    la a5, src
    la a4, dst
    addi s6, a5, 256
    .balign 32
1:  rvc c.lw a1, 0(a5)          /* A */
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s1, 12(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.mv s0, a1
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 1b
    la a5, src
    la a4, dst
    .balign 32
2:  rvc c.lw a1, 0(a5)          /* B */
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s1, 12(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.mv s0, a1
    addi s0, s0, 1
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 2b
    la a5, src
    la a4, dst
    .balign 32
3:  rvc c.lw a1, 0(a5)          /* C */
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s1, 12(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.mv s0, a1
    rvc c.addi s0, 1
    rvc c.nop
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 3b
    la a5, src
    la a4, dst
    .balign 32
4:  rvc c.lw a1, 0(a5)          /* D */
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s1, 12(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.nop
    rvc c.nop
    rvc c.mv s0, a1
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 4b
    andi a0, a0, 0x7ff
    xori a0, a0, 64
    main_return 12
leaf:
    rvc c.addi a0, 1
    rvc c.jr ra
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
