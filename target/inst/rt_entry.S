/*
 * rt_entry.S - the instrumented program's new entry point and the trap
 * entry of the analysis runtime. Neither touches a program register for
 * good: mscratch holds the context's address, and every register the
 * handler uses is saved into the context first and restored last.
 */
#include "rt.h"
#include <tally/frame.h>

        .section .text.tally_inst_entry, "ax", @progbits
        .option push
        .option norelax
        .option norvc

/* The ELF entry: install the trap vector, keep the context's address in
 * mscratch and go on to the program's own entry point (mret: a jal would
 * not reach 128 MiB down; MPIE cleared so that interrupts stay off, MPP
 * set to machine mode, which QEMU leaves at 0 after reset). */
        .globl  __tally_inst_start
        .type   __tally_inst_start, @function
__tally_inst_start:
        csrw    mscratch, t0
        la      t0, __tally_inst_trap
        csrw    mtvec, t0
        la      t0, __tally_inst_orig_entry
        csrw    mepc, t0
        li      t0, 0x80
        csrc    mstatus, t0
        li      t0, 0x1800
        csrs    mstatus, t0
        la      t0, __tally_inst_ctx
        csrrw   t0, mscratch, t0
        mret
        .size   __tally_inst_start, . - __tally_inst_start

/* Every trap comes here: a site's ebreak, or the program's own trap,
 * which is handed on to the program's handler (rt.c). */
        .balign 4
        .globl  __tally_inst_trap
        .type   __tally_inst_trap, @function
__tally_inst_trap:
        csrrw   sp, mscratch, sp        /* sp = context, mscratch = program sp */
        sw      t0, CTX_TMP(sp)
        lw      t0, CTX_BUSY(sp)
        bnez    t0, 2f
        /* The fast path: an ebreak at a trap site that has a trampoline
         * (tramps.S, __tally_inst_fast: one word per code halfword) goes
         * on to it with every register as it was; the trampoline does
         * the rest, as after a jal. */
        csrr    t0, mcause
        addi    t0, t0, -3
        bnez    t0, 3f
        sw      t1, CTX_SAVE1(sp)
        csrr    t0, mepc
        lui     t1, %hi(__tally_inst_fast_lo)
        lw      t1, %lo(__tally_inst_fast_lo)(t1)
        sub     t0, t0, t1
        srli    t0, t0, 1               /* halfword index (mepc is even) */
        lui     t1, %hi(__tally_inst_fast_n)
        lw      t1, %lo(__tally_inst_fast_n)(t1)
        bgeu    t0, t1, 4f
        slli    t0, t0, 2
        lui     t1, %hi(__tally_inst_fast)
        addi    t1, t1, %lo(__tally_inst_fast)
        add     t0, t0, t1
        lw      t0, 0(t0)
        beqz    t0, 4f
        csrw    mepc, t0                /* mret: MIE as it was, to the trampoline */
        lw      t1, CTX_SAVE1(sp)
        lw      t0, CTX_TMP(sp)
        csrrw   sp, mscratch, sp
        mret
4:      lw      t1, CTX_SAVE1(sp)
3:
        li      t0, -1                  /* pause every counter while we run */
        csrrw   t0, CSR_MCOUNTINHIBIT, t0
        sw      t0, CTX_INHIBIT(sp)
        lw      t0, CTX_TMP(sp)
        tally_frame_save sp, 1, TALLY_FRAME_X3_X31
        csrr    t0, mscratch
        sw      t0, 8(sp)
        csrw    mscratch, sp
        li      t0, 1
        sw      t0, CTX_BUSY(sp)
        mv      a0, sp
        la      sp, __tally_inst_stack_top
        li      gp, 0
        li      tp, 0
        call    __tally_inst_handle
1:      csrr    sp, mscratch
        lw      t0, CTX_NEWPC(sp)
        csrw    mepc, t0
        sw      zero, CTX_BUSY(sp)
        lw      t0, CTX_INHIBIT(sp)
        csrw    CSR_MCOUNTINHIBIT, t0
        tally_frame_load sp, 1, TALLY_FRAME_X3_X31
        lw      sp, 8(sp)
        mret

/* A trap while the handler runs: a displaced load or store faulted (or the
 * analysis code did). The handler's state is dropped; the program's
 * registers are still in the context. */
2:      csrw    mscratch, sp
        la      sp, __tally_inst_stack_top
        csrr    a0, mscratch
        li      gp, 0
        li      tp, 0
        call    __tally_inst_nested
        j       1b
        .size   __tally_inst_trap, . - __tally_inst_trap

/* The analysis calls of a jump site (a trampoline of tramps.S comes here
 * with t0 = context, t1 = where to return, the program's t0 in mscratch,
 * its t1 in CTX_SAVE1, the counters already paused and the site's index
 * in CTX_SITE). Saves every register as the trap entry does, runs
 * __tally_inst_jhandle on the runtime's stack, restores every register
 * but t0 (the context) and t1 (the trampoline reloads it), and puts the
 * program's t0 back in mscratch. */
        .balign 4
        .globl  __tally_inst_jcall
        .type   __tally_inst_jcall, @function
__tally_inst_jcall:
        sw      t1, CTX_RET(t0)
        tally_frame_save t0, 1, 2, 3, 4, TALLY_FRAME_X7_X31
        lw      t1, CTX_SAVE1(t0)
        sw      t1, 24(t0)
        csrr    t1, mscratch
        sw      t1, 20(t0)
        csrw    mscratch, t0            /* a trap now is a fault of ours (busy) */
        li      t1, 1
        sw      t1, CTX_BUSY(t0)
        mv      a0, t0
        la      sp, __tally_inst_stack_top
        li      gp, 0
        li      tp, 0
        call    __tally_inst_jhandle
        csrr    t0, mscratch
        sw      zero, CTX_BUSY(t0)
        lw      t1, 20(t0)
        csrw    mscratch, t1
        tally_frame_load t0, 1, 2, 3, 4, TALLY_FRAME_X7_X31
        lw      t1, CTX_RET(t0)
        jr      t1
        .size   __tally_inst_jcall, . - __tally_inst_jcall

/* A semihosting call of our own: a0 = operation, a1 = parameter. The three
 * instructions must be uncompressed and on one page. */
        .balign 16
        .globl  __tally_inst_semihost
        .type   __tally_inst_semihost, @function
__tally_inst_semihost:
        slli    zero, zero, 0x1f
        ebreak
        srai    zero, zero, 7
        ret
        .size   __tally_inst_semihost, . - __tally_inst_semihost
        .option pop
