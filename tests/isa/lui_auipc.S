// lui_auipc.S - lui rd, imm20: rd = imm20 << 12;
//               auipc rd, imm20: rd = pc + (imm20 << 12), pc of the auipc itself.
#include "test_macros.h"

TEST_BEGIN

    // ---- lui ----
    TEST_NUM 1
    lui     a4, 0x00000
    CHECK   a4, 0x00000000
    TEST_NUM 2
    lui     a4, 0xfffff
    CHECK   a4, 0xfffff000
    TEST_NUM 3
    lui     a4, 0x80000
    CHECK   a4, 0x80000000
    TEST_NUM 4
    lui     a4, 0x7ffff
    CHECK   a4, 0x7ffff000
    TEST_NUM 5
    lui     a4, 0x12345
    CHECK   a4, 0x12345000
    TEST_NUM 6
    lui     a4, 0x00001
    CHECK   a4, 0x00001000
    TEST_NUM 7                      // the low 12 bits are cleared, not kept
    li      a4, -1
    lui     a4, 0xaaaaa
    CHECK   a4, 0xaaaaa000
    TEST_NUM 8                      // lui + addi with a negative low part
    lui     a4, 0x12346             // 0x12346000
    addi    a4, a4, -0x679          // 0x12346000 - 0x679 = 0x12345987
    CHECK   a4, 0x12345987
    TEST_NUM 9                      // every destination register
    lui     ra, 0x00011
    lui     tp, 0x00044
    lui     s0, 0x00088
    lui     s11, 0x001bb
    lui     t6, 0x001ff
    CHECK   ra, 0x00011000
    CHECK   tp, 0x00044000
    CHECK   s0, 0x00088000
    CHECK   s11, 0x001bb000
    CHECK   t6, 0x001ff000

    // ---- auipc: offsets measured against the auipc's own address ----
    TEST_NUM 20
1:  auipc   a4, 0
    CHECK_ADDR a4, 1b
    TEST_NUM 21
2:  auipc   a4, 1
    la      a5, 2b
    sub     a4, a4, a5
    CHECK   a4, 0x00001000
    TEST_NUM 22
3:  auipc   a4, 0xfffff             // -0x1000
    la      a5, 3b
    sub     a4, a4, a5
    CHECK   a4, 0xfffff000
    TEST_NUM 23
4:  auipc   a4, 0x80000             // +/- 2^31: wraps modulo 2^32
    la      a5, 4b
    sub     a4, a4, a5
    CHECK   a4, 0x80000000
    TEST_NUM 24
5:  auipc   a4, 0x7ffff
    la      a5, 5b
    sub     a4, a4, a5
    CHECK   a4, 0x7ffff000
    TEST_NUM 25                     // pc-relative address of a data word
6:  auipc   a4, %pcrel_hi(auipc_data)
    addi    a4, a4, %pcrel_lo(6b)
    lw      a4, 0(a4)
    CHECK   a4, 0x5a5aa5a5
    TEST_NUM 26                     // two auipc in a row differ by 4
7:  auipc   a4, 0
    auipc   a5, 0
    sub     a5, a5, a4
    CHECK   a5, 4
    CHECK_ADDR a4, 7b
    TEST_NUM 27                     // an auipc at a 2 mod 4 address
    .option rvc
    c.nop
    .option norvc
8:  auipc   a4, 0
    CHECK_ADDR a4, 8b
    la      a5, 8b
    andi    a5, a5, 3
    CHECK   a5, 2                   // the layout really is 2 mod 4

TEST_END

    .data
    .balign 4
auipc_data: .word 0x5a5aa5a5
