// pmp.S - physical memory protection seen from machine mode, on a hart
// with 16 entries of 4-byte granularity (the functional mode's and
// tally5's default; QEMU virt's too). Expected values from the privileged
// specification:
//   pmpcfgN holds entries 4N..4N+3, a byte each: R[0] W[1] X[2] A[4:3]
//   (0 OFF, 1 TOR, 2 NA4, 3 NAPOT) L[7]. pmpaddrI = address bits 33:2;
//   NAPOT of 2^k bytes at B: (B >> 2) | (2^(k-3) - 1); TOR: [pmpaddr(I-1),
//   pmpaddrI) << 2.
//   In M-mode only locked entries bind: the lowest-numbered entry that
//   matches any byte decides and must cover all of them; no match allows.
//   A locked entry ignores writes to its cfg byte and its address, and to
//   the address below it when it is TOR. Faults: load access (5), store/AMO
//   access (7), fetch access (1), mtval the address.
// Locks last until reset, so every check uses entries of its own.
#include "test_macros.h"

#define PMPCFG0  0x3a0
#define PMPCFG1  0x3a1
#define PMPCFG2  0x3a2
#define PMPADDR0 0x3b0
#define PMPADDR1 0x3b1
#define PMPADDR2 0x3b2
#define PMPADDR3 0x3b3
#define PMPADDR4 0x3b4
#define PMPADDR5 0x3b5
#define PMPADDR6 0x3b6
#define PMPADDR7 0x3b7
#define PMPADDR8 0x3b8

// reg = NAPOT address of the \size-byte region at \label (clobbers t0)
.macro NAPOT reg, label, size
    la      \reg, \label
    srli    \reg, \reg, 2
    li      t0, (\size / 8) - 1
    or      \reg, \reg, t0
.endm

TEST_BEGIN
    csrw    mie, zero

    // ---- the registers ----
    TEST_NUM 1
    csrw    PMPCFG0, zero
    li      a1, -1
    csrw    PMPADDR0, a1
    csrr    a4, PMPADDR0            // G = 0: every bit reads back
    CHECK   a4, 0xffffffff
    TEST_NUM 2
    li      a1, 0x1f1d1b19          // entries 8..11: NAPOT with R, RW, RX, RWX, unlocked
    csrw    PMPCFG2, a1
    csrr    a4, PMPCFG2
    CHECK   a4, 0x1f1d1b19
    csrw    PMPCFG2, zero
#ifndef TEST_ON_QEMU
    TEST_NUM 3                      // R=0 W=1 is reserved: W reads 0; bits 6:5 read 0
    li      a1, 0x00006a00
    csrw    PMPCFG2, a1
    csrr    a4, PMPCFG2
    CHECK   a4, 0x00000800
    csrw    PMPCFG2, zero
#endif

    // ---- entry 0: NAPOT over buf_ro, R only ----
    TEST_NUM 10                     // unlocked: M-mode may still store
    NAPOT   a1, buf_ro, 64
    csrw    PMPADDR0, a1
    li      a1, 0x19                // NAPOT | R
    csrw    PMPCFG0, a1
    la      a2, buf_ro
    li      a3, 0x5a
    sw      a3, 60(a2)
    CHECK_MEM buf_ro+60, 0x5a
    TEST_NUM 11                     // locked: loads pass, stores fault
    li      a1, 0x99                // L | NAPOT | R
    csrw    PMPCFG0, a1
    lw      a4, 60(a2)
    CHECK   a4, 0x5a
    TEST_TRAP_ADDR 12, CAUSE_STORE_ACCESS, buf_ro+8, sw a3, 8(a2)
    CHECK_MEM buf_ro+8, 0
    TEST_TRAP_ADDR 13, CAUSE_STORE_ACCESS, buf_ro+1, sb a3, 1(a2)
    TEST_TRAP_ADDR 14, CAUSE_STORE_ACCESS, buf_ro, amoadd.w a4, a3, (a2)
    TEST_NUM 15                     // just past the region: allowed
    sw      a3, 64(a2)
    CHECK_MEM buf_ro+64, 0x5a
    TEST_NUM 16                     // the locked entry ignores writes
    csrw    PMPCFG0, zero
    csrr    a4, PMPCFG0
    CHECK   a4, 0x99
    csrr    a5, PMPADDR0
    csrw    PMPADDR0, zero
    csrr    a4, PMPADDR0
    NAPOT   a1, buf_ro, 64
    bne     a4, a1, test_fail

    // ---- entry 2: TOR [buf_tor, buf_tor + 32), locked, no access ----
    TEST_NUM 20
    la      a1, buf_tor
    srli    a1, a1, 2
    csrw    PMPADDR1, a1
    addi    a1, a1, 8
    csrw    PMPADDR2, a1
    li      a1, 0x00880000          // entry 2: L | TOR; entry 1 OFF; entry 0 stays
    csrw    PMPCFG0, a1
    csrr    a4, PMPCFG0
    CHECK   a4, 0x00880099
    la      a2, buf_tor
    TEST_TRAP_ADDR 21, CAUSE_LOAD_ACCESS, buf_tor, lw a4, 0(a2)
    TEST_TRAP_ADDR 22, CAUSE_LOAD_ACCESS, buf_tor+28, lw a4, 28(a2)
    TEST_TRAP_ADDR 23, CAUSE_STORE_ACCESS, buf_tor+31, sb a4, 31(a2)
    TEST_NUM 24                     // the words either side: allowed
    lw      a4, -4(a2)
    CHECK   a4, 0x44
    lw      a4, 32(a2)
    CHECK   a4, 0x66
    TEST_NUM 25                     // pmpaddr1 is the locked TOR entry's base: writes ignored
    csrw    PMPADDR1, zero
    csrr    a4, PMPADDR1
    la      a1, buf_tor
    srli    a1, a1, 2
    bne     a4, a1, test_fail
    // a misaligned word half inside: the entry matches only part of it
    TEST_TRAP_ADDR 26, CAUSE_LOAD_ACCESS, buf_tor-2, lw a4, -2(a2)

    // ---- priority: the lowest-numbered matching entry decides ----
    TEST_NUM 30                     // entry 3 RW before entry 4 R over buf_pri: stores pass
    NAPOT   a1, buf_pri, 32
    csrw    PMPADDR3, a1
    csrw    PMPADDR4, a1
    NAPOT   a1, buf_pri2, 32
    csrw    PMPADDR5, a1
    csrw    PMPADDR6, a1
    NAPOT   a1, noexec, 64
    csrw    PMPADDR7, a1
    li      a1, 0x9b880099          // entry 3: L | NAPOT | RW
    csrw    PMPCFG0, a1
    li      a1, 0x9b9b9999          // entries 4, 5: L | NAPOT | R; 6, 7: L | NAPOT | RW
    csrw    PMPCFG1, a1
    la      a2, buf_pri
    li      a3, 0x31
    sw      a3, 4(a2)
    CHECK_MEM buf_pri+4, 0x31
    TEST_NUM 31                     // entry 5 R before entry 6 RW over buf_pri2: stores fault
    la      a2, buf_pri2
    TEST_TRAP_ADDR 32, CAUSE_STORE_ACCESS, buf_pri2+4, sw a3, 4(a2)

    // ---- entry 7 (no X) over noexec: fetches fault ----
    TEST_NUM 40
    EXPECT_TRAP fetch_back
    li      a4, 0
    jal     noexec
    j       test_fail_no_trap
fetch_back:
    CHECK   a4, 0
    CHECK_TRAP_CAUSE CAUSE_FETCH_ACCESS
    CHECK_TRAP_EPC noexec
    CHECK_TRAP_TVAL_ADDR noexec
    TEST_NUM 41                     // data accesses to it pass (RW)
    la      a2, noexec
    lw      a4, 0(a2)
    li      a1, 0x00100713          // li a4, 1
    bne     a4, a1, test_fail

    // ---- entry 8: NA4 over one word, locked R ----
    TEST_NUM 50
    la      a1, buf_na4
    srli    a1, a1, 2
    csrw    PMPADDR8, a1
    li      a1, 0x91                // L | NA4 | R
    csrw    PMPCFG2, a1
    la      a2, buf_na4
    TEST_TRAP_ADDR 51, CAUSE_STORE_ACCESS, buf_na4+2, sh a3, 2(a2)
    TEST_NUM 52
    sw      a3, 4(a2)               // the next word: allowed
    CHECK_MEM buf_na4+4, 0x31
    sw      a3, -4(a2)
    CHECK_MEM buf_na4-4, 0x31
TEST_END

    .text
    .balign 64, 0
noexec:
    li      a4, 1
    ret
    .balign 64, 0

    .data
    .balign 64
buf_ro:   .fill 16, 4, 0
          .word 0
    .balign 64
          .fill 15, 4, 0
          .word 0x44
buf_tor:  .fill 8, 4, 0x11
          .word 0x66
    .balign 64
buf_pri:  .fill 8, 4, 0
    .balign 64
buf_pri2: .fill 8, 4, 0
    .balign 64
          .word 0
buf_na4:  .word 0
          .word 0
