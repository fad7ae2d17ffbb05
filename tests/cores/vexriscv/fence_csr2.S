/* fence_csr2.S -- a CSR instruction two after fence.i, on its line: the
 * word after fence.i was fetched before the I-cache's flush, this one only
 * after it and the line's refill, when memory and write-back are long
 * empty, so CsrPlugin's wait (csr_penalty) passes (rand_gen.py's rand_6 at
 * 0x400008e0 on VexRiscv.v: fence.i, auipc, csrrs of mie, the csrrs
 * retiring 152 cycles after the auipc at W = 0, as an ALU op would; and
 * rand_23 at 0x400012f4: fence.i, mulhsu, csrrs of mie last on its line,
 * then blt first on a line that misses, retiring the whole refill after
 * the csrrs), each case a few times in a loop:
 * - fence.i, an ALU op, csrr of mie, an ALU op using its result;
 * - fence.i, an ALU op, csrr of mie in its line's last word, then an ALU
 *   op first on the next line, which misses (no multiply: the same
 *   program runs on vexriscv-min). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, 100
    li s8, 3
    j loop

    .balign 32
loop:
    addi a0, a0, 1
    fence.i
    auipc t1, 0
    csrr t0, mie
    addi t0, t0, 1
    add a0, a0, t0
    .balign 32
    nops 5
    fence.i
    xor t2, a0, a1
    csrr t3, mie
    .balign 32
    add a0, a0, t3
    add a0, a0, t2
    addi s8, s8, -1
    bne s8, zero, loop
    main_return 0, mask=1
