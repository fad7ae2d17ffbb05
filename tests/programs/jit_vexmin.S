/* jit_vexmin.S -- vexriscv-min under the translator (jit_vex.c; litex
 * board, api.engines.timed-vexriscv-min*): one load whose address
 * alternates, round by round, between main RAM and the IO region, in a
 * replayed stretch (addi, lw) whose start state is otherwise the same each
 * round: on a board whose RAM and IO have different wait states
 * (api.engines.timed-vexriscv-min-ram-ws2) the load's beat takes a
 * different time each round, and only the replay's key on those wait
 * states tells the rounds apart. The address is chosen without a branch
 * and before a jump, so that the stretch's entry (a redirect) and the
 * registers it reads are the same in every round. */
    .section .text.start
    .globl _start
_start:
    li s0, 64               # rounds
    la s1, word             # in main RAM
    li s2, 0xF0000100       # in the IO region (an uncached scratch word: reads 0)
    li a1, 0
    li a3, 0
1:  andi t0, s0, 1
    sub t0, zero, t0        # all ones in odd rounds
    and t1, s2, t0
    not t0, t0
    and t2, s1, t0
    or a0, t1, t2           # odd rounds: IO, even: RAM
    j 2f
2:  addi a1, a1, 1
    lw a2, 0(a0)
    add a3, a3, a2
    addi s0, s0, -1
    bnez s0, 1b
    li t1, 32 * 7           # the RAM word, read in the 32 even rounds
    bne a3, t1, 3f
    li t1, 0x5555           # finisher: pass
    j 4f
3:  li t1, 0x10000 | 0x3333 # finisher: fail with status 1
4:  li t0, 0xF0000000
    sw t1, 0(t0)
5:  j 5b
    .data
word: .word 7
