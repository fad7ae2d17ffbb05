/* taken_dmiss.S -- a jump that redirects from decode (a backward branch,
 * predicted taken, or a jal) in the last word of its line, the next line
 * missing ([pipeline] taken_path_fill), a few instructions after a load
 * that misses the D-cache ([pipeline] fetch_ahead_data), and (case F) a
 * forward branch taken against its prediction there, its wrong path's
 * first word on the next line. On
 * VexRiscv_IMAC.v the word after the jump is looked up while the load's
 * fill is on the D-bus, and its refill passes during that fill (a random
 * program's lr.w, sc.w, addi, bne: the bne retires 3 cycles after the
 * lr.w, not a refill later). Each case runs twice its loop: the first
 * time the load misses and the jump is taken, the second time the load
 * hits and the branch falls through to the line filled the first time.
 * Between passes the driver evicts the case's load (a load of the word
 * 4 KiB on) and the case's next line (a call to a ret at its alias
 * 4 KiB on): both caches are 4 KiB and direct-mapped. Case D, a load
 * four instructions before the branch, is beyond it: the refill waits in
 * full. The two nops at main place the driver's code: without them
 * tally's vexriscv is 1 cycle over on the first pass (a driver load that
 * misses the D-cache in a line's last word, the next line missing:
 * [dcache] refill_refetch), a case this program is not about. */
#include "vex.h"
    fixed_layout
    .text
    .balign 4096
    main_entry
    nops 2
    addi sp, sp, -16
    sw ra, 12(sp)
    dline_alias
    li s0, 6
    li a0, 1
pass:
    miss_call_evict_each a, b, c, d, e, f
    addi s0, s0, -1
    bnez s0, pass
    lw ra, 12(sp)
    addi sp, sp, 16
    li a0, 0
    ret

    /* A: lw, addi, addi, bne at the line's end: rand_23's shape */
    .org 0x400
case_a:
    li s7, 2
    nops 3
1:  lw a3, 0(a1)
    addi t0, a0, 1
    addi s7, s7, -1
    bnez s7, 1b
    ret

    /* B: lw, addi, bne */
    .org 0x480
case_b:
    li s7, 2
    nops 4
1:  lw a3, 0(a1)
    addi s7, s7, -1
    bnez s7, 1b
    ret

    /* C: addi, lw, bne: the load right before the branch */
    .org 0x500
case_c:
    li s7, 2
    nops 4
1:  addi s7, s7, -1
    lw a3, 0(a1)
    bnez s7, 1b
    ret

    /* D: lw, then three instructions before the bne */
    .org 0x580
case_d:
    li s7, 2
    nops 2
1:  lw a3, 0(a1)
    addi t0, a0, 1
    addi t1, a0, 2
    addi s7, s7, -1
    bnez s7, 1b
    ret

    /* E: lw, addi, addi, then a jal at the line's end to a line after */
    .org 0x600
case_e:
    nops 4
    lw a3, 0(a1)
    addi t0, a0, 1
    addi t1, a0, 2
    j 2f
    nop
    .org 0x640
2:  ret

    /* F: lw, addi, addi, then a forward bne taken against its prediction
     * at the line's end: the first word of its wrong path is on the next
     * line, which misses ([pipeline] wrong_path_fill), looked up as the
     * word after a jalr is (the random program's lr.w, sc.w, bne to the
     * next line) */
    .org 0x680
case_f:
    nops 4
    lw a3, 0(a1)
    addi t0, a0, 1
    addi t1, a0, 2
    bnez a0, 2f
    nop
    .org 0x6c0
2:  ret

    /* the aliases of each case's next line */
    evict_rets 0x1420, 0x80, a, b, c, d, e, f

    dline_buf
