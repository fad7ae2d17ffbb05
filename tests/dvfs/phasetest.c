/* Runs phase_kernel (phasekern.S) once: the phase profiler's test program. */
#include <stdio.h>

void phase_kernel(void);

int main(void)
{
    phase_kernel();
    printf("phasetest: OK\n");
    return 0;
}
