/* refill_use_relay.S -- a load, then a load first on a line that misses the
 * I-cache, then an instruction of the first load's result, then one of the
 * second's (edn's benchmark_body at 0x400007dc on VexRiscv.v: lw a5,
 * lw a0 first on a missing line, addi a5, bne a0, a5 back, falling
 * through). The addi's wait for the first load passes during the refill
 * (refill_hides_next_use); the bne, two after the second load, still
 * waits a cycle for it, as stepped (--trace) and on the RTL's retire trace
 * (the bne 2 cycles after the addi). Unsplit, the bne's wait, laid out
 * behind the addi's whole wait at 0, was not laid out again when the
 * addi's was taken back: a cycle short a pass. Three times with the bne
 * (predicted taken, back to the first instruction, falling through), three
 * times with an add in its place, each on lines of their own. */
#include "vex.h"
    fixed_layout
    main_entry 0
    la t6, vals
    lw t0, 0(t6)
    li s5, 0
    .rept 3
    at_word 6
2:  addi s5, s5, 1
    lw a5, 0(t6)
    lw a0, 4(t6)
    addi a5, a5, 1
    bne a0, a5, 2b
    .endr
    .rept 3
    at_word 6
    addi s5, s5, 1
    lw a5, 0(t6)
    lw a0, 4(t6)
    addi a5, a5, 1
    add s5, s5, a0
    .endr
    mv a0, s5
    main_return 0, mask=1
    .data
vals:
    .word 1, 2
