/* csr_drain_line.S -- a CSR instruction right after a redirect's bubbles,
 * in its line's last word, the next line missing (found on the RTL's
 * retire trace of rand_gen.py's rand_34: bne zero, zero back, mispredicted,
 * csrr of mstatus at 0x400028dc, addi on a line that misses), each case
 * once, every line cold:
 * - a backward bne not taken (predicted taken), csrr in the line's last
 *   word, addi first on the next line;
 * - a forward beq taken (predicted not taken) to a csrr in its line's last
 *   word, addi first on the next line.
 * The CSR instruction's wait for memory and write-back to empty passed
 * whole in the bubbles (csr_drain): it holds the fetch no more, and the
 * refill of the next line overlaps none of it. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    j 1f

    at_word 5
back:
    addi a0, a0, 1
1:  bne zero, zero, back
    csrr t0, mstatus
    addi a0, a0, 2
    addi a0, a0, 3
    at_word 4
    beq zero, zero, 2f
    addi a0, a0, 100
    addi a0, a0, 100
2:  csrr t1, mstatus
    addi a0, a0, 4
    addi a0, a0, 5
    main_return 0, mask=1
