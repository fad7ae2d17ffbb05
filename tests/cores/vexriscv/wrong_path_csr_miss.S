/* wrong_path_csr_miss.S -- a jump that redirects from memory (a branch
 * taken against its not-taken prediction, a ret) in its line's last word,
 * a CSR instruction first on the next line, which misses (rand_gen.py's
 * std rand_32 at 0x40000a7c: bltu taken forward, csrr after it). The
 * wrong path asks for that line's refill; on VexRiscv.v the fetch stage
 * still waits for it when the jump redirects, so the CSR instruction never
 * reaches execute and holds nothing: the target is fetched as after any
 * other missing word (csr_drain's cycle not charged, wrong_path_csr_miss).
 * Three times each:
 *   A  bne taken forward at word 7, csrr first on the next line, the
 *      target on that line
 *   B  bgeu taken forward to a bltu at word 7, the same after it
 *   C  ret at word 7 (leafC), csrr first on the next line
 * A csrr in the jump's own line (bne at word 6, csrr at word 7, the next
 * line missing) keeps the cycle (csr_drain's controls). */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li a1, IO_SCRATCH
    .rept 3                 /* A */
    at_word 7
    bne a1, zero, 1f
    csrr tp, mie
    addi tp, tp, 1
    nops 1
1:  addi a3, a3, 1
    nops 3
    .endr
    .rept 3                 /* B */
    at_word 5
    bgeu a1, a1, 2f
    addi a4, a4, 1
2:  bltu zero, a1, 1f
    csrr tp, mie
    addi tp, tp, 1
    nops 1
1:  addi a3, a3, 1
    nops 3
    .endr
    .rept 3                 /* C */
    call leafC
    bne zero, zero, .
    .endr
    main_return 12, 1
    at_word 6
leafC:
    addi a4, a4, 1
    ret
    csrr tp, mie
    addi tp, tp, 1
