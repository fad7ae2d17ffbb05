/*
 * tally/target.h - small helpers for programs running on the tally board.
 *
 * Header-only; works the same on tally and on QEMU's virt machine.
 */
#ifndef TALLY_TARGET_H
#define TALLY_TARGET_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Board memory map (QEMU virt compatible). */
#define TALLY_RAM_BASE      0x80000000u
#define TALLY_UART_BASE     0x10000000u     /* ns16550 */
#define TALLY_FINISHER_BASE 0x00100000u     /* SiFive test finisher */
#define TALLY_CLINT_BASE    0x02000000u

#define TALLY_UART_THR      0               /* transmit holding register */
#define TALLY_UART_LSR      5               /* line status register */
#define TALLY_UART_LSR_THRE 0x20
#define TALLY_UART_LSR_TEMT 0x40

#define TALLY_FINISHER_PASS 0x5555u
#define TALLY_FINISHER_FAIL 0x3333u

static inline volatile uint8_t *tally_uart_reg(unsigned reg)
{
    return (volatile uint8_t *)(uintptr_t)(TALLY_UART_BASE + reg);
}

/* Write one byte to the UART, bypassing semihosting and stdio. */
static inline void tally_uart_putc(char c)
{
    while (!(*tally_uart_reg(TALLY_UART_LSR) & TALLY_UART_LSR_THRE))
        ;
    *tally_uart_reg(TALLY_UART_THR) = (uint8_t)c;
}

static inline void tally_uart_puts(const char *s)
{
    while (*s)
        tally_uart_putc(*s++);
}

/*
 * End the program at once with `code` through the test finisher, without
 * running atexit handlers. Flushes stdio and waits until the UART has sent
 * its last bit first (QEMU drops characters still in the transmitter).
 * The normal way out is still returning from main() or exit().
 */
static inline __attribute__((noreturn)) void tally_exit(int code)
{
    fflush(stdout);
    fflush(stderr);
    while (!(*tally_uart_reg(TALLY_UART_LSR) & TALLY_UART_LSR_TEMT))
        ;
    volatile uint32_t *fin = (volatile uint32_t *)(uintptr_t)TALLY_FINISHER_BASE;
    *fin = code == 0 ? TALLY_FINISHER_PASS
                     : (((uint32_t)code & 0xffffu) << 16) | TALLY_FINISHER_FAIL;
    for (;;)
        __asm__ volatile("wfi");
}

/*
 * The size parameter of a workload: argv[1] as a positive decimal number,
 * or `def` when it is absent. A malformed value ends the program with
 * status 2 and a message, rather than running some other size silently.
 */
static inline unsigned long tally_size_arg(int argc, char **argv, unsigned long def)
{
    if (argc < 2 || argv[1] == NULL)
        return def;
    const char *s = argv[1];
    unsigned long v = 0;
    if (*s == '\0')
        goto bad;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (0xffffffffUL - 9) / 10)
            goto bad;
        v = v * 10 + (unsigned long)(*s - '0');
    }
    if (v == 0)
        goto bad;
    return v;
bad:
    printf("error: size argument '%s' is not a positive number\n", argv[1]);
    exit(2);
}

/* TALLY_ITERS(default): the size parameter of main(argc, argv). */
#define TALLY_ITERS(def) tally_size_arg(argc, argv, (def))

/*
 * A small deterministic pseudo-random generator (xorshift32), so that
 * workloads make the same data on every run and every simulator.
 */
typedef struct { uint32_t s; } tally_rng;

static inline void tally_rng_seed(tally_rng *r, uint32_t seed)
{
    r->s = seed ? seed : 0x9e3779b9u;
}

static inline uint32_t tally_rng_next(tally_rng *r)
{
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return r->s = x;
}

/* Order-independent 32-bit mix, for checksums of permutations. */
static inline uint32_t tally_mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#endif /* TALLY_TARGET_H */
