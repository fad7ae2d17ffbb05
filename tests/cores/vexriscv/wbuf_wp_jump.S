/* wbuf_wp_jump.S -- a branch taken against its prediction right behind
 * two stores that wait for the write buffer, a jump right after it on its
 * line ([pipeline] wrong_path_jump; CoreMark built rv32imac:
 * core_bench_list's lw, lw, c.sw, sw, c.sw, sw (the last two wait), bgez s1
 * at 0x400009f4 taken to 0x40000a02 on the next line, c.j to 0x40000a86
 * right after it). A loop whose fence.i drops every line each pass, 3
 * passes; each case at the same place on its line as CoreMark's:
 *   A  c.lw x4, c.sw x4 (the last two wait), bge at byte 20 taken forward
 *      to byte 2 of the next line, c.j right after it to a line that
 *      misses, then a 32-bit lw and a beqz over the line's end
 *   B  the same with c.nop x4 in place of the c.sw: no wait
 * On VexRiscv_IMAC.v the DataCache holds the first waiting store in
 * write-back, the bge in execute, the c.j in decode, whose prediction
 * sends the fetch to its target: that line is refilled from 2 cycles after
 * the wait begins, the bge's target's line after it (the bus trace; in B
 * the same from the cycle the bge retires: the c.j is decoded before the
 * fetch reaches pc + 12). Built rv32imac; the other
 * variants stop at its first 16-bit instruction (illegal, exit 0x102). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 1
    li s8, 3
    la a5, src
    la a4, dst
    j loop

    at_word 0
loop:
    addi a0, a0, 1            /* the words the last pass's bnez, not taken */
    nop                       /* against its prediction, has on its wrong */
    nop                       /* path: no fence.i among them */
    nop
    fence.i
    at_word 1                 /* A */
    rvc c.lw a1, 0(a5)
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s0, 12(a5)
    rvc c.sw a1, 0(a4)
    rvc c.sw a2, 4(a4)
    rvc c.sw a3, 8(a4)
    rvc c.sw s0, 12(a4)
    bge s1, zero, 1f
    rvc c.j farA
    lw s3, 0(a5)
    beqz s3, farA
1:  addi a0, a0, 2
    at_word 1                 /* B */
    rvc c.lw a1, 0(a5)
    rvc c.lw a2, 4(a5)
    rvc c.lw a3, 8(a5)
    rvc c.lw s0, 12(a5)
    rvc c.nop
    rvc c.nop
    rvc c.nop
    rvc c.nop
    bge s1, zero, 1f
    rvc c.j farB
    lw s3, 0(a5)
    beqz s3, farB
1:  addi a0, a0, 3
    addi s8, s8, -1
    bnez s8, loop
    main_return 0, mask=1

/* never run: the lines the wrong-path jumps aim at */
    at_word 1
farA: nop
    at_word 1
farB: nop
    .data
    .balign 64
src:
    .rept 16
    .word 7
    .endr
dst:
    .rept 16
    .word 0
    .endr
