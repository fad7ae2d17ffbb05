/* fence_csr_next.S -- a CSR instruction two after fence.i, fetched after
 * the flush (fence_csr2.S's fact), after a branch not taken right after
 * fence.i, which ends its block (found on the RTL's retire trace of
 * rand_gen.py's std programs: rand_33's fence.i, bne, csrrs at 0x40000fb8,
 * the csrrs first on the next line; rand_44's fence.i, bltu, csrrs at
 * 0x4000118c; rand_24's fence.i, bne, csrrs at 0x40004208; rand_34's
 * fence.i, bne, csrrs at 0x4000182c). Each case three times in a loop:
 * - B: fence.i in its line's second-last word, bne not taken, csrr first
 *   on the next line;
 * - C: fence.i, bne not taken, csrr, on one line;
 * - T (control): fence.i, beq taken forward on its line, csrr at its
 *   target (no change: the redirect's bubbles). */
#include "vex.h"
    fixed_layout
    main_entry 0
    la s2, fcn_buf
    la s3, fcn_miss
    li s5, IO_SCRATCH
    li a0, 0
    lw t0, 0(s2)
    li s8, 3
    j loop_b

    .balign 32
loop_b:
    addi a0, a0, 1
    nops 5
    fence.i
    bne s8, s8, 1f
    csrr t3, mie
    add a0, a0, t3
1:  addi s8, s8, -1
    bne s8, zero, loop_b
    li s8, 3
    j loop_c

    .balign 32
loop_c:
    addi a0, a0, 1
    nop
    fence.i
    bne s8, s8, 1f
    csrr t3, mie
    add a0, a0, t3
1:  addi s8, s8, -1
    bne s8, zero, loop_c
    li s8, 3
    j loop_t

    .balign 32
loop_t:
    addi a0, a0, 1
    nop
    fence.i
    beq s8, s8, 1f
    nop
1:  csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_t
    main_return 0, mask=1

    .bss
    .balign 32
fcn_buf:
    .space 64
fcn_miss:
    .space 1024
