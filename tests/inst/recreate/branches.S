// branches.S - the six conditional branches as an instrumenter must
// re-create them: taken and not taken, forward and backward, with x0 and
// equal operands, in loops, and at the edge of their reach (+4094 and
// -4096 bytes, checked at run time with CHECK_DIST). A displaced branch
// that is re-created with the wrong target, the wrong condition or a
// fall-through to the wrong place ends here with the test's number.
#include "inst_macros.h"

// Backward branch that must be taken: the target sits before the branch.
.macro BR_BACK_TAKEN n, insn, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    j       .Lbr\@
.Lt\@:
    j       .Lok\@
.Lbr\@:
    \insn   a1, a2, .Lt\@
    j       test_fail
.Lok\@:
.endm

// Backward branch that must fall through.
.macro BR_BACK_NOT_TAKEN n, insn, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    j       .Lbr\@
.Lt\@:
    j       test_fail
.Lbr\@:
    \insn   a1, a2, .Lt\@
.endm

// The edge branches are encoded here by hand (B-type, rs1 = a1, rs2 = a2,
// offset \off, as a raw `.insn`): GNU as turns a branch whose target it
// cannot place yet into a branch over a jump, which would silently move
// the target away from the edge. CHECK_DIST then proves the distance.
    .equ F3_beq, 0
    .equ F3_bne, 1
    .equ F3_blt, 4
    .equ F3_bge, 5
    .equ F3_bltu, 6
    .equ F3_bgeu, 7
.macro BRANCH_A1_A2 insn, off
    .insn ((((\off >> 12) & 1) << 31) | (((\off >> 5) & 0x3f) << 25) | (12 << 20) | (11 << 15) | (F3_\insn << 12) | (((\off >> 1) & 0xf) << 8) | (((\off >> 11) & 1) << 7) | 0x63)
.endm

// Forward branch to exactly +4094 (the largest 13-bit even offset): the
// target is 2 mod 4, so one c.nop is in the padding. Taken when \taken=1.
.macro BR_EDGE_FWD n, insn, a, b, taken
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
.Lbr\@:
    BRANCH_A1_A2 \insn, 4094
    .if \taken
    j       test_fail
    .else
    j       .Lfall\@
    .endif
    NOPS    1021
    C(c.nop)
.Lt\@:                                  // .Lbr + 4094
    C(c.nop)                            // back to 4-byte alignment
    .if !\taken
    j       test_fail
    .endif
.Lfall\@:
    CHECK_DIST .Lbr\@, .Lt\@, 4094
.endm

// Backward branch to exactly -4096 (the smallest 13-bit offset).
.macro BR_EDGE_BACK n, insn, a, b, taken
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    j       .Lbr\@
.Lt\@:                                  // .Lbr - 4096
    .if \taken
    j       .Lok\@
    .else
    j       test_fail
    .endif
    NOPS    1023
.Lbr\@:
    BRANCH_A1_A2 \insn, -4096
    .if \taken
    j       test_fail
    .endif
.Lok\@:
    CHECK_DIST .Lt\@, .Lbr\@, 4096
.endm

TEST_BEGIN
    // ---- forward, short ----
    TEST_BR_TAKEN      1, beq, 7, 7
    TEST_BR_NOT_TAKEN  2, beq, 7, 8
    TEST_BR_TAKEN      3, bne, 1, 0x80000001
    TEST_BR_NOT_TAKEN  4, bne, -1, -1
    TEST_BR_TAKEN      5, blt, 0x80000000, 0x7fffffff
    TEST_BR_NOT_TAKEN  6, blt, 5, 5
    TEST_BR_TAKEN      7, bge, 5, 5
    TEST_BR_NOT_TAKEN  8, bge, -1, 0
    TEST_BR_TAKEN      9, bltu, 0x7fffffff, 0x80000000
    TEST_BR_NOT_TAKEN 10, bltu, -1, 0
    TEST_BR_TAKEN     11, bgeu, -1, 0
    TEST_BR_NOT_TAKEN 12, bgeu, 0x7fffffff, 0x80000000

    // ---- backward, short ----
    BR_BACK_TAKEN     13, beq, -3, -3
    BR_BACK_NOT_TAKEN 14, beq, 3, -3
    BR_BACK_TAKEN     15, bne, 0, 1
    BR_BACK_NOT_TAKEN 16, bne, 9, 9
    BR_BACK_TAKEN     17, blt, -2, -1
    BR_BACK_NOT_TAKEN 18, blt, 0, 0x80000000
    BR_BACK_TAKEN     19, bge, 0, 0x80000000
    BR_BACK_NOT_TAKEN 20, bge, -2, -1
    BR_BACK_TAKEN     21, bltu, 0, -1
    BR_BACK_NOT_TAKEN 22, bltu, 0x80000000, 0x7fffffff
    BR_BACK_TAKEN     23, bgeu, 0x80000000, 0x7fffffff
    BR_BACK_NOT_TAKEN 24, bgeu, 0, 1

    // ---- operands: x0, the same register twice ----
    TEST_NUM 25
    beq     x0, x0, 1f
    j       test_fail
1:  TEST_NUM 26
    li      a1, 0
    bne     a1, x0, test_fail           // beqz/bnez forms
    bnez    x0, test_fail
    li      a1, -5
    bgez    a1, test_fail               // bge a1, x0
    bltz    a1, 2f                      // blt a1, x0
    j       test_fail
2:  TEST_NUM 27
    blt     a1, a1, test_fail
    bge     a1, a1, 3f
    j       test_fail
3:  bgtu    x0, a1, test_fail           // bltu a1, x0 never taken
    TEST_NUM 28                         // the branch left its operands alone
    CHECK   a1, -5

    // ---- loops: backward branches taken many times, then not ----
    TEST_NUM 29
    li      a1, 10
    li      a4, 0
4:  addi    a4, a4, 3
    addi    a1, a1, -1
    bnez    a1, 4b
    CHECK   a4, 30
    TEST_NUM 30
    li      a1, -4                      // signed loop: -4 .. 3
    li      a2, 4
    li      a4, 0
5:  addi    a4, a4, 1
    addi    a1, a1, 1
    blt     a1, a2, 5b
    CHECK   a4, 8
    TEST_NUM 31                         // nested: 3 x 4
    li      a4, 0
    li      a1, 3
6:  li      a2, 4
7:  addi    a4, a4, 1
    addi    a2, a2, -1
    bgtu    a2, x0, 7b
    addi    a1, a1, -1
    bne     a1, x0, 6b
    CHECK   a4, 12

    // ---- at the edge of reach: +4094 ----
    BR_EDGE_FWD   40, beq,  1, 1, 1
    BR_EDGE_FWD   41, bne,  1, 2, 1
    BR_EDGE_FWD   42, blt, -1, 1, 1
    BR_EDGE_FWD   43, bge,  1, -1, 1
    BR_EDGE_FWD   44, bltu, 1, -1, 1
    BR_EDGE_FWD   45, bgeu, -1, 1, 1
    BR_EDGE_FWD   46, beq,  1, 2, 0
    BR_EDGE_FWD   47, bgeu, 1, -1, 0
    // ---- at the edge of reach: -4096 ----
    BR_EDGE_BACK  50, beq,  1, 1, 1
    BR_EDGE_BACK  51, bne,  1, 2, 1
    BR_EDGE_BACK  52, blt, -1, 1, 1
    BR_EDGE_BACK  53, bge,  1, -1, 1
    BR_EDGE_BACK  54, bltu, 1, -1, 1
    BR_EDGE_BACK  55, bgeu, -1, 1, 1
    BR_EDGE_BACK  56, bne,  1, 1, 0
    BR_EDGE_BACK  57, blt,  1, -1, 0
TEST_END
