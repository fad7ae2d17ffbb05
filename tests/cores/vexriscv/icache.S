/* icache.S -- I-cache misses and refills (8-beat bursts): four functions
 * 4 KiB apart (the same set of a 4 KiB direct-mapped cache, each evicting
 * the other), called in turn, and a straight run of 3 KiB of code executed
 * twice (cold, then warm). */
#include "vex.h"
    main_entry 0
    li a0, 0
    li s0, 20
1:  call fa
    call fb
    call fc
    call fd
    call fa
    call fa
    addi s0, s0, -1
    bnez s0, 1b
    call run
    call run
    main_return 0

    .balign 4096
fa: addi a0, a0, 1
    addi a0, a0, 1
    ret
    .balign 4096
fb: addi a0, a0, 2
    ret
    .balign 4096
fc: addi a0, a0, 3
    ret
    .balign 4096
    nops 5
fd: addi a0, a0, 4       /* starts mid-line */
    addi a0, a0, 4
    addi a0, a0, 4
    addi a0, a0, 4
    ret

    .balign 32
run:
    .rept 768
    addi a0, a0, 1
    .endr
    ret
