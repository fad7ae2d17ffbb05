/*
 * rtos_trap.S - the trap entry of rtos.c: every trap (the tick, an ecall
 * yield) saves the running task's registers on its stack as a frame of 32
 * words (frame[0] = mepc, frame[i] = x<i>, frame[2] unused), stores sp in
 * its TCB (rtos_task.sp, offset 0), calls rtos_trap(mcause, frame), which
 * may change rtos_current, and restores whatever task rtos_current is then.
 * Tasks always resume with interrupts enabled (MPIE set before mret).
 */
#include <tally/frame.h>

        .section .text.rtos_trap_entry, "ax", @progbits
        .globl  rtos_trap_entry
        .type   rtos_trap_entry, @function
        .balign 4
rtos_trap_entry:
        addi    sp, sp, -128
        tally_frame_save sp, 1, TALLY_FRAME_X3_X31
        csrr    t0, mepc
        sw      t0, 0(sp)
        la      t0, rtos_current
        lw      t1, 0(t0)
        beqz    t1, 1f
        sw      sp, 0(t1)
1:      csrr    a0, mcause
        mv      a1, sp
        call    rtos_trap
        la      t0, rtos_current
        lw      t1, 0(t0)
        lw      sp, 0(t1)
        lw      t0, 0(sp)
        csrw    mepc, t0
        li      t0, 0x1880              /* MPP = machine, MPIE */
        csrs    mstatus, t0
        tally_frame_load sp, 1, TALLY_FRAME_X3_X31
        addi    sp, sp, 128
        mret
        .size   rtos_trap_entry, . - rtos_trap_entry
