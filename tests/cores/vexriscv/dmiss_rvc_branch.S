/* dmiss_rvc_branch.S -- a branch predicted taken right behind a load whose
 * D-cache fill is redone, before a word the decompressor holds
 * ([pipeline] branch_fill_waited; Embench ud built rv32imac: ludcmp's
 * `c.lw a3, 0(a0)` at 0x4000016c that misses, `beqz t1` back at 2 mod 4
 * before a 32-bit add at 2 mod 4 and a c.mv). Once a pass each, the
 * branch taken back to a c.jr:
 *   A  c.lw that hits, beq back (2 mod 4), 32-bit addi at 2 mod 4, c.nop
 *      (control)
 *   B  c.lw that misses, then as A (ud's shape)
 *   C  lw that misses, beq back (0 mod 4), c.nop, c.nop
 *   D  c.lw that misses, c.lw that hits, beq back (0 mod 4), c.nop, c.nop
 *      (control)
 *   E  c.lw that misses, c.beqz back (2 mod 4), c.nop, c.nop
 * The targets are on the line already fetched. On VexRiscv_IMAC.v the
 * refetched load holds execute for the rest of its fill with the branch
 * in decode, whose prediction sends the fetch to its target from there:
 * after a load that hits (A, D) the word after the branch costs a cycle
 * more. Between passes the driver evicts the loads' lines (loads of the
 * words 4 KiB on: the D-cache is 4 KiB, direct-mapped). Built rv32imac;
 * the other variants stop at its first 16-bit instruction (illegal,
 * exit 0x102). */
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
    addi s1, a1, 128
    li t0, 4096
    add a2, a1, t0
    li a0, 0
    li s0, 4
pass:
    run_case case_a
    run_case case_b
    run_case case_c
    run_case case_d
    run_case case_e
    next_pass_return0

    .balign 1024
case_a:                     /* A */
    j 1f
2:  rvc c.jr ra
    rvc c.nop
1:  nops 2
    rvc c.lw a3, 0(s1)
    beq zero, zero, 2b
    addi a4, a4, 1
    rvc c.nop
    rvc c.jr ra

    .balign 64
case_b:                     /* B */
    j 1f
2:  rvc c.jr ra
    rvc c.nop
1:  nops 2
    rvc c.lw a3, 0(a1)
    beq zero, zero, 2b
    addi a4, a4, 1
    rvc c.nop
    rvc c.jr ra

    .balign 64
case_c:                     /* C */
    j 1f
2:  rvc c.jr ra
    rvc c.nop
1:  nops 2
    lw a3, 0(a1)
    beq zero, zero, 2b
    rvc c.nop
    rvc c.nop
    rvc c.jr ra

    .balign 64
case_d:                     /* D */
    j 1f
2:  rvc c.jr ra
    rvc c.nop
1:  nops 2
    rvc c.lw a4, 0(a1)
    rvc c.lw a3, 0(s1)
    beq zero, zero, 2b
    rvc c.nop
    rvc c.nop
    rvc c.jr ra

    .balign 64
case_e:                     /* E */
    j 1f
2:  rvc c.jr ra
    rvc c.nop
1:  nops 2
    rvc c.lw a3, 0(a1)
    rvc c.beqz a0, 2b
    rvc c.nop
    rvc c.nop
    rvc c.jr ra

    .data
    .balign 64
buf:
    .rept 48
    .word 1
    .endr
    .skip 4096 - 192
    .rept 32
    .word 9
    .endr
