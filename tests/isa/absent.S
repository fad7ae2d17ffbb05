// absent.S - a core without debug triggers and PMP ([core] triggers = 0,
// pmp_entries = 0): tselect, tdata1-3 and tinfo are illegal instructions;
// the PMP CSRs too with pmp_absent = illegal, or, built with -DPMP_ZERO
// for pmp_absent = zero, they read zero and ignore writes (the
// privileged specification lets absent PMP CSRs be read-only zero).
#include "test_macros.h"

TEST_BEGIN
    csrw    mie, zero
    TEST_TRAP 1, CAUSE_ILLEGAL_INSN, 0x7a0025f3, csrr a1, 0x7a0
    TEST_TRAP 2, CAUSE_ILLEGAL_INSN, 0x7a1025f3, csrr a1, 0x7a1
    TEST_TRAP 3, CAUSE_ILLEGAL_INSN, 0x7a259073, csrw 0x7a2, a1
    TEST_TRAP 4, CAUSE_ILLEGAL_INSN, 0x7a4025f3, csrr a1, 0x7a4
#ifdef PMP_ZERO
    TEST_NUM 5
    li      a1, -1
    csrw    0x3b0, a1
    csrr    a4, 0x3b0
    CHECK   a4, 0
    csrw    0x3a0, a1
    csrr    a4, 0x3a0
    CHECK   a4, 0
#else
    TEST_TRAP 5, CAUSE_ILLEGAL_INSN, 0x3a0025f3, csrr a1, 0x3a0
    TEST_TRAP 6, CAUSE_ILLEGAL_INSN, 0x3bf59073, csrw 0x3bf, a1
#endif
TEST_END
