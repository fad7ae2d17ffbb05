/*
 * inst_macros.h - what the re-creation programs add to tests/isa/test_macros.h.
 *
 * These programs test an instrumenter, and an instrumenter rewrites exactly
 * the instructions that `la` is made of (auipc + addi). A check that
 * compared a link register with an `la`-computed address could therefore
 * pass with both sides equally wrong. CHECK_ABS computes the expected
 * address with lui + addi and absolute relocations (%hi/%lo), which do not
 * depend on where the checking instruction runs.
 *
 * C(insn) assembles one compressed instruction inside .option norvc code
 * (as tests/isa/compressed.S does), so that every distance stays as written.
 */
#ifndef TALLY_INST_MACROS_H
#define TALLY_INST_MACROS_H

#include "test_macros.h"

#define C(...) .option rvc; __VA_ARGS__; .option norvc

/* reg = absolute address of \label (lui + addi: no pc involved). */
.macro LA_ABS reg, label
    lui     \reg, %hi(\label)
    addi    \reg, \reg, %lo(\label)
.endm

/* Fail unless register \reg (not t1/t2) holds the address of \label,
 * computed without the pc. */
.macro CHECK_ABS reg, label
    LA_ABS  t2, \label
    beq     \reg, t2, .Lok\@
    mv      t1, \reg
    j       test_fail_value
.Lok\@:
.endm

/* Fail unless register \reg equals register \exp (neither t1 nor t2). */
.macro CHECK_REG reg, exp
    mv      t2, \exp
    beq     \reg, t2, .Lok\@
    mv      t1, \reg
    j       test_fail_value
.Lok\@:
.endm

/* Fail unless \to - \from == \dist: proves at run time that a test sits at
 * the edge of an encoding's reach (the assembler would otherwise be free to
 * rewrite an out-of-range branch as a branch over a jump). Clobbers a5, t0. */
.macro CHECK_DIST from, to, dist
    LA_ABS  a5, \to
    LA_ABS  t0, \from
    sub     a5, a5, t0
    CHECK   a5, \dist
.endm

/* Jump to \label from anywhere, without the pc (lui + jalr). Clobbers t0. */
.macro JUMP_ABS label
    lui     t0, %hi(\label)
    jalr    x0, %lo(\label)(t0)
.endm

/* \n 4-byte nops (never executed: padding to put a target at a distance). */
.macro NOPS n
    .rept \n
    nop
    .endr
.endm

#endif /* TALLY_INST_MACROS_H */
