// auipc.S - auipc as an instrumenter must re-create it: rd = the ORIGINAL
// pc + (imm << 12), for zero, positive, negative and wrapping immediates,
// several destination registers (x0 included: a hint that writes
// nothing), at 2 mod 4 addresses, and in the pairs compilers emit:
// address (auipc+addi), load and store (auipc+lw/sw), call (auipc ra +
// jalr ra: rd == rs1), tail (auipc t1 + jalr x0), and a computed jump.
// Expected values come from lui/addi with absolute relocations (LA_ABS).
#include "inst_macros.h"

TEST_BEGIN
    TEST_NUM 1                          // imm 0: rd = pc
a1: auipc   a0, 0
    CHECK_ABS a0, a1
    TEST_NUM 2                          // imm 1: pc + 4096
a2: auipc   a1, 1
    CHECK_ABS a1, a2 + 0x1000
    TEST_NUM 3                          // imm -1: pc - 4096
a3: auipc   a2, 0xfffff
    CHECK_ABS a2, a3 - 0x1000
    TEST_NUM 4                          // imm 0x80000: pc + 2^31, wraps
a4: auipc   a3, 0x80000
    LA_ABS  t3, a4
    li      t4, 0x80000000
    add     t3, t3, t4
    CHECK_REG a3, t3
    TEST_NUM 5                          // imm 0x7ffff: the largest positive
a5: auipc   a4, 0x7ffff
    LA_ABS  t3, a5
    li      t4, 0x7ffff000
    add     t3, t3, t4
    CHECK_REG a4, t3
    TEST_NUM 6                          // imm 0x12345
a6: auipc   s1, 0x12345
    LA_ABS  t3, a6
    li      t4, 0x12345000
    add     t3, t3, t4
    CHECK_REG s1, t3

    // ---- destination registers ----
    TEST_NUM 10
a10:auipc   ra, 0
    CHECK_ABS ra, a10
    TEST_NUM 11
a11:auipc   t0, 2
    CHECK_ABS t0, a11 + 0x2000
    TEST_NUM 12
    mv      s10, sp
a12:auipc   sp, 0
    mv      a4, sp
    mv      sp, s10
    CHECK_ABS a4, a12
    TEST_NUM 13
a13:auipc   t6, 0
    CHECK_ABS t6, a13
    TEST_NUM 14
a14:auipc   s11, 0xffffe
    CHECK_ABS s11, a14 - 0x2000
    TEST_NUM 15
a15:auipc   tp, 0
    CHECK_ABS tp, a15
    TEST_NUM 16                         // auipc x0: a hint, x0 stays 0
    auipc   x0, 0x12345
    mv      a4, x0
    CHECK   a4, 0

    // ---- at a 2 mod 4 address (one of the two is) ----
    TEST_NUM 20
    C(c.nop)
a20:auipc   a5, 0
    CHECK_ABS a5, a20
    TEST_NUM 21
    C(c.nop)
a21:auipc   a5, 0
    CHECK_ABS a5, a21

    // ---- the pairs compilers emit ----
    TEST_NUM 30                         // la: auipc + addi, far forward
p30:auipc   a0, %pcrel_hi(far_data)
    addi    a0, a0, %pcrel_lo(p30)
    CHECK_ABS a0, far_data
    TEST_NUM 31                         // load through auipc + lw
p31:auipc   a1, %pcrel_hi(far_data)
    lw      a1, %pcrel_lo(p31)(a1)
    CHECK   a1, 0x600dcafe
    TEST_NUM 32                         // store through auipc + sw
    li      a2, 0x0badf00d
p32:auipc   a3, %pcrel_hi(far_data + 4)
    sw      a2, %pcrel_lo(p32)(a3)
    LA_ABS  a4, far_data + 4
    lw      a4, 0(a4)
    CHECK   a4, 0x0badf00d
    TEST_NUM 33                         // la backward, 3 pages away
    j       33f
    NOPS    3000                        // 12000 bytes
33:
p33:auipc   a0, %pcrel_hi(a1)
    addi    a0, a0, %pcrel_lo(p33)
    CHECK_ABS a0, a1
    TEST_NUM 34                         // the pair split by other code
p34:auipc   a0, %pcrel_hi(far_data)
    li      a1, 5
    addi    a1, a1, 1
    beqz    a1, test_fail
    addi    a0, a0, %pcrel_lo(p34)
    CHECK_ABS a0, far_data

    TEST_NUM 35                         // call: auipc ra + jalr ra, lo(ra)
    li      a4, 0
p35:auipc   ra, %pcrel_hi(fn_far)
    jalr    ra, %pcrel_lo(p35)(ra)
r35:CHECK   a4, 0x35
    mv      a4, a0                      // fn_far returns its ra in a0
    CHECK_ABS a4, r35
    TEST_NUM 36                         // tail: auipc t1 + jalr x0
    LA_ABS  ra, r36                     // the tail callee returns there
    li      a4, 0
p36:auipc   t1, %pcrel_hi(fn_far)
    jalr    x0, %pcrel_lo(p36)(t1)
    j       test_fail
r36:CHECK   a4, 0x35
    TEST_NUM 37                         // a computed jump from auipc's value
p37:auipc   t3, 0
    jalr    x0, 16(t3)                  // p37 + 16
    j       test_fail
    j       test_fail
t37:CHECK_DIST p37, t37, 16
    TEST_END

fn_far:
    li      a4, 0x35
    mv      a0, ra
    ret

    .data
    .balign 4, 0
    .skip   8192                        // far_data is > 2 KiB from the code
far_data:
    .word   0x600dcafe, 0
