/*
 * hanoi - the Towers of Hanoi, solved recursively on real pegs.
 *
 * Three pegs are stacks of disc sizes; every move pops one peg and pushes
 * another, and is checked: a move from an empty peg or onto a smaller disc
 * fails the run. Deep recursion, many small calls: a call/return workload.
 *
 * Self-check: the number of moves must be 2^n - 1 (the closed form), all
 * n discs must end on the target peg in order, the others empty. The
 * checksum folds the sequence of moves.
 *
 * Size parameter: number of discs (default 18, at most 30).
 */
#include <stdint.h>
#include <stdio.h>
#include <tally/target.h>

#define MAX_DISCS 30

typedef struct {
    int top;                    /* number of discs on the peg */
    uint8_t disc[MAX_DISCS];    /* sizes, bottom first */
} peg_t;

static peg_t pegs[3];
static uint32_t moves;
static uint32_t trail;          /* running hash of the moves */
static int illegal;

static __attribute__((noinline)) void move_disc(int from, int to)
{
    peg_t *f = &pegs[from], *t = &pegs[to];
    if (f->top == 0 || (t->top > 0 && t->disc[t->top - 1] < f->disc[f->top - 1])) {
        illegal++;
        return;
    }
    uint8_t d = f->disc[--f->top];
    t->disc[t->top++] = d;
    moves++;
    trail = (trail << 5 | trail >> 27) ^ (uint32_t)(d << 4 | from << 2 | to);
}

static __attribute__((noinline)) void hanoi(int n, int from, int to, int via)
{
    if (n == 0)
        return;
    hanoi(n - 1, from, via, to);
    move_disc(from, to);
    hanoi(n - 1, via, to, from);
}

int main(int argc, char **argv)
{
    unsigned long n = TALLY_ITERS(18);
    if (n > MAX_DISCS) {
        printf("hanoi: at most %d discs\n", MAX_DISCS);
        return 2;
    }
    for (unsigned long i = 0; i < n; i++)
        pegs[0].disc[i] = (uint8_t)(n - i);
    pegs[0].top = (int)n;

    hanoi((int)n, 0, 2, 1);

    uint32_t want = (uint32_t)((1ul << n) - 1);
    int bad = 0;
    if (illegal) {
        printf("hanoi: FAIL %d illegal moves\n", illegal);
        bad = 1;
    }
    if (moves != want) {
        printf("hanoi: FAIL %lu moves, 2^%lu-1 = %lu expected\n", (unsigned long)moves, n,
               (unsigned long)want);
        bad = 1;
    }
    if (pegs[0].top != 0 || pegs[1].top != 0 || pegs[2].top != (int)n) {
        printf("hanoi: FAIL pegs hold %d/%d/%d discs at the end\n", pegs[0].top, pegs[1].top,
               pegs[2].top);
        bad = 1;
    }
    for (int i = 0; i < pegs[2].top; i++)
        if (pegs[2].disc[i] != (uint8_t)(n - (unsigned long)i)) {
            printf("hanoi: FAIL target peg out of order at position %d\n", i);
            bad = 1;
            break;
        }
    if (bad)
        return 1;
    printf("hanoi: %lu discs, %lu moves = 2^%lu-1\n", n, (unsigned long)moves, n);
    printf("hanoi: checksum %08lx\n", (unsigned long)trail);
    printf("hanoi: OK\n");
    return 0;
}
