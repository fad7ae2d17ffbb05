// alu_imm.S - register-immediate operations: addi, andi, ori, xori.
// The 12-bit immediate is sign-extended: -2048..2047, i.e. an immediate
// with bit 11 set stands for 0xfffff800..0xffffffff.
// (slli/srli/srai are in shifts.S, slti/sltiu in compare.S.)
#include "test_macros.h"

TEST_BEGIN

    // ---- addi ----
    TEST_RI  1, addi, 0x00000000, 0x00000000, 0
    TEST_RI  2, addi, 0x00000002, 0x00000001, 1
    TEST_RI  3, addi, 0x0000000a, 0x00000003, 7
    TEST_RI  4, addi, 0xfffff800, 0x00000000, -2048      // most negative immediate
    TEST_RI  5, addi, 0x000007ff, 0x00000000, 2047       // most positive immediate
    TEST_RI  6, addi, 0x7ffff800, 0x80000000, -2048      // wraps below INT_MIN
    TEST_RI  7, addi, 0x800007fe, 0x7fffffff, 2047       // wraps above INT_MAX
    TEST_RI  8, addi, 0x80000000, 0x7fffffff, 1
    TEST_RI  9, addi, 0x00000000, 0xffffffff, 1
    TEST_RI 10, addi, 0xfffffffe, 0xffffffff, -1
    TEST_RI 11, addi, 0x7fffffff, 0x80000000, -1
    TEST_RI 12, addi, 0x00001000, 0x00000801, 2047       // 0x801 + 0x7ff
    TEST_RI 13, addi, 0x00000000, 0x00000800, -2048      // 0x800 - 0x800
    TEST_RI_SRC_EQ_DEST 14, addi, 24, 13, 11
    TEST_RI_ZERO_SRC    15, addi, 32, 32                 // li through addi x0
    TEST_RI_ZERO_SRC    16, addi, 0xfffff800, -2048

    // ---- andi ----
    TEST_RI 20, andi, 0xff00ff00, 0xff00ff00, -241       // imm 0xf0f -> 0xffffff0f
    TEST_RI 21, andi, 0x000000f0, 0x0ff00ff0, 0x0f0      // imm positive: upper bits cleared
    TEST_RI 22, andi, 0x0000000f, 0x00ff00ff, 0x70f      // 0x0ff & 0x70f
    TEST_RI 23, andi, 0x12345670, 0x12345678, -16        // imm 0xfffffff0
    TEST_RI 24, andi, 0xfffff800, 0xffffffff, -2048
    TEST_RI 25, andi, 0x000007ff, 0xffffffff, 2047
    TEST_RI 26, andi, 0x00000000, 0xfffff800, 2047
    TEST_RI 27, andi, 0x12345678, 0x12345678, -1
    TEST_RI_SRC_EQ_DEST 28, andi, 0x00000700, 0xff00ff00, 0x70f   // 0xf00 & 0x70f
    TEST_RI_ZERO_SRC    29, andi, 0, -1

    // ---- ori ----
    TEST_RI 40, ori, 0xffffff0f, 0xff00ff00, -241        // imm 0xffffff0f
    TEST_RI 41, ori, 0x0ff00ff0, 0x0ff00ff0, 0x0f0
    TEST_RI 42, ori, 0x00ff07ff, 0x00ff00ff, 0x70f       // 0x0ff | 0x70f = 0x7ff
    TEST_RI 43, ori, 0xfffff800, 0x00000000, -2048
    TEST_RI 44, ori, 0x80000001, 0x80000000, 1
    TEST_RI 45, ori, 0xffffffff, 0x12345678, -1
    TEST_RI 46, ori, 0x123457ff, 0x12345678, 2047        // 0x678 | 0x7ff = 0x7ff
    TEST_RI_SRC_EQ_DEST 47, ori, 0xff00fff0, 0xff00ff00, 0x0f0
    TEST_RI_ZERO_SRC    48, ori, 0x000007ff, 2047

    // ---- xori ----
    TEST_RI 60, xori, 0xff00f00f, 0x00ff0f00, -241       // imm 0xffffff0f
    TEST_RI 61, xori, 0x0ff00f00, 0x0ff00ff0, 0x0f0
    TEST_RI 62, xori, 0x00ff0ff0, 0x00ff08ff, 0x70f      // 0x8ff ^ 0x70f = 0xff0
    TEST_RI 63, xori, 0xedcba987, 0x12345678, -1         // xori -1 is not
    TEST_RI 64, xori, 0xfffff800, 0x00000000, -2048
    TEST_RI 65, xori, 0x7ffff800, 0x80000000, -2048      // 0x80000000 ^ 0xfffff800
    TEST_RI 66, xori, 0x12345187, 0x12345678, 2047       // 0x678 ^ 0x7ff = 0x187
    TEST_RI_SRC_EQ_DEST 67, xori, 0xff00f00f, 0x00ff0f00, -241
    TEST_RI_ZERO_SRC    68, xori, 0x000007ff, 2047

TEST_END
