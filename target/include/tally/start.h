/*
 * tally/start.h - the first steps of a program's start-up code, shared by
 * target/crt0.S, tests/profile/pstart.S and bench/embench/rv32emu/crt0.S
 * (.S files; nothing here for C):
 *
 *   tally_start_setup   gp, sp (__stack, 16-byte aligned), tp (__tls_base:
 *                       picolibc keeps errno etc. in TLS), then .tbss and
 *                       .bss cleared (__bss_start..__bss_end, word-aligned
 *                       by the linker script). Uses t0 and t1.
 *
 * Everything else is loaded to its run address by the ELF loader, so there
 * is no .data copy.
 */
#ifndef TALLY_START_H
#define TALLY_START_H
#ifdef __ASSEMBLER__

        .macro  tally_start_setup
        .option push
        .option norelax
        la      gp, __global_pointer$
        .option pop
        la      sp, __stack
        andi    sp, sp, -16
        la      tp, __tls_base
        la      t0, __bss_start
        la      t1, __bss_end
        bgeu    t0, t1, 2f
1:      sw      zero, 0(t0)
        addi    t0, t0, 4
        bltu    t0, t1, 1b
2:
        .endm

#endif
#endif
