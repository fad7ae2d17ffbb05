/* wbuf_branch_exit.S -- a backward branch (predicted taken) that falls
 * through right behind a store that waited for the write buffer, its
 * target a 32-bit instruction before a word of two 16-bit ones ([pipeline]
 * redirect_rvc_pair, predicted_rvc_pair; Embench nettle-aes built rv32imac
 * -O2: _nettle_aes_invert's copy loop, lw, c.lw, c.addi, c.addi, sw, sw,
 * bne back at 2 mod 4, whose second sw waits at W = 3). Each case is a
 * loop of 2 passes run 16 times; its head (the branch's target) a 32-bit
 * addi at 0 mod 4, then c.addi, c.addi:
 *   A  c.sw x3 (the last waits), bne back at 2 mod 4, c.addi after it
 *   B  (control) c.nop x3: no store
 *   C  c.addi, sw, sw (32-bit), bne back at 2 mod 4: nettle-aes's shape,
 *      the second sw waits at the slower W only
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
    fixed_layout
    main_entry 12
    la a4, dst
    li s7, 16
    .balign 32
90: li s5, 2
91: addi s5, s5, -1             /* A */
    rvc c.addi a5, 1
    rvc c.addi a6, 1
    rvc c.sw a0, 0(a4)
    rvc c.sw a1, 4(a4)
    rvc c.sw a2, 8(a4)
    bne s5, zero, 91b
    rvc c.addi a7, 1
    rvc c.addi a7, 1
    addi s7, s7, -1
    bne s7, zero, 90b
    li s7, 16
    .balign 32
92: li s5, 2
93: addi s5, s5, -1             /* B */
    rvc c.addi a5, 1
    rvc c.addi a6, 1
    rvc c.nop
    rvc c.nop
    rvc c.nop
    bne s5, zero, 93b
    rvc c.addi a7, 1
    rvc c.addi a7, 1
    addi s7, s7, -1
    bne s7, zero, 92b
    li s7, 16
    .balign 32
94: li s5, 2
    nop
95: addi s5, s5, -1             /* C */
    rvc c.addi a5, 1
    rvc c.addi a6, 1
    rvc c.addi a3, 1
    sw a0, 0(a4)
    sw a1, 4(a4)
    bne s5, zero, 95b
    rvc c.addi a7, 1
    rvc c.addi a7, 1
    addi s7, s7, -1
    bne s7, zero, 94b
    li a0, 0
    main_return 12
    .data
    .balign 64
dst:
    .rept 16
    .word 0
    .endr
