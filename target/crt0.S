/*
 * crt0.S - start-up code for programs running on the tally board
 * (and on QEMU's `virt` machine, which has the same memory map).
 *
 * Sets up gp, sp and tp, clears .bss/.tbss, fetches the command line
 * through semihosting (SYS_GET_CMDLINE) and splits it into argv, calls
 * main(argc, argv) and hands its result to exit().
 *
 * No trap vector is installed on purpose: mtvec stays 0, so an unexpected
 * trap lands on the simulator, which reports it, instead of being hidden
 * by a handler here.
 *
 * The line is split at blanks; at most ARGV_MAX - 1 words are kept, and a
 * line longer than CMDLINE_SIZE - 1 bytes is refused by the host, which
 * leaves argc = 0 (programs then run with their defaults).
 *
 * Everything is loaded to its run address by the ELF loader, so there is
 * no .data copy: .data and .tdata already hold their initial values.
 */

#include <tally/start.h>

#define SYS_GET_CMDLINE 0x15
#define CMDLINE_SIZE    1024    /* bytes of command line kept, NUL included */
#define ARGV_MAX        32      /* argv[] slots, the NULL terminator included */

        .section .text.init.enter, "ax", @progbits
        .globl  _start
        .type   _start, @function
_start:
        tally_start_setup               /* gp, sp, tp; .tbss and .bss cleared */

        /* SYS_GET_CMDLINE: a1 -> { char *buf; size_t len }. On success the
         * host writes a NUL-terminated line and stores its length. */
        la      a1, __tally_cmdline_blk
        la      t0, __tally_cmdline
        sw      t0, 0(a1)
        li      t0, CMDLINE_SIZE
        sw      t0, 4(a1)
        li      a0, SYS_GET_CMDLINE
        call    __tally_semihost
        la      s1, __tally_argv        /* s1 = argv */
        li      s0, 0                   /* s0 = argc */
        bnez    a0, 6f                  /* no command line: argc = 0 */

        /* Split the line at spaces and tabs, in place. */
        la      t0, __tally_cmdline     /* t0 = cursor */
        li      t2, ' '
        li      t3, '\t'
        li      t4, ARGV_MAX - 1
3:      lbu     t1, 0(t0)               /* skip blanks */
        beqz    t1, 6f
        beq     t1, t2, 4f
        beq     t1, t3, 4f
        bgeu    s0, t4, 6f              /* argv full: ignore the rest */
        slli    t5, s0, 2
        add     t5, s1, t5
        sw      t0, 0(t5)               /* argv[argc++] = word start */
        addi    s0, s0, 1
5:      addi    t0, t0, 1               /* scan to the end of the word */
        lbu     t1, 0(t0)
        beqz    t1, 6f
        beq     t1, t2, 7f
        beq     t1, t3, 7f
        j       5b
7:      sb      zero, 0(t0)             /* terminate the word */
4:      addi    t0, t0, 1
        j       3b

6:      slli    t5, s0, 2               /* argv[argc] = NULL */
        add     t5, s1, t5
        sw      zero, 0(t5)

        mv      a0, s0
        mv      a1, s1
        li      a2, 0                   /* envp */
        call    main
        mv      s0, a0                  /* keep the status for the fallback */
        call    exit                    /* flushes stdio, semihosting exit */

        /* exit() should not return; if the host ignored the semihosting
         * exit, fall back on the SiFive test finisher. */
        li      t0, 0x100000
        li      t1, 0x3333
        slli    t2, s0, 16
        or      t1, t1, t2
        sw      t1, 0(t0)
8:      wfi
        j       8b
        .size   _start, . - _start

/* The semihosting trap: a0 = operation, a1 = parameter; result in a0.
 * The three instructions must be uncompressed and on one page. */
        .section .text.__tally_semihost, "ax", @progbits
        .balign 16
        .globl  __tally_semihost
        .type   __tally_semihost, @function
__tally_semihost:
        .option push
        .option norvc
        slli    zero, zero, 0x1f
        ebreak
        srai    zero, zero, 7
        .option pop
        ret
        .size   __tally_semihost, . - __tally_semihost

        .section .bss.__tally_cmdline, "aw", @nobits
        .balign 4
__tally_cmdline_blk:
        .space  8
__tally_argv:
        .space  4 * ARGV_MAX
__tally_cmdline:
        .space  CMDLINE_SIZE
