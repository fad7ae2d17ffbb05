/* wbuf_jal_next.S -- a jal right behind the last of a run of stores that
 * each wait for the write buffer, before a word the decompressor holds
 * ([pipeline] redirect_rvc_pair; Embench sglib-combined built rv32imac:
 * sglib___rbtree_add_recursive's rotations, six stores, the last four
 * waiting, then c.j back at 0x40000212 (2 mod 4, before a word of two) and
 * 0x40000224 (0 mod 4, before a 32-bit bne and a c.lw); benchmark_body's
 * c.jal at 0x40000828 and 0x40000a44 after five and three waiting stores).
 * 16 passes each:
 *   A  c.mv, c.lw x2, c.sw x6 (the last four wait), c.j forward at 2 mod 4
 *      before a word of two, its target at 2 mod 4
 *   B  c.lw x2, c.sw x6, c.jal at 0 mod 4 before a 32-bit addi at 2 mod 4
 *      and a c.addi in the next word's upper half (the callee c.addi,
 *      c.jr ra; its line missing on the first pass, as qrduino's c.jal at
 *      0x4000230e and CoreMark's at 0x40001802 have it)
 *   C  A's stores, c.jal at 2 mod 4 before c.addi, c.addi
 *   D  c.lw x3, c.sw x5 (the last three wait), c.mv, the same c.jal
 *   E  (control) c.mv, c.lw x4, c.sw x4 (the last two wait), the same c.jal
 * On VexRiscv_IMAC.v the DataCache holds a store in write-back until the
 * bus takes it; the jal, three behind the first of the last three stores,
 * waits in decode during that store's wait, where its prediction interface
 * sends the fetch to its target: the word of two's cycle passes during the
 * hold. In A to D the jump retires 1 cycle after the last store and its
 * target 2 after it (B's first pass: the target after its refill, the
 * held word's cycle passed as well); in E 1 and 3. Built rv32imac; the other variants stop
 * at its first 16-bit instruction (illegal, exit 0x102). */
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
1:  rvc c.mv s0, a1             /* A */
    rvc c.lw a1, 0(a5)
    rvc c.lw a2, 4(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.j 2f
    rvc c.addi s0, 1
    rvc c.addi s0, 1
    rvc c.nop
2:  rvc c.addi a5, 16
    rvc c.addi a4, 16
    rvc c.addi a0, 1
    bne a5, s6, 1b
    la a5, src
    la a4, dst
    .balign 32
3:  rvc c.lw a1, 0(a5)          /* B */
    rvc c.lw a2, 4(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.jal leaf
    addi a5, a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 3b
    la a5, src
    la a4, dst
    .balign 32
4:  rvc c.mv s0, a1             /* C */
    rvc c.lw a1, 0(a5)
    rvc c.lw a2, 4(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 4b
    la a5, src
    la a4, dst
    .balign 32
5:  rvc c.lw a1, 0(a5)          /* D */
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.mv s0, a1
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.sw a1, 0(a4)
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 5b
    la a5, src
    la a4, dst
    .balign 32
6:  rvc c.mv s0, a1             /* E */
    rvc c.lw a1, 0(a5)
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s1, 12(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s1, 12(a4)
    rvc c.jal leaf
    rvc c.addi a5, 16
    rvc c.addi a4, 16
    bne a5, s6, 6b
    andi a0, a0, 0x7ff
    xori a0, a0, 80
    main_return 12
    .balign 4
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
