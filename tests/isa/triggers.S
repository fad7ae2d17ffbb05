// triggers.S - debug triggers (Sdtrig 1.0, type 2 "mcontrol") in machine
// mode on a hart with 4 of them (the functional mode's and tally5's
// default). Expected values from the Sdtrig specification:
//   tselect   WARL: a value >= the number of triggers is not taken
//   tdata1    type[31:28] = 2, dmode[27], maskmax[26:21], hit[20],
//             select[19], timing[18], sizelo[17:16], action[15:12],
//             chain[11], match[10:7], m[6], s[4], u[3], execute[2],
//             store[1], load[0]
//   A type-2 trigger with action 0 (breakpoint exception) fires before the
//   instruction: mcause = 3, mepc = the instruction, the access is not done.
//   In M-mode it fires only while mstatus.MIE = 1 (the specification's
//   rule against re-entrancy on a hart without tcontrol).
// Checks QEMU 7.2 does not share (tally's WARL choices, the hit bit,
// mtval, the MIE rule, match 2/3 and chain) are left out of the QEMU run.
#include "test_macros.h"

#define TSELECT  0x7a0
#define TDATA1   0x7a1
#define TDATA2   0x7a2
#define TDATA3   0x7a3
#define TINFO    0x7a4
#define MC_TYPE2   0x20000000
#define MC_HIT     0x00100000
#define MC_CHAIN   0x00000800
#define MC_GE      (2 << 7)
#define MC_LT      (3 << 7)
#define MC_M       0x40
#define MC_EXEC    0x4
#define MC_STORE   0x2
#define MC_LOAD    0x1

// a trap expected from \insn, a breakpoint (its mepc checked by the caller)
.macro TEST_TRAP_ADDR_OK n, insn:vararg
    EXPECT_TRAP .Lr\@
    \insn
    j       test_fail_no_trap
.Lr\@:
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
.endm

TEST_BEGIN
    csrw    mie, zero               // no interrupt sources
    csrsi   mstatus, MSTATUS_MIE    // M-mode triggers fire only with MIE set

    // ---- tselect: 0..3 exist ----
    TEST_NUM 1                      // (QEMU 7.2 has 2 triggers)
    li      a1, 1
    csrw    TSELECT, a1
    csrr    a4, TSELECT
    CHECK   a4, 1
#ifndef TEST_ON_QEMU
    TEST_NUM 2                      // 4 is not a trigger: tselect keeps 3
    li      a1, 3
    csrw    TSELECT, a1
    li      a1, 4
    csrw    TSELECT, a1
    csrr    a4, TSELECT
    CHECK   a4, 3
    TEST_NUM 3                      // tinfo: version 1, types 2 and 15
    csrr    a4, TINFO
    CHECK   a4, 0x01008004
    TEST_NUM 4                      // reset value: type 2, nothing enabled
    csrr    a4, TDATA1
    CHECK   a4, MC_TYPE2
    TEST_NUM 5                      // tdata3 reads 0
    csrr    a4, TDATA3
    CHECK   a4, 0
    TEST_NUM 6                      // dmode, s, u, select, timing, action 1 and match 1 are not
    li      a1, 0x280c18df          // writable from M-mode: they read 0; m, chain, execute/store/load stay
    csrw    TDATA1, a1              // (trigger 3 is the last: its chain reads 0)
    csrr    a4, TDATA1
    CHECK   a4, (MC_TYPE2 | MC_M | MC_EXEC | MC_STORE | MC_LOAD)
    TEST_NUM 7                      // type 0 (none): the trigger becomes type 15, disabled
    csrw    TDATA1, zero
    csrr    a4, TDATA1
    CHECK   a4, 0xf0000000
#endif
    csrw    TSELECT, zero

    // ---- an execute breakpoint ----
    TEST_NUM 10
    la      a1, exec_at
    csrw    TDATA2, a1
    li      a1, MC_TYPE2 | MC_M | MC_EXEC
    csrw    TDATA1, a1
    csrr    a4, TDATA1              // read back as written
    CHECK   a4, MC_TYPE2 | MC_M | MC_EXEC
    TEST_NUM 11
    li      a4, 0
    EXPECT_TRAP exec_back
exec_at:
    addi    a4, a4, 1               // must not run
    j       test_fail_no_trap
exec_back:
    CHECK   a4, 0
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    CHECK_TRAP_EPC exec_at
#ifndef TEST_ON_QEMU
    TEST_NUM 12                     // mtval = the matching address; hit set
    CHECK_TRAP_TVAL_ADDR exec_at
    csrr    a4, TDATA1
    CHECK   a4, MC_TYPE2 | MC_HIT | MC_M | MC_EXEC
#endif
    TEST_NUM 13                     // two instructions on: the first runs, the second traps
    li      a1, MC_TYPE2 | MC_M | MC_EXEC
    csrw    TDATA1, a1
    li      a4, 0
    EXPECT_TRAP exec13_back
    la      a1, exec13_at
    csrw    TDATA2, a1
    addi    a4, a4, 1
exec13_at:
    addi    a4, a4, 2
    j       test_fail_no_trap
exec13_back:
    CHECK   a4, 1
    CHECK_TRAP_EPC exec13_at

    .balign 4, 0
exec2_test:
    TEST_NUM 14                     // execute trigger with m = 0: never fires
    li      a1, MC_TYPE2 | MC_EXEC
    csrw    TDATA1, a1
    la      a1, exec2_at
    csrw    TDATA2, a1
exec2_at:
    nop
    csrw    TDATA1, zero

    // ---- load and store breakpoints ----
    TEST_NUM 20
    la      a2, data1
    csrw    TDATA2, a2
    li      a1, MC_TYPE2 | MC_M | MC_LOAD
    csrw    TDATA1, a1
    li      a4, 0x55
    EXPECT_TRAP load_back
load_at:
    lw      a4, 0(a2)               // traps before it loads
    j       test_fail_no_trap
load_back:
    CHECK   a4, 0x55
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    CHECK_TRAP_EPC load_at
#ifndef TEST_ON_QEMU
    CHECK_TRAP_TVAL_ADDR data1
#endif
    TEST_NUM 21                     // a store to the word: a load trigger does not fire
    li      a1, 0x1234
    sw      a1, 0(a2)               // (checked below, once the trigger no longer watches loads)
    TEST_NUM 22                     // a load of the next word: no match
    lw      a4, 4(a2)
    CHECK   a4, 0x77

    TEST_NUM 23
    li      a1, MC_TYPE2 | MC_M | MC_STORE
    csrw    TDATA1, a1
    CHECK_MEM data1, 0x1234         // test 21's store happened
    li      a1, 0x9999
    EXPECT_TRAP store_back
store_at:
    sw      a1, 0(a2)               // traps before it stores
    j       test_fail_no_trap
store_back:
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    CHECK_TRAP_EPC store_at
    CHECK_MEM data1, 0x1234         // unchanged
    TEST_NUM 24                     // a byte store to the matching byte traps
    TEST_TRAP_ADDR_OK 24, sb a1, 0(a2)
    CHECK_MEM data1, 0x1234
    TEST_NUM 25                     // a load does not
    lw      a4, 0(a2)
    CHECK   a4, 0x1234
    TEST_NUM 26                     // an AMO stores: traps, memory unchanged
    EXPECT_TRAP amo_back
amo_at:
    amoadd.w a4, a1, (a2)
    j       test_fail_no_trap
amo_back:
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    CHECK_TRAP_EPC amo_at
    CHECK_MEM data1, 0x1234

    // ---- stores inside a wider access: any byte touched matches ----
    TEST_NUM 27                     // tdata2 = data1 + 2: a word store at data1 covers it
    addi    a3, a2, 2
    csrw    TDATA2, a3
    EXPECT_TRAP wide_back
wide_at:
    sw      a1, 0(a2)
    j       test_fail_no_trap
wide_back:
    CHECK_TRAP_EPC wide_at
    TEST_NUM 28                     // a byte store at data1 + 1 does not touch it
    sb      zero, 1(a2)
    CHECK_MEM data1, 0x0034

#ifndef TEST_ON_QEMU
    // ---- MIE = 0: an action-0 trigger does not fire in M-mode ----
    // (QEMU 7.2 fires it: it has neither this rule nor tcontrol)
    TEST_NUM 30
    csrci   mstatus, MSTATUS_MIE
    sw      a1, 0(a2)               // matches, but MIE is 0
    csrsi   mstatus, MSTATUS_MIE
    CHECK_MEM data1, 0x9999
#endif
#ifndef TEST_ON_QEMU
    // ---- a range: trigger 0 (>= data2) chained to trigger 1 (< data2 + 8) ----
    TEST_NUM 31
    la      a2, data2
    li      a1, MC_TYPE2 | MC_GE | MC_CHAIN | MC_M | MC_LOAD
    csrw    TDATA1, a1
    csrw    TDATA2, a2
    csrr    a4, TDATA1
    CHECK   a4, MC_TYPE2 | MC_GE | MC_CHAIN | MC_M | MC_LOAD
    li      a1, 1
    csrw    TSELECT, a1
    li      a1, MC_TYPE2 | MC_LT | MC_M | MC_LOAD
    csrw    TDATA1, a1
    addi    a1, a2, 8
    csrw    TDATA2, a1
    csrw    TSELECT, zero
    TEST_NUM 32                     // below the range: no
    lw      a4, -4(a2)
    CHECK   a4, 0x77
    TEST_NUM 33                     // past it: no
    lw      a4, 8(a2)
    CHECK   a4, 0x88
    TEST_NUM 34                     // inside: the chain fires
    EXPECT_TRAP range_back
range_at:
    lw      a4, 4(a2)
    j       test_fail_no_trap
range_back:
    CHECK_TRAP_EPC range_at
    CHECK_TRAP_TVAL_ADDR data2+4
    TEST_NUM 35                     // a halfword load straddling the end (data2 + 7..8): fires
    EXPECT_TRAP range2_back
range2_at:
    lh      a4, 7(a2)
    j       test_fail_no_trap
range2_back:
    CHECK_TRAP_EPC range2_at
    TEST_NUM 36                     // trigger 0 on stores only: the chain no longer fires on a load
    li      a1, MC_TYPE2 | MC_GE | MC_CHAIN | MC_M | MC_STORE
    csrw    TDATA1, a1
    lw      a4, 4(a2)
    CHECK   a4, 0x22
    li      a1, 1
    csrw    TSELECT, a1
    csrw    TDATA1, zero
    csrw    TSELECT, zero
#endif
    csrw    TDATA1, zero

    TEST_NUM 40                     // disabled: the load runs
    la      a2, data1
    lw      a4, 4(a2)
    CHECK   a4, 0x77
TEST_END


    .data
    .balign 16
    .word   0x77
data1:
    .word   0
    .word   0x77
    .word   0x77
data2:
    .word   0x11
    .word   0x22
    .word   0x88
