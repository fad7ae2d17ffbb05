/* csr_drain_split.S -- a CSR instruction right after a redirect, then a
 * 32-bit instruction at byte 30 split over a line that misses: the CSR's
 * drain, given back as it passed during the redirect's bubbles
 * (exec_loop.inc's fetch_carry, drain_back), does not delay the lookup
 * of the instruction after the next either; the timing is as with an addi
 * in the CSR's place (rand_gen.py's rand_11 built rv32imac: beq to a csrr
 * mie at 0x4000091a, bge to a csrr at 0xad6, ret to a csrr at 0xc3a).
 * The driver evicts the split instruction's next line before each case
 * (a ret at its alias 4 KiB on); the branches' targets' own lines are
 * cached before the loop. A: bge taken forward to a csrr at byte 22,
 * an addi at 26, a nop at 30 (split). B: A with an addi in the csrr's
 * place. C: a ret from the evicting call at byte 22 to a csrr at 26, a nop
 * at 30 (split). D: C with an addi in the csrr's place. E: A with a j
 * (a jal: its one bubble takes back only 1 of the csrr's 2 cycles of
 * wait) in the bge's place (rand_11 and rand_23 built rv32imac: c.j to a
 * csrr of mstatus at 0x4000077a, jal to one at 0x40001176, then fence.i
 * two on). F: E with an addi in the csrr's place. Built rv32imac;
 * the other variants stop at its first 16-bit instruction (illegal). */
#include "vex.h"
    .option norelax
    .text
    .balign 4096
    .option push
    .option norvc
    main_entry 12
    li s0, 4
    li a0, 0
    jal warm_a              /* the targets' lines cached */
    jal warm_b
    jal warm_e
    jal warm_f
pass:
    jal case_c
    jal case_d
    jal ev_a_next
    jal case_a
    jal ev_b_next
    jal case_b
    jal ev_e_next
    jal case_e
    jal ev_f_next
    jal case_f
    addi s0, s0, -1
    bnez s0, pass
    main_return 12
    .org 0x400
case_a: addi a0, a0, 1
    bge s0, zero, a_target  /* taken forward (against its prediction) */
    nops 8
    .org 0x480
case_b: addi a0, a0, 1
    bge s0, zero, b_target
    nops 8
    .org 0x500
case_c: mv s1, ra
    addi a0, a0, 1
    nops 3
    rvc16 c.nop
    jal ev_c_next        /* byte 22: evicts the next line, back to 26 */
    csrr t1, mie         /* byte 26 */
    nop                  /* byte 30, split */
    jr s1
    nops 8
    .org 0x580
case_d: mv s1, ra
    addi a0, a0, 1
    nops 3
    rvc16 c.nop
    jal ev_d_next
    addi a0, a0, 1       /* byte 26 */
    nop                  /* byte 30, split */
    jr s1
    nops 8
    .org 0x600
warm_a: ret
    .org 0x616
a_target: csrr t1, mie   /* byte 22 */
    addi a0, a0, 1       /* byte 26 */
    nop                  /* byte 30, split */
    ret
    nops 8
    .org 0x680
warm_b: ret
    .org 0x696
b_target: addi a0, a0, 1 /* byte 22 */
    addi a0, a0, 1       /* byte 26 */
    nop                  /* byte 30, split */
    ret
    nops 8
    .org 0x700
case_e: addi a0, a0, 1
    j e_target              /* a jal: its one bubble takes back part of the wait */
    nops 8
    .org 0x780
warm_e: ret
    .org 0x796
e_target: csrr t1, mie   /* byte 22 */
    addi a0, a0, 1       /* byte 26 */
    nop                  /* byte 30, split */
    ret
    nops 8
    .org 0x800
case_f: addi a0, a0, 1
    j f_target
    nops 8
    .org 0x880
warm_f: ret
    .org 0x896
f_target: addi a0, a0, 1 /* byte 22 */
    addi a0, a0, 1       /* byte 26 */
    nop                  /* byte 30, split */
    ret
    nops 8
    .org 0x1520
ev_c_next: ret
    .org 0x15a0
ev_d_next: ret
    .org 0x1620
ev_a_next: ret
    .org 0x16a0
ev_b_next: ret
    .org 0x17a0
ev_e_next: ret
    .org 0x18a0
ev_f_next: ret
    .option pop
