// interrupts.S - machine timer and software interrupts through the CLINT.
//
//   mip.MTIP = (mtime >= mtimecmp), as a level; raising mtimecmp clears it.
//   mip.MSIP = msip bit 0 (CLINT + 0); writing msip = 0 clears it.
//   An interrupt is taken when its mip bit and mie bit are set and
//   mstatus.MIE = 1, before the next instruction; mepc = that next
//   (not executed) instruction, mcause = 0x80000000 | code (MSI 3, MTI 7).
//   Entering the handler clears MIE (MPIE keeps the old value), so no
//   interrupt is taken inside it until mret restores MIE from MPIE.
//   With both pending, the software interrupt is taken first (priority
//   MEI > MSI > MTI).
//   wfi returns once an interrupt is pending and enabled in mie, whether
//   or not mstatus.MIE is set; with MIE set the interrupt is taken with
//   mepc = the instruction after the wfi.
//
// mtime counts at a rate the tests do not depend on (host time on QEMU,
// executed instructions on tally): they only rely on it moving forward.
// mtimecmp is written lo = all ones, hi, lo so that it never passes
// through a smaller value.
//
// irq_vector below is this file's trap vector: it records what it sees
// in irq_rec, clears the source and returns. It clobbers t3..t6 only.
#include "test_macros.h"

#define REC_COUNT     0     // interrupts taken
#define REC_CAUSE     4     // mcause of the last one
#define REC_EPC       8     // mepc of the last one
#define REC_STATUS    12    // mstatus on entry
#define REC_MIP_IN    16    // mip on entry
#define REC_MIP_OUT   20    // mip after clearing the source
#define REC_LOG       24    // low bytes of the causes, oldest first, shifted in
#define REC_HOLD_CNT  28    // REC_COUNT after the hold loop
#define REC_HOLD      32    // iterations to spin in the handler before clearing
#define REC_HOLD_MIP  36    // mip after the hold loop

// \hi:\lo = mtime, read consistently (hi, lo, hi again). Clobbers t3, t4.
.macro READ_MTIME hi, lo
.Lagain\@:
    li      t3, CLINT_MTIMEH
    lw      \hi, 0(t3)
    li      t3, CLINT_MTIME
    lw      \lo, 0(t3)
    li      t3, CLINT_MTIMEH
    lw      t4, 0(t3)
    bne     \hi, t4, .Lagain\@
.endm

// mtimecmp = \hi:\lo. Clobbers t3, t4.
.macro SET_MTIMECMP hi, lo
    li      t3, CLINT_MTIMECMP
    li      t4, -1
    sw      t4, 0(t3)
    li      t3, CLINT_MTIMECMPH
    sw      \hi, 0(t3)
    li      t3, CLINT_MTIMECMP
    sw      \lo, 0(t3)
.endm

// mtimecmp = 0: the timer interrupt is pending at once.
.macro TIMER_NOW
    SET_MTIMECMP zero, zero
.endm

// mtimecmp = all ones: never.
.macro TIMER_NEVER
    li      t5, -1
    SET_MTIMECMP t5, t5
.endm

// mtimecmp = mtime + \delta. Clobbers a6, a7, t3..t5.
.macro TIMER_IN delta
    READ_MTIME a6, a7
    li      t5, \delta
    add     t5, a7, t5
    sltu    t4, t5, a7              // carry
    add     a6, a6, t4
    SET_MTIMECMP a6, t5
.endm

// Forget previous interrupts: zero the record.
.macro REC_RESET
    la      t3, irq_rec
    sw      zero, REC_COUNT(t3)
    sw      zero, REC_CAUSE(t3)
    sw      zero, REC_EPC(t3)
    sw      zero, REC_LOG(t3)
    sw      zero, REC_HOLD(t3)
.endm

// Fail unless the record word at \off equals \exp (masked with \mask).
.macro CHECK_REC off, mask, exp
    la      t3, irq_rec
    lw      t4, \off(t3)
    li      t3, \mask
    and     t4, t4, t3
    CHECK   t4, \exp
.endm

// Spin \n iterations (clobbers t5).
.macro SPIN n
    li      t5, \n
.Lspin\@:
    addi    t5, t5, -1
    bnez    t5, .Lspin\@
.endm

TEST_BEGIN
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    la      a1, irq_vector
    csrw    mtvec, a1
    li      a1, CLINT_MSIP
    sw      zero, 0(a1)
    TIMER_NEVER
    REC_RESET

    // ---- the CLINT registers ----
    TEST_NUM 1                      // mtime moves forward
    READ_MTIME s0, s1
    li      s2, 1000000             // give up after a million reads
mtime_wait:
    addi    s2, s2, -1
    beqz    s2, test_fail
    READ_MTIME s3, s4
    bne     s3, s0, mtime_moved
    beq     s4, s1, mtime_wait
    bltu    s4, s1, test_fail       // same hi word, smaller lo: backwards
    j       mtime_ok
mtime_moved:
    bltu    s3, s0, test_fail
mtime_ok:
    TEST_NUM 2                      // mtimecmp reads back
    li      a2, 0x00000012
    li      a3, 0x34567800
    SET_MTIMECMP a2, a3
    li      a1, CLINT_MTIMECMP
    lw      a4, 0(a1)
    CHECK   a4, 0x34567800
    lw      a4, 4(a1)
    CHECK   a4, 0x00000012
    TIMER_NEVER
    TEST_NUM 3                      // msip: only bit 0 exists
    li      a1, CLINT_MSIP
    li      a2, -1
    sw      a2, 0(a1)
    lw      a4, 0(a1)
    CHECK   a4, 1
    sw      zero, 0(a1)
    lw      a4, 0(a1)
    CHECK   a4, 0

    // ---- mip follows the sources ----
    TEST_NUM 10
    TIMER_NOW
    csrr    a4, mip
    andi    a4, a4, MIP_MTIP
    CHECK   a4, MIP_MTIP            // mtime >= 0
    TIMER_NEVER
    csrr    a4, mip
    andi    a4, a4, MIP_MTIP
    CHECK   a4, 0                   // cleared by raising mtimecmp
    TEST_NUM 11
    li      a1, CLINT_MSIP
    li      a2, 1
    sw      a2, 0(a1)
    csrr    a4, mip
    andi    a4, a4, MIP_MSIP
    CHECK   a4, MIP_MSIP
    sw      zero, 0(a1)
    csrr    a4, mip
    andi    a4, a4, MIP_MSIP
    CHECK   a4, 0
    TEST_NUM 12                     // MTIP and MSIP are read-only in mip
    li      a2, MIP_MTIP | MIP_MSIP
    csrs    mip, a2
    csrr    a4, mip
    and     a4, a4, a2
    CHECK   a4, 0

    // ---- pending but not enabled: no interrupt ----
    TEST_NUM 20                     // mie.MTIE = 1, mstatus.MIE = 0
    TIMER_NOW
    li      a1, MIE_MTIE
    csrs    mie, a1
    SPIN    100
    CHECK_REC REC_COUNT, -1, 0
    TEST_NUM 21                     // mstatus.MIE = 1, mie.MTIE = 0
    csrw    mie, zero
    csrsi   mstatus, MSTATUS_MIE
    SPIN    100
    csrci   mstatus, MSTATUS_MIE
    CHECK_REC REC_COUNT, -1, 0

    // ---- the timer interrupt ----
    TEST_NUM 30
    li      a1, MIE_MTIE
    csrs    mie, a1                 // MTIP is still pending from test 20
    csrsi   mstatus, MSTATUS_MIE    // taken before the next instruction
timer_next:
    nop
    CHECK_REC REC_COUNT, -1, 1
    CHECK_REC REC_CAUSE, -1, IRQ_M_TIMER
    la      t3, irq_rec
    lw      t4, REC_EPC(t3)
    CHECK_ADDR t4, timer_next
    TEST_NUM 31                     // what the handler saw
    CHECK_REC REC_STATUS, MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, MSTATUS_MPIE | MSTATUS_MPP
    CHECK_REC REC_MIP_IN, MIP_MTIP, MIP_MTIP
    CHECK_REC REC_MIP_OUT, MIP_MTIP, 0     // raising mtimecmp cleared MTIP
    TEST_NUM 32                     // mret restored MIE
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MIE
    CHECK   a4, MSTATUS_MIE
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero

    // ---- no nesting: the handler runs with MIE = 0 ----
    // The handler spins 200 times with MTIP still pending before clearing
    // it: no second entry happens in the meantime.
    TEST_NUM 40
    REC_RESET
    la      t3, irq_rec
    li      t4, 200
    sw      t4, REC_HOLD(t3)
    TIMER_NOW
    li      a1, MIE_MTIE
    csrs    mie, a1
    csrsi   mstatus, MSTATUS_MIE
hold_next:
    nop
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    CHECK_REC REC_HOLD_CNT, -1, 1   // still the first entry after the spin
    CHECK_REC REC_HOLD_MIP, MIP_MTIP, MIP_MTIP  // although MTIP was pending
    CHECK_REC REC_COUNT, -1, 1
    la      t3, irq_rec
    lw      t4, REC_EPC(t3)
    CHECK_ADDR t4, hold_next
    sw      zero, REC_HOLD(t3)

    // ---- the software interrupt ----
    TEST_NUM 50
    REC_RESET
    li      a1, MIE_MSIE
    csrs    mie, a1
    csrsi   mstatus, MSTATUS_MIE    // nothing pending yet
    li      t6, 0                   // the handler leaves t6 != 0
    li      a1, CLINT_MSIP
    li      a2, 1
    sw      a2, 0(a1)
msip_spin:
    beqz    t6, msip_spin           // the interrupt arrives here at the latest
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    CHECK_REC REC_COUNT, -1, 1
    CHECK_REC REC_CAUSE, -1, IRQ_M_SOFT
    la      t3, irq_rec
    lw      t4, REC_EPC(t3)
    CHECK_ADDR t4, msip_spin
    CHECK_REC REC_MIP_IN, MIP_MSIP, MIP_MSIP
    CHECK_REC REC_MIP_OUT, MIP_MSIP, 0     // msip = 0 cleared MSIP

    // ---- priority: software before timer ----
    TEST_NUM 60
    REC_RESET
    li      a1, CLINT_MSIP
    li      a2, 1
    sw      a2, 0(a1)
    TIMER_NOW
    li      a1, MIE_MSIE | MIE_MTIE
    csrs    mie, a1
    csrsi   mstatus, MSTATUS_MIE    // both taken here, one after the other
    nop
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    CHECK_REC REC_COUNT, -1, 2
    CHECK_REC REC_LOG, -1, 0x0307   // 3 (MSI) first, then 7 (MTI)

    // ---- wfi ----
    TEST_NUM 70                     // already pending, MIE = 0: wfi returns
    REC_RESET
    TIMER_NOW
    li      a1, MIE_MTIE
    csrs    mie, a1
    wfi
    CHECK_REC REC_COUNT, -1, 0      // no trap with MIE = 0
    TIMER_NEVER
    TEST_NUM 71                     // pending later, MIE = 0: wfi waits for it
    TIMER_IN 1000
    wfi
    csrr    a4, mip
    andi    a4, a4, MIP_MTIP
    CHECK   a4, MIP_MTIP
    CHECK_REC REC_COUNT, -1, 0
    TIMER_NEVER
    TEST_NUM 72                     // pending later, MIE = 1: taken after the wfi
    TIMER_IN 100000
    csrsi   mstatus, MSTATUS_MIE
wfi_at:
    wfi
    nop
    csrci   mstatus, MSTATUS_MIE
    csrw    mie, zero
    CHECK_REC REC_COUNT, -1, 1
    CHECK_REC REC_CAUSE, -1, IRQ_M_TIMER
    la      t3, irq_rec
    lw      t4, REC_EPC(t3)
    CHECK_ADDR t4, wfi_at+4

TEST_END

// ---- this file's trap vector ----
    .balign 4, 0
irq_vector:
    la      t6, irq_rec
    lw      t5, REC_COUNT(t6)
    addi    t5, t5, 1
    sw      t5, REC_COUNT(t6)
    csrr    t5, mcause
    bltz    t5, 5f
    j       test_unexpected_trap    // an exception: not expected here
5:  sw      t5, REC_CAUSE(t6)
    lw      t4, REC_LOG(t6)
    slli    t4, t4, 8
    andi    t3, t5, 0xff
    or      t4, t4, t3
    sw      t4, REC_LOG(t6)
    csrr    t4, mepc
    sw      t4, REC_EPC(t6)
    csrr    t4, mstatus
    sw      t4, REC_STATUS(t6)
    csrr    t4, mip
    sw      t4, REC_MIP_IN(t6)
    lw      t4, REC_HOLD(t6)        // spin with the source still pending
1:  beqz    t4, 2f
    addi    t4, t4, -1
    j       1b
2:  lw      t4, REC_COUNT(t6)
    sw      t4, REC_HOLD_CNT(t6)
    csrr    t4, mip
    sw      t4, REC_HOLD_MIP(t6)
    andi    t5, t5, 0xff            // clear the source
    li      t4, 7
    bne     t5, t4, 3f
    li      t4, CLINT_MTIMECMPH     // timer: mtimecmp = all ones
    li      t3, -1
    sw      t3, 0(t4)
    sw      t3, -4(t4)
    j       4f
3:  li      t4, 3
    beq     t5, t4, 6f
    j       test_unexpected_trap
6:  li      t4, CLINT_MSIP          // software: msip = 0
    sw      zero, 0(t4)
4:  csrr    t4, mip
    sw      t4, REC_MIP_OUT(t6)
    mret

    .data
    .balign 4
irq_rec:    .fill 10, 4, 0
