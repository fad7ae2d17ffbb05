// jumps.S - jal and jalr.
//   jal rd, off:       rd = pc + 4; pc += off   (off: 21-bit signed, even)
//   jalr rd, off(rs1): t = (rs1 + off) & ~1; rd = pc + 4; pc = t
// With the C extension every even address is a legal target, so no jump
// can raise instruction-address-misaligned: jalr clears bit 0 and jal
// offsets are even. Tests 13/14 check that an odd jalr sum lands on the
// even address below it.
#include "test_macros.h"

TEST_BEGIN

    // ---- jal ----
    TEST_NUM 1                      // jal ra: link = address after the jal
    li      ra, 0
    jal     ra, jal_t1
jal_r1:
    j       test_fail
jal_t1:
    CHECK_ADDR ra, jal_r1

    TEST_NUM 2                      // another link register
    jal     t0, jal_t2
jal_r2:
    j       test_fail
jal_t2:
    CHECK_ADDR t0, jal_r2

    TEST_NUM 3                      // any register can take the link
    jal     a4, jal_t3
jal_r3:
    j       test_fail
jal_t3:
    CHECK_ADDR a4, jal_r3

    TEST_NUM 4                      // jal x0 (j) links nothing
    li      ra, 0x1234
    jal     x0, jal_t4
    j       test_fail
jal_t4:
    CHECK   ra, 0x1234

    TEST_NUM 5                      // backward jal
    j       jal_f5
jal_b5:
    CHECK_ADDR a4, jal_r5
    j       jal_done5
jal_f5:
    jal     a4, jal_b5
jal_r5:
    j       test_fail
jal_done5:

    TEST_NUM 6                      // instructions after a jal are skipped
    li      a4, 0
    jal     x0, jal_t6
    addi    a4, a4, 1
    addi    a4, a4, 2
jal_t6:
    addi    a4, a4, 4
    CHECK   a4, 4

    TEST_NUM 7                      // a 32-bit jal at a 2 mod 4 address links pc + 4
    .option rvc
    c.nop
    .option norvc
jal_a7:
    jal     ra, jal_t7
jal_r7:
    j       test_fail
jal_t7:
    CHECK_ADDR ra, jal_r7
    la      a4, jal_a7
    andi    a4, a4, 3
    CHECK   a4, 2
    .option rvc
    c.nop                           // back to 4-byte alignment
    .option norvc

    TEST_NUM 8                      // call and return
    li      a4, 10
    jal     ra, add_five
    jal     ra, add_five
    CHECK   a4, 20
    j       jumps_jalr

add_five:                           // a4 += 5, then ret (jalr x0, 0(ra))
    addi    a4, a4, 5
    ret

jumps_jalr:

    // ---- jalr ----
    TEST_NUM 10                     // jalr ra, 0(t0)
    la      t0, jalr_t10
    jalr    ra, 0(t0)
jalr_r10:
    j       test_fail
jalr_t10:
    CHECK_ADDR ra, jalr_r10

    TEST_NUM 11                     // offset +2047: sum is odd, bit 0 cleared
    la      t0, jalr_t11 - 2046
    jalr    ra, 2047(t0)
jalr_r11:
    j       test_fail
jalr_t11:
    CHECK_ADDR ra, jalr_r11

    TEST_NUM 12                     // offset -2048
    la      t0, jalr_t12 + 2048
    jalr    ra, -2048(t0)
jalr_r12:
    j       test_fail
jalr_t12:
    CHECK_ADDR ra, jalr_r12

    TEST_NUM 13                     // odd register value, offset 0
    la      t0, jalr_t13 + 1
    jalr    ra, 0(t0)
    j       test_fail
    nop
jalr_t13:
    CHECK_ADDR t0, jalr_t13 + 1     // rs1 itself is not modified

    TEST_NUM 14                     // even register value, offset 1
    la      t0, jalr_t14
    jalr    ra, 1(t0)
    j       test_fail
jalr_t14:
    CHECK_ADDR t0, jalr_t14

    TEST_NUM 15                     // rd == rs1: target from the old value
    la      t0, jalr_t15
    jalr    t0, 0(t0)
jalr_r15:
    j       test_fail
jalr_t15:
    CHECK_ADDR t0, jalr_r15

    TEST_NUM 16                     // jalr ra, 0(ra)
    la      ra, jalr_t16
    jalr    ra, 0(ra)
jalr_r16:
    j       test_fail
jalr_t16:
    CHECK_ADDR ra, jalr_r16

    TEST_NUM 17                     // jalr x0 (jr) links nothing
    li      ra, 0x1234
    la      t0, jalr_t17
    jalr    x0, 0(t0)
    j       test_fail
jalr_t17:
    CHECK   ra, 0x1234

    TEST_NUM 18                     // target at a 2 mod 4 address
    la      t0, jalr_t18
    jalr    ra, 0(t0)
jalr_r18:
    j       test_fail
    .option rvc
    c.nop
    .option norvc
jalr_t18:
    CHECK_ADDR ra, jalr_r18
    la      a4, jalr_t18
    andi    a4, a4, 3
    CHECK   a4, 2
    .option rvc
    c.nop                           // back to 4-byte alignment
    .option norvc

    TEST_NUM 19                     // backward jalr with a negative offset
    j       jalr_f19
jalr_b19:
    CHECK_ADDR a4, jalr_r19
    j       jalr_done19
jalr_f19:
    la      t0, jalr_b19 + 100
    jalr    a4, -100(t0)
jalr_r19:
    j       test_fail
jalr_done19:

    // ---- jal with the extreme offsets +0xffffe and -0x100000 ----
    // A = jal_far_a jumps +0xffffe to B = jal_far_b; from B + 10 a jal
    // jumps -0x100000 back to A + 8 = jal_far_c.
    TEST_NUM 30
    li      s0, 0
    li      s1, 0
jal_far_a:
    jal     ra, jal_far_b           // +0xffffe, the largest forward offset
jal_far_a_link:
    j       test_fail
jal_far_c:                          // = jal_far_d - 0x100000
    CHECK_ADDR s0, jal_far_a_link   // the forward jal linked A + 4
    CHECK_ADDR s1, jal_far_b        // and really arrived at B
    CHECK_ADDR ra, jal_far_d_link   // the backward jal linked B + 14
    TEST_NUM 31                     // the layout has the extreme offsets
    la      a4, jal_far_a
    la      a5, jal_far_b
    sub     a5, a5, a4
    CHECK   a5, 0xffffe
    la      a4, jal_far_d
    la      a5, jal_far_c
    sub     a5, a5, a4
    CHECK   a5, -0x100000
    la      t0, jal_far_done
    jr      t0
    .skip   (jal_far_a + 0xffffe) - ., 0    // never executed
jal_far_b:
    auipc   s1, 0                   // B
    mv      s0, ra                  // B + 4
    .option rvc
    c.nop                           // B + 8
    .option norvc
jal_far_d:
    jal     ra, jal_far_c           // B + 10: -0x100000, the largest backward offset
jal_far_d_link:
    la      t0, test_fail           // test_fail is more than 1 MiB away
    jr      t0
jal_far_done:

TEST_END
