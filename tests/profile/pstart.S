/*
 * pstart.S - start-up code of the profile tests: the kit's crt0 without the
 * command line, plus a measurement of main. It reads mcycle just before
 * calling main and just after main returns, and passes the difference to
 * pstart_report(window) before exit(status).
 *
 * docs/timing.md: a read of mcycle gives the cycles before the reading
 * instruction starts. So
 *     window = cycles(first csrr) + cycles(jal main) + inclusive(main)
 * where the first two are single executions of two instructions of _start,
 * which the profile gives per instruction. No symbol is placed between
 * them, so _start stays one function for the profile.
 */
#include <tally/start.h>

        .section .text.init.enter, "ax", @progbits
        .globl  _start
        .type   _start, @function
_start:
        tally_start_setup
        li      a0, 0
        li      a1, 0
        .option push
        .option norvc
        csrr    s2, cycle
        jal     ra, main
        csrr    s3, cycle
        .option pop
        mv      s4, a0
        sub     a0, s3, s2
        call    pstart_report
        mv      a0, s4
        call    exit
3:      j       3b
        .size   _start, . - _start
