/*
 * mc_swar - mcomp's motion compensation (target/workloads/mcomp.c, byte by
 * byte) against the same kernel four pixels per 32-bit word (SWAR: the
 * half-pel averages and the saturating residual add on packed bytes, as
 * the DSPInst paper's Blackfin decoder does with its quad 8-bit video
 * instructions), to measure how much of its time each waits on memory on
 * the dsp500 model (bench/dvfs/mcomp-loops.md). Not a workload.
 *
 * argv[1]: 1 the byte kernel only, 2 the SWAR kernel only, 3 both on every
 * frame, whose outputs must be identical (the check). 5 CIF frames.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define W   352
#define H   288
#define MB  16
#define PAD 16
#define PW  (W + 2 * PAD)
#define PH  (H + 2 * PAD)
#define FRAMES 5

static uint8_t frame_a[PW * PH], frame_b[PW * PH], frame_c[PW * PH];
static int8_t residual[W * H];
static uint8_t biased[W * H]; /* residual + 16, in [0, 31] */

typedef struct { int dx, dy; } mvec;

static void make_frame(uint8_t *f, tally_rng *rng)
{
    for (int y = 0; y < PH; y++)
        for (int x = 0; x < PW; x++)
            f[y * PW + x] = (uint8_t)((x + 2 * y) + (tally_rng_next(rng) & 15));
}

static void make_residual(tally_rng *rng)
{
    for (int i = 0; i < W * H; i++) {
        residual[i] = (int8_t)((int)(tally_rng_next(rng) & 31) - 16);
        biased[i] = (uint8_t)(residual[i] + 16);
    }
}

static mvec vector_of(unsigned frame, int mbx, int mby)
{
    uint32_t h = tally_mix32(frame * 7919u + (uint32_t)mby * 131u + (uint32_t)mbx);
    mvec v = { (int)(h & 31) - 16, (int)((h >> 5) & 31) - 16 };
    if ((h >> 10) % 8 == 0)
        v.dx = v.dy = 0;
    return v;
}

/* mcomp's predict_block, unchanged. */
static __attribute__((noinline)) void predict_bytes(uint8_t *out, const uint8_t *ref, const int8_t *res,
                                                    int bx, int by, mvec v)
{
    int fx = v.dx & 1, fy = v.dy & 1;
    const uint8_t *src = ref + (PAD + by + (v.dy >> 1)) * PW + PAD + bx + (v.dx >> 1);
    uint8_t *dst = out + (PAD + by) * PW + PAD + bx;
    const int8_t *rs = res + by * W + bx;
    for (int y = 0; y < MB; y++, src += PW, dst += PW, rs += W) {
        for (int x = 0; x < MB; x++) {
            int p;
            if (fx && fy)
                p = (src[x] + src[x + 1] + src[x + PW] + src[x + PW + 1] + 2) >> 2;
            else if (fx)
                p = (src[x] + src[x + 1] + 1) >> 1;
            else if (fy)
                p = (src[x] + src[x + PW] + 1) >> 1;
            else
                p = src[x];
            p += rs[x];
            dst[x] = (uint8_t)(p < 0 ? 0 : p > 255 ? 255 : p);
        }
    }
}

/* Bytes s/8.. of the pair (lo, hi) (little-endian), s in 0, 8, 16, 24;
 * (hi << 1) << (31 - s) is hi << (32 - s) without the shift by 32. */
static inline uint32_t funnel(uint32_t lo, uint32_t hi, unsigned s)
{
    return (lo >> s) | ((hi << 1) << (31 - s));
}

/* (x + y + 1) >> 1 in each byte. */
static inline uint32_t avg2(uint32_t x, uint32_t y)
{
    return (x | y) - (((x ^ y) & 0xfefefefeu) >> 1);
}

/* (a + b + c + d + 2) >> 2 in each byte: high six bits and low two apart. */
static inline uint32_t avg4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    const uint32_t m = 0x3f3f3f3fu, l = 0x03030303u;
    uint32_t hi = ((a >> 2) & m) + ((b >> 2) & m) + ((c >> 2) & m) + ((d >> 2) & m);
    uint32_t lo = (a & l) + (b & l) + (c & l) + (d & l) + 0x02020202u;
    return hi + ((lo >> 2) & l);
}

/* clamp(p + u - 16, 0, 255) in two 16-bit lanes (bytes 0 and 2). */
static inline uint32_t add_lanes(uint32_t p, uint32_t u)
{
    uint32_t s = p + u + 0x00f000f0u;             /* 240..526: the sum + 256 */
    uint32_t over = (s >> 9) & 0x00010001u;       /* >= 512: above 255 */
    uint32_t ok = (s >> 8) & 0x00010001u;         /* 256..511: in range */
    return ((s & 0x00ff00ffu) & ((ok << 8) - ok)) | ((over << 8) - over);
}

static inline uint32_t add_residual(uint32_t p, uint32_t u)
{
    uint32_t e = add_lanes(p & 0x00ff00ffu, u & 0x00ff00ffu);
    uint32_t o = add_lanes((p >> 8) & 0x00ff00ffu, (u >> 8) & 0x00ff00ffu);
    return e | (o << 8);
}

/* One block for one (fx, fy): inlined with constants, so each case is a
 * loop of its own. Word k of a row at byte offset a: funnel of the aligned
 * words k and k+1 (shifted by one pixel: of k+k1 and k+k1+1). */
static inline __attribute__((always_inline)) void block_case(uint32_t *dst, const uint32_t *w, const uint32_t *rs,
                                                             unsigned a, const int fx, const int fy)
{
    unsigned s = 8 * a, s1 = 8 * ((a + 1) & 3), k1 = (a + 1) >> 2;
    for (int y = 0; y < MB; y++, w += PW / 4, dst += PW / 4, rs += W / 4) {
        for (unsigned k = 0; k < 4; k++) {
            uint32_t p = funnel(w[k], w[k + 1], s);
            if (fx && fy) {
                const uint32_t *n = w + PW / 4;
                p = avg4(p, funnel(w[k + k1], w[k + k1 + 1], s1), funnel(n[k], n[k + 1], s),
                         funnel(n[k + k1], n[k + k1 + 1], s1));
            } else if (fx) {
                p = avg2(p, funnel(w[k + k1], w[k + k1 + 1], s1));
            } else if (fy) {
                p = avg2(p, funnel(w[k + PW / 4], w[k + PW / 4 + 1], s));
            }
            dst[k] = add_residual(p, rs[k]);
        }
    }
}

static __attribute__((noinline)) void predict_swar(uint8_t *out, const uint8_t *ref, const uint8_t *res,
                                                   int bx, int by, mvec v)
{
    const uint8_t *src = ref + (PAD + by + (v.dy >> 1)) * PW + PAD + bx + (v.dx >> 1);
    unsigned a = (unsigned)((uintptr_t)src & 3);
    const uint32_t *w = (const uint32_t *)(src - a);
    uint32_t *dst = (uint32_t *)(out + (PAD + by) * PW + PAD + bx);
    const uint32_t *rs = (const uint32_t *)(res + by * W + bx);
    switch ((v.dx & 1) * 2 + (v.dy & 1)) {
    case 3: block_case(dst, w, rs, a, 1, 1); break;
    case 2: block_case(dst, w, rs, a, 1, 0); break;
    case 1: block_case(dst, w, rs, a, 0, 1); break;
    default: block_case(dst, w, rs, a, 0, 0); break;
    }
}

static __attribute__((noinline)) void compensate_bytes(uint8_t *out, const uint8_t *ref, unsigned f)
{
    for (int by = 0; by < H; by += MB)
        for (int bx = 0; bx < W; bx += MB)
            predict_bytes(out, ref, residual, bx, by, vector_of(f, bx / MB, by / MB));
}

static __attribute__((noinline)) void compensate_swar(uint8_t *out, const uint8_t *ref, unsigned f)
{
    for (int by = 0; by < H; by += MB)
        for (int bx = 0; bx < W; bx += MB)
            predict_swar(out, ref, biased, bx, by, vector_of(f, bx / MB, by / MB));
}

static void pad_frame(uint8_t *f)
{
    for (int y = PAD; y < PAD + H; y++) {
        memset(f + y * PW, f[y * PW + PAD], PAD);
        memset(f + y * PW + PAD + W, f[y * PW + PAD + W - 1], PAD);
    }
    for (int y = 0; y < PAD; y++) {
        memcpy(f + y * PW, f + PAD * PW, PW);
        memcpy(f + (PAD + H + y) * PW, f + (PAD + H - 1) * PW, PW);
    }
}

int main(int argc, char **argv)
{
    unsigned long mode = TALLY_ITERS(3);
    tally_rng rng;
    tally_rng_seed(&rng, 0x4d43u);
    make_frame(frame_a, &rng);
    pad_frame(frame_a);
    uint8_t *ref = frame_a, *out = frame_b;
    for (unsigned f = 0; f < FRAMES; f++) {
        make_residual(&rng);
        if (mode != 2)
            compensate_bytes(out, ref, f);
        if (mode != 1)
            compensate_swar(mode == 3 ? frame_c : out, ref, f);
        if (mode == 3)
            for (int y = PAD; y < PAD + H; y++)
                if (memcmp(out + y * PW + PAD, frame_c + y * PW + PAD, W) != 0) {
                    printf("mc_swar: FAIL frame %u row %d: the kernels differ\n", f, y - PAD);
                    return 1;
                }
        pad_frame(out);
        uint8_t *t = ref;
        ref = out;
        out = t;
    }
    printf("mc_swar: mode %lu OK\n", mode);
    return 0;
}
