/* fence_dmiss_line.S -- a load that misses the D-cache shortly before
 * fence.i, with an I-cache miss between them: the load's line hits, and
 * fence.i, or an instruction between, is first on a line that misses (the
 * flush of the fence.i before dropped every line). On VexRiscv_IMAC.v
 * fence.i is then still behind that refill when the load reaches
 * write-back and asks for its redo: it has not started the flush, and it
 * runs once ([pipeline] fence_i_redo: no redo; a random program's lhu,
 * xor, then fence.i first on a line that misses: its next instruction
 * retires 151 cycles after it, one flush and a refill). Each case loads a
 * new D-cache line each pass. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s0, 6
    li a0, 0
    .balign 32
pass:
    call_cases a, b, c
    addi s1, s1, 128
    addi s0, s0, -1
    bnez s0, pass
    main_return 12

    /* A: lw, xor, then fence.i first on the next line */
    .balign 32
case_a:
    nops 6
    lw t0, 0(s1)
    xor t1, a0, s0
    fence.i
    addi a0, a0, 1
    add a0, a0, t0
    ret

    /* B: lw in a line's last word, fence.i first on the next line */
    .balign 32
case_b:
    nops 7
    lw t0, 32(s1)
    fence.i
    addi a0, a0, 2
    add a0, a0, t0
    ret

    /* C: lw in a line's last word, an addi first on the next line, then
     * fence.i */
    .balign 32
case_c:
    nops 7
    lw t0, 64(s1)
    addi t1, a0, 3
    fence.i
    add a0, a0, t0
    ret

    word_buf 6*128
