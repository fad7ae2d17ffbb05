/*
 * test_macros.h - start-up code and check macros for tally's ISA tests.
 *
 * Every test program is one .S file:
 *
 *     #include "test_macros.h"
 *     TEST_BEGIN
 *         TEST_RR  2, add, 3, 1, 2          // test 2: add 1 + 2 == 3
 *         ...
 *     TEST_END
 *     .data                                 // optional test data
 *
 * The macros are GNU as macros, invoked without parentheses, arguments
 * separated by commas (TEST_TRAP and TEST_TRAP_* take the instruction, with
 * its own commas, as the last argument). The file goes through the C
 * preprocessor first, so use // or slash-star comments, never '#' comments,
 * in test sources; the constants below are C macros.
 *
 * Result of a run (the exit status of `tally run` and of QEMU):
 *   0        every check passed (SiFive test finisher, 0x5555)
 *   N        check number N failed ((N << 16) | 0x3333 to the finisher);
 *            a line "FAIL: test N: ..." is printed on the UART first.
 * Test numbers are 1..255 so that they survive as a process exit status
 * (TEST_NUM refuses others at assembly time).
 *
 * Registers the macros use (do not keep values in them across a macro):
 *   gp (x3)        current test number
 *   sp (x2)        a 4 KiB stack (__stack_top from link.ld)
 *   a1, a2 (x11, x12)  operands of TEST_RR / TEST_RI / loads and stores
 *   a4 (x14)       result register of those macros
 *   t1, t2 (x6, x7)    actual / expected value inside CHECK
 *   t5, t6 (x30, x31)  clobbered by the trap handler and the trap macros
 *   t0 (x5)        TEST_END; s9..s11 and a0..a4 only on the failure path
 *
 * Traps: _start points mtvec (direct mode) at test_trap_entry. A trap that
 * no test armed is a failure ("unexpected trap", with mcause/mepc/mtval).
 * EXPECT_TRAP <label> arms the handler once: on the next trap it records
 * mcause/mepc/mtval/mstatus in test_trap, counts the trap, and returns
 * (mret) to <label>. TEST_TRAP wraps the common case of one trapping
 * instruction.
 * Programs that need their own handler (interrupts) write mtvec themselves.
 *
 * Layout: TEST_BEGIN selects `.option norvc` (32-bit encodings only) and
 * `.option norelax` (the linker never changes a distance). Code stays
 * 4-byte aligned unless a test adds 16-bit instructions; a test that needs
 * a given alignment checks it at run time. Note that GNU as silently skips
 * a bare `.balign 4` in norvc code at a 2 mod 4 offset: write
 * `.balign 4, 0` (and never fall through into the padding).
 *
 * QEMU deviations: a check QEMU 7.2 gets wrong is wrapped in
 * `#ifndef TEST_ON_QEMU` ... `#endif`; the build then also makes a
 * <name>.qemu.elf with -DTEST_ON_QEMU for the QEMU run (CMakeLists.txt).
 */
#ifndef TALLY_ISA_TEST_MACROS_H
#define TALLY_ISA_TEST_MACROS_H

/* ---- the board (QEMU virt memory map) ---- */
#define UART_BASE        0x10000000
#define UART_THR         0
#define UART_LSR         5
#define UART_LSR_THRE    0x20
#define UART_LSR_TEMT    0x40
#define FINISHER_BASE    0x00100000
#define FINISHER_PASS    0x5555
#define FINISHER_FAIL    0x3333
#define CLINT_BASE       0x02000000
#define CLINT_MSIP       (CLINT_BASE + 0x0000)
#define CLINT_MTIMECMP   (CLINT_BASE + 0x4000)
#define CLINT_MTIMECMPH  (CLINT_BASE + 0x4004)
#define CLINT_MTIME      (CLINT_BASE + 0xBFF8)
#define CLINT_MTIMEH     (CLINT_BASE + 0xBFFC)

/* ---- machine-mode CSR fields ---- */
#define MSTATUS_MIE      0x00000008
#define MSTATUS_MPIE     0x00000080
#define MSTATUS_MPP      0x00001800
#define MIE_MSIE         0x00000008
#define MIE_MTIE         0x00000080
#define MIP_MSIP         0x00000008
#define MIP_MTIP         0x00000080
#define MCAUSE_INTERRUPT 0x80000000

/* ---- mcause exception codes ---- */
#define CAUSE_FETCH_MISALIGNED   0
#define CAUSE_FETCH_ACCESS       1
#define CAUSE_ILLEGAL_INSN       2
#define CAUSE_BREAKPOINT         3
#define CAUSE_LOAD_MISALIGNED    4
#define CAUSE_LOAD_ACCESS        5
#define CAUSE_STORE_MISALIGNED   6
#define CAUSE_STORE_ACCESS       7
#define CAUSE_ECALL_M            11
#define IRQ_M_SOFT               (MCAUSE_INTERRUPT | 3)
#define IRQ_M_TIMER              (MCAUSE_INTERRUPT | 7)

/* ---- layout of the trap record test_trap (words) ---- */
#define TRAP_RESUME      0     /* where the next trap returns to; 0 = none armed */
#define TRAP_CAUSE       4     /* mcause of the last expected trap */
#define TRAP_EPC         8     /* mepc of the last expected trap */
#define TRAP_TVAL        12    /* mtval of the last expected trap */
#define TRAP_COUNT       16    /* number of expected traps taken so far */
#define TRAP_STATUS      20    /* mstatus as the handler found it */

/* ======================================================================
 * Start-up, result reporting and the default trap handler.
 * ====================================================================== */

/* Print the character in register \reg on the UART (polls LSR.THRE).
 * Clobbers t0. */
.macro UART_PUTC reg
    li      t0, UART_BASE
.Lwait\@:
    lbu     t0, UART_LSR(t0)
    andi    t0, t0, UART_LSR_THRE
    beqz    t0, .Lwait\@
    li      t0, UART_BASE
    sb      \reg, UART_THR(t0)
.endm

.macro TEST_BEGIN
    .option norvc           /* base encodings unless a test says otherwise */
    .option norelax         /* keep every distance exactly as written */
    .section .text.init, "ax", @progbits
    .globl  _start
_start:
    la      sp, __stack_top
    la      t0, test_trap_entry
    csrw    mtvec, t0
    li      gp, 0
    j       test_main

/* ---- default trap handler (mtvec, direct mode) ---- */
    .balign 4, 0
test_trap_entry:
    la      t6, test_trap
    lw      t5, TRAP_RESUME(t6)
    beqz    t5, test_unexpected_trap
    csrr    t5, mepc
    sw      t5, TRAP_EPC(t6)
    csrr    t5, mcause
    sw      t5, TRAP_CAUSE(t6)
    csrr    t5, mtval
    sw      t5, TRAP_TVAL(t6)
    csrr    t5, mstatus
    sw      t5, TRAP_STATUS(t6)
    lw      t5, TRAP_COUNT(t6)
    addi    t5, t5, 1
    sw      t5, TRAP_COUNT(t6)
    lw      t5, TRAP_RESUME(t6)
    sw      zero, TRAP_RESUME(t6)       /* armed for one trap only */
    csrw    mepc, t5
    mret

/* ---- failures: print a line, then exit with the test number ---- */
test_unexpected_trap:
    jal     test_fail_head
    la      a0, test_str_trap
    jal     test_puts
    csrr    a0, mcause
    jal     test_puthex
    la      a0, test_str_mepc
    jal     test_puts
    csrr    a0, mepc
    jal     test_puthex
    la      a0, test_str_mtval
    jal     test_puts
    csrr    a0, mtval
    jal     test_puthex
    j       test_fail_end

/* CHECK jumps here with the actual value in t1 and the expected in t2. */
test_fail_value:
    mv      s10, t1
    mv      s11, t2
    jal     test_fail_head
    la      a0, test_str_got
    jal     test_puts
    mv      a0, s10
    jal     test_puthex
    la      a0, test_str_expected
    jal     test_puts
    mv      a0, s11
    jal     test_puthex
    j       test_fail_end

/* An instruction that should have trapped did not. */
test_fail_no_trap:
    jal     test_fail_head
    la      a0, test_str_no_trap
    jal     test_puts
    j       test_fail_end

/* Any other failure. */
test_fail:
    jal     test_fail_head
    j       test_fail_end

test_fail_head:
    mv      s9, ra
    la      a0, test_str_fail
    jal     test_puts
    mv      a0, gp
    jal     test_putdec
    mv      ra, s9
    ret

test_fail_end:
    li      a0, 10                      /* newline */
    UART_PUTC a0
    mv      a0, gp                      /* exit status = test number ... */
    li      t0, 255
    bleu    a0, t0, 1f
    mv      a0, t0                      /* ... clamped to 1..255 */
1:  bnez    a0, test_exit
    li      a0, 255
    j       test_exit

test_pass:
    li      a0, 0
    /* fall through */

/* Exit with status a0 through the SiFive test finisher, after the UART
 * has sent everything (LSR.TEMT). */
test_exit:
    li      t0, UART_BASE
1:  lbu     t1, UART_LSR(t0)
    andi    t1, t1, UART_LSR_TEMT
    beqz    t1, 1b
    li      t0, FINISHER_BASE
    li      t1, FINISHER_PASS
    beqz    a0, 2f
    slli    t1, a0, 16
    li      t2, FINISHER_FAIL
    or      t1, t1, t2
2:  sw      t1, 0(t0)
3:  j       3b

/* Print the NUL-terminated string at a0. Clobbers a0, a1, t0. */
test_puts:
1:  lbu     a1, 0(a0)
    beqz    a1, 2f
    UART_PUTC a1
    addi    a0, a0, 1
    j       1b
2:  ret

/* Print a0 as 0x followed by 8 hex digits. Clobbers a0..a3, t0. */
test_puthex:
    mv      a2, a0
    li      a1, 48                      /* '0' */
    UART_PUTC a1
    li      a1, 120                     /* 'x' */
    UART_PUTC a1
    li      a3, 28
1:  srl     a1, a2, a3
    andi    a1, a1, 15
    addi    a1, a1, 48                  /* '0' */
    li      t0, 57                      /* '9' */
    bleu    a1, t0, 2f
    addi    a1, a1, 39                  /* 'a' - '0' - 10 */
2:  UART_PUTC a1
    addi    a3, a3, -4
    bgez    a3, 1b
    ret

/* Print a0 (< 100000) in decimal, without leading zeros, by repeated
 * subtraction (no M extension needed). Clobbers a0..a4, t0. */
test_putdec:
    mv      a2, a0
    la      a3, test_pow10
    li      a4, 0                       /* a digit has been printed */
1:  lw      a0, 0(a3)
    beqz    a0, 4f
    li      a1, 48                      /* '0' */
2:  bltu    a2, a0, 3f
    sub     a2, a2, a0
    addi    a1, a1, 1
    j       2b
3:  addi    a3, a3, 4
    lw      t0, 0(a3)
    seqz    t0, t0
    or      a4, a4, t0                  /* always print the last digit */
    addi    t0, a1, -48
    or      a4, a4, t0
    beqz    a4, 1b
    UART_PUTC a1
    li      a4, 1
    j       1b
4:  ret

    .section .rodata
    .balign 4, 0
test_pow10:         .word 10000, 1000, 100, 10, 1, 0
test_str_fail:      .string "FAIL: test "
test_str_got:       .string ": got "
test_str_expected:  .string " expected "
test_str_no_trap:   .string ": no trap where one was expected"
test_str_trap:      .string ": unexpected trap: mcause="
test_str_mepc:      .string " mepc="
test_str_mtval:     .string " mtval="

    .data
    .balign 4, 0
    .globl test_trap
test_trap:          .word 0, 0, 0, 0, 0, 0
    .text
    .balign 4, 0
test_main:
.endm

/* End of the test program: every check passed. (An indirect jump, so
 * that it reaches test_pass from anywhere.) */
.macro TEST_END
    la      t0, test_pass
    jr      t0
.endm

/* ======================================================================
 * Checks. A check compares a register with an expected value and jumps to
 * the failure path (exit status = current test number) when they differ.
 * ====================================================================== */

/* Start test number \n (1..255). */
.macro TEST_NUM n
    .if (\n < 1) || (\n > 255)
    .error "ISA test numbers must be 1..255 (they become the exit status)"
    .endif
    li      gp, \n
.endm

/* Fail unless register \reg (not t1/t2) holds the constant \exp. */
.macro CHECK reg, exp
    li      t2, \exp
    beq     \reg, t2, .Lok\@
    mv      t1, \reg
    j       test_fail_value
.Lok\@:
.endm

/* Fail unless register \reg (not t1/t2) holds the address of \label. */
.macro CHECK_ADDR reg, label
    la      t2, \label
    beq     \reg, t2, .Lok\@
    mv      t1, \reg
    j       test_fail_value
.Lok\@:
.endm

/* Fail unless the word at \label equals \exp. Clobbers t5 (and t1, t2). */
.macro CHECK_MEM label, exp
    la      t5, \label
    lw      t5, 0(t5)
    CHECK   t5, \exp
.endm

/* Unconditional failure of the current test. */
.macro FAIL
    j       test_fail
.endm

/* ---- register-register and register-immediate operations ---- */

/* rd = a4, rs1 = a1 = \a, rs2 = a2 = \b */
.macro TEST_RR n, insn, exp, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    \insn   a4, a1, a2
    CHECK   a4, \exp
.endm

/* rd == rs1 */
.macro TEST_RR_SRC1_EQ_DEST n, insn, exp, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    \insn   a1, a1, a2
    CHECK   a1, \exp
.endm

/* rd == rs2 */
.macro TEST_RR_SRC2_EQ_DEST n, insn, exp, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    \insn   a2, a1, a2
    CHECK   a2, \exp
.endm

/* rd == rs1 == rs2 */
.macro TEST_RR_SRC12_EQ_DEST n, insn, exp, a
    TEST_NUM \n
    li      a1, \a
    \insn   a1, a1, a1
    CHECK   a1, \exp
.endm

/* rs1 = x0 */
.macro TEST_RR_ZERO_SRC1 n, insn, exp, b
    TEST_NUM \n
    li      a2, \b
    \insn   a4, x0, a2
    CHECK   a4, \exp
.endm

/* rs2 = x0 */
.macro TEST_RR_ZERO_SRC2 n, insn, exp, a
    TEST_NUM \n
    li      a1, \a
    \insn   a4, a1, x0
    CHECK   a4, \exp
.endm

/* rd = a4, rs1 = a1 = \a, immediate \imm */
.macro TEST_RI n, insn, exp, a, imm
    TEST_NUM \n
    li      a1, \a
    \insn   a4, a1, \imm
    CHECK   a4, \exp
.endm

/* rd == rs1 */
.macro TEST_RI_SRC_EQ_DEST n, insn, exp, a, imm
    TEST_NUM \n
    li      a1, \a
    \insn   a1, a1, \imm
    CHECK   a1, \exp
.endm

/* rs1 = x0 */
.macro TEST_RI_ZERO_SRC n, insn, exp, imm
    TEST_NUM \n
    \insn   a4, x0, \imm
    CHECK   a4, \exp
.endm

/* ---- loads and stores ---- */

/* a4 = load \off(\base); a1 holds the address of \base. */
.macro TEST_LD n, insn, exp, off, base
    TEST_NUM \n
    la      a1, \base
    \insn   a4, \off(a1)
    CHECK   a4, \exp
.endm

/* store \val at \off(\base) with \st, read it back with \ld, expect \exp */
.macro TEST_ST n, st, ld, exp, val, off, base
    TEST_NUM \n
    la      a1, \base
    li      a2, \val
    \st     a2, \off(a1)
    \ld     a4, \off(a1)
    CHECK   a4, \exp
.endm

/* ---- branches ---- */

/* \insn a1, a2, target must branch */
.macro TEST_BR_TAKEN n, insn, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    \insn   a1, a2, .Ltaken\@
    j       test_fail
.Ltaken\@:
.endm

/* \insn a1, a2, target must fall through */
.macro TEST_BR_NOT_TAKEN n, insn, a, b
    TEST_NUM \n
    li      a1, \a
    li      a2, \b
    \insn   a1, a2, .Lfail\@
    j       .Lok\@
.Lfail\@:
    j       test_fail
.Lok\@:
.endm

/* ---- traps ---- */

/* Arm the default handler: the next trap records mcause/mepc/mtval in
 * test_trap and resumes at \resume. Clobbers t5, t6. */
.macro EXPECT_TRAP resume
    la      t6, test_trap
    la      t5, \resume
    sw      t5, TRAP_RESUME(t6)
.endm

/* Checks of the last expected trap (clobber t5, t6). */
.macro CHECK_TRAP_CAUSE cause
    la      t6, test_trap
    lw      t5, TRAP_CAUSE(t6)
    CHECK   t5, \cause
.endm
.macro CHECK_TRAP_EPC label
    la      t6, test_trap
    lw      t5, TRAP_EPC(t6)
    CHECK_ADDR t5, \label
.endm
.macro CHECK_TRAP_TVAL tval
    la      t6, test_trap
    lw      t5, TRAP_TVAL(t6)
    CHECK   t5, \tval
.endm
.macro CHECK_TRAP_TVAL_ADDR label
    la      t6, test_trap
    lw      t5, TRAP_TVAL(t6)
    CHECK_ADDR t5, \label
.endm
/* mstatus seen by the handler, masked with \mask, must equal \exp */
.macro CHECK_TRAP_STATUS mask, exp
    la      t6, test_trap
    lw      t5, TRAP_STATUS(t6)
    li      t6, \mask
    and     t5, t5, t6
    CHECK   t5, \exp
.endm
.macro CHECK_TRAP_COUNT count
    la      t6, test_trap
    lw      t5, TRAP_COUNT(t6)
    CHECK   t5, \count
.endm

/* Test \n: the single instruction \insn traps with mcause \cause and
 * mtval \tval; mepc is the instruction's address. */
.macro TEST_TRAP n, cause, tval, insn:vararg
    TEST_NUM \n
    EXPECT_TRAP .Lresume\@
.Lat\@:
    \insn
    j       test_fail_no_trap
.Lresume\@:
    CHECK_TRAP_CAUSE \cause
    CHECK_TRAP_EPC .Lat\@
    CHECK_TRAP_TVAL \tval
.endm

/* As TEST_TRAP, but mtval must be the address \label (label+offset allowed),
 * e.g. the data address of a faulting load. */
.macro TEST_TRAP_ADDR n, cause, label, insn:vararg
    TEST_NUM \n
    EXPECT_TRAP .Lresume\@
.Lat\@:
    \insn
    j       test_fail_no_trap
.Lresume\@:
    CHECK_TRAP_CAUSE \cause
    CHECK_TRAP_EPC .Lat\@
    CHECK_TRAP_TVAL_ADDR \label
.endm

/* As TEST_TRAP, but mtval must be the address of the instruction itself. */
.macro TEST_TRAP_TVAL_PC n, cause, insn:vararg
    TEST_NUM \n
    EXPECT_TRAP .Lresume\@
.Lat\@:
    \insn
    j       test_fail_no_trap
.Lresume\@:
    CHECK_TRAP_CAUSE \cause
    CHECK_TRAP_EPC .Lat\@
    CHECK_TRAP_TVAL_ADDR .Lat\@
.endm

#endif /* TALLY_ISA_TEST_MACROS_H */
