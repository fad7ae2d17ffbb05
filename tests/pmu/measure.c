/*
 * measure: a C program that measures one call with the PMU through
 * tally/pmu.h, as a user would: it stops every counter, chooses eight
 * events, zeroes the counters, resumes them, calls work(), stops them
 * again and prints "event value" per counter (64-bit reads).
 *
 * What they count (docs/pmu.md): the cycles from the end of the resuming
 * instruction to the end of the stopping one, that is the instructions
 * after the resume up to and including the stop in main, and work() in
 * between. check_pmu.py (mode `c`) finds those two instructions in main and
 * compares each value with the statistics module's count over that range
 * plus its count in work().
 */
#include <stdio.h>

#include "tally/pmu.h"
#include "tally/target.h"

#define N 2048
#include "work.h"

int main(void)
{
    static const tally_pmu_event events[8] = {
        TALLY_PMU_EV_CYCLE, TALLY_PMU_EV_INSTRET, TALLY_PMU_EV_LOAD, TALLY_PMU_EV_STORE,
        TALLY_PMU_EV_DCACHE_READ_MISS, TALLY_PMU_EV_BRANCH_TAKEN, TALLY_PMU_EV_STALL,
        TALLY_PMU_EV_DIV,
    };
    for (int i = 0; i < N; i++)
        data[i] = i * 7 + 1;
    tally_pmu_inhibit(TALLY_PMU_ALL);
    tally_pmu_select(3, events[0]);
    tally_pmu_select(4, events[1]);
    tally_pmu_select(5, events[2]);
    tally_pmu_select(6, events[3]);
    tally_pmu_select(7, events[4]);
    tally_pmu_select(8, events[5]);
    tally_pmu_select(9, events[6]);
    tally_pmu_select(10, events[7]);
    tally_pmu_write(3, 0);
    tally_pmu_write(4, 0);
    tally_pmu_write(5, 0);
    tally_pmu_write(6, 0);
    tally_pmu_write(7, 0);
    tally_pmu_write(8, 0);
    tally_pmu_write(9, 0);
    tally_pmu_write(10, 0);
    tally_pmu_resume(TALLY_PMU_ALL);
    int r = work(N);
    tally_pmu_inhibit(TALLY_PMU_ALL);
    uint64_t v[8] = {
        tally_pmu_read(3), tally_pmu_read(4), tally_pmu_read(5), tally_pmu_read(6),
        tally_pmu_read(7), tally_pmu_read(8), tally_pmu_read(9), tally_pmu_read(10),
    };
    for (int i = 0; i < 8; i++)
        printf("%d %llu\n", (int)events[i], (unsigned long long)v[i]);
    printf("result %d\n", r);
    return 0;
}
