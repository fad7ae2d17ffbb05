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

#ifdef __ASSEMBLER__
/* The "miss a D-line, then ..." frame that the focused D-cache programs
 * share (bnez_dmiss.S, dmiss_split_four.S, taken_dmiss.S, ...). Each macro
 * expands to the words the programs had spelt out, so their bytes (and the
 * RTL's rows in rtl_counts.csv) are unchanged. Both caches are 4 KiB and
 * direct-mapped: a line and the line 4 KiB on share a set. */

/* a1 = buf (its first D-line), a2 = buf + 4 KiB (the word that shares its
 * set; t0 = 4096): a load of 0(a2) evicts buf's line, so the case's next
 * load of buf misses. buf is dline_buf's. */
    .macro dline_alias
    la a1, buf
    li t0, 4096
    add a2, a1, t0
    .endm

/* One case of a pass, evicting first: buf's D-line (a load of its alias),
 * the case's I-line (a call to evict_C, a ret at the case line's alias 4 KiB
 * on), two nops, then the call to case_C. */
    .macro evict_call c
    lw t1, 0(a2)
    jal evict_\c
    nops 2
    jal case_\c
    .endm

/* One case of a pass, calling first: buf's D-line evicted, two nops, the
 * call to case_C, then its I-line evicted (a call to evict_C) for the next
 * pass. */
    .macro miss_call_evict c
    lw t1, 0(a2)
    nops 2
    jal case_\c
    jal evict_\c
    .endm

/* The pass loop's end: s0 counts the passes down to the label pass; then
 * main (main_entry with a frame at OFF) returns 0. */
    .macro next_pass_return0 off=12
    addi s0, s0, -1
    bnez s0, pass
    li a0, 0
    main_return \off
    .endm

/* A ret labelled NAME at byte AT of the section (.org): a call to it brings
 * AT's I-line in, evicting whatever shared its set (the evict_C targets). */
    .macro ret_at name, at
    .org \at
\name:
    ret
    .endm

/* In .data: buf, a 32-byte D-line of 1..8, and the line 4 KiB on (the
 * same set; dline_alias's a2) of 9..16. */
    .macro dline_buf
    .data
    .balign 32
buf:
    .word 1, 2, 3, 4, 5, 6, 7, 8
    .skip 4096 - 32
    .word 9, 10, 11, 12, 13, 14, 15, 16
    .endm

/* evict_call, and miss_call_evict, for each case named, in order (a pass
 * over the cases). */
    .macro evict_call_each cases:vararg
    .irp c, \cases
    evict_call \c
    .endr
    .endm
    .macro miss_call_evict_each cases:vararg
    .irp c, \cases
    miss_call_evict \c
    .endr
    .endm

/* The D-miss programs' main: at a 4 KiB boundary of .text (their cases sit
 * at fixed offsets from it), main_entry's frame at 12, dline_alias's a1/a2,
 * and s0 = PASSES for next_pass_return0's count. */
    .macro dmiss_main passes=4
    .text
    .balign 4096
    main_entry 12
    dline_alias
    li s0, \passes
    .endm

/* ret_at for evict_C, one for each case C named, the first at byte AT and
 * each next STEP on (the case lines' aliases 4 KiB on, one a case). */
    .macro evict_rets at, step, c, more:vararg
    ret_at evict_\c, \at
    .ifnb \more
    evict_rets (\at + \step), \step, \more
    .endif
    .endm

/* One 16-bit (RVC) instruction inside code built norvc (.option norvc or
 * fixed_layout): .option rvc, the instruction, .option norvc again. Mostly
 * rvc16 c.nop, which puts the next instruction at 2 mod 4. */
    .macro rvc16 insn:vararg
    .option rvc
    \insn
    .option norvc
    .endm

/* A call to case_C for each case C named, in order (a pass over cases that
 * need no eviction between them). */
    .macro call_cases cases:vararg
    .irp c, \cases
    jal case_\c
    .endr
    .endm

/* In .data: buf, 32-byte aligned, BYTES bytes of the word VALUE (the lines
 * a pass's loads miss on, each read once). */
    .macro word_buf bytes, value=1
    .data
    .balign 32
buf:
    .rept \bytes / 4
    .word \value
    .endr
    .endm
#endif
