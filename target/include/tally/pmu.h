/*
 * tally/pmu.h - the hardware performance counters (RISC-V Zihpm and
 * mcountinhibit) from a program: choose what a counter counts, read it,
 * pause and resume counting. Header-only, machine mode; docs/pmu.md.
 *
 * On tally, mhpmcounter3..31 count any signal of the catalog exactly
 * (`tally signals`; the event numbers are in tally/pmu_events.h). How many
 * counters exist is the core model's `[pmu] counters`; absent ones read 0
 * (tally5), or their CSRs are illegal instructions (picorv32). On QEMU the
 * counters read 0 and QEMU's mcycle follows the host clock.
 *
 * A counter number N must be a constant 3..31 (it is part of the CSR
 * instruction), hence the macros. A read returns the count of every cycle
 * before the reading instruction starts; a write, an event choice and an
 * inhibit or resume take effect when the writing instruction ends.
 */
#ifndef TALLY_PMU_H
#define TALLY_PMU_H

#include <stdint.h>

#include "pmu_events.h"

#define TALLY_CSR_MCOUNTINHIBIT 0x320
#define TALLY_CSR_MHPMEVENT(n)   (0x320 + (n))
#define TALLY_CSR_MHPMCOUNTER(n) (0xb00 + (n))
#define TALLY_CSR_MHPMCOUNTERH(n) (0xb80 + (n))

/* mcountinhibit bits: mcycle, minstret and counter n */
#define TALLY_PMU_CY 1u
#define TALLY_PMU_IR 4u
#define TALLY_PMU_HPM(n) (1u << (n))
#define TALLY_PMU_ALL 0xfffffffdu /* every counter (bit 1, time, cannot stop) */

#define TALLY_CSR_READ(csr) __extension__({                          \
    uint32_t v_;                                                        \
    __asm__ volatile("csrr %0, %1" : "=r"(v_) : "i"(csr));              \
    v_; })
#define TALLY_CSR_WRITE(csr, v) \
    __asm__ volatile("csrw %0, %1" : : "i"(csr), "r"((uint32_t)(v)))

/* Counter n counts `event` (a tally_pmu_event) from now on; its value is
 * kept. */
#define tally_pmu_select(n, event) TALLY_CSR_WRITE(TALLY_CSR_MHPMEVENT(n), (event))

/* The 64-bit value of counter n: high, low, high again until the high half
 * did not change in between (a carry out of the low half). */
#define tally_pmu_read(n) __extension__({                             \
    uint32_t hi_, lo_, again_;                                          \
    do {                                                                \
        hi_ = TALLY_CSR_READ(TALLY_CSR_MHPMCOUNTERH(n));                \
        lo_ = TALLY_CSR_READ(TALLY_CSR_MHPMCOUNTER(n));                 \
        again_ = TALLY_CSR_READ(TALLY_CSR_MHPMCOUNTERH(n));             \
    } while (hi_ != again_);                                            \
    ((uint64_t)hi_ << 32) | lo_; })

/* The low 32 bits only: one instruction, for short measurements. */
#define tally_pmu_read32(n) TALLY_CSR_READ(TALLY_CSR_MHPMCOUNTER(n))

/* Sets counter n to v: low half to 0 first, so that no carry can reach the
 * high half between the two writes. */
#define tally_pmu_write(n, v) do {                                      \
        uint64_t v_ = (v);                                              \
        TALLY_CSR_WRITE(TALLY_CSR_MHPMCOUNTER(n), 0);                   \
        TALLY_CSR_WRITE(TALLY_CSR_MHPMCOUNTERH(n), (uint32_t)(v_ >> 32)); \
        TALLY_CSR_WRITE(TALLY_CSR_MHPMCOUNTER(n), (uint32_t)v_);        \
    } while (0)

/* Pauses the counters in `mask` (TALLY_PMU_* bits) after this instruction;
 * returns the mask that was paused before, for tally_pmu_restore. */
static inline uint32_t tally_pmu_inhibit(uint32_t mask)
{
    uint32_t old;
    __asm__ volatile("csrrs %0, 0x320, %1" : "=r"(old) : "r"(mask));
    return old;
}

/* Resumes the counters in `mask` after this instruction. */
static inline void tally_pmu_resume(uint32_t mask)
{
    __asm__ volatile("csrc 0x320, %0" : : "r"(mask));
}

/* Puts mcountinhibit back as tally_pmu_inhibit found it. */
static inline void tally_pmu_restore(uint32_t old)
{
    __asm__ volatile("csrw 0x320, %0" : : "r"(old));
}

#endif
