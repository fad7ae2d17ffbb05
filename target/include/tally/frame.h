/*
 * tally/frame.h - saving and restoring integer registers as a frame of 32
 * words, frame[i] = x<i> at byte offset 4*i (frame[0] is the caller's:
 * mepc, say), for trap entries written in assembly (.S files; nothing here
 * for C). Used by target/rtos/rtos_trap.S and tally inst's runtime
 * (target/inst/rt_entry.S).
 *
 *   tally_frame_save BASE, I, J, ...   sw x<I>, 4*I(BASE) for each I listed
 *   tally_frame_load BASE, I, J, ...   lw x<I>, 4*I(BASE) for each I listed
 *
 * TALLY_FRAME_X3_X31 and TALLY_FRAME_X7_X31 list x3 (x7) up to x31, e.g.
 * `tally_frame_save sp, 1, TALLY_FRAME_X3_X31` saves every register but
 * x0 and sp.
 */
#ifndef TALLY_FRAME_H
#define TALLY_FRAME_H
#ifdef __ASSEMBLER__

#define TALLY_FRAME_X7_X31 \
  7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
#define TALLY_FRAME_X3_X31 3, 4, 5, 6, TALLY_FRAME_X7_X31

        .macro tally_frame_save base, regs:vararg
        .irp i, \regs
        sw      x\i, (4 * \i)(\base)
        .endr
        .endm

        .macro tally_frame_load base, regs:vararg
        .irp i, \regs
        lw      x\i, (4 * \i)(\base)
        .endr
        .endm

#endif
#endif
