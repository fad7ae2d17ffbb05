// jumps.S - jal and jalr as an instrumenter must re-create them: the link
// value is the ORIGINAL address of the next instruction (checked against
// lui/addi-computed labels, CHECK_ABS), jal with rd = x0 / ra / others,
// forward and backward, jalr with rd == rs1, rd = x0, positive, negative,
// extreme and odd offsets, targets and jumps at 2 mod 4 addresses, and a
// recursive call chain whose return addresses live on the stack.
// (jal at the edge of its +-1 MiB reach: jal_far.S.)
#include "inst_macros.h"

TEST_BEGIN
    // ---- jal ----
    TEST_NUM 1                          // jal ra, forward
    li      ra, 0
    jal     ra, 1f
r1: j       test_fail
1:  CHECK_ABS ra, r1

    TEST_NUM 2                          // jal t0, forward
    jal     t0, 2f
r2: j       test_fail
2:  CHECK_ABS t0, r2

    TEST_NUM 3                          // jal a4, backward
    j       3f
b3: CHECK_ABS a4, r3
    j       4f
3:  jal     a4, b3
r3: j       test_fail
4:
    TEST_NUM 4                          // jal x0 writes nothing
    li      ra, 0x1234
    li      t0, 0x5678
    jal     x0, 5f
    j       test_fail
5:  CHECK   ra, 0x1234
    CHECK   t0, 0x5678

    TEST_NUM 5                          // jal s1, backward over a longer way
    j       7f
b5: CHECK_ABS s1, r5
    j       8f
    NOPS    200
7:  jal     s1, b5
r5: j       test_fail
8:
    TEST_NUM 6                          // call / ret
    li      a4, 0
    call    fn_add5
r6: CHECK   a4, 5
    TEST_NUM 7
    jal     fn_link                     // fn_link returns its ra in a0
r7: CHECK_ABS a0, r7

    // ---- jalr ----
    TEST_NUM 10                         // jalr ra, 0(t0)
    LA_ABS  t0, 10f
    jalr    ra, 0(t0)
r10:j       test_fail
10: CHECK_ABS ra, r10

    TEST_NUM 11                         // positive offset
    LA_ABS  t3, 11f - 12
    jalr    ra, 12(t3)
r11:j       test_fail
11: CHECK_ABS ra, r11

    TEST_NUM 12                         // negative offset
    LA_ABS  t3, 12f + 16
    jalr    a4, -16(t3)
r12:j       test_fail
12: CHECK_ABS a4, r12
    CHECK_ABS t3, 12b + 16              // rs1 itself unchanged

    TEST_NUM 13                         // rd == rs1: target from the old value
    LA_ABS  t0, 13f
    jalr    t0, 0(t0)
r13:j       test_fail
13: CHECK_ABS t0, r13

    TEST_NUM 14                         // rd == rs1 with an offset
    LA_ABS  a4, 14f - 8
    jalr    a4, 8(a4)
r14:j       test_fail
14: CHECK_ABS a4, r14

    TEST_NUM 15                         // rd == rs1 == ra
    LA_ABS  ra, 15f
    jalr    ra, 0(ra)
r15:j       test_fail
15: CHECK_ABS ra, r15

    TEST_NUM 16                         // rd = x0 writes nothing
    LA_ABS  a1, 16f - 4
    li      ra, 0x4321
    jalr    x0, 4(a1)
    j       test_fail
16: CHECK   ra, 0x4321
    CHECK_ABS a1, 16b - 4

    TEST_NUM 17                         // extreme immediates
    LA_ABS  a1, 17f - 2047
    jalr    ra, 2047(a1)                // the largest immediate
r17:j       test_fail
17: CHECK_ABS ra, r17
    TEST_NUM 18
    LA_ABS  a1, 18f + 2048
    jalr    ra, -2048(a1)
r18:j       test_fail
18: CHECK_ABS ra, r18

    TEST_NUM 19                         // odd sum: bit 0 is cleared
    LA_ABS  a1, 19f
    jalr    ra, 1(a1)
r19:j       test_fail
19: CHECK_ABS ra, r19
    TEST_NUM 20
    LA_ABS  a1, 20f + 2
    jalr    ra, -1(a1)                  // 20f + 1 -> 20f
r20:j       test_fail
20: CHECK_ABS ra, r20

    // ---- 2 mod 4 addresses: a jump there, and jumps from there ----
    TEST_NUM 21
    LA_ABS  a1, t21
    jalr    ra, 0(a1)
r21:j       test_fail
    C(c.nop)
t21:                                    // 2 mod 4
    CHECK_ABS ra, r21
    TEST_NUM 22
    jal     ra, 22f                     // a jal at 2 mod 4: link = pc + 4
r22:j       test_fail
22: CHECK_ABS ra, r22
    TEST_NUM 23
    LA_ABS  a1, 23f
    jalr    ra, 0(a1)                   // a jalr at 2 mod 4
r23:j       test_fail
    C(c.nop)
23: CHECK_ABS ra, r23
    TEST_NUM 24                         // both labels were 2 mod 4 ...
    LA_ABS  a1, t21
    andi    a1, a1, 3
    CHECK   a1, 2
    LA_ABS  a1, r22
    andi    a1, a1, 3                   // ... and this one 2 mod 4 too
    CHECK   a1, 2

    // ---- a chain of calls: return addresses on the stack ----
    TEST_NUM 30
    li      a0, 6
    call    fn_sum                      // 6 + 5 + ... + 1
r30:CHECK   a0, 21

    TEST_END

// a4 += 5
fn_add5:
    addi    a4, a4, 5
    ret

// a0 = the return address it was called with
fn_link:
    mv      a0, ra
    jalr    x0, 0(ra)

// a0 = a0 + fn_sum(a0 - 1), fn_sum(0) = 0; also checks each return
// address it comes back through.
fn_sum:
    beqz    a0, 1f
    addi    sp, sp, -16
    sw      ra, 12(sp)
    sw      a0, 8(sp)
    addi    a0, a0, -1
    jal     ra, fn_sum
rs: lw      t3, 8(sp)
    add     a0, a0, t3
    lw      ra, 12(sp)
    addi    sp, sp, 16
    LA_ABS  t3, rs                      // back into fn_sum ...
    beq     ra, t3, 1f
    LA_ABS  t3, r30                     // ... or to the first caller
    bne     ra, t3, test_fail
1:  ret
