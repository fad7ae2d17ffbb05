// shifts.S - sll, srl, sra and slli, srli, srai.
// Register shifts use only the low 5 bits of rs2 (shift amount 0..31).
// Worked patterns:
//   0x21212121 << 7  = 0x90909080   (<< 4 = 0x12121210, << 3 more)
//   0x21212121 << 14 = 0x48484000   (<< 12 = 0x12121000, << 2 more)
//   0x21212121 >> 7  = 0x00424242   (>> 4 = 0x02121212, >> 3 more)
//   0x21212121 >> 14 = 0x00008484   (>> 12 = 0x00021212, >> 2 more)
//   0x81818181 >>a 7  = 0xff030303  (logical 0x01030303, top 7 bits filled)
//   0x81818181 >>a 14 = 0xfffe0606  (logical 0x00020606, top 14 bits filled)
#include "test_macros.h"

TEST_BEGIN

    // ---- sll ----
    TEST_RR  1, sll, 0x00000001, 0x00000001, 0
    TEST_RR  2, sll, 0x00000002, 0x00000001, 1
    TEST_RR  3, sll, 0x00000080, 0x00000001, 7
    TEST_RR  4, sll, 0x00004000, 0x00000001, 14
    TEST_RR  5, sll, 0x80000000, 0x00000001, 31
    TEST_RR  6, sll, 0xffffffff, 0xffffffff, 0
    TEST_RR  7, sll, 0xfffffffe, 0xffffffff, 1
    TEST_RR  8, sll, 0x80000000, 0xffffffff, 31
    TEST_RR  9, sll, 0x21212121, 0x21212121, 0
    TEST_RR 10, sll, 0x42424242, 0x21212121, 1
    TEST_RR 11, sll, 0x90909080, 0x21212121, 7
    TEST_RR 12, sll, 0x48484000, 0x21212121, 14
    TEST_RR 13, sll, 0x80000000, 0x21212121, 31
    TEST_RR 14, sll, 0x21212121, 0x21212121, 0xffffffe0  // low 5 bits = 0
    TEST_RR 15, sll, 0x42424242, 0x21212121, 0xffffffe1  // low 5 bits = 1
    TEST_RR 16, sll, 0x90909080, 0x21212121, 0xffffffe7  // low 5 bits = 7
    TEST_RR 17, sll, 0x80000000, 0x21212121, 0xffffffff  // low 5 bits = 31
    TEST_RR 18, sll, 0x42424242, 0x21212121, 33          // 33 & 31 = 1
    TEST_RR_SRC1_EQ_DEST  19, sll, 0x00000080, 0x00000001, 7
    TEST_RR_SRC2_EQ_DEST  20, sll, 0x00004000, 0x00000001, 14
    TEST_RR_SRC12_EQ_DEST 21, sll, 0x00000018, 3          // 3 << 3 = 24
    TEST_RR_ZERO_SRC1     22, sll, 0, 15
    TEST_RR_ZERO_SRC2     23, sll, 0x21212121, 0x21212121

    // ---- srl: zeros shifted in ----
    TEST_RR 30, srl, 0x80000000, 0x80000000, 0
    TEST_RR 31, srl, 0x40000000, 0x80000000, 1
    TEST_RR 32, srl, 0x01000000, 0x80000000, 7
    TEST_RR 33, srl, 0x00020000, 0x80000000, 14
    TEST_RR 34, srl, 0x00000001, 0x80000000, 31
    TEST_RR 35, srl, 0x7fffffff, 0xffffffff, 1
    TEST_RR 36, srl, 0x00000001, 0xffffffff, 31
    TEST_RR 37, srl, 0x21212121, 0x21212121, 0
    TEST_RR 38, srl, 0x10909090, 0x21212121, 1
    TEST_RR 39, srl, 0x00424242, 0x21212121, 7
    TEST_RR 40, srl, 0x00008484, 0x21212121, 14
    TEST_RR 41, srl, 0x00000000, 0x21212121, 31
    TEST_RR 42, srl, 0x21212121, 0x21212121, 0xffffffe0  // low 5 bits = 0
    TEST_RR 43, srl, 0x10909090, 0x21212121, 0xffffffe1
    TEST_RR 44, srl, 0x00000001, 0xffffffff, 0xffffffff  // shift by 31
    TEST_RR_SRC1_EQ_DEST  45, srl, 0x01000000, 0x80000000, 7
    TEST_RR_SRC2_EQ_DEST  46, srl, 0x00020000, 0x80000000, 14
    TEST_RR_SRC12_EQ_DEST 47, srl, 0x00000000, 7          // 7 >> 7 = 0
    TEST_RR_ZERO_SRC1     48, srl, 0, 15
    TEST_RR_ZERO_SRC2     49, srl, 0x80000000, 0x80000000

    // ---- sra: copies of bit 31 shifted in ----
    TEST_RR 60, sra, 0x80000000, 0x80000000, 0
    TEST_RR 61, sra, 0xc0000000, 0x80000000, 1
    TEST_RR 62, sra, 0xff000000, 0x80000000, 7
    TEST_RR 63, sra, 0xfffe0000, 0x80000000, 14
    TEST_RR 64, sra, 0xffffffff, 0x80000000, 31
    TEST_RR 65, sra, 0x3fffffff, 0x7fffffff, 1
    TEST_RR 66, sra, 0x00000000, 0x7fffffff, 31
    TEST_RR 67, sra, 0x81818181, 0x81818181, 0
    TEST_RR 68, sra, 0xc0c0c0c0, 0x81818181, 1
    TEST_RR 69, sra, 0xff030303, 0x81818181, 7
    TEST_RR 70, sra, 0xfffe0606, 0x81818181, 14
    TEST_RR 71, sra, 0xffffffff, 0x81818181, 31
    TEST_RR 72, sra, 0x81818181, 0x81818181, 0xffffffe0  // low 5 bits = 0
    TEST_RR 73, sra, 0xc0c0c0c0, 0x81818181, 0xffffffe1
    TEST_RR 74, sra, 0xffffffff, 0x81818181, 0xffffffff  // shift by 31
    TEST_RR 75, sra, 0x00424242, 0x21212121, 7           // positive: like srl
    TEST_RR_SRC1_EQ_DEST  76, sra, 0xff000000, 0x80000000, 7
    TEST_RR_SRC2_EQ_DEST  77, sra, 0xfffe0000, 0x80000000, 14
    TEST_RR_SRC12_EQ_DEST 78, sra, 0x00000000, 7
    TEST_RR_ZERO_SRC1     79, sra, 0, 15
    TEST_RR_ZERO_SRC2     80, sra, 0x81818181, 0x81818181

    // ---- slli ----
    TEST_RI 90, slli, 0x00000001, 0x00000001, 0
    TEST_RI 91, slli, 0x00000002, 0x00000001, 1
    TEST_RI 92, slli, 0x00000080, 0x00000001, 7
    TEST_RI 93, slli, 0x00004000, 0x00000001, 14
    TEST_RI 94, slli, 0x80000000, 0x00000001, 31
    TEST_RI 95, slli, 0xfffffffe, 0xffffffff, 1
    TEST_RI 96, slli, 0x80000000, 0xffffffff, 31
    TEST_RI 97, slli, 0x42424242, 0x21212121, 1
    TEST_RI 98, slli, 0x90909080, 0x21212121, 7
    TEST_RI 99, slli, 0x48484000, 0x21212121, 14
    TEST_RI 100, slli, 0x80000000, 0x21212121, 31
    TEST_RI_SRC_EQ_DEST 101, slli, 0x00000080, 0x00000001, 7
    TEST_RI_ZERO_SRC    102, slli, 0, 31

    // ---- srli ----
    TEST_RI 110, srli, 0x80000000, 0x80000000, 0
    TEST_RI 111, srli, 0x40000000, 0x80000000, 1
    TEST_RI 112, srli, 0x01000000, 0x80000000, 7
    TEST_RI 113, srli, 0x00020000, 0x80000000, 14
    TEST_RI 114, srli, 0x00000001, 0x80000000, 31
    TEST_RI 115, srli, 0x7fffffff, 0xffffffff, 1
    TEST_RI 116, srli, 0x00000001, 0xffffffff, 31
    TEST_RI 117, srli, 0x10909090, 0x21212121, 1
    TEST_RI 118, srli, 0x00424242, 0x21212121, 7
    TEST_RI 119, srli, 0x00008484, 0x21212121, 14
    TEST_RI 120, srli, 0x00000000, 0x21212121, 31
    TEST_RI_SRC_EQ_DEST 121, srli, 0x01000000, 0x80000000, 7
    TEST_RI_ZERO_SRC    122, srli, 0, 4

    // ---- srai ----
    TEST_RI 130, srai, 0x80000000, 0x80000000, 0
    TEST_RI 131, srai, 0xc0000000, 0x80000000, 1
    TEST_RI 132, srai, 0xff000000, 0x80000000, 7
    TEST_RI 133, srai, 0xfffe0000, 0x80000000, 14
    TEST_RI 134, srai, 0xffffffff, 0x80000000, 31
    TEST_RI 135, srai, 0x3fffffff, 0x7fffffff, 1
    TEST_RI 136, srai, 0x00000000, 0x7fffffff, 31
    TEST_RI 137, srai, 0xc0c0c0c0, 0x81818181, 1
    TEST_RI 138, srai, 0xff030303, 0x81818181, 7
    TEST_RI 139, srai, 0xfffe0606, 0x81818181, 14
    TEST_RI 140, srai, 0xffffffff, 0x81818181, 31
    TEST_RI 141, srai, 0x00424242, 0x21212121, 7
    TEST_RI_SRC_EQ_DEST 142, srai, 0xff000000, 0x80000000, 7
    TEST_RI_ZERO_SRC    143, srai, 0, 4

    // ---- lui + srai: the classic sign-extension idiom ----
    // lui gives 0x80000000; >>a 12 gives 0xfff80000
    TEST_NUM 150
    lui     a4, 0x80000
    srai    a4, a4, 12
    CHECK   a4, 0xfff80000

TEST_END
