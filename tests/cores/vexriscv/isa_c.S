/* isa_c.S -- compressed instructions, 32-bit instructions at 2 mod 4, a
 * compressed branch and jump to a halfword-aligned target. The variants
 * without C trap on the first one (exit 0x102). */
#include "vex.h"
    .option rvc
    main_entry
    c.li a0, 0
    c.li a1, 20
1:  c.addi a0, 3
    addi a0, a0, 100      /* at 2 mod 4 */
    c.mv a2, a0
    c.slli a2, 2
    add a0, a0, a2
    c.srli a0, 1
    c.andi a0, 31
    c.bnez a0, 2f
    c.addi a0, 1
2:  c.addi a1, -1
    c.bnez a1, 1b
    c.j 3f
    c.nop
3:  addi a0, a0, 7
    c.jr ra
