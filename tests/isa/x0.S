// x0.S - x0 is hard-wired to zero: a write to it by any kind of
// instruction is discarded, while the instruction's other effects (memory
// writes, CSR writes, jumps, exceptions) still happen.
// (An ALU operation with rd = x0 is a HINT encoding; HINTs execute as
// no-ops, which is the same thing.)
#include "test_macros.h"

// \insn writes x0; afterwards x0 must still read 0, and a1/a2 keep \a/\b.
.macro TEST_X0 n, a, b, insn:vararg
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    \insn
    CHECK   x0, 0
    add     a4, x0, x0
    CHECK   a4, 0
    CHECK   a1, \a
    CHECK   a2, \b
.endm

TEST_BEGIN

    // ---- upper-immediate and immediate ALU operations ----
    TEST_X0  1, 1, 2, lui   x0, 0xfffff
    TEST_X0  2, 1, 2, auipc x0, 0x12345
    TEST_X0  3, 1, 2, addi  x0, x0, 5
    TEST_X0  4, 1, 2, addi  x0, a1, -1
    TEST_X0  5, 1, 2, slti  x0, a1, 5
    TEST_X0  6, 1, 2, sltiu x0, a1, -1
    TEST_X0  7, 1, 2, xori  x0, a1, -1
    TEST_X0  8, 1, 2, ori   x0, a1, 0x7ff
    TEST_X0  9, 1, 2, andi  x0, a1, -1
    TEST_X0 10, 1, 2, slli  x0, a1, 31
    TEST_X0 11, -1, 2, srli x0, a1, 1
    TEST_X0 12, -1, 2, srai x0, a1, 1

    // ---- register-register ALU, M extension ----
    TEST_X0 20, 7, 3, add   x0, a1, a2
    TEST_X0 21, 7, 3, sub   x0, a1, a2
    TEST_X0 22, 7, 3, sll   x0, a1, a2
    TEST_X0 23, 3, 7, slt   x0, a1, a2
    TEST_X0 24, 3, 7, sltu  x0, a1, a2
    TEST_X0 25, 7, 3, xor   x0, a1, a2
    TEST_X0 26, -1, 3, srl  x0, a1, a2
    TEST_X0 27, -1, 3, sra  x0, a1, a2
    TEST_X0 28, 7, 3, or    x0, a1, a2
    TEST_X0 29, 7, 3, and   x0, a1, a2
    TEST_X0 30, 7, 3, mul   x0, a1, a2
    TEST_X0 31, -1, -1, mulh   x0, a1, a2
    TEST_X0 32, -1, -1, mulhsu x0, a1, a2
    TEST_X0 33, -1, -1, mulhu  x0, a1, a2
    TEST_X0 34, 7, 3, div   x0, a1, a2
    TEST_X0 35, 7, 3, divu  x0, a1, a2
    TEST_X0 36, 7, 3, rem   x0, a1, a2
    TEST_X0 37, 7, 3, remu  x0, a1, a2
    TEST_X0 38, 7, 0, div   x0, a1, a2        // divide by zero

    // ---- loads into x0: the value is discarded ----
    TEST_NUM 40
    la      a1, x0_data
    lb      x0, 0(a1)
    CHECK   x0, 0
    lh      x0, 0(a1)
    CHECK   x0, 0
    lw      x0, 0(a1)
    CHECK   x0, 0
    lbu     x0, 3(a1)
    CHECK   x0, 0
    lhu     x0, 2(a1)
    CHECK   x0, 0
    add     a4, x0, x0
    CHECK   a4, 0
    // ... but a load into x0 still raises its exceptions
    TEST_TRAP 41, CAUSE_LOAD_ACCESS, 0, lw x0, 0(zero)
    CHECK   x0, 0

    // ---- jumps with rd = x0 jump but link nothing ----
    TEST_NUM 50
    jal     x0, x0_jal_target
    j       test_fail
x0_jal_target:
    CHECK   x0, 0
    TEST_NUM 51
    la      t0, x0_jalr_target
    jalr    x0, 0(t0)
    j       test_fail
x0_jalr_target:
    CHECK   x0, 0

    // ---- CSR instructions with rd = x0 still write the CSR ----
    TEST_NUM 60
    li      a1, 0x12345678
    csrrw   x0, mscratch, a1
    CHECK   x0, 0
    csrr    a4, mscratch
    CHECK   a4, 0x12345678
    TEST_NUM 61
    li      a1, 0x0000ff00
    csrrs   x0, mscratch, a1
    CHECK   x0, 0
    csrr    a4, mscratch
    CHECK   a4, 0x1234ff78
    TEST_NUM 62
    li      a1, 0x12000000
    csrrc   x0, mscratch, a1
    CHECK   x0, 0
    csrr    a4, mscratch
    CHECK   a4, 0x0034ff78
    TEST_NUM 63
    csrrwi  x0, mscratch, 31
    CHECK   x0, 0
    csrr    a4, mscratch
    CHECK   a4, 31
    TEST_NUM 64
    csrrsi  x0, mscratch, 0x0
    csrrs   x0, mscratch, x0        // plain reads into x0
    CHECK   x0, 0
    csrrci  x0, mscratch, 1
    CHECK   x0, 0
    csrr    a4, mscratch
    CHECK   a4, 30

    // ---- atomics with rd = x0 still update memory ----
    TEST_NUM 70
    la      a1, x0_data
    li      a2, 0x11111111
    sw      a2, 0(a1)
    li      a2, 5
    amoadd.w x0, a2, (a1)
    CHECK   x0, 0
    lw      a4, 0(a1)
    CHECK   a4, 0x11111116
    TEST_NUM 71
    li      a2, 0x0badf00d
    amoswap.w x0, a2, (a1)
    CHECK   x0, 0
    lw      a4, 0(a1)
    CHECK   a4, 0x0badf00d
    TEST_NUM 72                     // lr into x0 still makes a reservation
    li      a2, 0x600dcafe
    lr.w    x0, (a1)
    CHECK   x0, 0
    sc.w    x0, a2, (a1)
    CHECK   x0, 0
    lw      a4, 0(a1)
    CHECK   a4, 0x600dcafe

    // ---- compressed HINTs that name x0 as destination ----
    TEST_NUM 80
    li      a4, 0x1234
    .option rvc
    c.li    x0, 5
    c.lui   x0, 3
    c.mv    x0, a4
    c.add   x0, a4
    c.slli  x0, 3
    c.nop   5                       // c.addi x0, 5
    .option norvc                   // (6 x 2 bytes: still 4-byte aligned)
    CHECK   x0, 0
    CHECK   a4, 0x1234
    add     a5, x0, x0
    CHECK   a5, 0

    // ---- x0 as a source after all of the above ----
    TEST_NUM 90
    la      a1, x0_data
    sw      x0, 0(a1)
    lw      a4, 0(a1)
    CHECK   a4, 0
    ori     a4, x0, 0
    CHECK   a4, 0
    bne     x0, zero, test_fail

TEST_END

    .data
    .balign 4
x0_data:    .word 0x80ff7fff
