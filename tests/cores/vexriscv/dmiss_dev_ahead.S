/* dmiss_dev_ahead.S -- a load that misses the D-cache, a load from IO
 * right after it, then the instruction after that first on an I-cache
 * line that misses: the fetch sent that refill out during the first
 * load's fill, and the device load's wait, the instruction ahead's own,
 * passes during the refill as well ([pipeline] fetch_ahead_data: that
 * wait counted once, in the cycles of the instruction ahead). The shape
 * of rand_gen.py's rand_24 at 0x40000c18 on VexRiscv_IMAC.v (lb that
 * misses, lb from IO, addi first on the next line: the addi retires 1
 * cycle after the device lb at W = 0..3). Cases: A lb, lb from IO, addi;
 * B lw, lhu from IO, add. Each case runs once, its lines new. */
#include "vex.h"
    fixed_layout
    main_entry 12
    la s1, buf
    li s5, IO_SCRATCH
    li a0, 0
    jal case_a
    jal case_b
    main_return 12, 1

    /* A: lb at word 6, lb from IO, then addi first on the next line */
    at_word 5
case_a:
    addi t0, t0, 0
    lb a5, 32(s1)
    lb t4, 30(s5)
    addi t6, s3, 1396
    add a0, a0, a5
    ret

    /* B: lw at word 6, lhu from IO, then add first on the next line */
    at_word 5
case_b:
    addi t0, t0, 0
    lw a5, 64(s1)
    lhu t4, 28(s5)
    add t6, s3, t0
    add a0, a0, a5
    ret

    word_buf 128
