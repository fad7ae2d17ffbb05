/*
 * Three loops in a row, the phase profiler's test case: A reads bufA at a
 * 64-byte stride (every load a new line: 100 cold read misses), B writes
 * bufB the same way (50 cold write misses), C runs 10 times over nothing.
 * The phase A->B is exactly the address range [phase_a, phase_b), B->C is
 * [phase_b, phase_c): no call leaves them. Each header is an addi, so the
 * instruction the instrumenter displaces touches no memory.
 */
        .text
        .globl  phase_kernel, phase_a, phase_b, phase_c, phase_end
        .type   phase_kernel, @function
phase_kernel:
        li      t0, 100
        la      t1, bufA
phase_a:
        addi    t0, t0, -1
        lw      t2, 0(t1)
        addi    t1, t1, 64
        bnez    t0, phase_a
        li      t0, 50
        la      t1, bufB
phase_b:
        addi    t0, t0, -1
        sw      t0, 0(t1)
        addi    t1, t1, 64
        bnez    t0, phase_b
        li      t0, 10
phase_c:
        addi    t0, t0, -1
        bnez    t0, phase_c
phase_end:
        ret
        .size   phase_kernel, . - phase_kernel

        .bss
        .balign 64
/* 64 KiB each, twice the D-cache: the start-up code's clearing of .bss
 * leaves only the last 32 KiB of bufB cached, so the lines used above
 * (the first 6400 and 3200 bytes) all miss. */
bufA:   .space  65536
bufB:   .space  65536
