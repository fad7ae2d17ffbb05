// pmp_gran.S - PMP granularity: run with [core] pmp_granularity = 64
// (G = 4: 2^(G+2) bytes). From the privileged specification:
//   OFF and TOR: pmpaddr bits G-1..0 read as zeros;
//   NAPOT (G >= 2): bits G-2..0 read as ones, bit G-1 is stored;
//   NA4 is not selectable (tally: a write of NA4 leaves A = OFF);
//   a TOR bound acts with bits G-1..0 clear.
// Not run on QEMU (its granularity is 4 bytes).
#include "test_macros.h"

#define PMPCFG0  0x3a0
#define PMPADDR0 0x3b0
#define PMPADDR1 0x3b1

TEST_BEGIN
    csrw    mie, zero
    TEST_NUM 1                      // OFF: bits 3..0 read 0
    csrw    PMPCFG0, zero
    li      a1, -1
    csrw    PMPADDR0, a1
    csrr    a4, PMPADDR0
    CHECK   a4, 0xfffffff0
    TEST_NUM 2                      // NAPOT: bits 2..0 read 1, bit 3 as stored
    li      a1, 0x18
    csrw    PMPCFG0, a1
    csrr    a4, PMPADDR0
    CHECK   a4, 0xffffffff
    li      a1, 0x12345670
    csrw    PMPADDR0, a1
    csrr    a4, PMPADDR0
    CHECK   a4, 0x12345677
    li      a1, 0x12345678
    csrw    PMPADDR0, a1
    csrr    a4, PMPADDR0
    CHECK   a4, 0x1234567f
    TEST_NUM 3                      // TOR: bits 3..0 read 0 (bit 3 still stored)
    li      a1, 0x08
    csrw    PMPCFG0, a1
    csrr    a4, PMPADDR0
    CHECK   a4, 0x12345670
    TEST_NUM 4                      // NA4 is not selectable: A reads OFF
    li      a1, 0x11
    csrw    PMPCFG0, a1
    csrr    a4, PMPCFG0
    CHECK   a4, 0x01
    TEST_NUM 5                      // locked TOR up to buf + 64 (the bound's low bits ignored)
    la      a1, buf
    srli    a1, a1, 2
    csrw    PMPADDR0, a1            // the TOR base: buf
    addi    a1, a1, 16 + 3          // buf + 64, plus 12 bytes the granularity drops
    csrw    PMPADDR1, a1
    li      a1, 0x8800              // entry 1: L | TOR, no access; entry 0 OFF
    csrw    PMPCFG0, a1
    la      a2, buf
    TEST_TRAP_ADDR 6, CAUSE_STORE_ACCESS, buf+60, sw a1, 60(a2)
    TEST_NUM 7
    sw      a1, 64(a2)              // buf + 64 is past the bound
    sw      a1, -4(a2)              // and buf - 4 below the base
TEST_END

    .data
    .balign 64
buf: .fill 32, 4, 0
