/* wbuf_jalr.S -- a jalr right behind a store that waits for the write
 * buffer, before words the decompressor holds ([pipeline]
 * redirect_rvc_pair; Embench wikisort built rv32imac -O2: __riscv_save_0's
 * c.sw ra, then c.jr t0 at 2 mod 4 before three words of two 16-bit
 * instructions). Each case is a function called 16 times by jal t0:
 *   A  c.sw x3 (the last waits), c.jr t0 at 2 mod 4, then c.nop x6
 *   B  c.sw x4 (the last waits), c.nop, c.jr t0 at 2 mod 4, c.nop x6:
 *      an instruction between the store and the jalr
 *   C  (control) c.nop x3, c.jr t0 at 2 mod 4, c.nop x6: no store
 *   D  c.sw x5 (the last two wait), c.jr t0 at 2 mod 4, c.nop x6
 * On VexRiscv_IMAC.v the DataCache holds a store in write-back until the
 * bus takes it, the jalr behind it in memory, where it redirects, the word
 * of two's cycle passing during the wait: in A and D the caller's addi
 * retires 4 cycles after the c.jr, in B and C 5. Built rv32imac; the other
 * variants stop at its first 16-bit instruction (illegal, exit 0x102). */
#include "vex.h"
/* one 16-bit instruction, spelt out, in fixed_layout's norvc */
    .macro rvc insn:vararg
    .option push
    .option rvc
    \insn
    .option pop
    .endm
/* call f 16 times from a line of its own */
    .macro calls f
    li s6, 16
    .balign 32
91: jal t0, \f
    addi s6, s6, -1
    bne s6, zero, 91b
    .endm
    fixed_layout
    main_entry 12
    la a4, dst
    calls fa
    calls fb
    calls fc
    calls fd
    li a0, 0
    main_return 12
    .balign 32
fa: rvc c.sw a0, 0(a4)          /* A */
    rvc c.sw a1, 4(a4)
    rvc c.sw a2, 8(a4)
    rvc c.jr t0
    .rept 6
    rvc c.nop
    .endr
    .balign 32
fb: rvc c.sw a0, 0(a4)          /* B */
    rvc c.sw a1, 4(a4)
    rvc c.sw a2, 8(a4)
    rvc c.sw a3, 12(a4)
    rvc c.nop
    rvc c.jr t0
    .rept 6
    rvc c.nop
    .endr
    .balign 32
fc: rvc c.nop                   /* C */
    rvc c.nop
    rvc c.nop
    rvc c.jr t0
    .rept 6
    rvc c.nop
    .endr
    .balign 32
fd: rvc c.sw a0, 0(a4)          /* D */
    rvc c.sw a1, 4(a4)
    rvc c.sw a2, 8(a4)
    rvc c.sw a3, 12(a4)
    rvc c.sw a0, 0(a4)
    rvc c.jr t0
    .rept 6
    rvc c.nop
    .endr
    .data
    .balign 64
dst:
    .rept 16
    .word 0
    .endr
