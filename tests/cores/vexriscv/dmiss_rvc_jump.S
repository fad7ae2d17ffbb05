/* dmiss_rvc_jump.S -- a jal right behind a load whose D-cache fill is
 * redone, before a word the decompressor holds ([pipeline]
 * redirect_rvc_pair; Embench xgboost built rv32imac: predict()'s
 * `lbu a3, 0(a5)` that misses, `c.j 0x40000160` at 0x400001ec before a
 * 32-bit instruction at 2 mod 4). Once a pass each:
 *   A  lbu that misses, c.j (0 mod 4), c.nop after it (control)
 *   B  two lbu that miss, c.j (0 mod 4), c.nop after it (control)
 *   C  lbu that misses at 2 mod 4, c.j (2 mod 4), c.nop, c.nop after it
 *   D  lbu that misses, lbu that hits, c.j, c.nop after it (control)
 *   E  two lbu that miss, c.j (0 mod 4), a 32-bit addi at 2 mod 4 and a
 *      c.nop after it (xgboost's shape)
 *   F  lbu that misses, a 32-bit jal, c.nop, c.nop after it
 * The targets are on the line already fetched. On VexRiscv_IMAC.v the
 * refetched load holds execute for the rest of its fill with the jump in
 * decode, which sends the fetch to its target from there: in C, E and F
 * the jump's target retires 2 cycles after it as in A, B and D, where
 * after a load that hits (or a jump with no pair after it) the pair costs
 * a cycle more. Between passes the driver evicts the loads' lines (loads
 * of the words 4 KiB on: the D-cache is 4 KiB, direct-mapped). Built
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
/* evict the lines of buf and buf + 64, then call the case */
    .macro run_case name
    lw t1, 0(a2)
    lw t1, 64(a2)
    nops 2
    jal \name
    .endm
    fixed_layout
    main_entry 12
    la a1, buf
    addi a5, a1, 64
    li t0, 4096
    add a2, a1, t0
    li s0, 4
pass:
    run_case case_a
    run_case case_b
    run_case case_c
    run_case case_d
    run_case case_e
    run_case case_f
    next_pass_return0

    .balign 1024
case_a:                     /* A */
    lbu a3, 0(a1)
    rvc c.j 2f
    rvc c.nop
    rvc c.nop
2:  rvc c.jr ra

    .balign 64
case_b:                     /* B */
    lbu a4, 0(a1)
    lbu a3, 0(a5)
    rvc c.j 2f
    rvc c.nop
    rvc c.nop
2:  rvc c.jr ra

    .balign 64
case_c:                     /* C */
    rvc c.nop
    lbu a3, 0(a1)
    rvc c.j 2f
    rvc c.nop
    rvc c.nop
2:  rvc c.jr ra

    .balign 64
case_d:                     /* D */
    lbu a4, 0(a1)
    lbu a3, 1(a1)
    rvc c.j 2f
    rvc c.nop
    rvc c.nop
2:  rvc c.jr ra

    .balign 64
case_e:                     /* E */
    lbu a4, 0(a1)
    lbu a3, 0(a5)
    rvc c.j 2f
    addi a4, a4, 1
    rvc c.nop
2:  rvc c.jr ra

    .balign 64
case_f:                     /* F */
    lbu a3, 0(a1)
    jal zero, 2f
    rvc c.nop
    rvc c.nop
2:  rvc c.jr ra

    .data
    .balign 64
buf:
    .rept 32
    .word 1
    .endr
    .skip 4096 - 128
    .rept 32
    .word 9
    .endr
