// faults.S - instructions that trap, under the program's own trap handler
// (test_macros.h's, installed by the program in mtvec): an instrumenter
// that displaces them must still show the handler the ORIGINAL mepc, the
// right mcause and mtval, and the program's registers as the instruction
// left them. Covers ecall, ebreak and c.ebreak (the instrumenter's own
// trap instructions, here belonging to the program), illegal 32- and
// 16-bit instructions, misaligned and faulting loads and stores (32-bit
// and compressed), fetch faults after jalr / c.jalr (whose link must be
// the original next pc), and a second handler that resumes at mepc + 4.
#include "inst_macros.h"

// Test \n: \insn traps with \cause; mepc must be the instruction's
// original address (pc-free check), mtval \tval (`-`: checked after).
.macro FAULT n, cause, tval, insn:vararg
    TEST_NUM \n
    EXPECT_TRAP .Lres\@
.Lat\@:
    \insn
    j       test_fail_no_trap
.Lres\@:
    CHECK_TRAP_CAUSE \cause
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK_ABS t5, .Lat\@
    .ifnc \tval, -
    CHECK_TRAP_TVAL \tval
    .endif
.endm

// As FAULT, for a 16-bit instruction.
.macro CFAULT n, cause, tval, insn:vararg
    TEST_NUM \n
    EXPECT_TRAP .Lres\@
.Lat\@:
    .option rvc
    \insn
    .option norvc
    j       test_fail_no_trap
.Lres\@:
    CHECK_TRAP_CAUSE \cause
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK_ABS t5, .Lat\@
    CHECK_TRAP_TVAL \tval
.endm

// The last trap's mtval must be 0 or the address \label (ebreak: both
// are allowed; QEMU 7.2 writes 0).
.macro CHECK_TVAL_0_OR label
    la      t6, test_trap
    lw      t5, TRAP_TVAL(t6)
    beqz    t5, .Lok\@
    CHECK_ABS t5, \label
.Lok\@:
.endm

TEST_BEGIN
    csrw    mie, zero

    // ---- environment call, breakpoints ----
    FAULT   1, CAUSE_ECALL_M, 0, ecall
    TEST_NUM 2
    EXPECT_TRAP 2f
e2: ebreak
    j       test_fail_no_trap
2:  CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK_ABS t5, e2
    CHECK_TVAL_0_OR e2
    TEST_NUM 3                          // c.ebreak: the 16-bit breakpoint
    EXPECT_TRAP 3f
e3: C(c.ebreak)
    C(c.nop)
    j       test_fail_no_trap
3:  CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK_ABS t5, e3
    CHECK_TVAL_0_OR e3
    TEST_NUM 4                          // c.ebreak at the other alignment
    C(c.nop)
    EXPECT_TRAP 4f
e4: C(c.ebreak)
    j       test_fail_no_trap
4:  C(c.nop)
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK_ABS t5, e4

    // ---- illegal instructions: mtval = the instruction's bits ----
    FAULT   10, CAUSE_ILLEGAL_INSN, 0xfe000033, .insn 4, 0xfe000033
    FAULT   11, CAUSE_ILLEGAL_INSN, 0x0000f00b, .insn 4, 0x0000f00b
    CFAULT  12, CAUSE_ILLEGAL_INSN, 0x00000000, .insn 2, 0x0000
    C(c.nop)

    // ---- data accesses ----
    li      a4, 0x5a5a5a5a
    li      a1, 0
    FAULT   20, CAUSE_LOAD_ACCESS, 0x00000000, lw a4, 0(a1)
    FAULT   21, CAUSE_LOAD_ACCESS, 0x00000102, lhu a4, 0x102(a1)
    CHECK   a4, 0x5a5a5a5a              // rd unchanged by a faulting load
    li      a2, 0x12345678              // (nothing past the end of RAM:
    li      a1, 0x400                   // instrumented programs get more)
    FAULT   22, CAUSE_STORE_ACCESS, 0x00000400, sw a2, 0(a1)
    FAULT   23, CAUSE_STORE_ACCESS, 0x00000410, sb a2, 16(a1)
    li      s0, 0
    CFAULT  24, CAUSE_LOAD_ACCESS, 0x00000004, c.lw a4, 4(s0)
    CFAULT  25, CAUSE_STORE_ACCESS, 0x00000008, c.sw a2, 8(s0)
    CHECK   a4, 0x5a5a5a5a
    LA_ABS  a1, word + 2
    FAULT   26, CAUSE_LOAD_MISALIGNED, -, lr.w a4, (a1)
    LA_ABS  t3, word + 2                // mtval: the misaligned address
    la      t6, test_trap
    lw      t5, TRAP_TVAL(t6)
    CHECK_REG t5, t3
    CHECK   a4, 0x5a5a5a5a

    // ---- fetch faults after a jump: mepc = mtval = the target, and the
    // link is the original next pc ----
    TEST_NUM 30
    li      a1, 0x100
    li      ra, 0
    EXPECT_TRAP 30f
j30:jalr    ra, 0(a1)
    j       test_fail_no_trap
30: CHECK_TRAP_CAUSE CAUSE_FETCH_ACCESS
    CHECK_TRAP_TVAL 0x100
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK   t5, 0x100
    CHECK_ABS ra, j30 + 4
    TEST_NUM 31
    li      s1, 0x300
    EXPECT_TRAP 31f
j31:C(c.jalr s1)
    C(c.nop)
    j       test_fail_no_trap
31: CHECK_TRAP_CAUSE CAUSE_FETCH_ACCESS
    CHECK_TRAP_TVAL 0x300
    CHECK_ABS ra, j31 + 2
    TEST_NUM 32                         // rd == rs1: the link replaces the
    li      a1, 0x200                   // base, the target is the old base
    EXPECT_TRAP 32f
j32:jalr    a1, 0(a1)
    j       test_fail_no_trap
32: CHECK_TRAP_TVAL 0x200
    CHECK_ABS a1, j32 + 4

    // ---- a handler that resumes at mepc + 4 itself ----
    TEST_NUM 40
    LA_ABS  t3, skip_handler
    csrw    mtvec, t3
    li      a4, 0
    li      s1, 0
    ecall                               // skip_handler: s1 += 1, mepc += 4
    addi    a4, a4, 1                   // runs after the ecall
    illegal_40: .insn 4, 0xfe000033     // skipped the same way
    addi    a4, a4, 2
    LA_ABS  t3, test_trap_entry
    csrw    mtvec, t3
    CHECK   a4, 3
    CHECK   s1, 2
    CHECK_ABS s2, illegal_40            // the last mepc skip_handler saw
    TEST_END

// Counts traps in s1, keeps the last mepc in s2, resumes after the
// instruction (4 bytes: only used on 32-bit ones).
    .balign 4, 0
skip_handler:
    addi    s1, s1, 1
    csrr    s2, mepc
    addi    t6, s2, 4
    csrw    mepc, t6
    mret

    .data
    .balign 4, 0
word:
    .word   0x11223344, 0x55667788
