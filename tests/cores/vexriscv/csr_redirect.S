/* csr_redirect.S -- CSR instructions around a redirect: one on the wrong
 * path of a redirect from memory (a branch taken against its not-taken
 * prediction, a jalr), which is held in execute and holds the fetch of the
 * target a cycle; one second on that wrong path (no hold: it never reaches
 * execute); and one at the target of a redirect, whose wait for memory and
 * write-back to empty passes during the redirect's bubbles. */
#include "vex.h"
    main_entry 0
    li a0, 0
    li s0, 40
1:  beq zero, zero, 2f      /* forward: predicted not taken, taken */
    csrr t1, mstatus        /* wrong path, first */
    addi a0, a0, 1
2:  addi s0, s0, -1
    bnez s0, 1b
    li s0, 40
3:  beq zero, zero, 4f
    addi a0, a0, 3          /* wrong path, first */
    csrr t1, mstatus        /* wrong path, second */
4:  addi s0, s0, -1
    bnez s0, 3b
    li s0, 40
5:  bne s0, zero, 6f        /* taken: to a CSR instruction */
    addi a0, a0, 5
6:  csrr t2, mstatus
    andi t2, t2, 0
    add a0, a0, t2
    addi s0, s0, -1
    bnez s0, 5b
    li s0, 40
7:  call leaf               /* its ret is followed by a CSR instruction */
    addi s0, s0, -1
    bnez s0, 7b
    main_return 0

leaf:
    addi a0, a0, 7
    ret
    csrr t1, mscratch       /* never executed: the ret's wrong path */
