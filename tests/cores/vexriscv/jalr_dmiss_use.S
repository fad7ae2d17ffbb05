/* jalr_dmiss_use.S -- a jalr whose target comes from a load that misses the
 * D-cache (it reads the load's result: it waits in decode for it), at its
 * line's last word, the word after it on a line not in the I-cache, its
 * target on a line of its own, not cached (found on the RTL's retire trace
 * of CoreMark built rv32imac: __i_vfprintf's `c.lw a5, 0(a5); c.jr a5` at
 * 0x40001a7a, the switch's jump table, its first pass). Each case three
 * times, each on lines of its own, with a line never run after the jalr's
 * (the one its wrong path reaches) and the target's line after that, every
 * table word on a D-cache line of its own.
 * A: c.lw at 2 mod 4, c.jr of its result at word 7 (CoreMark's shape).
 * B: lw, jalr of its result at word 7 (32-bit).
 * C: c.lw, c.jr at 2 mod 4 in word 7 (pc + 2 on the next line).
 * D: A with the table's line cached (the c.lw hits). */
#include "vex.h"
    fixed_layout
    main_entry 12
    .option rvc
    c.nop                /* std and min stop here (illegal), as on the RTL */
    c.nop
    .option norvc
    li a0, 0
    .irp c, A, B, C, D
    .irp n, 1, 2, 3
    la a1, tab\c\n
    .ifc \c, D
    lw t0, 0(a1)         /* the table's line cached */
    .endif
    call f\c\n
    .endr
    .endr
    main_return 12, 1

    .macro fun c, n
    .ifc \c, B
    at_word 6
f\c\n:
    lw a5, 0(a1)
    jalr zero, 0(a5)     /* word 7 */
    .else
    .ifc \c, C
    at_word 7
f\c\n:
    .option rvc
    c.lw a5, 0(a1)
    c.jr a5              /* 2 mod 4, word 7 */
    .option norvc
    .else
    at_word 6
f\c\n:
    .option rvc
    c.nop
    c.lw a5, 0(a1)       /* 2 mod 4 */
    c.jr a5              /* word 7 */
    c.nop
    .option norvc
    .endif
    .endif
    .balign 32
    nops 8               /* the wrong path's line, never run */
t\c\n:
    addi a0, a0, 1       /* the target, on a line of its own */
    ret
    .endm

    .irp c, A, B, C, D
    .irp n, 1, 2, 3
    fun \c, \n
    .endr
    .endr

    .data
    .irp c, A, B, C, D
    .irp n, 1, 2, 3
    .balign 64
tab\c\n: .word t\c\n
    .endr
    .endr
