// fence.S - fence and fence.i.
//
// fence (any predecessor/successor set, fence.tso, pause) orders memory
// accesses; on a single in-order hart it changes no result. fence.i makes
// earlier stores visible to instruction fetch: code written to memory and
// then executed after a fence.i must behave as the new instructions,
// including code that had already run (and was possibly predecoded)
// before it was overwritten, and code in the same straight-line run as
// the store.
//
// Instruction encodings used as data (worked out by hand; the tests also
// check the assembler produced the same bits for the original code):
//   addi a0, x0, k   = (k << 20) | (10 << 7) | 0x13     = 0x00k00513
//   addi a0, a0, k   = (k << 20) | (10 << 15) | (10 << 7) | 0x13
//                                                          = 0x00k50513
//   jalr x0, 0(ra)   = (1 << 15) | 0x67                 = 0x00008067
//   c.li a0, k       = 010 k[5] 01010 k[4:0] 01          = 0x4501 | (k << 2)
//   c.nop            = 0x0001,   c.jr ra = 0x8082
#include "test_macros.h"

TEST_BEGIN

    // ---- fence variants ----
    TEST_NUM 1
    la      a1, fence_word
    li      a2, 0x11223344
    sw      a2, 0(a1)
    fence
    lw      a4, 0(a1)
    CHECK   a4, 0x11223344
    li      a2, 0x55667788
    sw      a2, 0(a1)
    fence   rw, rw
    fence   r, r
    fence   w, w
    fence   iorw, iorw
    fence   i, o
    fence.tso
    .word   0x0100000f              // pause (fence w, 0)
    lw      a4, 0(a1)
    CHECK   a4, 0x55667788
    TEST_NUM 2                      // a fence between a store and a dependent load
    li      a2, 0x99aabbcc
    sw      a2, 0(a1)
    fence   w, r
    lw      a4, 0(a1)
    CHECK   a4, 0x99aabbcc

    // ---- fence.i: new code written into a data buffer ----
    TEST_NUM 10
    la      a1, code_buf
    li      a2, 0x00150513          // addi a0, a0, 1
    sw      a2, 0(a1)
    li      a2, 0x00008067          // ret
    sw      a2, 4(a1)
    fence.i
    li      a0, 41
    jalr    ra, 0(a1)
    CHECK   a0, 42
    TEST_NUM 11                     // overwrite it after it ran
    la      a1, code_buf
    li      a2, 0x00250513          // addi a0, a0, 2
    sw      a2, 0(a1)
    fence.i
    li      a0, 41
    jalr    ra, 0(a1)
    CHECK   a0, 43

    // ---- fence.i: overwrite code in .text that already ran ----
    TEST_NUM 20
    la      a1, patch_fn
    lw      a4, 0(a1)
    CHECK   a4, 0x00100513          // the assembler agrees on the encoding
    li      a0, 0
    jal     ra, patch_fn
    CHECK   a0, 1
    TEST_NUM 21
    la      a1, patch_fn
    li      a2, 0x00200513          // addi a0, x0, 2
    sw      a2, 0(a1)
    fence.i
    jal     ra, patch_fn
    CHECK   a0, 2
    TEST_NUM 22                     // again: the patched code ran once already
    li      a2, 0x00300513          // addi a0, x0, 3
    sw      a2, 0(a1)
    fence.i
    jal     ra, patch_fn
    CHECK   a0, 3

    // ---- fence.i: the patched instruction follows the store directly ----
    // The loop runs the same straight-line code twice; each pass rewrites
    // the instruction at patch_here (in its own run) before reaching it.
    TEST_NUM 30
    la      a1, patch_here
    lw      a4, 0(a1)
    CHECK   a4, 0x00400513          // addi a0, x0, 4 as assembled
    li      a3, 0x00500513          // first pass: addi a0, x0, 5
    li      a5, 0                   // pass counter
patch_loop:
    sw      a3, 0(a1)
    fence.i
patch_here:
    addi    a0, x0, 4
    addi    a5, a5, 1
    li      a2, 1
    bne     a5, a2, patch_second
    CHECK   a0, 5
    li      a3, 0x00600513          // second pass: addi a0, x0, 6
    j       patch_loop
patch_second:
    CHECK   a0, 6

    // ---- fence.i: compressed code, and changing instruction boundaries ----
    TEST_NUM 40
    la      a1, patch_c
    lhu     a4, 0(a1)
    CHECK   a4, 0x4515              // c.li a0, 5 as assembled
    jal     ra, patch_c
    CHECK   a0, 5
    li      a2, 0x451d              // c.li a0, 7
    sh      a2, 0(a1)
    fence.i
    jal     ra, patch_c
    CHECK   a0, 7
    TEST_NUM 41                     // one 32-bit instruction becomes two 16-bit
    jal     ra, patch_mix
    CHECK   a0, 1
    la      a1, patch_mix
    li      a2, 0x0001450d          // c.li a0, 3 ; c.nop
    sw      a2, 0(a1)
    fence.i
    jal     ra, patch_mix
    CHECK   a0, 3
    TEST_NUM 42                     // ... and back
    li      a2, 0x00900513          // addi a0, x0, 9
    sw      a2, 0(a1)
    fence.i
    jal     ra, patch_mix
    CHECK   a0, 9
    TEST_NUM 43                     // a 32-bit instruction at 2 mod 4, two halves
    la      a1, patch_odd
    andi    a4, a1, 3
    CHECK   a4, 2
    jal     ra, patch_odd_fn
    CHECK   a0, 1
    li      a2, 0x0513              // addi a0, x0, 8 = 0x00800513
    sh      a2, 0(a1)
    li      a2, 0x0080
    sh      a2, 2(a1)
    fence.i
    jal     ra, patch_odd_fn
    CHECK   a0, 8

TEST_END

// ---- code that the tests rewrite ----
    .balign 4, 0
patch_fn:
    addi    a0, x0, 1
    ret
patch_mix:
    addi    a0, x0, 1
    ret
patch_c:
    .option rvc
    c.li    a0, 5
    c.jr    ra
    .option norvc
    .balign 4, 0
patch_odd_fn:
    .option rvc
    c.nop
    .option norvc
patch_odd:                          // 2 mod 4
    addi    a0, x0, 1
    ret

    .data
    .balign 4
fence_word: .word 0
code_buf:   .word 0, 0
