/* jumps.S -- jal calls, jalr returns and indirect calls through a table,
 * jumps to the next instruction, a chain of jumps. */
#include "vex.h"
    main_entry 0
    li s0, 0
    li s1, 100
1:  call leaf1
    call leaf2
    la t0, table
    andi t1, s1, 1
    slli t1, t1, 2
    add t0, t0, t1
    lw t2, 0(t0)
    jalr t2
    j 2f
2:  j 3f
3:  jal zero, 4f
4:  addi s1, s1, -1
    bnez s1, 1b
    mv a0, s0
    main_return 0
leaf1:
    addi s0, s0, 1
    ret
leaf2:
    addi s0, s0, 2
    jr ra
leaf3:
    addi s0, s0, 7
    ret
    .data
    .balign 4
table:
    .word leaf1, leaf3
