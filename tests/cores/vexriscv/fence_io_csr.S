/* fence_io_csr.S -- a load that misses the D-cache, then fence.i behind a
 * device access or a CSR instruction (found on the RTL's retire traces of
 * rand_gen.py's rand_34, lbu that misses, lbu from a device, fence.i, and
 * rand_44, lbu that misses, sw to a device, csrr, fence.i, on VexRiscv.v).
 * The load misses in write-back and is redone; a device load's wait is the
 * memory stage's and a CSR instruction's the execute stage's (it waits for
 * memory and write-back to empty), both behind the load there, so fence.i
 * is as near it as the instructions alone put it:
 *   A: lw, lw from a device, fence.i       redone (one device read a pass)
 *   B: lw, lw from a device, addi, fence.i redone
 *   C: lbu, sw to a device, csrr, fence.i  redone
 *   D: lw, csrr, fence.i                   redone as with two between
 *   E: lw, addi, csrr, fence.i             redone
 *   F: lw, csrr, addi, fence.i             not redone (fence.i still fetched)
 * Each case a few times in a loop, every load on a line not cached yet. */
#include "vex.h"
/* a case's loop: its head (3 passes, the loop at a line's start) and tail */
    .macro pass_head
    li s8, 3
    j 1f
    .balign 32
1:  addi a0, a0, 1
    .endm
    .macro pass_tail
    add a0, a0, t1
    addi s2, s2, 32
    addi s8, s8, -1
    bne s8, zero, 1b
    .endm

    fixed_layout
    main_entry 0
    li a0, 0
    la s2, buf
    li s5, IO_SCRATCH
    pass_head           /* A */
    lw t0, 0(s2)
    lw t1, 0(s5)
    fence.i
    pass_tail
    pass_head           /* B */
    lw t0, 0(s2)
    lw t1, 0(s5)
    addi t2, a0, 7
    fence.i
    pass_tail
    pass_head           /* C */
    lbu t0, 0(s2)
    sw t1, 0(s5)
    csrr tp, mie
    fence.i
    pass_tail
    pass_head           /* D */
    lw t0, 0(s2)
    csrr t1, mie
    fence.i
    pass_tail
    pass_head           /* E */
    lw t0, 0(s2)
    addi t1, a0, 7
    csrr t2, mie
    fence.i
    pass_tail
    pass_head           /* F */
    lw t0, 0(s2)
    csrr t1, mie
    addi t2, a0, 7
    fence.i
    pass_tail
    main_return 0, mask=1

    .bss
    .balign 32
buf:
    .space 1024
