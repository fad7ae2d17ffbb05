/*
 * mcomp - motion compensation of a video decoder: every 16x16 macroblock of
 * a CIF frame (352x288 luma) is predicted from the reference frame at a
 * motion vector with half-pel interpolation, and a residual is added with
 * saturation. The frames (about 120 KB each) are larger than an L1 data
 * cache, but at about 20 instructions per pixel the program waits on
 * external memory only 40% of its time on dsp500 (bench/dvfs/
 * mcomp-loops.md): too little for profile-guided DVFS to pay much.
 *
 * Self-check, by laws that do not use the predictor's code:
 * - the prediction is recomputed for sampled pixels by a separate direct
 *   formula (rounded average of 1, 2 or 4 neighbours) and, subtracted from
 *   the output, must give back the residual whenever no saturation happened.
 * - each frame's output becomes the next frame's reference, so an error
 *   propagates into the final checksum.
 *
 * Size parameter: frames decoded (default 5).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define W   352
#define H   288
#define MB  16
#define PAD 16                      /* vectors stay inside a padded frame */
#define PW  (W + 2 * PAD)
#define PH  (H + 2 * PAD)

static uint8_t frame_a[PW * PH], frame_b[PW * PH];
static int8_t residual[W * H];

typedef struct { int dx, dy; } mvec;    /* half-pel units */

static __attribute__((noinline)) void make_frame(uint8_t *f, tally_rng *rng)
{
    /* Smooth content (a gradient plus noise) padded by edge replication. */
    for (int y = 0; y < PH; y++)
        for (int x = 0; x < PW; x++)
            f[y * PW + x] = (uint8_t)((x + 2 * y) + (tally_rng_next(rng) & 15));
}

static __attribute__((noinline)) void make_residual(int8_t *r, tally_rng *rng)
{
    for (int i = 0; i < W * H; i += 4) {
        uint32_t v = tally_rng_next(rng);
        for (int k = 0; k < 4; k++)
            r[i + k] = (int8_t)((int)((v >> (8 * k)) & 31) - 16);
    }
}

static mvec vector_of(unsigned frame, int mbx, int mby)
{
    uint32_t h = tally_mix32(frame * 7919u + (uint32_t)mby * 131u + (uint32_t)mbx);
    mvec v = { (int)(h & 31) - 16, (int)((h >> 5) & 31) - 16 };
    if ((h >> 10) % 8 == 0)
        v.dx = v.dy = 0;            /* some still blocks, as in real video */
    return v;
}

/* One macroblock: half-pel prediction from ref plus residual into out. */
static __attribute__((noinline)) void predict_block(uint8_t *out, const uint8_t *ref,
                                                    const int8_t *res, int bx, int by, mvec v)
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

static __attribute__((noinline)) void compensate_frame(uint8_t *out, const uint8_t *ref,
                                                       const int8_t *res, unsigned frame)
{
    for (int by = 0; by < H; by += MB)
        for (int bx = 0; bx < W; bx += MB)
            predict_block(out, ref, res, bx, by, vector_of(frame, bx / MB, by / MB));
}

/* Repeats the border pixels into the padding, so vectors may point outside. */
static __attribute__((noinline)) void pad_frame(uint8_t *f)
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

/* The independent check: direct formula at sampled pixels. Returns errors. */
static __attribute__((noinline)) int check_frame(const uint8_t *out, const uint8_t *ref,
                                                 const int8_t *res, unsigned frame,
                                                 unsigned *checked)
{
    int errors = 0;
    for (int y = 3; y < H; y += 37) {
        for (int x = 5; x < W; x += 29) {
            mvec v = vector_of(frame, x / MB, y / MB);
            int sx = PAD + x + (v.dx >> 1), sy = PAD + y + (v.dy >> 1);
            int n = 1 + (v.dx & 1) + (v.dy & 1) + ((v.dx & 1) & (v.dy & 1));
            int sum = ref[sy * PW + sx];
            if (v.dx & 1) sum += ref[sy * PW + sx + 1];
            if (v.dy & 1) sum += ref[(sy + 1) * PW + sx];
            if ((v.dx & 1) && (v.dy & 1)) sum += ref[(sy + 1) * PW + sx + 1];
            int pred = (sum + n / 2) / n;
            int o = out[(PAD + y) * PW + PAD + x];
            if (o != 0 && o != 255 && o - pred != res[y * W + x])
                errors++;
            else if ((o == 0 && pred + res[y * W + x] > 0) || (o == 255 && pred + res[y * W + x] < 255))
                errors++;
            (*checked)++;
        }
    }
    return errors;
}

int main(int argc, char **argv)
{
    unsigned long frames = TALLY_ITERS(5);
    if (frames > 100000) {
        printf("mcomp: at most 100000 frames\n");
        return 2;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0x4d43u);
    make_frame(frame_a, &rng);
    pad_frame(frame_a);
    uint8_t *ref = frame_a, *out = frame_b;
    uint32_t sum = 0;
    unsigned checked = 0;
    for (unsigned long f = 0; f < frames; f++) {
        make_residual(residual, &rng);
        compensate_frame(out, ref, residual, (unsigned)f);
        if (check_frame(out, ref, residual, (unsigned)f, &checked) != 0) {
            printf("mcomp: FAIL frame %lu: prediction differs from the direct formula\n", f);
            return 1;
        }
        pad_frame(out);
        uint8_t *t = ref;
        ref = out;
        out = t;
    }
    for (int i = 0; i < PW * PH; i++)
        sum = sum * 31u + ref[i];
    printf("mcomp: %lu frames of %dx%d, %u pixels checked\n", frames, W, H, checked);
    printf("mcomp: checksum %08lx\n", (unsigned long)sum);
    printf("mcomp: OK\n");
    return 0;
}
