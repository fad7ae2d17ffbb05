/*
 * syscalls.c - picolibc's console and exit for rv32emu (Linux-style system
 * calls: write = 64, exit = 93), in place of the board's semihosting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long rv_ecall3(long n, long a, long b, long c)
{
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

static int rv_putc(char c, FILE *f)
{
    (void)f;
    return rv_ecall3(64, 1, (long)&c, 1) == 1 ? (unsigned char)c : EOF;
}

static int rv_getc(FILE *f)
{
    (void)f;
    return EOF;
}

static FILE rv_stdio = FDEV_SETUP_STREAM(rv_putc, rv_getc, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &rv_stdio;
FILE *const stdout = &rv_stdio;
FILE *const stderr = &rv_stdio;

void _exit(int status)
{
    for (;;)
        rv_ecall3(93, status, 0, 0);
}
