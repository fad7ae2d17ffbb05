/* seq_div.S -- a load or AMO at 0 mod 4 that misses the D-cache, then on
 * its line a load and a divide, the divide reading the missing one's
 * result or not, and the 3rd instruction after it first on an I-cache line
 * that misses ([dcache] seq_div, redo_refill_wait's seq_refill). The shape
 * of rand_gen.py's imac rand_21 at 0x40001494 (amominu.w that misses right
 * after amoswap.w's fill, lhu from IO, remu of the AMO's t1, then ori first
 * on the next line): on VexRiscv_IMAC.v's bus and retire traces the fetch
 * looked that word up before the divide waited in decode, its refill a
 * cycle before the fill, and the redo (DataCache's io_cpu_redo as
 * loader_valid rises) waits for the I-cache's lineLoader_valid to fall.
 * Cases: C lw that misses, lw (a hit), divu of the first's t0, then addi
 * first on the next line; A amominu.w, lw, remu of its t0, then ori;
 * B amoadd.w, lw, divu of another register, then add; D rand_21's:
 * amoswap.w that misses, bltu not taken, addi, then A. Each case runs
 * once, its lines new; std and min stop at A's AMO. */
#include "vex.h"
    .option norvc
    fixed_layout
    main_entry 12
    la s1, buf
    li a0, 0
    li a3, 7
    li a5, 9
    lw t2, 0(s1)  /* buf's first line in the D-cache: the lw's hit */
    call_cases c, a, b, d
    main_return 12, 1

    /* C: lw at word 5, lw (a hit), divu of its t0, then addi first on the next line */
    at_word 5
case_c:
    lw t0, 32(s1)
    lw t1, 4(s1)
    divu t4, a3, t0
    addi t3, t2, 5
    add a0, a0, t4
    ret

    /* A: amominu.w at word 5, lw, remu of its t0, then ori first on the next line */
    at_word 4
case_a:
    addi t6, s1, 64
    amominu.w t0, a3, (t6)
    lw t1, 8(s1)
    remu t4, a5, t0
    ori t3, t2, -311
    add a0, a0, t4
    ret

    /* B: amoadd.w at word 5, lw, divu not reading it, then add */
    at_word 4
case_b:
    addi t6, s1, 96
    amoadd.w t0, a3, (t6)
    lw t1, 12(s1)
    divu t4, a5, a3
    add t3, t2, a3
    add a0, a0, t0
    ret

    /* D: amoswap.w that misses, bltu not taken, addi, then A's amominu.w at word 5 */
    at_word 1
case_d:
    addi t6, s1, 128
    amoswap.w t1, a5, (t6)
    bltu a5, a3, 1f
    addi t6, s1, 160
    amominu.w t0, t1, (t6)
    lw t1, 16(s1)
    remu t4, a5, t0
    ori t3, t2, -311
1:  add a0, a0, t4
    ret

    word_buf 192, 3
