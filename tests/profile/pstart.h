/* Shared by the profile test programs (built with pstart.S). */
#ifndef PSTART_H
#define PSTART_H

#include <stdio.h>

/* Keeps a value in a register and out of the optimizer's reach, so that
 * recursion stays recursion (no accumulator loop) and calls stay calls. */
#define KEEP(x) __asm__ volatile("" : "+r"(x))

/* Called by pstart.S after main: the mcycle window around main. */
void pstart_report(unsigned window) { printf("main-window %u\n", window); }

#endif
