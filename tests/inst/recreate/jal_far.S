// jal_far.S - jal at the edge of its reach: +1048574 and -1048576 bytes
// (21-bit signed, even), with rd = ra, t0 and x0. The sources and targets
// sit at fixed addresses given by jal_far.ld, 1 MiB apart; CHECK_DIST
// proves the distances at run time and CHECK_ABS the link values. An
// instrumenter that moves such a jal into a trampoline must turn it into
// a jump that still reaches, and still links the original next pc.
// The main code reaches the pieces and comes back with lui + jalr
// (JUMP_ABS), which no instrumenter needs to re-create.
#include "inst_macros.h"

TEST_BEGIN
    TEST_NUM 1                          // jal ra, +1048574
    li      ra, 0
    JUMP_ABS fsrc
back1:
    CHECK_ABS s2, fsrc_next
    CHECK_DIST fsrc, fdst, 1048574

    TEST_NUM 2                          // jal t0, -1048576
    li      t0, 0
    JUMP_ABS bsrc
back2:
    CHECK_ABS s2, bsrc_next
    CHECK_DIST bdst, bsrc, 1048576

    TEST_NUM 3                          // jal x0, +1048574
    li      ra, 0x1111
    li      t0, 0x2222
    lui     a4, %hi(xsrc)               // not JUMP_ABS: it uses t0
    jalr    x0, %lo(xsrc)(a4)
back3:
    CHECK   ra, 0x1111                  // jal x0 wrote neither
    CHECK   t0, 0x2222
    CHECK   s2, 0x3333                  // and xdst was reached
    CHECK_DIST xsrc, xdst, 1048574
    TEST_END

    .section .text.fsrc, "ax", @progbits
fsrc:
    jal     ra, fdst
fsrc_next:
    JUMP_ABS test_fail

    .section .text.fdst, "ax", @progbits
fdst:                                   // 2 mod 4
    mv      s2, ra                      // checked back in the main code
    JUMP_ABS back1

    .section .text.bdst, "ax", @progbits
bdst:
    mv      s2, t0
    JUMP_ABS back2

    .section .text.bsrc, "ax", @progbits
bsrc:
    jal     t0, bdst
bsrc_next:
    JUMP_ABS test_fail

    .section .text.xsrc, "ax", @progbits
xsrc:
    jal     x0, xdst
    lui     a4, %hi(test_fail)
    jalr    x0, %lo(test_fail)(a4)

    .section .text.xdst, "ax", @progbits
xdst:
    li      s2, 0x3333
    lui     a4, %hi(back3)              // not t0: it is checked afterwards
    jalr    x0, %lo(back3)(a4)
