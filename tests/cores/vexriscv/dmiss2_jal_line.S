/* dmiss2_jal_line.S -- two back-to-back loads that miss the D-cache (lw,
 * then lh last on its I-cache line), then a jal first on the next line,
 * which misses, to a leaf whose line misses too (issue 24). On VexRiscv.v
 * the jal's line is refilled during the lw's fill (the lh is that load's
 * k = 1 word, the jal k = 2: refill_refetch's early word), and after the
 * lw's redo the jal is right behind the lh as a word that hit: its jump
 * sends the fetch to the leaf while the lh's miss is being found, the
 * leaf's refill going out with the lh's fill (W = 0: the jal's line's beats
 * 235..249 interleaved with the lw's fill, the leaf's line's and the lh's
 * fill's first beats both at 259; lh retires at 281, jal 282, leaf 284).
 * VexRiscv_IMAC.v: the jal's line's beats 228..242 with the lw's fill,
 * the leaf's first beat a cycle before the lh's (251, 252: the lh's k = 3
 * word), the lh retiring at 273 (the refill's last beat + 8), the jal at
 * 274, the leaf at 276 (W = 0). */
#include "vex.h"
    fixed_layout
    main_entry 0
    li a0, 0
    la s2, data
    j case_a

    at_word 6
case_a:
    lw t0, 0(s2)
    lh a5, 64(s2)
    jal ra, leaf_a
    add a0, a0, a5
    main_return 0

    .balign 32
leaf_a:
    addi a0, a0, 3
    ret

    .data
    .balign 32
data:
    .space 256
