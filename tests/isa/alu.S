// alu.S - register-register integer operations: add, sub, and, or, xor.
// (Shifts are in shifts.S, slt/sltu in compare.S.)
// Expected values are worked out by hand; comments show the non-obvious ones.
#include "test_macros.h"

TEST_BEGIN

    // ---- add: 32-bit two's complement, wraps silently ----
    TEST_RR  1, add, 0x00000000, 0x00000000, 0x00000000
    TEST_RR  2, add, 0x00000002, 0x00000001, 0x00000001
    TEST_RR  3, add, 0x0000000a, 0x00000003, 0x00000007
    TEST_RR  4, add, 0x80000000, 0x7fffffff, 0x00000001   // INT_MAX + 1 wraps to INT_MIN
    TEST_RR  5, add, 0x00000000, 0x80000000, 0x80000000   // 2^31 + 2^31 = 2^32 -> 0
    TEST_RR  6, add, 0x00000000, 0xffffffff, 0x00000001   // -1 + 1
    TEST_RR  7, add, 0xfffffffe, 0xffffffff, 0xffffffff   // -1 + -1 = -2
    TEST_RR  8, add, 0x99999999, 0x12345678, 0x87654321   // no carries between digits
    TEST_RR  9, add, 0x7fffffff, 0x80000000, 0xffffffff   // INT_MIN + -1 wraps to INT_MAX
    TEST_RR 10, add, 0x00010000, 0x0000ffff, 0x00000001   // carry across the half-word
    TEST_RR_SRC1_EQ_DEST   11, add, 24, 13, 11
    TEST_RR_SRC2_EQ_DEST   12, add, 25, 14, 11
    TEST_RR_SRC12_EQ_DEST  13, add, 26, 13
    TEST_RR_ZERO_SRC1      14, add, 15, 15
    TEST_RR_ZERO_SRC2      15, add, 32, 32

    // ---- sub ----
    TEST_RR 20, sub, 0x00000000, 0x00000000, 0x00000000
    TEST_RR 21, sub, 0x00000000, 0x00000001, 0x00000001
    TEST_RR 22, sub, 0xfffffffc, 0x00000003, 0x00000007   // 3 - 7 = -4
    TEST_RR 23, sub, 0xffffffff, 0x00000000, 0x00000001   // 0 - 1 = -1
    TEST_RR 24, sub, 0x7fffffff, 0x80000000, 0x00000001   // INT_MIN - 1 wraps
    TEST_RR 25, sub, 0x80000000, 0x7fffffff, 0xffffffff   // INT_MAX - (-1) wraps
    TEST_RR 26, sub, 0x80000000, 0x00000000, 0x80000000   // -INT_MIN == INT_MIN
    TEST_RR 27, sub, 0x87654321, 0x99999999, 0x12345678
    TEST_RR 28, sub, 0x00000001, 0x00000000, 0xffffffff   // 0 - (-1)
    TEST_RR 29, sub, 0x0000ffff, 0x00010000, 0x00000001   // borrow across the half-word
    TEST_RR_SRC1_EQ_DEST   30, sub, 2, 13, 11
    TEST_RR_SRC2_EQ_DEST   31, sub, 3, 14, 11
    TEST_RR_SRC12_EQ_DEST  32, sub, 0, 0x12345678         // x - x = 0
    TEST_RR_ZERO_SRC1      33, sub, 0xfffffffb, 5         // 0 - 5 = -5
    TEST_RR_ZERO_SRC2      34, sub, 0x12345678, 0x12345678

    // ---- and ----
    TEST_RR 40, and, 0x0f000f00, 0xff00ff00, 0x0ff00ff0
    TEST_RR 41, and, 0x00f000f0, 0x0ff00ff0, 0xf0f0f0f0
    TEST_RR 42, and, 0x000f000f, 0x00ff00ff, 0x0f0f0f0f
    TEST_RR 43, and, 0xf000f000, 0xf00ff00f, 0xf0f0f0f0
    TEST_RR 44, and, 0x12345678, 0xffffffff, 0x12345678   // all-ones is the identity
    TEST_RR 45, and, 0x00000000, 0x12345678, 0xedcba987   // complements share no bit
    TEST_RR_SRC1_EQ_DEST   46, and, 0x0f000f00, 0xff00ff00, 0x0ff00ff0
    TEST_RR_SRC2_EQ_DEST   47, and, 0x00f000f0, 0x0ff00ff0, 0xf0f0f0f0
    TEST_RR_SRC12_EQ_DEST  48, and, 0xff00ff00, 0xff00ff00
    TEST_RR_ZERO_SRC1      49, and, 0, 0xffffffff
    TEST_RR_ZERO_SRC2      50, and, 0, 0xffffffff

    // ---- or ----
    TEST_RR 60, or, 0xfff0fff0, 0xff00ff00, 0x0ff00ff0
    TEST_RR 61, or, 0xfff0fff0, 0x0ff00ff0, 0xf0f0f0f0
    TEST_RR 62, or, 0x0fff0fff, 0x00ff00ff, 0x0f0f0f0f
    TEST_RR 63, or, 0xf0fff0ff, 0xf00ff00f, 0xf0f0f0f0
    TEST_RR 64, or, 0xffffffff, 0x12345678, 0xedcba987
    TEST_RR 65, or, 0x80000001, 0x80000000, 0x00000001
    TEST_RR_SRC1_EQ_DEST   66, or, 0xfff0fff0, 0xff00ff00, 0x0ff00ff0
    TEST_RR_SRC2_EQ_DEST   67, or, 0xfff0fff0, 0x0ff00ff0, 0xf0f0f0f0
    TEST_RR_SRC12_EQ_DEST  68, or, 0xff00ff00, 0xff00ff00
    TEST_RR_ZERO_SRC1      69, or, 0x12345678, 0x12345678
    TEST_RR_ZERO_SRC2      70, or, 0x12345678, 0x12345678

    // ---- xor ----
    TEST_RR 80, xor, 0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0
    TEST_RR 81, xor, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0
    TEST_RR 82, xor, 0x0ff00ff0, 0x00ff00ff, 0x0f0f0f0f
    TEST_RR 83, xor, 0x00ff00ff, 0xf00ff00f, 0xf0f0f0f0
    TEST_RR 84, xor, 0xedcba987, 0x12345678, 0xffffffff   // xor with -1 is not
    TEST_RR 85, xor, 0xffffffff, 0x12345678, 0xedcba987
    TEST_RR_SRC1_EQ_DEST   86, xor, 0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0
    TEST_RR_SRC2_EQ_DEST   87, xor, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0
    TEST_RR_SRC12_EQ_DEST  88, xor, 0, 0xff00ff00         // x ^ x = 0
    TEST_RR_ZERO_SRC1      89, xor, 0x12345678, 0x12345678
    TEST_RR_ZERO_SRC2      90, xor, 0x12345678, 0x12345678

    // ---- a dependent chain through several registers ----
    // s0 = 5; s1 = s0 + s0 = 10; s2 = s1 - s0 = 5; s3 = s1 ^ s2 = 15;
    // s4 = s3 & s1 = 10; s5 = s4 | s0 = 15; s6 = s5 - s1 - s1 = -5
    TEST_NUM 100
    li      s0, 5
    add     s1, s0, s0
    sub     s2, s1, s0
    xor     s3, s1, s2
    and     s4, s3, s1
    or      s5, s4, s0
    sub     s6, s5, s1
    sub     s6, s6, s1
    CHECK   s1, 10
    CHECK   s2, 5
    CHECK   s3, 15
    CHECK   s4, 10
    CHECK   s5, 15
    CHECK   s6, 0xfffffffb

    // ---- the high registers work like any other ----
    // t3..t6 = x28..x31, s8..s11 = x24..x27
    TEST_NUM 101
    li      s8, 0x11111111
    li      s9, 0x22222222
    add     s10, s8, s9             // 0x33333333
    add     s11, s10, s9            // 0x55555555
    xor     t3, s11, s8             // 0x44444444
    sub     t4, t3, s8              // 0x33333333
    or      t5, t4, s11             // 0x33.. | 0x55.. = 0x77777777
    and     t6, t5, s9              // 0x77.. & 0x22.. = 0x22222222
    CHECK   s10, 0x33333333
    CHECK   s11, 0x55555555
    CHECK   t3, 0x44444444
    CHECK   t4, 0x33333333
    CHECK   t5, 0x77777777
    CHECK   t6, 0x22222222

TEST_END
