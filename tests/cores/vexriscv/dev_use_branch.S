/* dev_use_branch.S -- a device load (uncached, IO), then a multiply, then
 * a branch taken against its prediction to pc + 4 at a line's last word,
 * pc + 4 first on a line not in the I-cache (rand_gen.py's std rand_23 at
 * 0x40000594: lb from IO, mulhu, bgeu on the mulhu's result to pc + 4).
 * When the branch waits in decode for the multiply's result, the fetch
 * stage behind it holds pc + 4 until it leaves decode, after the device
 * load's wait: the refill goes out only then. Three times, on lines of
 * their own: lb from IO_SCRATCH, mulhu, bgeu on the mulhu's result at
 * word 7. */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    li a1, IO_SCRATCH
    li a3, 7
    li a4, 9
    .rept 3
    at_word 5
    lb t5, 0(a1)
    mulhu a2, a3, a4
    bgeu a2, zero, 1f
1:  add a0, a0, a2
    addi a0, a0, 1
    .endr
    main_return 0, mask=1
