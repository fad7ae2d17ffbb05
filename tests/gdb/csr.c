/*
 * csr: reads back the CSRs GDB writes (tests/gdb/check_gdb.py, mode csr).
 * GDB stops at `at_write`, between two instructions, writes mcycle,
 * minstret, mscratch, mcountinhibit and PMU counters and events, and lets
 * the program run on; the instructions from `at_write` on read them in a
 * fixed order, one straight line of code, so that what each must read
 * follows by hand from docs/pmu.md ("a read sees every cycle before the
 * reading instruction starts"; a write from GDB takes effect at once):
 *
 *   at_write: csrr mcycle        first instruction: exactly what GDB wrote
 *             csrr minstret      what GDB wrote + 1 (the csrr before it)
 *             csrr mscratch
 *             csrr mhpmevent4
 *             nop x3
 *             csrr mhpmcounter4  counting instret from GDB's value: + 7
 *             csrr mhpmcounter5  event 0 counts nothing: GDB's value
 *             csrr mhpmcounter6  inhibited by mcountinhibit: GDB's value
 *             csrr mcountinhibit
 */
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    uint32_t v[9];
    __asm__ volatile(".globl at_write\n"
                     "at_write:\n"
                     "  csrr %0, mcycle\n"
                     "  csrr %1, minstret\n"
                     "  csrr %2, mscratch\n"
                     "  csrr %3, mhpmevent4\n"
                     "  .option push\n"
                     "  .option norvc\n"
                     "  nop\n"
                     "  nop\n"
                     "  nop\n"
                     "  .option pop\n"
                     "  csrr %4, mhpmcounter4\n"
                     "  csrr %5, mhpmcounter5\n"
                     "  csrr %6, mhpmcounter6\n"
                     "  csrr %7, mcountinhibit\n"
                     "  csrr %8, mhpmevent6\n"
                     : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]),
                       "=r"(v[7]), "=r"(v[8]));
    static const char *const names[9] = {"mcycle", "minstret", "mscratch", "mhpmevent4", "mhpmcounter4",
                                         "mhpmcounter5", "mhpmcounter6", "mcountinhibit", "mhpmevent6"};
    for (int i = 0; i < 9; i++)
        printf("%s 0x%08lx\n", names[i], (unsigned long)v[i]);
    return 0;
}
