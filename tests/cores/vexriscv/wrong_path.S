/* wrong_path.S -- the refill of a line the fetch reaches on the wrong path
 * of a jalr ([pipeline] wrong_path_fill): the words after the jalr up to
 * the next line, not cached yet, are 0, 1 or 2 (the line is 4, 8 or 12
 * bytes after it), with and without an illegal word (zeros) among them,
 * which halts the fetch; the target hits (a ret to its caller) or misses
 * (a call through jalr to a line not fetched yet). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    call l28
    call l24
    call l20
    call l24z
    call l20z
    call l28
    call l24
    nop                     /* no jal on the wrong path of the call */
    nops 2
    j calls

/* a leaf: its ret at byte 28, 24 or 20 of its line, the words up to the
 * next line (nops or a zero word), then a line of nops never run */
    .balign 32
l28: addi a0, a0, 1
    nops 6
    ret
    nops 8
    .balign 32
l24: addi a0, a0, 2
    nops 5
    ret
    nop
    nops 8
    .balign 32
l20: addi a0, a0, 3
    nops 4
    ret
    nops 2
    nops 8
    .balign 32
l24z: addi a0, a0, 4
    nops 5
    ret
    .word 0
    nops 8
    .balign 32
l20z: addi a0, a0, 5
    nops 4
    ret
    nop
    .word 0
    nops 8

/* calls through jalr at byte 28, 24 and 20 of a line, each to a function
 * on a line not fetched yet, the next line not cached either */
    .balign 32
calls:
    la t0, f1
    nops 5
    jalr ra, t0             /* byte 28 */
    la t0, f2
    nops 4
    jalr ra, t0             /* byte 24 */
    nop
    la t0, f3
    nops 3
    jalr ra, t0             /* byte 20 */
    nops 2
    main_return 0

    .balign 32
f1: addi a0, a0, 6
    ret
    .balign 32
f2: addi a0, a0, 7
    ret
    .balign 32
f3: addi a0, a0, 8
    ret
