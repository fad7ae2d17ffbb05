/* raretest [LINES]: rare_kernel (rarekern.S) over LINES 64-byte lines of a
 * 256 KiB buffer (default 4096), four times: four uses of a memory-bound
 * loop whose way out is a 2-byte c.ret after its back edge (tests/dvfs,
 * run_dvfs_rare.sh). The output does not depend on LINES. */
#include <stdio.h>
#include <stdlib.h>

unsigned rare_kernel(const unsigned *buf, unsigned lines);

#define MAX_LINES 4096u
static unsigned buf[(MAX_LINES + 4) * 16]; /* 256 KiB and a little: 8 times the D-cache */

int main(int argc, char **argv)
{
    unsigned lines = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 4096u;
    if (lines == 0 || lines > MAX_LINES) {
        printf("raretest: LINES must be 1..%u\n", MAX_LINES);
        return 2;
    }
    unsigned sum = 0;
    for (int use = 0; use < 4; use++)
        sum += rare_kernel(buf + use * 16, lines);
    printf("raretest: sum %u\n", sum);
    return sum != 0;
}
