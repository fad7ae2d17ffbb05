// atomics.S - the A extension: lr.w/sc.w and the nine AMOs.
//
// sc.w writes 0 to rd on success and 1 on failure (the only failure code
// the spec defines); a failed sc.w does not write memory. Any sc.w, taken
// or not, ends the reservation; so does a trap (QEMU 7.2 and tally both
// drop it on trap entry / mret). A newer lr.w replaces the reservation.
//
// Misaligned and faulting accesses (RISC-V: an AMO or LR/SC on a
// misaligned address raises address-misaligned or access fault, never
// performs it):
//   lr.w   misaligned -> load address misaligned (4), mtval = address
//   sc.w   misaligned -> store/AMO address misaligned (6), mtval = address
//   amo*.w misaligned -> store/AMO address misaligned (6), mtval = address
//   amo*.w to an address with no device -> store/AMO access fault (7)
// QEMU 7.2 deviates (QEMU bugs; checks left out with TEST_ON_QEMU):
//   misaligned AMOs raise cause 4 instead of 6 (QEMU issue #3503),
//   AMO access faults raise cause 5 instead of 7 (QEMU issue #594),
//   a misaligned sc.w without a matching reservation simply fails (rd = 1)
//   without a trap.
#include "test_macros.h"

// amo_word = \old; \insn a4, a2(= \operand), (a1 = &amo_word)
// expect a4 == \old, amo_word == \new, a2 unchanged, neighbours intact.
.macro TEST_AMO n, insn, old, operand, new
    TEST_NUM \n
    la      a1, amo_word
    li      a4, \old
    sw      a4, 0(a1)
    li      a2, \operand
    \insn   a4, a2, (a1)
    CHECK   a4, \old
    lw      a5, 0(a1)
    CHECK   a5, \new
    CHECK   a2, \operand
    lw      a5, -4(a1)
    CHECK   a5, 0x5a5a5a5a
    lw      a5, 4(a1)
    CHECK   a5, 0xa5a5a5a5
.endm

TEST_BEGIN

    // ---- lr.w / sc.w ----
    TEST_NUM 1                      // sc.w with no reservation ever made
    la      a1, lr_word
    li      a2, 0x11111111
    sc.w    a5, a2, (a1)
    CHECK   a5, 1
    lw      a4, 0(a1)
    CHECK   a4, 0x80000000          // memory unchanged

    TEST_NUM 2                      // lr.w reads; sc.w succeeds
    lr.w    a4, (a1)
    CHECK   a4, 0x80000000
    li      a2, 0x22222222
    sc.w    a5, a2, (a1)
    CHECK   a5, 0
    lw      a4, 0(a1)
    CHECK   a4, 0x22222222

    TEST_NUM 3                      // the reservation was used up
    li      a2, 0x33333333
    sc.w    a5, a2, (a1)
    CHECK   a5, 1
    lw      a4, 0(a1)
    CHECK   a4, 0x22222222

    TEST_NUM 4                      // sc.w to another address fails ...
    la      a3, lr_word2
    lr.w    a4, (a1)
    sc.w    a5, a2, (a3)
    CHECK   a5, 1
    lw      a4, 0(a3)
    CHECK   a4, 0x0000cafe
    sc.w    a5, a2, (a1)            // ... and ends the reservation
    CHECK   a5, 1
    lw      a4, 0(a1)
    CHECK   a4, 0x22222222

    TEST_NUM 5                      // a newer lr.w replaces the reservation
    lr.w    a4, (a1)
    lr.w    a4, (a3)
    sc.w    a5, a2, (a1)
    CHECK   a5, 1
    lr.w    a4, (a1)
    lr.w    a4, (a3)
    li      a2, 0x44444444
    sc.w    a5, a2, (a3)
    CHECK   a5, 0
    lw      a4, 0(a3)
    CHECK   a4, 0x44444444

    TEST_NUM 6                      // a trap in between ends the reservation
    lr.w    a4, (a1)
    EXPECT_TRAP lr_trap_back
    ecall
    j       test_fail_no_trap
lr_trap_back:
    li      a2, 0x55555555
    sc.w    a5, a2, (a1)
    CHECK   a5, 1
    lw      a4, 0(a1)
    CHECK   a4, 0x22222222

    TEST_NUM 7                      // an lr/sc increment loop, three times
    la      a1, lr_word
    li      a4, 100
    sw      a4, 0(a1)
    li      a3, 3
lr_loop:
    lr.w    a4, (a1)
    addi    a4, a4, 1
    sc.w    a5, a4, (a1)
    bnez    a5, lr_loop
    addi    a3, a3, -1
    bnez    a3, lr_loop
    lw      a4, 0(a1)
    CHECK   a4, 103

    TEST_NUM 8                      // the aq/rl bits change nothing here
    lr.w.aq a4, (a1)
    CHECK   a4, 103
    li      a2, 104
    sc.w.rl a5, a2, (a1)
    CHECK   a5, 0
    lr.w.aqrl a4, (a1)
    CHECK   a4, 104
    li      a2, 105
    sc.w.aqrl a5, a2, (a1)
    CHECK   a5, 0
    lw      a4, 0(a1)
    CHECK   a4, 105

    TEST_NUM 9                      // rd == rs2 in sc.w: the value is stored first
    lr.w    a4, (a1)
    li      a2, 106
    sc.w    a2, a2, (a1)
    CHECK   a2, 0
    lw      a4, 0(a1)
    CHECK   a4, 106

    // ---- AMOs: rd = old memory value, memory = op(old, rs2) ----
    TEST_AMO 20, amoswap.w, 0x80000000, 0x7fffffff, 0x7fffffff
    TEST_AMO 21, amoswap.w, 0x12345678, 0x00000000, 0x00000000
    TEST_AMO 22, amoadd.w,  0x7fffffff, 0x00000001, 0x80000000
    TEST_AMO 23, amoadd.w,  0xffffffff, 0x00000001, 0x00000000
    TEST_AMO 24, amoadd.w,  0x00000005, 0xfffffffd, 0x00000002   // 5 + -3
    TEST_AMO 25, amoadd.w,  0x80000000, 0x80000000, 0x00000000
    TEST_AMO 26, amoxor.w,  0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0
    TEST_AMO 27, amoxor.w,  0x12345678, 0xffffffff, 0xedcba987
    TEST_AMO 28, amoand.w,  0xff00ff00, 0x0ff00ff0, 0x0f000f00
    TEST_AMO 29, amoand.w,  0xffffffff, 0x12345678, 0x12345678
    TEST_AMO 30, amoor.w,   0xff00ff00, 0x0ff00ff0, 0xfff0fff0
    TEST_AMO 31, amoor.w,   0x00000000, 0x80000001, 0x80000001
    // signed min/max
    TEST_AMO 40, amomin.w,  0x80000000, 0x00000001, 0x80000000   // INT_MIN < 1
    TEST_AMO 41, amomin.w,  0x00000001, 0xffffffff, 0xffffffff   // -1 < 1
    TEST_AMO 42, amomin.w,  0x7fffffff, 0x80000000, 0x80000000
    TEST_AMO 43, amomin.w,  0x00000005, 0x00000005, 0x00000005
    TEST_AMO 44, amomin.w,  0xffffffff, 0x00000000, 0xffffffff
    TEST_AMO 45, amomax.w,  0x80000000, 0x00000001, 0x00000001
    TEST_AMO 46, amomax.w,  0x00000001, 0xffffffff, 0x00000001
    TEST_AMO 47, amomax.w,  0x7fffffff, 0x80000000, 0x7fffffff
    TEST_AMO 48, amomax.w,  0xffffffff, 0x00000000, 0x00000000
    TEST_AMO 49, amomax.w,  0xfffffffe, 0xffffffff, 0xffffffff   // -2 < -1
    // unsigned min/max
    TEST_AMO 50, amominu.w, 0x80000000, 0x00000001, 0x00000001
    TEST_AMO 51, amominu.w, 0x00000001, 0xffffffff, 0x00000001
    TEST_AMO 52, amominu.w, 0x7fffffff, 0x80000000, 0x7fffffff
    TEST_AMO 53, amominu.w, 0xffffffff, 0x00000000, 0x00000000
    TEST_AMO 54, amomaxu.w, 0x80000000, 0x00000001, 0x80000000
    TEST_AMO 55, amomaxu.w, 0x00000001, 0xffffffff, 0xffffffff
    TEST_AMO 56, amomaxu.w, 0x7fffffff, 0x80000000, 0x80000000
    TEST_AMO 57, amomaxu.w, 0x00000000, 0x00000000, 0x00000000
    // ordering bits
    TEST_AMO 60, amoadd.w.aq,    0x00000010, 0x00000020, 0x00000030
    TEST_AMO 61, amoswap.w.rl,   0x00000010, 0x00000020, 0x00000020
    TEST_AMO 62, amomaxu.w.aqrl, 0x00000010, 0x00000020, 0x00000020

    // ---- register overlaps ----
    TEST_NUM 70                     // rd == rs2
    la      a1, amo_word
    li      a4, 0x1111
    sw      a4, 0(a1)
    li      a2, 0x2222
    amoswap.w a2, a2, (a1)
    CHECK   a2, 0x1111
    lw      a4, 0(a1)
    CHECK   a4, 0x2222
    TEST_NUM 71                     // rd == rs1: the address is used first
    la      a1, amo_word
    li      a2, 0x0100
    amoadd.w a1, a2, (a1)
    CHECK   a1, 0x2222
    la      a1, amo_word
    lw      a4, 0(a1)
    CHECK   a4, 0x2322
    TEST_NUM 72                     // rd == x0: memory still updated
    li      a2, 0xf0000000
    amoor.w x0, a2, (a1)
    CHECK   x0, 0
    lw      a4, 0(a1)
    CHECK   a4, 0xf0002322

    // ---- misaligned addresses trap, memory unchanged ----
    TEST_NUM 80
    la      a1, amo_word
    li      a4, 0x01020304
    sw      a4, 0(a1)
    addi    a1, a1, 2
    li      a2, 0x7f7f7f7f
    TEST_TRAP_ADDR 81, CAUSE_LOAD_MISALIGNED, amo_word+2, lr.w a4, (a1)
    CHECK   a4, 0x01020304          // rd not written
#ifndef TEST_ON_QEMU
    TEST_TRAP_ADDR 82, CAUSE_STORE_MISALIGNED, amo_word+2, sc.w a5, a2, (a1)
#endif
    TEST_NUM 83
    EXPECT_TRAP amo_mis_back
amo_mis_at:
    amoadd.w a4, a2, (a1)
    j       test_fail_no_trap
amo_mis_back:
#ifndef TEST_ON_QEMU
    CHECK_TRAP_CAUSE CAUSE_STORE_MISALIGNED
#endif
    CHECK_TRAP_EPC amo_mis_at
    CHECK_TRAP_TVAL_ADDR amo_word+2
    CHECK   a4, 0x01020304          // rd not written
    TEST_NUM 84
    la      a3, amo_word
    addi    a3, a3, 1
    EXPECT_TRAP amo_mis_back2
amo_mis_at2:
    amoswap.w a4, a2, (a3)
    j       test_fail_no_trap
amo_mis_back2:
#ifndef TEST_ON_QEMU
    CHECK_TRAP_CAUSE CAUSE_STORE_MISALIGNED
#endif
    CHECK_TRAP_EPC amo_mis_at2
    CHECK_TRAP_TVAL_ADDR amo_word+1
    TEST_NUM 85                     // neither access changed memory
    la      a1, amo_word
    lw      a4, 0(a1)
    CHECK   a4, 0x01020304
    lw      a4, 4(a1)
    CHECK   a4, 0xa5a5a5a5

    // ---- access faults (nothing at address 0 on the virt board) ----
    TEST_TRAP 90, CAUSE_LOAD_ACCESS, 0, lr.w a4, (zero)
    TEST_NUM 91
    li      a4, 0x0badc0de
    EXPECT_TRAP amo_fault_back
amo_fault_at:
    amoadd.w a4, a2, (zero)
    j       test_fail_no_trap
amo_fault_back:
#ifndef TEST_ON_QEMU
    CHECK_TRAP_CAUSE CAUSE_STORE_ACCESS
#endif
    CHECK_TRAP_EPC amo_fault_at
    CHECK_TRAP_TVAL 0
    CHECK   a4, 0x0badc0de          // rd not written

TEST_END

    .data
    .balign 16
lr_word:    .word 0x80000000
lr_word2:   .word 0x0000cafe
            .word 0x5a5a5a5a
amo_word:   .word 0
            .word 0xa5a5a5a5
