/*
 * tally/inst.h - what analysis code linked in by `tally inst` may use.
 *
 * Analysis code is C for the target, built freestanding (no picolibc: its
 * state, errno among it, would be shared with the program's): it keeps its
 * data in its own variables, which live in the analysis region (0x88000000,
 * memory the program never uses), and it runs with the program's registers
 * saved and the performance counters paused (mcountinhibit).
 *
 *   tally_inst_nsites       how many sites the program was instrumented at
 *   tally_inst_site_pc[i]   the original address of site i (the `site`
 *                           argument of an analysis call is this i)
 *   tally_inst_site_ncalls[i]  analysis calls at site i (0: a site the
 *                           runtime needs for itself, e.g. a semihosting
 *                           call or a trap-CSR instruction)
 *   tally_inst_site_scratch[i]  a 64-bit word per site, zero at start,
 *                           the analysis's to use (counters, say)
 *   tally_inst_fini()       defined by the analysis if it wants: called once
 *                           when the program exits through semihosting
 *                           (exit(), _exit(), SYS_EXIT, SYS_EXIT_EXTENDED)
 *   tally_inst_write_file   writes a file on the host (semihosting open /
 *                           write / close; works on tally and on QEMU):
 *                           0 on success, -1 on failure
 */
#ifndef TALLY_TARGET_INST_H
#define TALLY_TARGET_INST_H

#ifdef __cplusplus
extern "C" {
#endif

extern const unsigned tally_inst_nsites;
extern const unsigned tally_inst_site_pc[];
extern unsigned long long tally_inst_site_scratch[];
extern const unsigned char tally_inst_site_ncalls[];

void tally_inst_fini(void);
int tally_inst_write_file(const char *name, const void *buf, unsigned len);
/* The same in steps: open (creates or truncates; -1 on failure), write
 * (0 when all was written), close. */
int tally_inst_file_open(const char *name);
int tally_inst_file_write(int fd, const void *buf, unsigned len);
int tally_inst_file_close(int fd);

/* Says that the analysis's output file could not be written (opened or
 * written): when the program exits, the run ends with status 74 instead of
 * the program's, after a line on the console. The shipped tools call it. */
void tally_inst_output_lost(void);

/* Writes a line of text to the console (semihosting SYS_WRITE0). */
void tally_inst_print(const char *s);

/* Freestanding helpers (the analysis has no C library). */
void *tally_inst_memset(void *dst, int c, unsigned n);
unsigned tally_inst_strlen(const char *s);

#ifdef __cplusplus
}
#endif

#endif
