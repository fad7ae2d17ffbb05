/* fence_csr_store.S -- a CSR instruction two after fence.i, fetched after
 * the flush (fence_csr2.S's fact), first on the next line, after a store
 * or an ALU op right after fence.i (found on the RTL's retire trace of
 * rand_gen.py's std programs: rand_33's fence.i, sh, csrrs of mie at
 * 0x40001ad8, the csrrs first on the next line). Each case three times in
 * a loop:
 * - S: fence.i in its line's second-last word, sw to RAM, csrr first on
 *   the next line;
 * - A: fence.i in its line's second-last word, addi, csrr first on the
 *   next line;
 * - N (control): fence.i in its line's third-last word, sw, csrr, on one
 *   line (fence_i_csr_refetch's). */
#include "vex.h"
    fixed_layout
    main_entry 0
    la s2, fcs_buf
    li a0, 0
    lw t0, 0(s2)
    li s8, 3
    j loop_s

    .balign 32
loop_s:
    addi a0, a0, 1
    nops 5
    fence.i
    sw a0, 4(s2)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_s
    li s8, 3
    j loop_a

    .balign 32
loop_a:
    addi a0, a0, 1
    nops 5
    fence.i
    addi t4, a0, 3
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_a
    li s8, 3
    j loop_n

    .balign 32
loop_n:
    addi a0, a0, 1
    nops 4
    fence.i
    sw a0, 4(s2)
    csrr t3, mie
    add a0, a0, t3
    addi s8, s8, -1
    bne s8, zero, loop_n
    main_return 0, mask=1

    .bss
    .balign 32
fcs_buf:
    .space 64
