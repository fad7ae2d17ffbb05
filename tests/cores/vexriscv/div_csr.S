/* div_csr.S -- a divide, then a CSR read at a line's end, the next
 * instruction first on a line that misses (rand_6's divu, csrr, bne at
 * 0x40001078): the fetch looks that line up while the divide holds execute
 * and the CSR read waits in decode, so its refill runs during the divide.
 * Straight code, four times, every line new. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li t3, 7
    .rept 4
    at_word 5
    addi a0, a0, 9
    divu t2, a0, t3
    csrr t1, mstatus      /* the line's last word */
    add a1, a1, t2        /* next line: misses */
    .endr
    add a0, a0, t2
    main_return 0
