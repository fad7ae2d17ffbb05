// branches.S - beq, bne, blt, bge, bltu, bgeu: taken and not taken with
// signed/unsigned edge values, backward loops, and the extreme offsets
// +4094 and -4096 (13-bit signed, even).
#include "test_macros.h"

TEST_BEGIN

    // ---- beq ----
    TEST_BR_TAKEN      1, beq, 0, 0
    TEST_BR_TAKEN      2, beq, 1, 1
    TEST_BR_TAKEN      3, beq, -1, -1
    TEST_BR_TAKEN      4, beq, 0x80000000, 0x80000000
    TEST_BR_NOT_TAKEN  5, beq, 0, 1
    TEST_BR_NOT_TAKEN  6, beq, 1, 0
    TEST_BR_NOT_TAKEN  7, beq, -1, 1
    TEST_BR_NOT_TAKEN  8, beq, 0x80000000, 0
    TEST_BR_NOT_TAKEN  9, beq, 0x00000001, 0x80000001    // differ in bit 31 only

    // ---- bne ----
    TEST_BR_NOT_TAKEN 10, bne, 0, 0
    TEST_BR_NOT_TAKEN 11, bne, 1, 1
    TEST_BR_NOT_TAKEN 12, bne, -1, -1
    TEST_BR_TAKEN     13, bne, 0, 1
    TEST_BR_TAKEN     14, bne, 1, 0
    TEST_BR_TAKEN     15, bne, -1, 1
    TEST_BR_TAKEN     16, bne, 0x00000001, 0x80000001

    // ---- blt (signed) ----
    TEST_BR_TAKEN     20, blt, 0, 1
    TEST_BR_TAKEN     21, blt, -1, 1
    TEST_BR_TAKEN     22, blt, -2, -1
    TEST_BR_TAKEN     23, blt, 0x80000000, 0x7fffffff     // INT_MIN < INT_MAX
    TEST_BR_TAKEN     24, blt, 0x80000000, 0
    TEST_BR_NOT_TAKEN 25, blt, 1, 0
    TEST_BR_NOT_TAKEN 26, blt, 1, -1
    TEST_BR_NOT_TAKEN 27, blt, -1, -2
    TEST_BR_NOT_TAKEN 28, blt, 0, 0
    TEST_BR_NOT_TAKEN 29, blt, 0x7fffffff, 0x80000000

    // ---- bge (signed) ----
    TEST_BR_TAKEN     30, bge, 0, 0
    TEST_BR_TAKEN     31, bge, 1, 1
    TEST_BR_TAKEN     32, bge, -1, -1
    TEST_BR_TAKEN     33, bge, 1, 0
    TEST_BR_TAKEN     34, bge, 1, -1
    TEST_BR_TAKEN     35, bge, -1, -2
    TEST_BR_TAKEN     36, bge, 0x7fffffff, 0x80000000
    TEST_BR_NOT_TAKEN 37, bge, 0, 1
    TEST_BR_NOT_TAKEN 38, bge, -1, 1
    TEST_BR_NOT_TAKEN 39, bge, -2, -1
    TEST_BR_NOT_TAKEN 40, bge, 0x80000000, 0x7fffffff

    // ---- bltu (unsigned) ----
    TEST_BR_TAKEN     50, bltu, 0, 1
    TEST_BR_TAKEN     51, bltu, 0xfffffffe, 0xffffffff
    TEST_BR_TAKEN     52, bltu, 0, 0xffffffff
    TEST_BR_TAKEN     53, bltu, 0x7fffffff, 0x80000000
    TEST_BR_NOT_TAKEN 54, bltu, 1, 0
    TEST_BR_NOT_TAKEN 55, bltu, 0xffffffff, 0xfffffffe
    TEST_BR_NOT_TAKEN 56, bltu, 0xffffffff, 0
    TEST_BR_NOT_TAKEN 57, bltu, 0x80000000, 0x7fffffff
    TEST_BR_NOT_TAKEN 58, bltu, 0, 0

    // ---- bgeu (unsigned) ----
    TEST_BR_TAKEN     60, bgeu, 0, 0
    TEST_BR_TAKEN     61, bgeu, 1, 1
    TEST_BR_TAKEN     62, bgeu, 0xffffffff, 0xffffffff
    TEST_BR_TAKEN     63, bgeu, 1, 0
    TEST_BR_TAKEN     64, bgeu, 0xffffffff, 0xfffffffe
    TEST_BR_TAKEN     65, bgeu, 0x80000000, 0x7fffffff
    TEST_BR_TAKEN     66, bgeu, 0xffffffff, 0
    TEST_BR_NOT_TAKEN 67, bgeu, 0, 1
    TEST_BR_NOT_TAKEN 68, bgeu, 0xfffffffe, 0xffffffff
    TEST_BR_NOT_TAKEN 69, bgeu, 0x7fffffff, 0x80000000

    // ---- same register on both sides, and x0 ----
    TEST_NUM 70
    li      a1, 0x80000000
    beq     a1, a1, 1f
    j       test_fail
1:  blt     a1, a1, test_fail       // x < x never
    bltu    a1, a1, test_fail
    bge     a1, a1, 2f
    j       test_fail
2:  bgeu    a1, a1, 3f
    j       test_fail
3:  bne     a1, a1, test_fail
    TEST_NUM 71
    li      a1, 0xffffffff
    bltu    x0, a1, 4f              // 0 <u -1
    j       test_fail
4:  blt     x0, a1, test_fail       // 0 <s -1 is false
    bge     x0, a1, 5f
    j       test_fail
5:  beq     x0, x0, 6f
    j       test_fail
6:
    // ---- a taken branch must not execute the instruction after it ----
    TEST_NUM 72
    li      a4, 0
    beq     x0, x0, 7f
    addi    a4, a4, 1
    addi    a4, a4, 2
7:  addi    a4, a4, 4
    CHECK   a4, 4

    // ---- backward branches: a counted loop ----
    // 10 iterations of a4 += a5 with a5 = 1..10: 55
    TEST_NUM 73
    li      a4, 0
    li      a5, 1
    li      a6, 11
8:  add     a4, a4, a5
    addi    a5, a5, 1
    bne     a5, a6, 8b
    CHECK   a4, 55
    CHECK   a5, 11
    TEST_NUM 74                     // the same loop counting down with bgeu/blt
    li      a4, 0
    li      a5, 10
9:  add     a4, a4, a5
    addi    a5, a5, -1
    blt     x0, a5, 9b
    CHECK   a4, 55
    CHECK   a5, 0

    // ---- extreme offsets ----
    // far_fwd: beq at A jumps +4094 (the largest forward offset) to A+4094,
    // which is 2 mod 4: legal because the C extension makes IALIGN 16.
    // From there bne jumps -4096 (the largest backward offset).
    TEST_NUM 80
    li      a1, 1
    li      a4, 0
far_fwd:
    beq     x0, x0, far_fwd_target  // +4094
    j       test_fail
far_back_target:                    // = far_back - 4096
    addi    a4, a4, 1
    j       far_done
    .fill   (4094 - 16 - 4) / 2, 2, 0   // padding, never executed (zeros: illegal)
    j       test_fail
far_fwd_target:                     // = far_fwd + 4094
    addi    a4, a4, 2
    .option rvc
    c.nop                           // 4 + 2 + 4 bytes: far_back = far_back_target + 4096
    .option norvc
    nop
far_back:
    bne     a1, x0, far_back_target // -4096
    j       test_fail
far_done:
    CHECK   a4, 3
    TEST_NUM 81                     // the layout really has the extreme offsets
    la      a4, far_fwd
    la      a5, far_fwd_target
    sub     a5, a5, a4
    CHECK   a5, 4094
    la      a4, far_back
    la      a5, far_back_target
    sub     a5, a5, a4
    CHECK   a5, -4096

    // ---- not-taken branches with extreme offsets fall through ----
    TEST_NUM 82
    li      a1, 1
    beq     a1, x0, far_fwd_target
    bne     a1, a1, far_back_target
    bltu    a1, x0, far_fwd_target

TEST_END
