/* wrong_path_ret22.S -- a 32-bit return at 2 mod 4 near its line's end,
 * the next line not cached (the driver evicts it before each call: a ret
 * at its alias 4 KiB on), with 16-bit instructions after it that hold the
 * decompressor's input (exec_loop.inc's wrong_path_split_words). M: a
 * 32-bit ret at byte 22, a 32-bit nop at 26, a c.nop at 30 (rand_7's
 * leaf1: one hold, the next line's word reached in the ret's redirect
 * cycle). N: a 32-bit ret at byte 22, c.nop at 26, 28 and 30 (two holds:
 * not reached). Built rv32imac; the other variants stop at its first
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
pass:
    jal ev_m_next
    jal case_m
    jal ev_n_next
    jal case_n
    jal ev_m_next           /* a jal after each case's return, as after the others */
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x500
case_m: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    ret                  /* byte 22, 32-bit, then a 32-bit nop at 26, a c.nop at 30 */
    nop
    rvc16 c.nop
    nops 8
    .org 0x580
case_n: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    ret                  /* byte 22, 32-bit, then c.nop at 26, 28 and 30 */
    .option rvc
    c.nop
    c.nop
    c.nop
    .option norvc
    nops 8
    .org 0x1520
ev_m_next: ret
    .org 0x15a0
ev_n_next: ret
    .option pop
