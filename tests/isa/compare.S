// compare.S - slt, sltu, slti, sltiu: rd = (rs1 < rs2) ? 1 : 0.
// slt/slti compare signed, sltu/sltiu unsigned; the immediate of sltiu is
// sign-extended first and then compared unsigned (so -1 is 0xffffffff).
#include "test_macros.h"

TEST_BEGIN

    // ---- slt (signed) ----
    TEST_RR  1, slt, 0, 0x00000000, 0x00000000
    TEST_RR  2, slt, 0, 0x00000001, 0x00000001
    TEST_RR  3, slt, 1, 0x00000003, 0x00000007
    TEST_RR  4, slt, 0, 0x00000007, 0x00000003
    TEST_RR  5, slt, 1, 0x80000000, 0x00000000   // INT_MIN < 0
    TEST_RR  6, slt, 0, 0x00000000, 0x80000000
    TEST_RR  7, slt, 0, 0x7fffffff, 0x80000000   // INT_MAX > INT_MIN
    TEST_RR  8, slt, 1, 0x80000000, 0x7fffffff
    TEST_RR  9, slt, 1, 0xffffffff, 0x00000000   // -1 < 0
    TEST_RR 10, slt, 0, 0x00000000, 0xffffffff
    TEST_RR 11, slt, 1, 0xffffffff, 0x00000001   // -1 < 1
    TEST_RR 12, slt, 1, 0xfffffffe, 0xffffffff   // -2 < -1
    TEST_RR 13, slt, 0, 0xffffffff, 0xfffffffe
    TEST_RR 14, slt, 1, 0x80000000, 0x80000001
    TEST_RR_SRC1_EQ_DEST  15, slt, 1, 10, 11
    TEST_RR_SRC2_EQ_DEST  16, slt, 0, 11, 10
    TEST_RR_SRC12_EQ_DEST 17, slt, 0, 15          // x < x never
    TEST_RR_ZERO_SRC1     18, slt, 1, 5           // 0 < 5
    TEST_RR_ZERO_SRC1     19, slt, 0, 0xfffffffb  // 0 < -5 is false
    TEST_RR_ZERO_SRC2     20, slt, 1, 0xfffffffb  // -5 < 0 (sltz)
    TEST_RR_ZERO_SRC2     21, slt, 0, 5

    // ---- sltu (unsigned) ----
    TEST_RR 30, sltu, 0, 0x00000000, 0x00000000
    TEST_RR 31, sltu, 0, 0x00000001, 0x00000001
    TEST_RR 32, sltu, 1, 0x00000003, 0x00000007
    TEST_RR 33, sltu, 0, 0x00000007, 0x00000003
    TEST_RR 34, sltu, 1, 0x00000000, 0xffffffff   // 0 < UINT_MAX
    TEST_RR 35, sltu, 0, 0xffffffff, 0x00000000
    TEST_RR 36, sltu, 0, 0x80000000, 0x7fffffff   // unsigned: 2^31 > 2^31-1
    TEST_RR 37, sltu, 1, 0x7fffffff, 0x80000000
    TEST_RR 38, sltu, 1, 0xfffffffe, 0xffffffff
    TEST_RR 39, sltu, 0, 0xffffffff, 0xfffffffe
    TEST_RR 40, sltu, 0, 0xffffffff, 0x00000001   // -1 is the largest unsigned
    TEST_RR_SRC1_EQ_DEST  41, sltu, 1, 10, 11
    TEST_RR_SRC2_EQ_DEST  42, sltu, 0, 11, 10
    TEST_RR_SRC12_EQ_DEST 43, sltu, 0, 0xffffffff
    TEST_RR_ZERO_SRC1     44, sltu, 1, 5           // snez: 0 < 5
    TEST_RR_ZERO_SRC1     45, sltu, 1, 0x80000000
    TEST_RR_ZERO_SRC1     46, sltu, 0, 0           // snez of 0
    TEST_RR_ZERO_SRC2     47, sltu, 0, 5           // nothing is below 0

    // ---- slti (signed, immediate -2048..2047) ----
    TEST_RI 60, slti, 0, 0x00000000, 0
    TEST_RI 61, slti, 0, 0x00000001, 1
    TEST_RI 62, slti, 1, 0x00000003, 7
    TEST_RI 63, slti, 0, 0x00000007, 3
    TEST_RI 64, slti, 1, 0x80000000, -2048         // INT_MIN < -2048
    TEST_RI 65, slti, 0, 0x00000000, -2048
    TEST_RI 66, slti, 0, 0x7fffffff, 2047
    TEST_RI 67, slti, 1, 0x00000000, 2047
    TEST_RI 68, slti, 1, 0xffffffff, 0             // -1 < 0
    TEST_RI 69, slti, 0, 0x00000000, -1
    TEST_RI 70, slti, 1, 0xfffff7ff, -2048         // -2049 < -2048
    TEST_RI 71, slti, 0, 0xfffff800, -2048         // -2048 < -2048 false
    TEST_RI 72, slti, 1, 0x000007fe, 2047
    TEST_RI 73, slti, 0, 0x000007ff, 2047
    TEST_RI_SRC_EQ_DEST 74, slti, 1, 10, 11
    TEST_RI_ZERO_SRC    75, slti, 1, 1             // 0 < 1
    TEST_RI_ZERO_SRC    76, slti, 0, -1            // 0 < -1 false

    // ---- sltiu (immediate sign-extended, compared unsigned) ----
    TEST_RI 90, sltiu, 0, 0x00000000, 0
    TEST_RI 91, sltiu, 1, 0x00000000, 1            // seqz idiom: x == 0
    TEST_RI 92, sltiu, 0, 0x00000001, 1
    TEST_RI 93, sltiu, 0, 0x00000005, 1
    TEST_RI 94, sltiu, 1, 0x00000000, -2048        // 0 < 0xfffff800
    TEST_RI 95, sltiu, 0, 0xfffff800, -2048
    TEST_RI 96, sltiu, 1, 0xfffff7ff, -2048
    TEST_RI 97, sltiu, 0, 0xffffffff, -1           // nothing is above 0xffffffff
    TEST_RI 98, sltiu, 1, 0xfffffffe, -1
    TEST_RI 99, sltiu, 1, 0x80000000, -2048        // 0x80000000 < 0xfffff800
    TEST_RI 100, sltiu, 0, 0x7fffffff, 2047
    TEST_RI 101, sltiu, 1, 0x000007fe, 2047
    TEST_RI 102, sltiu, 0, 0x80000000, 2047        // unsigned: 2^31 > 2047
    TEST_RI_SRC_EQ_DEST 103, sltiu, 1, 10, 11
    TEST_RI_ZERO_SRC    104, sltiu, 1, -1          // 0 < 0xffffffff
    TEST_RI_ZERO_SRC    105, sltiu, 0, 0

TEST_END
