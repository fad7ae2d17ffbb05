/*
 * warm: the PMU over code that already ran before the program's first PMU
 * access. work() runs once with every counter idle, then again measured:
 * mhpmcounter3 counts the cycle event and mhpmcounter4 the instret event,
 * beside mcycle and minstret, all zeroed together and paused and resumed by
 * the same mcountinhibit writes. mcycle and minstret come from the core's
 * own clock and retire count, not from the event totals, so each pair must
 * agree exactly (docs/pmu.md). The program checks the law itself: exit 0
 * when both pairs agree, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>

#include "tally/pmu.h"

#define N 512
#define CSR_MCYCLE 0xb00
#define CSR_MCYCLEH 0xb80
#define CSR_MINSTRET 0xb02
#define CSR_MINSTRETH 0xb82

#include "work.h"

int main(void)
{
    for (int i = 0; i < N; i++)
        data[i] = i * 7 + 1;
    int r = work(N); /* work's code runs before any PMU access */
    tally_pmu_inhibit(TALLY_PMU_ALL);
    tally_pmu_select(3, TALLY_PMU_EV_CYCLE);
    tally_pmu_select(4, TALLY_PMU_EV_INSTRET);
    tally_pmu_write(3, 0);
    tally_pmu_write(4, 0);
    TALLY_CSR_WRITE(CSR_MCYCLEH, 0);
    TALLY_CSR_WRITE(CSR_MCYCLE, 0);
    TALLY_CSR_WRITE(CSR_MINSTRETH, 0);
    TALLY_CSR_WRITE(CSR_MINSTRET, 0);
    tally_pmu_resume(TALLY_PMU_ALL);
    r += work(N);
    tally_pmu_inhibit(TALLY_PMU_ALL);
    uint32_t cycles = TALLY_CSR_READ(CSR_MCYCLE), insns = TALLY_CSR_READ(CSR_MINSTRET);
    uint64_t ev_cycles = tally_pmu_read(3), ev_insns = tally_pmu_read(4);
    printf("mcycle %lu cycle event %llu\n", (unsigned long)cycles, (unsigned long long)ev_cycles);
    printf("minstret %lu instret event %llu\n", (unsigned long)insns, (unsigned long long)ev_insns);
    printf("result %d\n", r);
    return ev_cycles == cycles && ev_insns == insns && insns > (uint32_t)N ? 0 : 1;
}
