// div.S - div, divu, rem, remu.
//   div/rem   signed, quotient rounded toward zero, remainder takes the
//             sign of the dividend: a == (a / b) * b + a % b
//   divu/remu unsigned
// Special cases (no trap in RISC-V):
//   x / 0     quotient all ones (-1 for div, 0xffffffff for divu),
//             remainder = the dividend x
//   INT_MIN / -1 (div overflow): quotient INT_MIN, remainder 0
// Each row divides a by b with all four; checks 4r-3 .. 4r belong to row r.
#include "test_macros.h"

TEST_BEGIN

    // row 1: a = 20, b = 6
    TEST_RR 1, div,    3, 20, 6
    TEST_RR 2, divu,   3, 20, 6
    TEST_RR 3, rem,    2, 20, 6
    TEST_RR 4, remu,   2, 20, 6
    // row 2: a = -20, b = 6    (s: -3 r -2; u: 0xffffffec = 6*0x2aaaaaa7 + 2)
    TEST_RR 5, div,    0xfffffffd, -20, 6
    TEST_RR 6, divu,   0x2aaaaaa7, -20, 6
    TEST_RR 7, rem,    0xfffffffe, -20, 6
    TEST_RR 8, remu,   2, -20, 6
    // row 3: a = 20, b = -6    (s: -3 r 2 (remainder takes the dividend's sign); u: 20 < 0xfffffffa)
    TEST_RR 9, div,    0xfffffffd, 20, -6
    TEST_RR 10, divu,   0, 20, -6
    TEST_RR 11, rem,    2, 20, -6
    TEST_RR 12, remu,   20, 20, -6
    // row 4: a = -20, b = -6    (s: 3 r -2; u: 0xffffffec < 0xfffffffa)
    TEST_RR 13, div,    3, -20, -6
    TEST_RR 14, divu,   0, -20, -6
    TEST_RR 15, rem,    0xfffffffe, -20, -6
    TEST_RR 16, remu,   0xffffffec, -20, -6
    // row 5: a = 20, b = 0    (divide by zero: quotient all ones, remainder = dividend)
    TEST_RR 17, div,    0xffffffff, 20, 0
    TEST_RR 18, divu,   0xffffffff, 20, 0
    TEST_RR 19, rem,    20, 20, 0
    TEST_RR 20, remu,   20, 20, 0
    // row 6: a = -20, b = 0    (divide by zero)
    TEST_RR 21, div,    0xffffffff, -20, 0
    TEST_RR 22, divu,   0xffffffff, -20, 0
    TEST_RR 23, rem,    0xffffffec, -20, 0
    TEST_RR 24, remu,   0xffffffec, -20, 0
    // row 7: a = 0, b = 0    (divide by zero)
    TEST_RR 25, div,    0xffffffff, 0, 0
    TEST_RR 26, divu,   0xffffffff, 0, 0
    TEST_RR 27, rem,    0, 0, 0
    TEST_RR 28, remu,   0, 0, 0
    // row 8: a = 0x80000000, b = 0    (divide by zero)
    TEST_RR 29, div,    0xffffffff, 0x80000000, 0
    TEST_RR 30, divu,   0xffffffff, 0x80000000, 0
    TEST_RR 31, rem,    0x80000000, 0x80000000, 0
    TEST_RR 32, remu,   0x80000000, 0x80000000, 0
    // row 9: a = 0x80000000, b = -1    (signed overflow: INT_MIN / -1 = INT_MIN r 0)
    TEST_RR 33, div,    0x80000000, 0x80000000, -1
    TEST_RR 34, divu,   0, 0x80000000, -1
    TEST_RR 35, rem,    0, 0x80000000, -1
    TEST_RR 36, remu,   0x80000000, 0x80000000, -1
    // row 10: a = 0x80000000, b = 1
    TEST_RR 37, div,    0x80000000, 0x80000000, 1
    TEST_RR 38, divu,   0x80000000, 0x80000000, 1
    TEST_RR 39, rem,    0, 0x80000000, 1
    TEST_RR 40, remu,   0, 0x80000000, 1
    // row 11: a = 0x80000000, b = 2    (s: -2^30; u: 2^30)
    TEST_RR 41, div,    0xc0000000, 0x80000000, 2
    TEST_RR 42, divu,   0x40000000, 0x80000000, 2
    TEST_RR 43, rem,    0, 0x80000000, 2
    TEST_RR 44, remu,   0, 0x80000000, 2
    // row 12: a = 0x80000000, b = -2    (s: 2^30; u: 2^31 < 0xfffffffe)
    TEST_RR 45, div,    0x40000000, 0x80000000, -2
    TEST_RR 46, divu,   0, 0x80000000, -2
    TEST_RR 47, rem,    0, 0x80000000, -2
    TEST_RR 48, remu,   0x80000000, 0x80000000, -2
    // row 13: a = -1, b = 2    (s: -1/2 truncates to 0 r -1)
    TEST_RR 49, div,    0, -1, 2
    TEST_RR 50, divu,   0x7fffffff, -1, 2
    TEST_RR 51, rem,    0xffffffff, -1, 2
    TEST_RR 52, remu,   1, -1, 2
    // row 14: a = 7, b = -2    (s: -3.5 truncates to -3 r 1)
    TEST_RR 53, div,    0xfffffffd, 7, -2
    TEST_RR 54, divu,   0, 7, -2
    TEST_RR 55, rem,    1, 7, -2
    TEST_RR 56, remu,   7, 7, -2
    // row 15: a = -7, b = 2    (s: -3 r -1; u: 0xfffffff9 = 2*0x7ffffffc + 1)
    TEST_RR 57, div,    0xfffffffd, -7, 2
    TEST_RR 58, divu,   0x7ffffffc, -7, 2
    TEST_RR 59, rem,    0xffffffff, -7, 2
    TEST_RR 60, remu,   1, -7, 2
    // row 16: a = 0xffffffff, b = 1
    TEST_RR 61, div,    0xffffffff, 0xffffffff, 1
    TEST_RR 62, divu,   0xffffffff, 0xffffffff, 1
    TEST_RR 63, rem,    0, 0xffffffff, 1
    TEST_RR 64, remu,   0, 0xffffffff, 1
    // row 17: a = 0xffffffff, b = 0xffffffff
    TEST_RR 65, div,    1, 0xffffffff, 0xffffffff
    TEST_RR 66, divu,   1, 0xffffffff, 0xffffffff
    TEST_RR 67, rem,    0, 0xffffffff, 0xffffffff
    TEST_RR 68, remu,   0, 0xffffffff, 0xffffffff
    // row 18: a = 0xffffffff, b = 0x10    (s: -1/16 = 0 r -1)
    TEST_RR 69, div,    0, 0xffffffff, 0x10
    TEST_RR 70, divu,   0x0fffffff, 0xffffffff, 0x10
    TEST_RR 71, rem,    0xffffffff, 0xffffffff, 0x10
    TEST_RR 72, remu,   0xf, 0xffffffff, 0x10
    // row 19: a = 0, b = -1
    TEST_RR 73, div,    0, 0, -1
    TEST_RR 74, divu,   0, 0, -1
    TEST_RR 75, rem,    0, 0, -1
    TEST_RR 76, remu,   0, 0, -1
    // row 20: a = 0x7fffffff, b = -1    (s: -INT_MAX; u: 0x7fffffff < 0xffffffff)
    TEST_RR 77, div,    0x80000001, 0x7fffffff, -1
    TEST_RR 78, divu,   0, 0x7fffffff, -1
    TEST_RR 79, rem,    0, 0x7fffffff, -1
    TEST_RR 80, remu,   0x7fffffff, 0x7fffffff, -1
    // row 21: a = 0x7fffffff, b = 0x80000000    (s: |INT_MAX| < |INT_MIN|)
    TEST_RR 81, div,    0, 0x7fffffff, 0x80000000
    TEST_RR 82, divu,   0, 0x7fffffff, 0x80000000
    TEST_RR 83, rem,    0x7fffffff, 0x7fffffff, 0x80000000
    TEST_RR 84, remu,   0x7fffffff, 0x7fffffff, 0x80000000
    // row 22: a = 0x80000000, b = 0x7fffffff    (s: -2^31 = -1*(2^31-1) - 1; u: 2^31 = 1*(2^31-1) + 1)
    TEST_RR 85, div,    0xffffffff, 0x80000000, 0x7fffffff
    TEST_RR 86, divu,   1, 0x80000000, 0x7fffffff
    TEST_RR 87, rem,    0xffffffff, 0x80000000, 0x7fffffff
    TEST_RR 88, remu,   1, 0x80000000, 0x7fffffff
    // row 23: a = 1000000, b = 1000
    TEST_RR 89, div,    1000, 1000000, 1000
    TEST_RR 90, divu,   1000, 1000000, 1000
    TEST_RR 91, rem,    0, 1000000, 1000
    TEST_RR 92, remu,   0, 1000000, 1000
    // row 24: a = 0x12345678, b = 0x1000
    TEST_RR 93, div,    0x12345, 0x12345678, 0x1000
    TEST_RR 94, divu,   0x12345, 0x12345678, 0x1000
    TEST_RR 95, rem,    0x678, 0x12345678, 0x1000
    TEST_RR 96, remu,   0x678, 0x12345678, 0x1000
    // row 25: a = 0xedcba988, b = 0x1000    (s: -0x12345678 / 0x1000 = -0x12345 r -0x678)
    TEST_RR 97, div,    0xfffedcbb, 0xedcba988, 0x1000
    TEST_RR 98, divu,   0xedcba, 0xedcba988, 0x1000
    TEST_RR 99, rem,    0xfffff988, 0xedcba988, 0x1000
    TEST_RR 100, remu,   0x988, 0xedcba988, 0x1000
    // ---- operand/destination register overlaps and x0 ----
    TEST_RR_SRC1_EQ_DEST  110, div,  0x00000003, 20, 6
    TEST_RR_SRC2_EQ_DEST  111, rem,  0x00000002, 20, 6
    TEST_RR_SRC12_EQ_DEST 112, div,  1, 0x80000000       // INT_MIN / INT_MIN
    TEST_RR_SRC12_EQ_DEST 113, rem,  0, 0x80000000
    TEST_RR_SRC12_EQ_DEST 114, divu, 1, 0xfffffffe
    TEST_RR_SRC12_EQ_DEST 115, remu, 0, 0xfffffffe
    TEST_RR_SRC12_EQ_DEST 116, div,  0xffffffff, 0       // 0 / 0
    TEST_RR_SRC12_EQ_DEST 117, rem,  0, 0
    TEST_RR_ZERO_SRC2     118, div,  0xffffffff, 0x12345678   // divide by x0
    TEST_RR_ZERO_SRC2     119, divu, 0xffffffff, 0x12345678
    TEST_RR_ZERO_SRC2     120, rem,  0x12345678, 0x12345678
    TEST_RR_ZERO_SRC2     121, remu, 0x12345678, 0x12345678
    TEST_RR_ZERO_SRC1     122, div,  0, 7
    TEST_RR_ZERO_SRC1     123, remu, 0, 7

    // ---- quotient and remainder of one division, back to back ----
    // 0x9abcdef0 / 0x1234, unsigned: 0x9abcdef0 = 0x88028 * 0x1234 + 0x6d0
    // signed: a = 0x9abcdef0 - 2^32 = -0x65432110
    //   0x65432110 = 0x5901a * 0x1234 + 0x7c8, so the quotient is
    //   -0x5901a = 0xfffa6fe6 and the remainder -0x7c8 = 0xfffff838
    TEST_NUM 124
    li      a1, 0x9abcdef0
    li      a2, 0x1234
    divu    a4, a1, a2
    remu    a5, a1, a2
    div     a6, a1, a2
    rem     a7, a1, a2
    CHECK   a4, 0x00088028
    CHECK   a5, 0x000006d0
    CHECK   a6, 0xfffa6fe6
    CHECK   a7, 0xfffff838

TEST_END
