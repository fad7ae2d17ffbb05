/* jit_vexmin_mem.S -- vexriscv-min under the translator (jit_vex.c; litex
 * board): a loop whose block is 57 loads and stores in a row (byte loads
 * and stores, as nettle-sha256's rounds have them, a halfword and a word
 * pair, each load used by the store right after it), the last a load whose
 * address alternates between main RAM and the IO region (as in
 * jit_vexmin.S). A replayed stretch ends at its first load or store and
 * the ones after it are stepped one by one. Given a replay of their own,
 * each with its check inline, this loop's block, as nettle-sha256's round
 * (51 of 64 ops), grew larger than the translator's 32 KiB scratch even
 * without its loop copy; with the 16 KiB scratch of before 14084a8 every
 * entry of such a block flushed every translation and the run never
 * ended. api.engines.timed-
 * vexriscv-min* run it under both engines, with their time bound, at 0
 * and 2 wait states and with RAM and IO different: the rounds' counts and
 * results must be the same. */
    .section .text.start
    .globl _start
_start:
    li s0, 64               # rounds
    la s1, src
    li s2, 0xF0000100       # in the IO region (an uncached scratch word: reads 0)
    la s3, word             # in main RAM
    li a3, 0
1:  andi t0, s0, 1
    sub t0, zero, t0        # all ones in odd rounds
    and t1, s2, t0
    not t0, t0
    and t2, s3, t0
    or a0, t1, t2           # odd rounds: IO, even: RAM
    j 2f
2:  .set k, 0
    .rept 26
    lbu t0, k(s1)
    sb t0, 64+k(s1)
    .set k, k + 1
    .endr
    lhu t3, 32(s1)
    sh t3, 96(s1)
    lw t4, 36(s1)
    sw t4, 100(s1)
    lw a2, 0(a0)
    add a3, a3, a2
    addi s0, s0, -1
    bnez s0, 1b
    li t1, 32 * 7           # the RAM word, read in the 32 even rounds
    bne a3, t1, 3f
    lbu t1, 64+25(s1)       # the last byte copied
    li t2, 26
    bne t1, t2, 3f
    lw t1, 100(s1)          # the word copied
    li t2, 0x25242322
    bne t1, t2, 3f
    li t1, 0x5555           # finisher: pass
    j 4f
3:  li t1, 0x10000 | 0x3333 # finisher: fail with status 1
4:  li t0, 0xF0000000
    sw t1, 0(t0)
5:  j 5b
    .data
    .balign 4096            # off the code's page: the stores leave the translations alone
word: .word 7
    .balign 4
src:
    .set k, 1
    .rept 32
    .byte k
    .set k, k + 1
    .endr
    .byte 0x10, 0x11, 0, 0, 0x22, 0x23, 0x24, 0x25
    .space 96
