/* wp_jump_held.S -- a jump on a mispredicted branch's wrong path, decoded
 * as the branch goes on, sends the fetch to its target and stops it
 * looking up the words after it, unless the branch waited in decode long
 * enough for the fetch to reach the next line first (issue 24: Embench
 * sglib-combined, nsichneu, nettle-sha256 built rv32imac; the standard
 * variant's wrong_path_jump_halts, not set on imac: see bench/vexriscv.md,
 * "wrong-path jumps on imac"). Each case a 32-bit beq at a line's byte 22,
 * always taken forward (against its static prediction), a jump predicted
 * taken after it at byte 26; the line after the branch's is evicted before
 * each pass (a call to a ret at its alias 4 KiB on: the I-cache is 4 KiB,
 * direct-mapped). Three passes.
 * - A (nsichneu's c.lw, lw, beq, `j` back at 0x40002810): the beq on the
 *   lw's result right before it (2 cycles' wait in decode), its target
 *   the addi right after the j, at byte 30, split over the next line: the
 *   next line is refilled on the wrong path (the RTL's retire trace as
 *   tally's without the halt; 2 cycles a pass over with it);
 * - C (nettle-sha256's bgeu, `c.j .`, `c.j .` at 0x400015b6, but no wait
 *   before the beq): the same geometry, the next line not refilled before
 *   the redirect (the RTL as tally's with the halt; 1 short a pass
 *   without it);
 * - B (sglib's beqz, `beq` back at 0x400002d6): the beq's target two lines
 *   on (evicted too), the wrong-path jump a beq back to its own line, then
 *   a c.li at byte 30: the next line is not refilled, the target's refill
 *   goes out as the beq redirects (tally at main refills the next line
 *   first: about 30 cycles a pass over at W = 0).
 * Built rv32imac; the other variants stop at its first 16-bit instruction
 * (illegal). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
    fixed_layout
    main_entry 0
    li a0, 0
    li s1, 1
    li s8, 3
    j loop

    at_word 0
loop:
    jal evict
    j Aentry
    at_word 0                 /* A */
Aline:
    nops 4                    /* never run */
Aentry:
    rvc c.lwsp s0, 0(sp)
    lw t6, 0(sp)
    beq s0, t6, 1f
    j 1f
1:  addi a0, a0, 2
    rvc c.nop
    addi a0, a0, 3
    at_word 0                 /* C */
Cline:
    nops 4
    rvc c.nop
    rvc c.nop
    rvc c.mv s0, s1
    beq s0, s1, 1f
    rvc c.j .
    rvc c.j .
1:  addi a0, a0, 4
    rvc c.nop
    addi a0, a0, 5
    at_word 0                 /* B */
Bline:
    nops 5
    rvc c.nop
    beq s1, s1, Btgt
    beq s1, s1, Bline
    rvc c.li a4, 1
    addi a0, a0, 100          /* never run: the next line */
    at_word 0
Btgt:
    addi a0, a0, 5
    addi s8, s8, -1
    bnez s8, loop
    main_return 0, mask=1

/* the driver's calls: each a ret at a line's alias 4 KiB on */
    at_word 0
evict:
    mv t0, ra
    jal Aline + 4096
    jal Aline + 32 + 4096
    jal Cline + 32 + 4096
    jal Bline + 32 + 4096
    jal Btgt + 4096
    jr t0
    at_word 0                 /* the line the jr's wrong path refills */
    nop

    .org Aline + 4096 - main
    ret
    .org Aline + 32 + 4096 - main
    ret
    .org Cline + 32 + 4096 - main
    ret
    .org Bline + 32 + 4096 - main
    ret
    .org Btgt + 4096 - main
    ret
