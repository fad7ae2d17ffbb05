// compressed.S - every compressed control-flow form as an instrumenter
// must re-create it from a 2-byte site: c.beqz / c.bnez taken and not
// taken, forward and backward and at the edge of reach (+254, -256),
// c.j / c.jal at the edge (+2046, -2048), c.jal's link (pc + 2), c.jr,
// c.jalr (link pc + 2, also with rs1 = ra, the link register it writes).
// Links are checked against pc-free labels (CHECK_ABS), edge distances at
// run time (CHECK_DIST). Glue code is 32-bit; C(...) is one 16-bit insn.
#include "inst_macros.h"

// The edge forms are encoded by hand (raw `.insn 2, ...`): GNU as widens a
// compressed branch or jump whose target it cannot place yet, which would
// move the target away from the edge. CHECK_DIST proves the distance.
// CB format: funct3 | off[8] | off[4:3] | rs1' | off[7:6] | off[2:1] | off[5] | 01
.macro CB_ENC f3, rsp, off
    .option rvc                         /* so that disassemblers show it */
    .insn 2, ((\f3 << 13) | (((\off >> 8) & 1) << 12) | (((\off >> 3) & 3) << 10) | (\rsp << 7) | (((\off >> 6) & 3) << 5) | (((\off >> 1) & 3) << 3) | (((\off >> 5) & 1) << 2) | 1)
    .option norvc
.endm
// CJ format: funct3 | off[11|4|9:8|10|6|7|3:1|5] | 01
.macro CJ_ENC f3, off
    .option rvc
    .insn 2, ((\f3 << 13) | (((\off >> 11) & 1) << 12) | (((\off >> 4) & 1) << 11) | (((\off >> 8) & 3) << 9) | (((\off >> 10) & 1) << 8) | (((\off >> 6) & 1) << 7) | (((\off >> 7) & 1) << 6) | (((\off >> 1) & 7) << 3) | (((\off >> 5) & 1) << 2) | 1)
    .option norvc
.endm
    .equ F3_c.beqz, 6
    .equ F3_c.bnez, 7
    .equ F3_c.j, 5
    .equ F3_c.jal, 1
    .equ RC_s0, 0
    .equ RC_s1, 1
    .equ RC_a0, 2
    .equ RC_a1, 3
    .equ RC_a2, 4
    .equ RC_a3, 5
    .equ RC_a4, 6
    .equ RC_a5, 7

// c.beqz/c.bnez \reg (x8..x15) with \reg = \val, forward by \dist:
// 254 is the edge; \taken says whether the branch must go.
.macro CB_FWD n, insn, reg, val, taken
    TEST_NUM \n
    li      \reg, \val
.Lbr\@:
    CB_ENC  F3_\insn, RC_\reg, 254
    .if \taken
    j       test_fail
    .else
    j       .Lfall\@
    .endif
    NOPS    62
.Lt\@:                                  // .Lbr + 254
    .if !\taken
    j       test_fail
    .endif
.Lfall\@:
    CHECK_DIST .Lbr\@, .Lt\@, 254
.endm

// Backward by 256, the other edge.
.macro CB_BACK n, insn, reg, val, taken
    TEST_NUM \n
    li      \reg, \val
    j       .Lbr\@
.Lt\@:
    .if \taken
    j       .Lok\@
    .else
    j       test_fail
    .endif
    NOPS    63
.Lbr\@:                                 // .Lt + 256
    CB_ENC  F3_\insn, RC_\reg, -256
    C(c.nop)
    .if \taken
    j       test_fail
    .endif
.Lok\@:
    CHECK_DIST .Lt\@, .Lbr\@, 256
.endm

// c.j / c.jal forward by 2046; c.jal's link must be .Lj + 2.
.macro CJ_FWD n, insn
    TEST_NUM \n
    li      ra, 0
.Lj\@:
    CJ_ENC  F3_\insn, 2046
.Lnext\@:
    C(c.nop)
    j       test_fail
    NOPS    509
    C(c.nop)
.Lt\@:                                  // .Lj + 2046
    C(c.nop)
    CHECK_DIST .Lj\@, .Lt\@, 2046
    .ifc \insn, c.jal
    CHECK_ABS ra, .Lnext\@
    .else
    CHECK   ra, 0
    .endif
.endm

// c.j / c.jal backward by 2048.
.macro CJ_BACK n, insn
    TEST_NUM \n
    li      ra, 0
    j       .Lj\@
.Lt\@:
    j       .Lok\@
    NOPS    511
.Lj\@:                                  // .Lt + 2048
    CJ_ENC  F3_\insn, -2048
.Lnext\@:
    C(c.nop)
    j       test_fail
.Lok\@:
    CHECK_DIST .Lt\@, .Lj\@, 2048
    .ifc \insn, c.jal
    CHECK_ABS ra, .Lnext\@
    .else
    CHECK   ra, 0
    .endif
.endm

TEST_BEGIN
    // ---- c.beqz / c.bnez, short ----
    TEST_NUM 1
    li      s0, 0
    C(c.beqz s0, 1f)
    C(c.nop)
    j       test_fail
1:  TEST_NUM 2
    li      a5, 1
    C(c.beqz a5, test_fail_near)        // not taken
    C(c.bnez a5, 2f)                    // taken
    C(c.nop)
    j       test_fail
2:  TEST_NUM 3                          // backward loop on c.bnez
    li      a0, 7
    li      a4, 0
3:  addi    a4, a4, 2
    addi    a0, a0, -1
    C(c.bnez a0, 3b)
    C(c.nop)
    CHECK   a4, 14
    TEST_NUM 4                          // backward c.beqz, taken once
    li      s1, 1
    li      a4, 0
4:  addi    a4, a4, 1
    addi    s1, s1, -1
    C(c.beqz s1, 4b)                    // s1 = 0: back; then -1: through
    C(c.nop)
    CHECK   a4, 2
    CHECK   s1, -1

    // ---- c.beqz / c.bnez at the edge: +254, -256 ----
    CB_FWD  10, c.beqz, s0, 0, 1
    CB_FWD  11, c.bnez, a1, 0x80000000, 1
    CB_FWD  12, c.beqz, a2, 1, 0
    CB_FWD  13, c.bnez, a3, 0, 0
    CB_BACK 14, c.beqz, a4, 0, 1
    CB_BACK 15, c.bnez, a5, -1, 1
    CB_BACK 16, c.beqz, s1, 2, 0
    CB_BACK 17, c.bnez, a0, 0, 0

    // ---- c.j / c.jal at the edge: +2046, -2048 ----
    CJ_FWD  20, c.j
    CJ_FWD  21, c.jal
    CJ_BACK 22, c.j
    CJ_BACK 23, c.jal

    // ---- c.jal, short, forward and backward ----
    TEST_NUM 24
    C(c.jal 24f)
r24:C(c.nop)
    j       test_fail
24: CHECK_ABS ra, r24
    TEST_NUM 25
    j       25f
b25:CHECK_ABS ra, r25
    j       26f
25: C(c.jal b25)
r25:C(c.nop)
    j       test_fail
26:
    // ---- c.jr / c.jalr ----
    TEST_NUM 30                         // c.jr: no link
    li      ra, 0x77
    LA_ABS  a1, 30f
    C(c.jr a1)
    C(c.nop)
    j       test_fail
30: CHECK   ra, 0x77
    CHECK_ABS a1, 30b
    TEST_NUM 31                         // c.jalr: ra = pc + 2
    LA_ABS  t3, 31f
    C(c.jalr t3)
r31:C(c.nop)
    j       test_fail
31: CHECK_ABS ra, r31
    CHECK_ABS t3, 31b
    TEST_NUM 32                         // c.jalr ra: target is the old ra
    LA_ABS  ra, 32f
    C(c.jalr ra)
r32:C(c.nop)
    j       test_fail
32: CHECK_ABS ra, r32
    TEST_NUM 33                         // c.jalr at both alignments: one of
    LA_ABS  s0, 33f                     // the two is at 2 mod 4
    C(c.jalr s0)
r33:j       test_fail
33: CHECK_ABS ra, r33
    LA_ABS  s0, 133f
    C(c.nop)
    C(c.jalr s0)
r133:j      test_fail
133:CHECK_ABS ra, r133
    TEST_NUM 34                         // c.jr to a 2 mod 4 target
    LA_ABS  a2, t34
    C(c.jr a2)
    C(c.nop)
    j       test_fail
    C(c.nop)
t34:C(c.nop)
    TEST_NUM 35                         // call and c.jr ra (ret) back
    li      a4, 0
    jal     ra, fn_cret
r35:CHECK   a4, 9
    TEST_NUM 36                         // c.jal to a function, c.jr ra back
    li      a4, 0
    C(c.jal fn_cret)
    C(c.nop)
    CHECK   a4, 9
    TEST_END

test_fail_near:
    j       test_fail

fn_cret:
    addi    a4, a4, 9
    C(c.jr ra)
