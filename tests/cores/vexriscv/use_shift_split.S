/* use_shift_split.S -- a 32-bit branch at 2 mod 4 taken forward, against
 * its prediction, whose first wrong-path instruction (pc + 4) is a shift
 * and whose second reads its result, on lines that hit
 * ([pipeline] wrong_path_use_split): on VexRiscv_IMAC.v decode holds the
 * reader for the shift's result in the redirect's cycle and the target
 * comes a cycle later, as after a load there (use_hold_split.S). Embench
 * picojpeg built rv32imac: pjpeg_decode_mcu's c.mv, bnez s3 at 0x40001436,
 * srli a5, a0, 4 and andi a5, a5, 255 after it. Each case a loop of 4
 * (the target a hit after the first pass): A, c.mv, bnez, srli, andi of
 * it; B, beq, slli, add of it; C (control), srli and an andi of another
 * register; D, a 16-bit c.srli first, andi of it. std and min stop at the
 * first 16-bit instruction (illegal there), as the RTL does. */
#include "vex.h"
    fixed_layout
    main_entry 12
    li a0, 0x1234
    li s3, 1
    li t0, 0
    /* A */
    li a1, 4
    at_word 0
2:  nop
    rvc16 c.mv a4, a0          /* 0x04 */
    bnez s3, 1f          /* 0x06 */
    srli a5, a0, 4
    andi a5, a5, 255
    j 9f
    .balign 32
1:  addi a1, a1, -1
    bnez a1, 2b
    /* B */
    li a1, 4
    at_word 0
2:  nop
    rvc16 c.mv a4, a0          /* 0x04 */
    beq t0, t0, 1f       /* 0x06 */
    slli a5, a0, 4
    add a5, a5, a0
    j 9f
    .balign 32
1:  addi a1, a1, -1
    bnez a1, 2b
    /* C (control): no reader */
    li a1, 4
    at_word 0
2:  nop
    rvc16 c.mv a4, a0          /* 0x04 */
    bnez s3, 1f          /* 0x06 */
    srli a5, a0, 4
    andi a3, a0, 255
    j 9f
    .balign 32
1:  addi a1, a1, -1
    bnez a1, 2b
    /* D: a 16-bit first */
    li a1, 4
    at_word 0
2:  nop
    rvc16 c.mv a4, a0          /* 0x04 */
    bnez s3, 1f          /* 0x06 */
    rvc16 c.srli a5, 4
    andi a5, a5, 255
    j 9f
    .balign 32
1:  addi a1, a1, -1
    bnez a1, 2b
9:  main_return 12, 1
