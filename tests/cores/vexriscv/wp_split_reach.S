/* wp_split_reach.S -- a 32-bit jump at 2 mod 4 whose wrong path's third
 * word after its own last word is on the next line (exec_loop.inc's
 * wrong_path_lag, split): that line is refilled before the jump's target
 * is fetched. Each case is a leaf or a branch ending near its line's end,
 * the next line not cached (the driver evicts it before each call: a ret
 * at its alias 4 KiB on). M: a 32-bit ret at byte 18, 32-bit nops at 22,
 * 26 and 30, the last split over the next line (rand_gen.py's rand_24's
 * jalr at 0x40002732). N: a bnez at byte 18 taken forward (against its
 * prediction) to a ret on another line, the same nops after it (rand_21's
 * bge at 0x400021f2). O: M's ret before a jal at 22, sent by decode to its
 * target before the fetch reaches the next line: no refill (rand_24's
 * jalr at 0x40002652). Built rv32imac; the other variants stop at its first
 * 16-bit instruction (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
    li a0, 0
    jal o_away              /* its line cached: no refill of the jal's target */
pass:
    jal ev_m_next
    jal case_m
    jal ev_n_next
    jal case_n
    jal ev_n_next           /* a jal after each case's return, as after the others */
    jal ev_o_next
    jal case_o
    jal ev_o_next
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x400
case_m: addi a0, a0, 1
    nops 3
    rvc16 c.nop
    ret                  /* byte 18, 32-bit, then 32-bit at 22, 26 and 30 (split) */
    nops 3
    nops 8
    .org 0x480
case_n: addi a0, a0, 1
    nops 3
    rvc16 c.nop
    bnez s0, n_target    /* byte 18, taken forward, then 32-bit at 22, 26 and 30 (split) */
    nops 3
    nops 8
    .org 0x500
case_o: addi a0, a0, 1
    nops 3
    rvc16 c.nop
    ret                  /* byte 18, then a jal at 22, 32-bit at 26 and 30 (split) */
    jal zero, o_away
    nops 2
    nops 8
    .org 0x580
n_target: ret
    .org 0x5c0
o_away: ret
    .org 0x1420
ev_m_next: ret
    .org 0x14a0
ev_n_next: ret
    .org 0x1520
ev_o_next: ret
    .option pop
