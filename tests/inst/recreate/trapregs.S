// trapregs.S - a program that owns the trap registers: it writes and
// reads mtvec (direct and vectored) and mscratch itself, keeps values in
// mepc/mcause/mtval/mscratch/mstatus.MPIE across ordinary code, and has a
// handler that swaps sp with mscratch (the usual kernel entry). An
// instrumenter whose trap tactic borrows these registers must give every
// one of them back exactly as the program left it.
#include "inst_macros.h"

// Some ordinary code of every kind an instrumenter rewrites (branches,
// jal, jalr, auipc, loads, stores): a4 = 0 + 1 + ... + 9 = 45.
// Clobbers a0, a1, a4, ra.
.macro BUSY
    li      a4, 0
    li      a0, 0
.Lloop\@:
    add     a4, a4, a0
    addi    a0, a0, 1
    li      a1, 10
    blt     a0, a1, .Lloop\@
    la      a1, scratch_word
    sw      a4, 0(a1)
    lw      a4, 0(a1)
    jal     ra, busy_ret
.endm

TEST_BEGIN
    csrw    mie, zero

    TEST_NUM 1                          // mtvec reads back what was written
    LA_ABS  t3, handler_a
    csrw    mtvec, t3
    BUSY
    csrr    a4, mtvec
    CHECK_ABS a4, handler_a
    TEST_NUM 2                          // ... and sends traps there
    li      s1, 0
    ecall
    CHECK   s1, 0xa

    TEST_NUM 3                          // vectored mode (MODE = 1): read back
    LA_ABS  t3, handler_b + 1
    csrw    mtvec, t3
    BUSY
    csrr    a4, mtvec
    CHECK_ABS a4, handler_b + 1
    TEST_NUM 4                          // exceptions go to BASE in vectored mode
    li      s1, 0
    ecall
    CHECK   s1, 0xb
    TEST_NUM 5                          // back to direct mode, handler a
    LA_ABS  t3, handler_a
    csrw    mtvec, t3
    li      s1, 0
    ecall
    CHECK   s1, 0xa

    TEST_NUM 10                         // mscratch keeps its value
    li      t3, 0xdeadbeef
    csrw    mscratch, t3
    BUSY
    CHECK   a4, 45
    csrr    a4, mscratch
    CHECK   a4, 0xdeadbeef
    TEST_NUM 11                         // csrrw swaps
    li      a1, 0x13572468
    csrrw   a4, mscratch, a1
    CHECK   a4, 0xdeadbeef
    BUSY
    csrr    a4, mscratch
    CHECK   a4, 0x13572468

    TEST_NUM 12                         // mepc, mcause, mtval keep theirs
    li      t3, 0x80001234
    csrw    mepc, t3
    li      t3, CAUSE_ECALL_M
    csrw    mcause, t3
    li      t3, 0x00c0ffee
    csrw    mtval, t3
    BUSY
    csrr    a4, mepc
    CHECK   a4, 0x80001234
    TEST_NUM 13
    csrr    a4, mcause
    CHECK   a4, CAUSE_ECALL_M
    TEST_NUM 14
    csrr    a4, mtval
    CHECK   a4, 0x00c0ffee
    TEST_NUM 15                         // mstatus.MPIE keeps its value
    li      t3, MSTATUS_MPIE            // (MIE stays 0: no interrupt enabled)
    csrs    mstatus, t3
    BUSY
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MPIE | MSTATUS_MIE
    CHECK   a4, MSTATUS_MPIE
    csrc    mstatus, t3
    BUSY
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MPIE | MSTATUS_MIE
    CHECK   a4, 0

    // ---- a handler on its own stack, found through mscratch ----
    TEST_NUM 20
    LA_ABS  t3, handler_stack_top
    csrw    mscratch, t3
    LA_ABS  t3, handler_swap
    csrw    mtvec, t3
    li      s0, 0x5050
    li      s1, 0x5151
    li      a0, 0xa0a0
    mv      s10, sp
e20:ecall                               // handler_swap returns after it
    CHECK_REG sp, s10                   // sp is the program's again
    CHECK   s0, 0x5050
    CHECK   s1, 0x5151
    CHECK   a0, 0xa0a0
    TEST_NUM 21
    csrr    a4, mscratch                // the handler's stack pointer is back
    CHECK_ABS a4, handler_stack_top
    TEST_NUM 22                         // what the handler saw
    LA_ABS  a1, swap_seen
    lw      a4, 0(a1)                   // the program's sp, through mscratch
    CHECK_REG a4, s10
    lw      a4, 4(a1)                   // mepc
    CHECK_ABS a4, e20
    lw      a4, 8(a1)                   // its own sp
    CHECK_ABS a4, handler_stack_top - 16
    TEST_NUM 23                         // twice in a row
    ecall
    ecall
    LA_ABS  a1, swap_seen
    lw      a4, 12(a1)
    CHECK   a4, 3
    csrr    a4, mscratch
    CHECK_ABS a4, handler_stack_top
    LA_ABS  t3, test_trap_entry
    csrw    mtvec, t3
    TEST_END

busy_ret:
    ret

// Trap handlers: set s1, skip the (4-byte) instruction.
    .balign 4, 0
handler_a:
    li      s1, 0xa
    j       handler_skip
    .balign 64, 0                       // vectored BASE must be 64-aligned
handler_b:
    li      s1, 0xb
    j       handler_skip
handler_skip:
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret

// The usual kernel entry: swap sp with mscratch, work on the handler's
// own stack, swap back. Records the program's sp, mepc and its own sp in
// swap_seen, counts calls in swap_seen+12.
    .balign 4, 0
handler_swap:
    csrrw   sp, mscratch, sp
    addi    sp, sp, -16
    sw      s0, 0(sp)
    sw      s1, 4(sp)
    la      s0, swap_seen
    csrr    s1, mscratch                // the program's sp
    sw      s1, 0(s0)
    csrr    s1, mepc
    sw      s1, 4(s0)
    addi    s1, s1, 4
    csrw    mepc, s1
    sw      sp, 8(s0)
    lw      s1, 12(s0)
    addi    s1, s1, 1
    sw      s1, 12(s0)
    lw      s0, 0(sp)
    lw      s1, 4(sp)
    addi    sp, sp, 16
    csrrw   sp, mscratch, sp
    mret

    .data
    .balign 16, 0
scratch_word:
    .word   0
swap_seen:
    .word   0, 0, 0, 0
handler_stack:
    .skip   256
handler_stack_top:
