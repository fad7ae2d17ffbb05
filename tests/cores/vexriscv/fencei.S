/* fencei.S -- self-modifying code: an "addi a0, a0, K; ret" written to RAM
 * (through the write-through D-cache), made visible to fetch with fence.i
 * (which flushes the I-cache), called, rewritten with another K, called
 * again. */
#include "vex.h"
    main_entry 0
    li a0, 0
    li s0, 10
    la s1, code
1:  slli t0, s0, 20       /* addi a0, a0, s0: imm in bits 31:20 */
    li t1, 0x00050513
    or t0, t0, t1
    sw t0, 0(s1)
    li t1, 0x00008067     /* ret */
    sw t1, 4(s1)
    fence.i
    jalr s1
    addi s0, s0, -1
    bnez s0, 1b
    main_return 0
    .data
    .balign 64
code:
    .space 64
