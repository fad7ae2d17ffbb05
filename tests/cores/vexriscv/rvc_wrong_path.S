/* rvc_wrong_path.S -- the words a return's wrong path looks up on
 * VexRiscv_IMAC.v when the decompressor holds its input a cycle
 * ([pipeline] wrong_path_fill, wrong_path_words, with redirect_rvc_pair:
 * exec_loop.inc's wrong_path_held). Each case is a leaf whose return ends
 * near its line's end, the next line not cached (the driver evicts it
 * before each call: a ret at its alias 4 KiB on; the I-cache is 4 KiB and
 * direct-mapped). On the RTL's retire trace the next line is not refilled
 * (the return's target retires 4 cycles after it at W = 0) in A (c.jr at
 * byte 20 before a c.nop), B (A with its own line missing too), G (a
 * 32-bit ret at byte 20 before two c.nop) and H (c.jr at byte 20, a 32-bit
 * nop at 22, a c.nop at 26); it is (22 cycles) in D (c.jr at byte 22), E
 * (c.jr at byte 26), F (a 32-bit ret at byte 20), I (c.jr at byte 24
 * before a c.nop: the next line is its second word) and J (a 32-bit ret at
 * byte 22 before a c.nop). Built rv32imac; the other variants stop at its
 * first 16-bit instruction (illegal). */
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
    jal ev_a_next
    jal case_a
    jal ev_b_next
    jal ev_b_own
    jal case_b
    jal ev_d_next
    jal case_d
    jal ev_e_next
    jal case_e
    jal ev_f_next
    jal case_f
    jal ev_g_next
    jal case_g
    jal ev_h_next
    jal case_h
    jal ev_i_next
    jal case_i
    jal ev_j_next
    jal case_j
    jal ev_j_next           /* a jal after each case's return, as after the others */
    addi s0, s0, -1
    bnez s0, pass
    main_return 12

    .org 0x400
case_a: addi a0, a0, 1
    nops 4
    .option rvc
    c.jr ra              /* byte 20 */
    c.nop
    .option norvc
    nops 10
    .org 0x480
case_b: addi a0, a0, 1
    nops 4
    .option rvc
    c.jr ra              /* byte 20, own line missing too */
    c.nop
    .option norvc
    nops 10
    .org 0x500
case_d: addi a0, a0, 1
    nops 4
    .option rvc
    c.nop
    c.jr ra              /* byte 22 */
    .option norvc
    nops 10
    .org 0x580
case_e: addi a0, a0, 1
    nops 5
    .option rvc
    c.nop
    c.jr ra              /* byte 26 */
    .option norvc
    nops 9
    .org 0x600
case_f: addi a0, a0, 1
    nops 4
    ret                  /* byte 20, 32-bit */
    nops 10
    .org 0x680
case_g: addi a0, a0, 1
    nops 4
    ret                  /* byte 20, 32-bit, then a pair */
    .option rvc
    c.nop
    c.nop
    .option norvc
    nops 9
    .org 0x700
case_h: addi a0, a0, 1
    nops 4
    rvc16 c.jr ra              /* byte 20, then a 32-bit at 22, a 16-bit at 26 */
    nop
    rvc16 c.nop
    nops 9
    .org 0x780
case_i: addi a0, a0, 1
    nops 5
    .option rvc
    c.jr ra              /* byte 24, a pair, next line its second word */
    c.nop
    .option norvc
    nops 9
    .org 0x800
case_j: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    ret                  /* byte 22, 32-bit, a 16-bit at 26 */
    rvc16 c.nop
    nops 9
    .org 0x1420
ev_a_next: ret
    .org 0x1480
ev_b_own: ret
    .org 0x14a0
ev_b_next: ret
    .org 0x1520
ev_d_next: ret
    .org 0x15a0
ev_e_next: ret
    .org 0x1620
ev_f_next: ret
    .org 0x16a0
ev_g_next: ret
    .org 0x1720
ev_h_next: ret
    .org 0x17a0
ev_i_next: ret
    .org 0x1820
ev_j_next: ret
    .option pop
