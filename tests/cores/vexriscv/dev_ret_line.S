/* dev_ret_line.S -- a device load (uncached, IO), then n ALU instructions
 * (n = 0..4), then a ret at a line's last word: its wrong-path word pc + 4
 * is first on a line not in the I-cache (rand_gen.py's std rand_37:
 * leaf1's lbu from IO, srai, ret). The fetch stage looks that word up
 * while the instructions ahead move on, and the refill runs during the
 * device load's wait when the load is still ahead far enough. Each case
 * three times, each leaf on lines of its own, the line after it never run
 * (the one the wrong path reaches).
 * Case Nn: lbu from IO_SCRATCH, n addi, ret at word 7. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0
    li a1, IO_SCRATCH
    .irp c, 0, 1, 2, 3, 4
    .irp n, 1, 2, 3
    call l\c\()_\n
    .endr
    .endr
    main_return 12, 1

    .irp c, 0, 1, 2, 3, 4
    .irp n, 1, 2, 3
    at_word (6 - \c)
l\c\()_\n:
    lbu t5, 0(a1)
    .rept \c
    addi a2, a2, 1
    .endr
    ret
    .balign 32
    nops 8
    .endr
    .endr
