/* wrong_path_jalr.S -- a jalr with a jump right after it on its line
 * ([pipeline] wrong_path_jump, redirect_rvc_pair; Embench wikisort built
 * rv32imac -O2: TestingEqual's li at 2 mod 4, c.jr ra, then c.j to
 * rand_beebs's lui on the wrong path). Each case is a function called 16
 * times by c.jalr; its c.jr ra is followed by c.j and c.nop x5:
 *   A  li at 2 mod 4, c.jr ra, c.j to a 32-bit lui on a cached line
 *   B  li at 0 mod 4, c.jr ra at 0 mod 4, c.j to that lui (control)
 *   C  li at 2 mod 4, c.jr ra, c.j to a word of two c.addi
 *   D  li at 2 mod 4, c.jr ra, c.j to a line no other code is on
 * On VexRiscv_IMAC.v the c.j, decoded while the c.jr goes on to memory,
 * sends the fetch to its target, and the word the fetch holds as the c.jr
 * redirects is that target's: the caller's c.nop retires 4 cycles after
 * the c.jr in A, B and D, 5 in C (a word of two); the first pass of A, C
 * and D waits for the c.j's target line, 8 (W + 2) + 6 cycles at W = 0.
 * Built rv32imac; the other variants stop at its first 16-bit
 * instruction (illegal, exit 0x102). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
/* call f 16 times by c.jalr from a line of its own */
    .macro calls f
    li s6, 16
    la s2, \f
    .balign 32
91: nop
    rvc c.mv a0, s0
    li a1, 400
    rvc c.jalr s2
    rvc c.nop
    addi s6, s6, -1
    bne s6, zero, 91b
    .endm
    fixed_layout
    main_entry 12
    calls fa
    calls fb
    calls fc
    calls fd
    .balign 32
    li a0, 0
    main_return 12
    .balign 32
t32: lui a4, 0x40004            /* the c.j's targets, never run */
    nop
    .balign 32
tpair:
    rvc c.addi a4, 1
    rvc c.addi a4, 1
    nop
    .balign 32
    rvc c.nop
fa: li a0, 1000                 /* A */
    rvc c.jr ra
    rvc c.j t32
    .rept 5
    rvc c.nop
    .endr
    .balign 32
fb: li a0, 1000                 /* B */
    rvc c.jr ra
    rvc c.j t32
    .rept 5
    rvc c.nop
    .endr
    .balign 32
    rvc c.nop
fc: li a0, 1000                 /* C */
    rvc c.jr ra
    rvc c.j tpair
    .rept 5
    rvc c.nop
    .endr
    .balign 32
    rvc c.nop
fd: li a0, 1000                 /* D */
    rvc c.jr ra
    rvc c.j tfar
    .rept 5
    rvc c.nop
    .endr
    .balign 32
    .rept 64
    nop
    .endr
tfar:
    lui a4, 0x40004
    nop
