// mul.S - mul, mulh, mulhsu, mulhu.
//   mul    low 32 bits of rs1 * rs2 (the same for any signedness)
//   mulh   high 32 bits of signed(rs1) * signed(rs2)
//   mulhsu high 32 bits of signed(rs1) * unsigned(rs2)
//   mulhu  high 32 bits of unsigned(rs1) * unsigned(rs2)
// Each row multiplies a and b with all four; checks 4r-3 .. 4r belong to
// row r. The comment of a row gives the exact 64-bit products worked out
// by hand (s = signed, su = signed * unsigned, u = unsigned), e.g. row 5:
// INT_MIN * -1: s = 2^31 = 0x00000000_80000000,
//               su = -2^31 * (2^32-1) = -2^63 + 2^31 = 0x80000000_80000000,
//               u = 2^31 * (2^32-1) = 2^63 - 2^31 = 0x7fffffff_80000000.
#include "test_macros.h"

TEST_BEGIN

    // row 1: a = 0x00000000, b = 0x00000000
    TEST_RR 1, mul,    0x00000000, 0x00000000, 0x00000000
    TEST_RR 2, mulh,   0x00000000, 0x00000000, 0x00000000
    TEST_RR 3, mulhsu, 0x00000000, 0x00000000, 0x00000000
    TEST_RR 4, mulhu,  0x00000000, 0x00000000, 0x00000000
    // row 2: a = 0x00000001, b = 0x00000001
    TEST_RR 5, mul,    0x00000001, 0x00000001, 0x00000001
    TEST_RR 6, mulh,   0x00000000, 0x00000001, 0x00000001
    TEST_RR 7, mulhsu, 0x00000000, 0x00000001, 0x00000001
    TEST_RR 8, mulhu,  0x00000000, 0x00000001, 0x00000001
    // row 3: a = 0x00000003, b = 0x00000007    (3 * 7 = 21)
    TEST_RR 9, mul,    0x00000015, 0x00000003, 0x00000007
    TEST_RR 10, mulh,   0x00000000, 0x00000003, 0x00000007
    TEST_RR 11, mulhsu, 0x00000000, 0x00000003, 0x00000007
    TEST_RR 12, mulhu,  0x00000000, 0x00000003, 0x00000007
    // row 4: a = 0xffffffff, b = 0xffffffff    (s: 1; su: -(2^32-1); u: 2^64-2^33+1)
    TEST_RR 13, mul,    0x00000001, 0xffffffff, 0xffffffff
    TEST_RR 14, mulh,   0x00000000, 0xffffffff, 0xffffffff
    TEST_RR 15, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff
    TEST_RR 16, mulhu,  0xfffffffe, 0xffffffff, 0xffffffff
    // row 5: a = 0x80000000, b = 0xffffffff    (s: 2^31; su: -2^63+2^31; u: 2^63-2^31)
    TEST_RR 17, mul,    0x80000000, 0x80000000, 0xffffffff
    TEST_RR 18, mulh,   0x00000000, 0x80000000, 0xffffffff
    TEST_RR 19, mulhsu, 0x80000000, 0x80000000, 0xffffffff
    TEST_RR 20, mulhu,  0x7fffffff, 0x80000000, 0xffffffff
    // row 6: a = 0xffffffff, b = 0x80000000    (su: -1 * 2^31 = -2^31)
    TEST_RR 21, mul,    0x80000000, 0xffffffff, 0x80000000
    TEST_RR 22, mulh,   0x00000000, 0xffffffff, 0x80000000
    TEST_RR 23, mulhsu, 0xffffffff, 0xffffffff, 0x80000000
    TEST_RR 24, mulhu,  0x7fffffff, 0xffffffff, 0x80000000
    // row 7: a = 0x80000000, b = 0x80000000    (s, u: 2^62; su: -2^62)
    TEST_RR 25, mul,    0x00000000, 0x80000000, 0x80000000
    TEST_RR 26, mulh,   0x40000000, 0x80000000, 0x80000000
    TEST_RR 27, mulhsu, 0xc0000000, 0x80000000, 0x80000000
    TEST_RR 28, mulhu,  0x40000000, 0x80000000, 0x80000000
    // row 8: a = 0x7fffffff, b = 0x7fffffff    ((2^31-1)^2 = 2^62-2^32+1)
    TEST_RR 29, mul,    0x00000001, 0x7fffffff, 0x7fffffff
    TEST_RR 30, mulh,   0x3fffffff, 0x7fffffff, 0x7fffffff
    TEST_RR 31, mulhsu, 0x3fffffff, 0x7fffffff, 0x7fffffff
    TEST_RR 32, mulhu,  0x3fffffff, 0x7fffffff, 0x7fffffff
    // row 9: a = 0x7fffffff, b = 0x80000000    (s: -2^62+2^31; su, u: 2^62-2^31)
    TEST_RR 33, mul,    0x80000000, 0x7fffffff, 0x80000000
    TEST_RR 34, mulh,   0xc0000000, 0x7fffffff, 0x80000000
    TEST_RR 35, mulhsu, 0x3fffffff, 0x7fffffff, 0x80000000
    TEST_RR 36, mulhu,  0x3fffffff, 0x7fffffff, 0x80000000
    // row 10: a = 0x80000000, b = 0x7fffffff    (s, su: -2^62+2^31; u: 2^62-2^31)
    TEST_RR 37, mul,    0x80000000, 0x80000000, 0x7fffffff
    TEST_RR 38, mulh,   0xc0000000, 0x80000000, 0x7fffffff
    TEST_RR 39, mulhsu, 0xc0000000, 0x80000000, 0x7fffffff
    TEST_RR 40, mulhu,  0x3fffffff, 0x80000000, 0x7fffffff
    // row 11: a = 0x00010000, b = 0x00010000    (2^16 * 2^16 = 2^32)
    TEST_RR 41, mul,    0x00000000, 0x00010000, 0x00010000
    TEST_RR 42, mulh,   0x00000001, 0x00010000, 0x00010000
    TEST_RR 43, mulhsu, 0x00000001, 0x00010000, 0x00010000
    TEST_RR 44, mulhu,  0x00000001, 0x00010000, 0x00010000
    // row 12: a = 0x0000ffff, b = 0x0000ffff    ((2^16-1)^2 = 2^32-2^17+1)
    TEST_RR 45, mul,    0xfffe0001, 0x0000ffff, 0x0000ffff
    TEST_RR 46, mulh,   0x00000000, 0x0000ffff, 0x0000ffff
    TEST_RR 47, mulhsu, 0x00000000, 0x0000ffff, 0x0000ffff
    TEST_RR 48, mulhu,  0x00000000, 0x0000ffff, 0x0000ffff
    // row 13: a = 0xfffffffe, b = 0x00000003    (s, su: -6; u: 3*2^32-6)
    TEST_RR 49, mul,    0xfffffffa, 0xfffffffe, 0x00000003
    TEST_RR 50, mulh,   0xffffffff, 0xfffffffe, 0x00000003
    TEST_RR 51, mulhsu, 0xffffffff, 0xfffffffe, 0x00000003
    TEST_RR 52, mulhu,  0x00000002, 0xfffffffe, 0x00000003
    // row 14: a = 0x00000003, b = 0xfffffffe    (s: -6; su, u: 3*2^32-6)
    TEST_RR 53, mul,    0xfffffffa, 0x00000003, 0xfffffffe
    TEST_RR 54, mulh,   0xffffffff, 0x00000003, 0xfffffffe
    TEST_RR 55, mulhsu, 0x00000002, 0x00000003, 0xfffffffe
    TEST_RR 56, mulhu,  0x00000002, 0x00000003, 0xfffffffe
    // row 15: a = 0x12345678, b = 0x00000010    (0x1_23456780)
    TEST_RR 57, mul,    0x23456780, 0x12345678, 0x00000010
    TEST_RR 58, mulh,   0x00000001, 0x12345678, 0x00000010
    TEST_RR 59, mulhsu, 0x00000001, 0x12345678, 0x00000010
    TEST_RR 60, mulhu,  0x00000001, 0x12345678, 0x00000010
    // row 16: a = 0xffffffff, b = 0x00000000
    TEST_RR 61, mul,    0x00000000, 0xffffffff, 0x00000000
    TEST_RR 62, mulh,   0x00000000, 0xffffffff, 0x00000000
    TEST_RR 63, mulhsu, 0x00000000, 0xffffffff, 0x00000000
    TEST_RR 64, mulhu,  0x00000000, 0xffffffff, 0x00000000
    // row 17: a = 0x00000000, b = 0xffffffff
    TEST_RR 65, mul,    0x00000000, 0x00000000, 0xffffffff
    TEST_RR 66, mulh,   0x00000000, 0x00000000, 0xffffffff
    TEST_RR 67, mulhsu, 0x00000000, 0x00000000, 0xffffffff
    TEST_RR 68, mulhu,  0x00000000, 0x00000000, 0xffffffff
    // row 18: a = 0x00010001, b = 0x00010001    ((2^16+1)^2 = 2^32+2^17+1)
    TEST_RR 69, mul,    0x00020001, 0x00010001, 0x00010001
    TEST_RR 70, mulh,   0x00000001, 0x00010001, 0x00010001
    TEST_RR 71, mulhsu, 0x00000001, 0x00010001, 0x00010001
    TEST_RR 72, mulhu,  0x00000001, 0x00010001, 0x00010001
    // row 19: a = 0xffffffff, b = 0x00000001    (s, su: -1; u: 2^32-1)
    TEST_RR 73, mul,    0xffffffff, 0xffffffff, 0x00000001
    TEST_RR 74, mulh,   0xffffffff, 0xffffffff, 0x00000001
    TEST_RR 75, mulhsu, 0xffffffff, 0xffffffff, 0x00000001
    TEST_RR 76, mulhu,  0x00000000, 0xffffffff, 0x00000001
    // row 20: a = 0x00000001, b = 0xffffffff    (s: -1; su, u: 2^32-1)
    TEST_RR 77, mul,    0xffffffff, 0x00000001, 0xffffffff
    TEST_RR 78, mulh,   0xffffffff, 0x00000001, 0xffffffff
    TEST_RR 79, mulhsu, 0x00000000, 0x00000001, 0xffffffff
    TEST_RR 80, mulhu,  0x00000000, 0x00000001, 0xffffffff
    // row 21: a = 0x80000000, b = 0x00000001    (s, su: -2^31; u: 2^31)
    TEST_RR 81, mul,    0x80000000, 0x80000000, 0x00000001
    TEST_RR 82, mulh,   0xffffffff, 0x80000000, 0x00000001
    TEST_RR 83, mulhsu, 0xffffffff, 0x80000000, 0x00000001
    TEST_RR 84, mulhu,  0x00000000, 0x80000000, 0x00000001
    // row 22: a = 0x00000001, b = 0x80000000    (s: -2^31; su, u: 2^31)
    TEST_RR 85, mul,    0x80000000, 0x00000001, 0x80000000
    TEST_RR 86, mulh,   0xffffffff, 0x00000001, 0x80000000
    TEST_RR 87, mulhsu, 0x00000000, 0x00000001, 0x80000000
    TEST_RR 88, mulhu,  0x00000000, 0x00000001, 0x80000000
    // row 23: a = 0x0000ffff, b = 0xffff0000    (s: -(2^32-2^16); su, u: 0xfffe_00010000)
    TEST_RR 89, mul,    0x00010000, 0x0000ffff, 0xffff0000
    TEST_RR 90, mulh,   0xffffffff, 0x0000ffff, 0xffff0000
    TEST_RR 91, mulhsu, 0x0000fffe, 0x0000ffff, 0xffff0000
    TEST_RR 92, mulhu,  0x0000fffe, 0x0000ffff, 0xffff0000
    // row 24: a = 0xffff0000, b = 0x0000ffff    (s, su: -(2^32-2^16); u: 0xfffe_00010000)
    TEST_RR 93, mul,    0x00010000, 0xffff0000, 0x0000ffff
    TEST_RR 94, mulh,   0xffffffff, 0xffff0000, 0x0000ffff
    TEST_RR 95, mulhsu, 0xffffffff, 0xffff0000, 0x0000ffff
    TEST_RR 96, mulhu,  0x0000fffe, 0xffff0000, 0x0000ffff
    // row 25: a = 0xaaaaaaaa, b = 0x00000003    (s, su: -0x55555556*3 = -0x1_00000002; u: 0x1_fffffffe)
    TEST_RR 97, mul,    0xfffffffe, 0xaaaaaaaa, 0x00000003
    TEST_RR 98, mulh,   0xfffffffe, 0xaaaaaaaa, 0x00000003
    TEST_RR 99, mulhsu, 0xfffffffe, 0xaaaaaaaa, 0x00000003
    TEST_RR 100, mulhu,  0x00000001, 0xaaaaaaaa, 0x00000003
    // row 26: a = 0x00000003, b = 0xaaaaaaaa    (s: -0x1_00000002; su, u: 0x1_fffffffe)
    TEST_RR 101, mul,    0xfffffffe, 0x00000003, 0xaaaaaaaa
    TEST_RR 102, mulh,   0xfffffffe, 0x00000003, 0xaaaaaaaa
    TEST_RR 103, mulhsu, 0x00000001, 0x00000003, 0xaaaaaaaa
    TEST_RR 104, mulhu,  0x00000001, 0x00000003, 0xaaaaaaaa
    // ---- operand/destination register overlaps and x0 ----
    TEST_RR_SRC1_EQ_DEST  110, mul,    0x0000008f, 13, 11   // 143
    TEST_RR_SRC2_EQ_DEST  111, mul,    0x0000009a, 14, 11   // 154
    TEST_RR_SRC12_EQ_DEST 112, mul,    0x000000a9, 13       // 169
    TEST_RR_SRC12_EQ_DEST 113, mulh,   0x40000000, 0x80000000
    TEST_RR_SRC12_EQ_DEST 114, mulhsu, 0xc0000000, 0x80000000
    TEST_RR_SRC12_EQ_DEST 115, mulhu,  0xfffffffe, 0xffffffff
    TEST_RR_SRC1_EQ_DEST  116, mulhu,  0x7fffffff, 0x80000000, 0xffffffff
    TEST_RR_SRC2_EQ_DEST  117, mulhsu, 0x80000000, 0x80000000, 0xffffffff
    TEST_RR_ZERO_SRC1     118, mul,    0, 0x12345678
    TEST_RR_ZERO_SRC2     119, mulh,   0, 0xffffffff
    TEST_RR_ZERO_SRC1     120, mulhsu, 0, 0xffffffff
    TEST_RR_ZERO_SRC2     121, mulhu,  0, 0xffffffff

    // ---- high and low halves of one product, back to back ----
    // 0x12345678 * 0x9abcdef0, unsigned = 0x0b00ea4e_242d2080
    //   (0x12345678 * 0x9abcdef0 = 0x12345678 * 0x9abc0000 + 0x12345678 * 0xdef0)
    // signed: b = 0x9abcdef0 - 2^32, so the product is 2^32 * 0x12345678
    //   smaller: high word 0x0b00ea4e - 0x12345678 = 0xf8cc93d6 (mod 2^32),
    //   low word unchanged.
    TEST_NUM 122
    li      a1, 0x12345678
    li      a2, 0x9abcdef0
    mulhu   a4, a1, a2
    mul     a5, a1, a2
    mulh    a6, a1, a2
    mulhsu  a7, a1, a2
    CHECK   a4, 0x0b00ea4e
    CHECK   a5, 0x242d2080
    CHECK   a6, 0xf8cc93d6
    CHECK   a7, 0x0b00ea4e          // rs1 positive: same as unsigned

TEST_END
