/* rvc_wrong_path2.S -- rvc_wrong_path.S's return with the decompressor
 * holding its input at the second instruction after it
 * (exec_loop.inc's wrong_path_held). Each case is a leaf whose return ends
 * near its line's end, the next line not cached (the driver evicts it
 * before each call: a ret at its alias 4 KiB on). K: c.jr at byte 20, a
 * 32-bit nop at 22, a 32-bit nop at 26, a c.nop at 30 (rand_7's leaf0:
 * the word held is the second after the return's). L: a 32-bit ret at byte
 * 22, 32-bit nops at 26 and 30, a c.nop at 34 (rand_21's jalr: the word
 * held is the third, on the next line). Built rv32imac; the other variants
 * stop at its first 16-bit instruction (illegal). */
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
    jal ev_k_next
    jal case_k
    jal ev_l_next
    jal case_l
    jal ev_l_next           /* a jal after each case's return, as after the others */
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x400
case_k: addi a0, a0, 1
    nops 4
    rvc16 c.jr ra              /* byte 20, then 32-bit at 22 and 26, a 16-bit at 30 */
    nops 2
    rvc16 c.nop
    nops 9
    .org 0x480
case_l: addi a0, a0, 1
    nops 4
    rvc16 c.nop
    ret                  /* byte 22, 32-bit, then 32-bit at 26 and 30, a 16-bit at 34 */
    nops 2
    rvc16 c.nop
    nops 9
    .org 0x1420
ev_k_next: ret
    .org 0x14a0
ev_l_next: ret
    .option pop
