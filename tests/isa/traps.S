// traps.S - synchronous exceptions in machine mode, trap vector in direct
// mode. On a trap: mepc = address of the trapping instruction, mcause =
// exception code (bit 31 clear), mtval as below, mstatus.MPIE = old MIE,
// MIE = 0, MPP = 3 (M); execution continues at mtvec.BASE. mret sets
// MIE = MPIE, MPIE = 1 and jumps to mepc.
//
// mtval per cause (what both QEMU 7.2 and tally write):
//   ecall (11)                    0
//   ebreak (3)                    0 or the ebreak's address (both allowed;
//                                 QEMU 7.2 writes 0) - either is accepted
//   illegal instruction (2)       the instruction bits (16-bit ones
//                                 zero-extended), QEMU 7.2 included
//   load/store access fault (5/7) the data address
//   fetch access fault (1)        the target address (mepc is the same)
// Instruction-address-misaligned (0) cannot happen on RV32IMAC: with the
// C extension every even address is a valid pc, jal/branch offsets are
// even and jalr clears bit 0 (see jumps.S).
//
// The virt board has no device at 0x0..0xfff nor past the end of RAM
// (0x88000000 with 128 MiB), so accesses there are access faults.
#include "test_macros.h"

TEST_BEGIN
    csrw    mie, zero               // no interrupts in this file

    // ---- environment call and breakpoint ----
    TEST_TRAP 1, CAUSE_ECALL_M, 0, ecall

    TEST_NUM 2                      // a plain ebreak, not the semihosting
    EXPECT_TRAP ebreak_back         // sequence (slli x0,x0,0x1f; ebreak; srai x0,x0,7)
ebreak_at:
    ebreak
    j       test_fail_no_trap
ebreak_back:
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    CHECK_TRAP_EPC ebreak_at
    la      t6, test_trap
    lw      t5, TRAP_TVAL(t6)
    beqz    t5, ebreak_tval_ok
    CHECK_ADDR t5, ebreak_at
ebreak_tval_ok:

    TEST_NUM 3                      // the instruction after the trap is skipped
    li      a4, 0
    EXPECT_TRAP ecall_back
    ecall
    addi    a4, a4, 1
ecall_back:
    CHECK   a4, 0

    // ---- illegal instructions: mtval = the instruction bits ----
    TEST_TRAP  10, CAUSE_ILLEGAL_INSN, 0xfe000033, .word 0xfe000033  // OP, funct7 0x7f
    TEST_TRAP  11, CAUSE_ILLEGAL_INSN, 0x00007003, .word 0x00007003  // LOAD, funct3 7
    TEST_TRAP  12, CAUSE_ILLEGAL_INSN, 0x00053503, .word 0x00053503  // ld a0, 0(a0): RV64 only
    TEST_TRAP  13, CAUSE_ILLEGAL_INSN, 0x0000f00b, .word 0x0000f00b  // custom-0 opcode
    TEST_TRAP  14, CAUSE_ILLEGAL_INSN, 0x00000000, .half 0x0000      // 16-bit all zeros
    .option rvc
    c.nop                           // back to 4-byte alignment after the .half
    .option norvc
    TEST_NUM 16                     // an illegal instruction at a 2 mod 4 address
    .option rvc
    c.nop
    .option norvc
    EXPECT_TRAP ill_back16
ill_at16:
    .word   0xfe000033
    j       test_fail_no_trap
ill_back16:
    CHECK_TRAP_CAUSE CAUSE_ILLEGAL_INSN
    CHECK_TRAP_EPC ill_at16
    CHECK_TRAP_TVAL 0xfe000033
    la      a4, ill_at16
    andi    a4, a4, 3
    CHECK   a4, 2
    .option rvc
    c.nop                           // back to 4-byte alignment
    .option norvc

    // ---- load and store access faults: mtval = address, rd unchanged ----
    li      a4, 0x5a5a5a5a
    li      a1, 0
    TEST_TRAP  20, CAUSE_LOAD_ACCESS, 0x00000000, lw a4, 0(a1)
    TEST_TRAP  21, CAUSE_LOAD_ACCESS, 0x00000001, lb a4, 1(a1)
    TEST_TRAP  22, CAUSE_LOAD_ACCESS, 0x00000102, lhu a4, 0x102(a1)
    li      a1, 0x1000
    TEST_TRAP  23, CAUSE_LOAD_ACCESS, 0x00000ffc, lw a4, -4(a1)  // negative offset
    CHECK   a4, 0x5a5a5a5a
    li      a1, 0x88000000          // the first byte past 128 MiB of RAM
    TEST_TRAP  24, CAUSE_LOAD_ACCESS, 0x88000000, lw a4, 0(a1)
    TEST_TRAP  25, CAUSE_LOAD_ACCESS, 0x88000010, lbu a4, 16(a1)
    CHECK   a4, 0x5a5a5a5a
    li      a1, 0
    li      a2, 0x12345678
    TEST_TRAP  30, CAUSE_STORE_ACCESS, 0x00000000, sw a2, 0(a1)
    TEST_TRAP  31, CAUSE_STORE_ACCESS, 0x00000003, sb a2, 3(a1)
    TEST_TRAP  32, CAUSE_STORE_ACCESS, 0x00000104, sh a2, 0x104(a1)
    li      a1, 0x88000000
    TEST_TRAP  33, CAUSE_STORE_ACCESS, 0x88000000, sw a2, 0(a1)

    // ---- instruction access fault: mepc = mtval = the target ----
    TEST_NUM 40
    li      ra, 0
    li      a1, 0x100
    EXPECT_TRAP fetch_back40
fetch_at40:
    jalr    ra, 0(a1)
    j       test_fail_no_trap
fetch_back40:
    CHECK_TRAP_CAUSE CAUSE_FETCH_ACCESS
    CHECK_TRAP_TVAL 0x100
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK   t5, 0x100
    CHECK_ADDR ra, fetch_at40+4   // the jalr itself completed
    TEST_NUM 41
    li      a1, 0x88000000
    EXPECT_TRAP fetch_back41
    jalr    x0, 0(a1)
    j       test_fail_no_trap
fetch_back41:
    CHECK_TRAP_CAUSE CAUSE_FETCH_ACCESS
    CHECK_TRAP_TVAL 0x88000000
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK   t5, 0x88000000

    // ---- mstatus on trap entry and after mret ----
    TEST_NUM 50                     // MIE = 1 before the trap
    csrsi   mstatus, MSTATUS_MIE
    EXPECT_TRAP mst_back50
    ecall
    j       test_fail_no_trap
mst_back50:
    // the handler saw MIE = 0, MPIE = 1 (old MIE), MPP = 3
    CHECK_TRAP_STATUS MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, MSTATUS_MPIE | MSTATUS_MPP
    csrr    a4, mstatus             // mret restored MIE = 1; MPIE = 1
    andi    a4, a4, MSTATUS_MIE | MSTATUS_MPIE
    CHECK   a4, MSTATUS_MIE | MSTATUS_MPIE
    TEST_NUM 51                     // MIE = 0 before the trap
    csrci   mstatus, MSTATUS_MIE
    EXPECT_TRAP mst_back51
    ecall
    j       test_fail_no_trap
mst_back51:
    CHECK_TRAP_STATUS MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP, MSTATUS_MPP
    csrr    a4, mstatus             // MIE = MPIE = 0; MPIE = 1
    andi    a4, a4, MSTATUS_MIE | MSTATUS_MPIE
    CHECK   a4, MSTATUS_MPIE

    // ---- a vector of our own, direct mode ----
    TEST_NUM 60
    la      a1, own_vector
    csrw    mtvec, a1
    li      a4, 0
    li      a5, 0
own_at:
    ecall                           // own_vector: a4 = mcause, a5 = mepc, skip
    CHECK   a4, CAUSE_ECALL_M
    CHECK_ADDR a5, own_at
    TEST_NUM 61
    li      a4, 0
    ebreak
    CHECK   a4, CAUSE_BREAKPOINT
    TEST_NUM 62
    li      a4, 0
    lw      a2, 0(zero)
    CHECK   a4, CAUSE_LOAD_ACCESS
    la      a1, test_trap_entry
    csrw    mtvec, a1

    // ---- mret to an address written into mepc, at 2 mod 4 ----
    TEST_NUM 70
    li      a1, MSTATUS_MPP
    csrs    mstatus, a1             // return to M-mode
    la      a1, mret_target
    csrw    mepc, a1
    mret
    j       test_fail
    .option rvc
    c.nop
    .option norvc
mret_target:
    la      a1, mret_target
    andi    a1, a1, 3
    CHECK   a1, 2

TEST_END

// Records mcause in a4 and mepc in a5, and returns past the 4-byte
// trapping instruction.
    .balign 4, 0
own_vector:
    csrr    a4, mcause
    csrr    a5, mepc
    addi    t5, a5, 4
    csrw    mepc, t5
    mret
