/* vex.h -- shared definitions of the VexRiscv differential programs. */
#define FINISHER 0xF0000000
#define UART_TX  0xF0001000
/* An uncached IO address inside the finisher's window that is not its
 * register: reads return 0, word writes are ignored (tally's finisher and
 * the RTL testbench alike). */
#define IO_SCRATCH 0xF0000100

#ifdef __ASSEMBLER__
/* The programs' shared frame, as assembler macros that expand to the very
 * words each program had spelt out (their ELFs' loadable bytes, and so the
 * RTL's rows, are the same). */

/* Every word where the source puts it: no compressed encodings and no
 * linker relaxation (a program that places its instructions on I-cache
 * lines counts on it). */
    .macro fixed_layout
    .option norvc
    .option norelax
    .endm

/* main, which crt.S calls (a0 on return is the exit code), in .text; with
 * OFF, a 16-byte frame for a main that calls, ra saved at OFF(sp). */
    .macro main_entry off
    .text
    .globl main
main:
    .ifnb \off
    addi sp, sp, -16
    sw ra, \off(sp)
    .endif
    .endm

/* main's return from main_entry's frame; with mask=1, a0 (a running sum)
 * cut first to the 11 bits an andi keeps, inside the exit code's 16. */
    .macro main_return off, mask=0
    lw ra, \off(sp)
    addi sp, sp, 16
    .if \mask
    andi a0, a0, 0x7ff
    .endif
    ret
    .endm

/* N nops. */
    .macro nops n
    .rept \n
    nop
    .endr
    .endm

/* The next instruction at word N of a new 32-byte I-cache line. */
    .macro at_word n
    .balign 32
    nops \n
    .endm
#endif
