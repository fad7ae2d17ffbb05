// irq.S - interrupts in an instrumented program. A pending machine
// software interrupt is taken as soon as mstatus.MIE is set, before the
// next instruction: mepc must be that instruction's ORIGINAL address,
// whatever the instrumenter put around the csrsi. A timer interrupt arriving during
// a loop must show an mepc inside the loop's original code, never inside
// instrumentation. The handler (irq_vector) is the program's own.
#include "inst_macros.h"

#define IRQ_COUNT 0
#define IRQ_CAUSE 4
#define IRQ_EPC   8

TEST_BEGIN
    csrci   mstatus, MSTATUS_MIE
    LA_ABS  t3, irq_vector
    csrw    mtvec, t3
    li      t3, MIE_MSIE | MIE_MTIE
    csrw    mie, t3
    li      t3, CLINT_MTIMECMPH         // timer: never (hi = all ones)
    li      t4, -1
    sw      t4, 0(t3)

    // ---- software interrupt made pending first, then enabled: taken
    // right after the csrsi that sets MIE (QEMU too: a write to mstatus
    // ends its translation block) ----
    TEST_NUM 1
    li      a1, CLINT_MSIP
    li      a2, 1
    sw      a2, 0(a1)                   // pending, not yet enabled
    csrsi   mstatus, MSTATUS_MIE        // taken before the next one
after1:
    addi    a4, zero, 7
    csrci   mstatus, MSTATUS_MIE
    CHECK   a4, 7
    LA_ABS  a1, irq_rec
    lw      a4, IRQ_COUNT(a1)
    CHECK   a4, 1
    TEST_NUM 2
    lw      a4, IRQ_CAUSE(a1)
    CHECK   a4, IRQ_M_SOFT
    TEST_NUM 3
    lw      a4, IRQ_EPC(a1)
    CHECK_ABS a4, after1

    TEST_NUM 4                          // the next one is compressed, and
    li      s0, CLINT_MSIP              // at the other alignment
    li      a2, 1
    C(c.sw a2, 0(s0))
    csrsi   mstatus, MSTATUS_MIE
after4:
    C(c.nop)
    csrci   mstatus, MSTATUS_MIE
    LA_ABS  a1, irq_rec
    lw      a4, IRQ_COUNT(a1)
    CHECK   a4, 2
    lw      a4, IRQ_EPC(a1)
    CHECK_ABS a4, after4

    // ---- timer interrupt during a loop: mepc inside the loop ----
    TEST_NUM 5
    li      t3, CLINT_MTIME
    lw      t4, 0(t3)
    addi    t4, t4, 50                  // a little later (lo word only: the
    li      t3, CLINT_MTIMECMP          // hi word is all ones until the
    sw      t4, 0(t3)                   // next store, then 0 or mtime's)
    li      t3, CLINT_MTIMEH
    lw      t5, 0(t3)
    li      t3, CLINT_MTIMECMPH
    sw      t5, 0(t3)
    li      s2, 20000000                // give up after that many turns
    csrsi   mstatus, MSTATUS_MIE
loop5:
    LA_ABS  a1, irq_rec
    lw      a4, IRQ_COUNT(a1)
    addi    s2, s2, -1
    beqz    s2, loop5_end
    li      t3, 3
    blt     a4, t3, loop5
loop5_end:
    csrci   mstatus, MSTATUS_MIE
    CHECK   a4, 3
    TEST_NUM 6
    lw      a4, IRQ_CAUSE(a1)
    CHECK   a4, IRQ_M_TIMER
    TEST_NUM 7                          // loop5 <= mepc < loop5_end
    lw      a4, IRQ_EPC(a1)
    LA_ABS  t3, loop5
    bltu    a4, t3, test_fail
    LA_ABS  t3, loop5_end
    bgeu    a4, t3, test_fail
    TEST_END

// Records count, mcause, mepc; silences the source (msip = 0, timer:
// mtimecmp hi = all ones). Uses t5, t6 only.
    .balign 4, 0
irq_vector:
    la      t6, irq_rec
    lw      t5, IRQ_COUNT(t6)
    addi    t5, t5, 1
    sw      t5, IRQ_COUNT(t6)
    csrr    t5, mcause
    sw      t5, IRQ_CAUSE(t6)
    csrr    t5, mepc
    sw      t5, IRQ_EPC(t6)
    li      t6, CLINT_MSIP
    sw      zero, 0(t6)
    li      t6, CLINT_MTIMECMPH
    li      t5, -1
    sw      t5, 0(t6)
    mret

    .data
    .balign 4, 0
irq_rec:
    .word   0, 0, 0
