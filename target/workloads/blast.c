/*
 * blast - a BLAST-style DNA search: seed (exact k-mer hits) and extend
 * (ungapped, X-drop) of query sequences against a pseudo-random genome.
 *
 * The genome (128 Ki bases) is indexed once by its 9-mers (a counting-sort
 * table: every position of every 9-mer). Each query is scanned 9-mer by
 * 9-mer; every hit in the index that is not already covered by an earlier
 * extension on the same diagonal is extended left and right with match +1,
 * mismatch -3, stopping when the score drops 10 below the best; alignments
 * scoring 30 or more are reported as HSPs (high-scoring segment pairs).
 *
 * Half of the queries are planted: copied from a random place of the
 * genome with about one base in 32 mutated. The other half are random.
 *
 * Self-check: every planted query must yield an HSP on the diagonal where
 * it was planted; no random query may yield one (the chance of a score of
 * 30 by luck here is about 1e-10); and every reported HSP's score is
 * recomputed base by base over its extent and must match.
 *
 * Size parameter: number of queries (default 300).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define GENOME_LEN  (128u * 1024u)
#define K           9
#define NKMERS      (1u << (2 * K))
#define KMASK       (NKMERS - 1)
#define QMIN        96
#define QMAX        160
#define MATCH       1
#define MISMATCH    (-3)
#define XDROP       10
#define THRESHOLD   30
#define DIAG_SLOTS  1024

typedef struct {
    uint32_t gpos, qpos, len;   /* alignment: genome[gpos..+len) ~ query[qpos..+len) */
    int score;
} hsp_t;

static uint8_t genome[GENOME_LEN];
static uint32_t kmer_start[NKMERS + 1];     /* index: positions of kmer k are */
static uint32_t kmer_pos[GENOME_LEN];       /* kmer_pos[kmer_start[k] .. kmer_start[k+1]) */

static struct {
    int32_t diag;               /* gpos - qpos of the last extension here */
    uint32_t reach;             /* query position it reached */
    uint32_t owner;             /* query number + 1 (0 = empty) */
} diag_seen[DIAG_SLOTS];

static __attribute__((noinline)) void make_genome(tally_rng *rng)
{
    for (uint32_t i = 0; i < GENOME_LEN; i += 16) {
        uint32_t r = tally_rng_next(rng);
        for (int j = 0; j < 16; j++, r >>= 2)
            genome[i + j] = (uint8_t)(r & 3);
    }
}

/* Counting sort of all genome positions by their k-mer. kmer_start is in
 * .bss, so it starts zeroed. */
static __attribute__((noinline)) void build_index(void)
{
    uint32_t kmer = 0;
    for (uint32_t i = 0; i < GENOME_LEN; i++) {
        kmer = ((kmer << 2) | genome[i]) & KMASK;
        if (i >= K - 1)
            kmer_start[kmer]++;
    }
    for (uint32_t k = 1; k < NKMERS; k++)       /* now: end of each bucket */
        kmer_start[k] += kmer_start[k - 1];
    kmer_start[NKMERS] = kmer_start[NKMERS - 1];
    /* Fill from the back, moving each end down to the bucket's start. */
    kmer = 0;
    for (uint32_t p = GENOME_LEN; p-- > 0;) {
        kmer = (kmer >> 2) | ((uint32_t)genome[p] << (2 * (K - 1)));
        if (p + K <= GENOME_LEN)
            kmer_pos[--kmer_start[kmer]] = p;
    }
}

/* Ungapped X-drop extension of the seed genome[g..g+K) = query[q..q+K). */
static __attribute__((noinline)) hsp_t extend_hit(const uint8_t *query, uint32_t qlen, uint32_t g,
                                                  uint32_t q)
{
    int score = K * MATCH, best = score;
    uint32_t right = K;             /* best extent to the right of g, q */
    for (uint32_t d = K; q + d < qlen && g + d < GENOME_LEN; d++) {
        score += genome[g + d] == query[q + d] ? MATCH : MISMATCH;
        if (score > best) {
            best = score;
            right = d + 1;
        } else if (best - score > XDROP) {
            break;
        }
    }
    score = best;
    uint32_t left = 0;
    for (uint32_t d = 1; d <= q && d <= g; d++) {
        score += genome[g - d] == query[q - d] ? MATCH : MISMATCH;
        if (score > best) {
            best = score;
            left = d;
        } else if (best - score > XDROP) {
            break;
        }
    }
    hsp_t h = { g - left, q - left, left + right, best };
    return h;
}

/* Scans one query; stores up to `max` HSPs in out, returns their number. */
static __attribute__((noinline)) int search_query(const uint8_t *query, uint32_t qlen, uint32_t qid,
                                                  hsp_t *out, int max)
{
    int n = 0;
    uint32_t kmer = 0;
    for (uint32_t i = 0; i < qlen; i++) {
        kmer = ((kmer << 2) | query[i]) & KMASK;
        if (i < K - 1)
            continue;
        uint32_t q = i - (K - 1);
        for (uint32_t h = kmer_start[kmer]; h < kmer_start[kmer + 1]; h++) {
            uint32_t g = kmer_pos[h];
            int32_t diag = (int32_t)g - (int32_t)q;
            uint32_t slot = (uint32_t)diag & (DIAG_SLOTS - 1);
            if (diag_seen[slot].owner == qid + 1 && diag_seen[slot].diag == diag &&
                q < diag_seen[slot].reach)
                continue;       /* inside an alignment already found */
            hsp_t hsp = extend_hit(query, qlen, g, q);
            diag_seen[slot].owner = qid + 1;
            diag_seen[slot].diag = diag;
            diag_seen[slot].reach = hsp.qpos + hsp.len;
            if (hsp.score >= THRESHOLD && n < max)
                out[n++] = hsp;
        }
    }
    return n;
}

/* Independent recomputation of an HSP's score over its extent. */
static int rescore(const uint8_t *query, const hsp_t *h)
{
    int s = 0;
    for (uint32_t i = 0; i < h->len; i++)
        s += genome[h->gpos + i] == query[h->qpos + i] ? MATCH : MISMATCH;
    return s;
}

int main(int argc, char **argv)
{
    unsigned long nq = TALLY_ITERS(300);
    if (nq > 1000000ul) {
        printf("blast: at most 1000000 queries\n");
        return 2;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0xb1a57u);
    make_genome(&rng);
    build_index();

    uint8_t query[QMAX];
    hsp_t hsps[16];
    unsigned long planted_found = 0, total_hsps = 0, planted = 0;
    uint32_t check = 0;
    for (uint32_t qid = 0; qid < nq; qid++) {
        uint32_t qlen = QMIN + tally_rng_next(&rng) % (QMAX - QMIN + 1);
        int is_planted = (qid & 1) == 0;
        uint32_t at = 0;
        if (is_planted) {
            at = tally_rng_next(&rng) % (GENOME_LEN - qlen);
            for (uint32_t i = 0; i < qlen; i++) {
                uint32_t r = tally_rng_next(&rng);
                query[i] = genome[at + i];
                if ((r & 31) == 0)                       /* mutate ~1/32 */
                    query[i] = (uint8_t)((query[i] + 1 + ((r >> 5) % 3)) & 3);
            }
            planted++;
        } else {
            for (uint32_t i = 0; i < qlen; i++)
                query[i] = (uint8_t)(tally_rng_next(&rng) >> 30);
        }

        int n = search_query(query, qlen, qid, hsps, 16);
        int hit_plant = 0;
        for (int k = 0; k < n; k++) {
            if (rescore(query, &hsps[k]) != hsps[k].score) {
                printf("blast: FAIL query %lu: HSP score %d does not match its alignment\n",
                       (unsigned long)qid, hsps[k].score);
                return 1;
            }
            if (is_planted && hsps[k].gpos - hsps[k].qpos == at)
                hit_plant = 1;
            check = tally_mix32(check ^ (hsps[k].gpos * 131u + hsps[k].qpos)) + (uint32_t)hsps[k].score;
        }
        total_hsps += (unsigned long)n;
        if (is_planted && !hit_plant) {
            printf("blast: FAIL planted query %lu (genome %lu, %lu bases) not found\n",
                   (unsigned long)qid, (unsigned long)at, (unsigned long)qlen);
            return 1;
        }
        if (!is_planted && n) {
            printf("blast: FAIL random query %lu matched at genome %lu, score %d\n",
                   (unsigned long)qid, (unsigned long)hsps[0].gpos, hsps[0].score);
            return 1;
        }
        planted_found += (unsigned long)hit_plant;
    }
    printf("blast: %lu queries, %lu planted all found, %lu HSPs, all rescored\n", nq,
           planted_found, total_hsps);
    printf("blast: checksum %08lx\n", (unsigned long)check);
    printf("blast: OK\n");
    return planted_found == planted ? 0 : 1;
}
