/*
 * gmon.c - the target side of gprof for programs built with -pg.
 *
 * GCC's -pg makes every function call _mcount at its entry. On RISC-V the
 * call is an ordinary one (the caller keeps what it needs in saved
 * registers): a0 holds the instrumented function's own return address (the
 * call site in ITS caller, gprof's "from" pc) and ra the address right
 * after `call _mcount` inside the instrumented function ("self" pc). This
 * file provides:
 *
 *   _mcount     counts the arc (from, self) in a hash table; the first call
 *               (main's, crt0 is not instrumented) starts the profile;
 *   a PC histogram, as gprof's profil() does: the machine timer (CLINT
 *               mtimecmp, 10 MHz timebase on tally and QEMU's virt) raises
 *               an interrupt TALLY_GMON_HZ times a second of the board's
 *               time and the handler adds one to the bin of the
 *               interrupted pc (one bin per 2 bytes of .text);
 *   at exit     (atexit) gmon.out in GNU gprof's format, written through
 *               semihosting into the host's working folder (tally needs
 *               --semihost-files rw; QEMU writes into its own folder).
 *
 * Built into the program by the kit (`make -f target/kit/Makefile PG=1`) or
 * by adding this file to a -pg build. Nothing here may call _mcount, so
 * every function carries no_instrument_function (GCC's -pg honours it).
 *
 * Limits: the histogram takes over mtvec, mie.MTIE and mstatus.MIE; a
 * program with its own trap handler or timer must build without the
 * histogram (-DTALLY_GMON_HZ=0: call counts only). An exception (not an
 * interrupt) reaching the handler puts mtvec back to 0 and returns to the
 * same instruction, so it traps again exactly as without the profiler and
 * the simulator reports it. At most TALLY_GMON_ARCS distinct arcs are
 * counted; more are dropped and the count of dropped calls is printed at
 * exit.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TALLY_GMON_HZ
#define TALLY_GMON_HZ 100 /* gprof's usual 10 ms; 0: no histogram */
#endif
#ifndef TALLY_GMON_ARCS
#define TALLY_GMON_ARCS 4096 /* a power of two */
#endif
#define TIMEBASE_HZ 10000000u /* CLINT mtime ticks per second */
_Static_assert(TALLY_GMON_ARCS > 0 && (TALLY_GMON_ARCS & (TALLY_GMON_ARCS - 1)) == 0,
               "TALLY_GMON_ARCS must be a power of two");
_Static_assert(TALLY_GMON_HZ >= 0 && TALLY_GMON_HZ <= 100000,
               "TALLY_GMON_HZ must be 0 (no histogram) to 100000 (a sample every 10 us)");
#define CLINT_MTIMECMP 0x02004000u
#define CLINT_MTIME 0x0200bff8u

#define NOPG __attribute__((no_instrument_function))

extern char _start[], __text_end[];

struct arc {
    uint32_t from, self, count;
};

static struct arc arcs[TALLY_GMON_ARCS];
static uint32_t arcs_dropped;
static int started;
static uint16_t *hist;
static uint32_t hist_lo, hist_bins;

NOPG static void put32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

#if TALLY_GMON_HZ > 0
#define PERIOD (TIMEBASE_HZ / TALLY_GMON_HZ)

NOPG static void set_mtimecmp(uint64_t t)
{
    volatile uint32_t *cmp = (volatile uint32_t *)CLINT_MTIMECMP;
    cmp[0] = 0xffffffffu; /* no spurious interrupt between the halves */
    cmp[1] = (uint32_t)(t >> 32);
    cmp[0] = (uint32_t)t;
}

NOPG static uint64_t get_mtime(void)
{
    volatile uint32_t *mt = (volatile uint32_t *)CLINT_MTIME;
    uint32_t hi, lo;
    do {
        hi = mt[1];
        lo = mt[0];
    } while (hi != mt[1]);
    return ((uint64_t)hi << 32) | lo;
}

NOPG __attribute__((interrupt("machine"), aligned(4))) static void gmon_trap(void)
{
    uint32_t cause, epc;
    __asm__ volatile("csrr %0, mcause" : "=r"(cause));
    if (!(cause & 0x80000000u)) {
        /* An exception: leave it to whoever handled it before us (mtvec 0:
         * the simulator), by taking it again at the same instruction. */
        __asm__ volatile("csrw mtvec, zero");
        return;
    }
    __asm__ volatile("csrr %0, mepc" : "=r"(epc));
    uint32_t bin = (epc - hist_lo) / 2;
    if (bin < hist_bins && hist[bin] != 0xffffu)
        hist[bin]++;
    volatile uint32_t *cmp = (volatile uint32_t *)CLINT_MTIMECMP;
    uint64_t next = (((uint64_t)cmp[1] << 32) | cmp[0]) + PERIOD;
    set_mtimecmp(next);
}

NOPG static void hist_start(void)
{
    hist_lo = (uint32_t)(uintptr_t)_start & ~1u;
    hist_bins = ((uint32_t)(uintptr_t)__text_end - hist_lo + 1) / 2;
    hist = calloc(hist_bins, sizeof *hist);
    if (!hist) {
        fprintf(stderr, "gmon: no memory for a %lu-bin histogram: call counts only\n",
                (unsigned long)hist_bins);
        return;
    }
    __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)gmon_trap));
    set_mtimecmp(get_mtime() + PERIOD);
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 7));     /* MTIE */
    __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3)); /* MIE */
}

NOPG static void hist_stop(void)
{
    __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
    __asm__ volatile("csrc mie, %0" ::"r"(1u << 7));
}
#else
NOPG static void hist_start(void) {}
NOPG static void hist_stop(void) {}
#endif

/* gmon.out: a 20-byte header ("gmon", version 1, 12 spare bytes), then
 * tagged records, little-endian, 32-bit addresses: tag 0 the histogram
 * (low pc, high pc, bins, rate, "seconds", 's', u16 per bin), tag 1 one
 * call-graph arc (from pc, self pc, count). */
NOPG static int put(int fd, const void *p, size_t len)
{
    return write(fd, p, len) == (ssize_t)len;
}

NOPG static void gmon_write(void)
{
    hist_stop();
    /* open/write, not stdio: one semihosting call per buffer */
    int fd = open("gmon.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "gmon: cannot write gmon.out (on tally: --semihost-files rw)\n");
        return;
    }
    unsigned char b[40];
    memset(b, 0, 20);
    memcpy(b, "gmon", 4);
    put32(b + 4, 1);
    int ok = put(fd, b, 20);
    if (hist) {
        b[0] = 0;
        put32(b + 1, hist_lo);
        put32(b + 5, hist_lo + 2 * hist_bins);
        put32(b + 9, hist_bins);
        put32(b + 13, TALLY_GMON_HZ);
        memset(b + 17, 0, 16);
        memcpy(b + 17, "seconds", 7);
        b[32] = 's';
        /* RV32 is little-endian, as the file: the bins go out as they are */
        ok = ok && put(fd, b, 33) && put(fd, hist, 2 * (size_t)hist_bins);
    }
    /* arc records, 13 bytes each, 64 to a write */
    static unsigned char buf[64 * 13];
    size_t used = 0;
    for (uint32_t i = 0; ok && i < TALLY_GMON_ARCS; i++) {
        if (!arcs[i].count)
            continue;
        buf[used] = 1;
        put32(buf + used + 1, arcs[i].from);
        put32(buf + used + 5, arcs[i].self);
        put32(buf + used + 9, arcs[i].count);
        used += 13;
        if (used == sizeof buf) {
            ok = put(fd, buf, used);
            used = 0;
        }
    }
    if (ok && used)
        ok = put(fd, buf, used);
    if (close(fd) != 0 || !ok)
        fprintf(stderr, "gmon: writing gmon.out failed\n");
    if (arcs_dropped)
        fprintf(stderr, "gmon: arc table full (%u arcs): %lu calls not counted\n",
                TALLY_GMON_ARCS, (unsigned long)arcs_dropped);
}

NOPG void _mcount(uint32_t from)
{
    uint32_t self = (uint32_t)(uintptr_t)__builtin_return_address(0);
    if (!started) {
        started = 1;
        atexit(gmon_write);
        hist_start();
    }
    uint32_t h = ((from >> 1) * 0x9e3779b1u ^ (self >> 1)) & (TALLY_GMON_ARCS - 1);
    for (uint32_t probe = 0; probe < TALLY_GMON_ARCS; probe++) {
        struct arc *a = &arcs[(h + probe) & (TALLY_GMON_ARCS - 1)];
        if (a->from == from && a->self == self && a->count) {
            if (a->count != 0xffffffffu)
                a->count++;
            return;
        }
        if (!a->count) {
            a->from = from;
            a->self = self;
            a->count = 1;
            return;
        }
    }
    arcs_dropped++;
}
