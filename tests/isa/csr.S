// csr.S - Zicsr instructions and the machine-mode CSRs.
//
//   csrrw  rd, csr, rs1    rd = csr; csr = rs1           (always writes)
//   csrrs  rd, csr, rs1    rd = csr; csr |= rs1          (writes unless rs1 is x0)
//   csrrc  rd, csr, rs1    rd = csr; csr &= ~rs1         (writes unless rs1 is x0)
//   csrrwi/csrrsi/csrrci   the same with a 5-bit zero-extended uimm;
//                          csrrsi/csrrci do not write when uimm = 0
// Whether an instruction *writes* depends on the register number / uimm
// field, not on the value: csrrs with rs1 = a2 holding 0 still writes.
// A write to a read-only CSR (addresses 0xC00-0xFFF) or any access to an
// unknown CSR is an illegal instruction (mcause 2, mtval = the instruction
// bits) and leaves rd unchanged.
//
// Counters: minstret counts retired instructions exactly. A CSR read
// returns the count before the reading instruction retires, so
// "csrr a1, minstret; <n instructions>; csrr a2, minstret" gives
// a2 - a1 = n + 1. An instruction that traps (ecall, ebreak, illegal...)
// does not retire. On QEMU this file runs with -icount shift=0 (QEMU
// counts instructions only in icount mode).
//
// QEMU 7.2 deviations (checks left out with TEST_ON_QEMU):
//   csrrs/csrrc with rs1 != x0 holding 0 on a read-only CSR do not trap;
//   mepc keeps bit 0 (the spec says mepc[0] is always zero);
//   minstret counts ecall/illegal instructions that trapped as retired.
#include "test_macros.h"

TEST_BEGIN
    csrw    mie, zero               // no interrupt may interfere below

    // ---- mscratch: a plain read/write register ----
    TEST_NUM 1
    csrw    mscratch, zero
    csrr    a4, mscratch
    CHECK   a4, 0
    li      a2, 0xffffffff
    csrw    mscratch, a2
    csrr    a4, mscratch
    CHECK   a4, 0xffffffff
    li      a2, 0x12345678
    csrw    mscratch, a2
    csrr    a4, mscratch
    CHECK   a4, 0x12345678

    // ---- csrrw / csrrs / csrrc: old value to rd, then the write ----
    TEST_NUM 2
    li      a2, 0x0f0f0000
    csrrw   a4, mscratch, a2
    CHECK   a4, 0x12345678
    csrr    a4, mscratch
    CHECK   a4, 0x0f0f0000
    TEST_NUM 3
    li      a2, 0x000000ff
    csrrs   a4, mscratch, a2
    CHECK   a4, 0x0f0f0000
    csrr    a4, mscratch
    CHECK   a4, 0x0f0f00ff
    TEST_NUM 4
    li      a2, 0x0f000f0f
    csrrc   a4, mscratch, a2
    CHECK   a4, 0x0f0f00ff
    csrr    a4, mscratch
    CHECK   a4, 0x000f00f0
    TEST_NUM 5                      // rd == rs1: swap
    li      a1, 0xcafef00d
    csrrw   a1, mscratch, a1
    CHECK   a1, 0x000f00f0
    csrr    a4, mscratch
    CHECK   a4, 0xcafef00d
    TEST_NUM 6                      // rs1 = x0: csrrs/csrrc only read
    csrrs   a4, mscratch, x0
    CHECK   a4, 0xcafef00d
    csrrc   a4, mscratch, x0
    CHECK   a4, 0xcafef00d
    csrr    a4, mscratch
    CHECK   a4, 0xcafef00d
    TEST_NUM 7                      // csrrs/csrrc with a zero-valued register
    li      a2, 0
    csrrs   a4, mscratch, a2
    csrrc   a4, mscratch, a2
    CHECK   a4, 0xcafef00d
    csrr    a4, mscratch
    CHECK   a4, 0xcafef00d

    // ---- immediate forms (uimm 0..31, zero-extended) ----
    TEST_NUM 10
    csrrwi  a4, mscratch, 31
    CHECK   a4, 0xcafef00d
    csrr    a4, mscratch
    CHECK   a4, 31
    TEST_NUM 11
    csrrwi  a4, mscratch, 0
    CHECK   a4, 31
    csrrsi  a4, mscratch, 0x15
    CHECK   a4, 0
    csrrsi  a4, mscratch, 0x0a
    CHECK   a4, 0x15
    csrr    a4, mscratch
    CHECK   a4, 0x1f
    TEST_NUM 12
    csrrci  a4, mscratch, 0x11
    CHECK   a4, 0x1f
    csrr    a4, mscratch
    CHECK   a4, 0x0e
    csrrci  a4, mscratch, 31
    csrr    a4, mscratch
    CHECK   a4, 0
    TEST_NUM 13                     // uimm is zero-extended: 31 is not -1
    li      a2, 0xffffff00
    csrw    mscratch, a2
    csrrsi  a4, mscratch, 31
    csrr    a4, mscratch
    CHECK   a4, 0xffffff1f
    TEST_NUM 14                     // uimm = 0: no write
    csrrsi  a4, mscratch, 0
    csrrci  a4, mscratch, 0
    CHECK   a4, 0xffffff1f
    csrr    a4, mscratch
    CHECK   a4, 0xffffff1f

    // ---- read-only identification CSRs ----
    TEST_NUM 20
    li      a4, -1
    csrr    a4, mhartid
    CHECK   a4, 0
    TEST_NUM 21                     // misa: MXL = 1 (RV32), and I, M, A, C
    csrr    a4, misa
    srli    a5, a4, 30
    CHECK   a5, 1
    li      a5, 0x1105              // A = bit 0, C = 2, I = 8, M = 12
    and     a4, a4, a5
    CHECK   a4, 0x1105
    TEST_NUM 22                     // reads never trap (the values are free)
    csrr    a4, mvendorid
    csrr    a4, marchid
    csrr    a4, mimpid
    csrrs   a4, mhartid, x0
    csrrc   a4, mhartid, x0
    csrrsi  a4, mhartid, 0
    csrrci  a4, mhartid, 0
    CHECK   a4, 0

    // ---- writes to read-only CSRs are illegal; rd unchanged ----
    li      a4, 0x5a5a5a5a
    li      a2, 1
    TEST_TRAP 30, CAUSE_ILLEGAL_INSN, 0xf1401073, csrrw x0, mhartid, x0
    TEST_TRAP 31, CAUSE_ILLEGAL_INSN, 0xf1405773, csrrwi a4, mhartid, 0
    TEST_TRAP 32, CAUSE_ILLEGAL_INSN, 0xf1462773, csrrs a4, mhartid, a2
    TEST_TRAP 33, CAUSE_ILLEGAL_INSN, 0xf130e773, csrrsi a4, mimpid, 1
    TEST_TRAP 34, CAUSE_ILLEGAL_INSN, 0xf140f773, csrrci a4, mhartid, 1
    TEST_TRAP 35, CAUSE_ILLEGAL_INSN, 0xf1161773, csrrw a4, mvendorid, a2
    CHECK   a4, 0x5a5a5a5a
#ifndef TEST_ON_QEMU
    li      a2, 0                   // rs1 is not x0: a write, even of 0
    TEST_TRAP 36, CAUSE_ILLEGAL_INSN, 0xf1162773, csrrs a4, mvendorid, a2
    TEST_TRAP 37, CAUSE_ILLEGAL_INSN, 0xf1263773, csrrc a4, marchid, a2
    CHECK   a4, 0x5a5a5a5a
#endif

    // ---- unknown CSRs are illegal ----
    TEST_TRAP 40, CAUSE_ILLEGAL_INSN, 0x7c002773, csrr a4, 0x7c0
    TEST_TRAP 41, CAUSE_ILLEGAL_INSN, 0x7c061073, csrw 0x7c0, a2
    TEST_TRAP 42, CAUSE_ILLEGAL_INSN, 0xfff02773, csrr a4, 0xfff
    TEST_TRAP 43, CAUSE_ILLEGAL_INSN, 0x3ff0e773, csrrsi a4, 0x3ff, 1
    CHECK   a4, 0x5a5a5a5a

    // ---- mstatus fields ----
    TEST_NUM 50                     // MIE (bit 3)
    csrci   mstatus, MSTATUS_MIE
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MIE
    CHECK   a4, 0
    csrsi   mstatus, MSTATUS_MIE
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MIE
    CHECK   a4, MSTATUS_MIE
    csrci   mstatus, MSTATUS_MIE
    TEST_NUM 51                     // MPIE (bit 7)
    li      a2, MSTATUS_MPIE
    csrs    mstatus, a2
    csrr    a4, mstatus
    and     a4, a4, a2
    CHECK   a4, MSTATUS_MPIE
    csrc    mstatus, a2
    csrr    a4, mstatus
    and     a4, a4, a2
    CHECK   a4, 0
    TEST_NUM 52                     // MPP (bits 12:11) holds M = 3
    li      a2, MSTATUS_MPP
    csrs    mstatus, a2
    csrr    a4, mstatus
    and     a4, a4, a2
    CHECK   a4, MSTATUS_MPP

    // ---- mret: MIE = MPIE, MPIE = 1, pc = mepc ----
    TEST_NUM 53
    csrci   mstatus, MSTATUS_MIE
    li      a2, MSTATUS_MPIE | MSTATUS_MPP   // MPIE = 1, return to M
    csrs    mstatus, a2
    la      a2, mret_to_1
    csrw    mepc, a2
    mret
    j       test_fail
mret_to_1:
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MIE | MSTATUS_MPIE
    CHECK   a4, MSTATUS_MIE | MSTATUS_MPIE
    TEST_NUM 54                     // MPIE = 0: mret clears MIE, sets MPIE
    li      a2, MSTATUS_MPIE
    csrc    mstatus, a2
    li      a2, MSTATUS_MPP
    csrs    mstatus, a2
    la      a2, mret_to_2
    csrw    mepc, a2
    mret
    j       test_fail
mret_to_2:
    csrr    a4, mstatus
    andi    a4, a4, MSTATUS_MIE | MSTATUS_MPIE
    CHECK   a4, MSTATUS_MPIE
    csrr    a4, mscratch            // still in M-mode: M CSRs accessible

    // ---- trap CSRs hold what is written ----
    TEST_NUM 60                     // mtvec, direct mode (4-byte aligned base)
    csrr    s0, mtvec
    la      a2, csr_spare_vector
    csrw    mtvec, a2
    csrr    a4, mtvec
    CHECK_ADDR a4, csr_spare_vector
    csrw    mtvec, s0
    csrr    a4, mtvec
    CHECK_ADDR a4, test_trap_entry
    TEST_NUM 61                     // mepc
    li      a2, 0x80001234
    csrw    mepc, a2
    csrr    a4, mepc
    CHECK   a4, 0x80001234
    li      a2, 0x80001236          // 2-byte aligned is valid with C
    csrw    mepc, a2
    csrr    a4, mepc
    CHECK   a4, 0x80001236
#ifndef TEST_ON_QEMU
    TEST_NUM 62                     // mepc[0] is always zero
    li      a2, 0x80001237
    csrw    mepc, a2
    csrr    a4, mepc
    CHECK   a4, 0x80001236
#endif
    TEST_NUM 63                     // mtval
    li      a2, 0x12345678
    csrw    mtval, a2
    csrr    a4, mtval
    CHECK   a4, 0x12345678
    TEST_NUM 64                     // mcause (a legal exception code)
    li      a2, CAUSE_ECALL_M
    csrw    mcause, a2
    csrr    a4, mcause
    CHECK   a4, CAUSE_ECALL_M

    // ---- counters ----
    TEST_NUM 70                     // mcycle moves forward
    csrr    a1, mcycle
    li      t3, 20
1:  addi    t3, t3, -1
    bnez    t3, 1b
    csrr    a2, mcycle
    bgeu    a1, a2, test_fail
    TEST_NUM 71                     // so does the cycle alias
    csrr    a1, cycle
    nop
    csrr    a2, cycle
    bgeu    a1, a2, test_fail
    csrr    a4, mcycleh             // readable
    csrr    a4, minstreth
    csrr    a4, cycleh
    csrr    a4, instreth
    TEST_NUM 72                     // minstret: 5 nops + the first csrr
    csrr    a1, minstret
    nop
    nop
    nop
    nop
    nop
    csrr    a2, minstret
    sub     a4, a2, a1
    CHECK   a4, 6
    TEST_NUM 73                     // li + 10 x (addi, bnez) + csrr = 22
    csrr    a1, minstret
    li      t3, 10
2:  addi    t3, t3, -1
    bnez    t3, 2b
    csrr    a2, minstret
    sub     a4, a2, a1
    CHECK   a4, 22
    TEST_NUM 74                     // instret is minstret: one csrr apart
    csrr    a1, minstret
    csrr    a2, instret
    sub     a4, a2, a1
    CHECK   a4, 1
    TEST_NUM 75                     // back-to-back reads differ by exactly 1
    csrr    a1, minstret
    csrr    a2, minstret
    sub     a4, a2, a1
    CHECK   a4, 1
    TEST_NUM 76                     // cycles >= instructions over a sequence
    csrr    a1, minstret
    csrr    a3, mcycle
    li      t3, 10
3:  addi    t3, t3, -1
    bnez    t3, 3b
    csrr    a2, minstret
    csrr    a5, mcycle
    sub     a4, a2, a1              // 23 instructions
    sub     a5, a5, a3
    bltu    a5, a4, test_fail
#ifndef TEST_ON_QEMU
    // a trapping instruction does not retire: csrr + handler (4) = 5
    TEST_NUM 77
    la      a2, csr_count_vector
    csrw    mtvec, a2
    csrr    a1, minstret
    ecall
    csrr    a2, minstret
    sub     a4, a2, a1
    CHECK   a4, 5
    TEST_NUM 78
    csrr    a1, minstret
    .word   0xfe000033              // illegal
    csrr    a2, minstret
    sub     a4, a2, a1
    CHECK   a4, 5
    TEST_NUM 79                     // a load that faults does not retire either
    csrr    a1, minstret
    lw      a4, 0(zero)
    csrr    a2, minstret
    sub     a4, a2, a1
    CHECK   a4, 5
    la      a2, test_trap_entry
    csrw    mtvec, a2
#endif

TEST_END

// A trap vector that skips the 4-byte trapping instruction: 4 instructions.
    .balign 4, 0
csr_count_vector:
    csrr    t3, mepc
    addi    t3, t3, 4
    csrw    mepc, t3
    mret

    .balign 4, 0
csr_spare_vector:
    j       test_fail
