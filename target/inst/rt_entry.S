/*
 * rt_entry.S - the instrumented program's new entry point and the trap
 * entry of the analysis runtime. Neither touches a program register for
 * good: mscratch holds the context's address, and every register the
 * handler uses is saved into the context first and restored last.
 */
#include "rt.h"

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
        sw      x1, 4(sp)
        sw      x3, 12(sp)
        sw      x4, 16(sp)
        sw      x5, 20(sp)
        sw      x6, 24(sp)
        sw      x7, 28(sp)
        sw      x8, 32(sp)
        sw      x9, 36(sp)
        sw      x10, 40(sp)
        sw      x11, 44(sp)
        sw      x12, 48(sp)
        sw      x13, 52(sp)
        sw      x14, 56(sp)
        sw      x15, 60(sp)
        sw      x16, 64(sp)
        sw      x17, 68(sp)
        sw      x18, 72(sp)
        sw      x19, 76(sp)
        sw      x20, 80(sp)
        sw      x21, 84(sp)
        sw      x22, 88(sp)
        sw      x23, 92(sp)
        sw      x24, 96(sp)
        sw      x25, 100(sp)
        sw      x26, 104(sp)
        sw      x27, 108(sp)
        sw      x28, 112(sp)
        sw      x29, 116(sp)
        sw      x30, 120(sp)
        sw      x31, 124(sp)
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
        lw      x1, 4(sp)
        lw      x3, 12(sp)
        lw      x4, 16(sp)
        lw      x5, 20(sp)
        lw      x6, 24(sp)
        lw      x7, 28(sp)
        lw      x8, 32(sp)
        lw      x9, 36(sp)
        lw      x10, 40(sp)
        lw      x11, 44(sp)
        lw      x12, 48(sp)
        lw      x13, 52(sp)
        lw      x14, 56(sp)
        lw      x15, 60(sp)
        lw      x16, 64(sp)
        lw      x17, 68(sp)
        lw      x18, 72(sp)
        lw      x19, 76(sp)
        lw      x20, 80(sp)
        lw      x21, 84(sp)
        lw      x22, 88(sp)
        lw      x23, 92(sp)
        lw      x24, 96(sp)
        lw      x25, 100(sp)
        lw      x26, 104(sp)
        lw      x27, 108(sp)
        lw      x28, 112(sp)
        lw      x29, 116(sp)
        lw      x30, 120(sp)
        lw      x31, 124(sp)
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
        sw      x1, 4(t0)
        sw      x2, 8(t0)
        sw      x3, 12(t0)
        sw      x4, 16(t0)
        sw      x7, 28(t0)
        sw      x8, 32(t0)
        sw      x9, 36(t0)
        sw      x10, 40(t0)
        sw      x11, 44(t0)
        sw      x12, 48(t0)
        sw      x13, 52(t0)
        sw      x14, 56(t0)
        sw      x15, 60(t0)
        sw      x16, 64(t0)
        sw      x17, 68(t0)
        sw      x18, 72(t0)
        sw      x19, 76(t0)
        sw      x20, 80(t0)
        sw      x21, 84(t0)
        sw      x22, 88(t0)
        sw      x23, 92(t0)
        sw      x24, 96(t0)
        sw      x25, 100(t0)
        sw      x26, 104(t0)
        sw      x27, 108(t0)
        sw      x28, 112(t0)
        sw      x29, 116(t0)
        sw      x30, 120(t0)
        sw      x31, 124(t0)
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
        lw      x1, 4(t0)
        lw      x2, 8(t0)
        lw      x3, 12(t0)
        lw      x4, 16(t0)
        lw      x7, 28(t0)
        lw      x8, 32(t0)
        lw      x9, 36(t0)
        lw      x10, 40(t0)
        lw      x11, 44(t0)
        lw      x12, 48(t0)
        lw      x13, 52(t0)
        lw      x14, 56(t0)
        lw      x15, 60(t0)
        lw      x16, 64(t0)
        lw      x17, 68(t0)
        lw      x18, 72(t0)
        lw      x19, 76(t0)
        lw      x20, 80(t0)
        lw      x21, 84(t0)
        lw      x22, 88(t0)
        lw      x23, 92(t0)
        lw      x24, 96(t0)
        lw      x25, 100(t0)
        lw      x26, 104(t0)
        lw      x27, 108(t0)
        lw      x28, 112(t0)
        lw      x29, 116(t0)
        lw      x30, 120(t0)
        lw      x31, 124(t0)
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
