/*
 * dct - an 8x8 DCT image pipeline, as in a JPEG codec without the entropy
 * coder: level shift, forward DCT, quantization with the JPEG luminance
 * table at a given quality, dequantization, inverse DCT, clamping.
 *
 * The orthonormal 8x8 DCT-II is computed as two matrix products with a Q14
 * basis built at start-up from cos(k*pi/16) in Q15 (no floating point).
 * The image is 96x96 synthetic grey levels (gradients, discs, stripes,
 * noise) that move from frame to frame; frames cycle through the qualities
 * 100, 90, 75, 50, 25.
 *
 * Self-check: the basis must be orthonormal (B B^T = I within the rounding
 * of its elements). Per frame: every block's DC coefficient must equal the
 * block sum / 8 within 1 (the definition of the DC term); at quality 100
 * (all quantizer steps 1) every pixel must come back within 1 of the
 * original (the fixed-point transform pair's rounding);
 * at every quality the mean squared error must stay under the bound for
 * uniform quantization, mean(step^2)/12 plus 2 for rounding, since an
 * orthonormal transform preserves squared error.
 *
 * Size parameter: frames (default 5).
 */
#include <stdint.h>
#include <stdio.h>
#include <tally/target.h>

#define W       96
#define H       96
#define BASIS_Q 14

/* cos(k*pi/16), k = 0..8, Q15 */
static const int32_t cos16_q15[9] = { 32768, 32138, 30274, 27246, 23170, 18205, 12540, 6393, 0 };

/* JPEG luminance quantization table (ITU-T T.81 annex K), row-major. */
static const uint8_t jpeg_luma[64] = {
    16, 11, 10, 16, 24, 40, 51, 61,
    12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77,
    24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103, 99,
};

static const int qualities[] = { 100, 90, 75, 50, 25 };

static int32_t basis[8][8];     /* basis[u][x] = C(u)/2 * cos((2x+1)u*pi/16), Q14 */
static uint8_t image[H][W], recon[H][W];

static __attribute__((noinline)) void make_basis(void)
{
    for (int u = 0; u < 8; u++)
        for (int x = 0; x < 8; x++) {
            int a = ((2 * x + 1) * u) % 32;     /* angle in units of pi/16 */
            int sign = 1;
            if (a > 16)
                a = 32 - a;                     /* cos(2pi - t) = cos t */
            if (a > 8) {
                a = 16 - a;                     /* cos(pi - t) = -cos t */
                sign = -1;
            }
            int32_t c = sign * cos16_q15[a];
            /* u = 0: 1/sqrt(8) = 0.35355 -> 5793 in Q14; else cos/2: Q15/4 -> Q14 */
            basis[u][x] = u == 0 ? 5793 : (c + 2) >> 2;
        }
}

/* The basis must be orthonormal: B B^T = I, here 2^28 I, within the
 * rounding of its Q14 elements: |a|, |b| <= 8192, each off by at most 0.5,
 * so a product is off by at most 0.5 * (|a| + |b|) + 0.25 < 8193, and a
 * sum of 8 by less than 65544. */
static int check_basis(void)
{
    for (int u = 0; u < 8; u++)
        for (int v = 0; v < 8; v++) {
            int32_t s = 0;
            for (int x = 0; x < 8; x++)
                s += basis[u][x] * basis[v][x];
            int32_t want = u == v ? 1 << (2 * BASIS_Q) : 0;
            if (s - want > 65544 || want - s > 65544) {
                printf("dct: FAIL basis not orthonormal: row %d . row %d = %ld, want %ld\n", u, v,
                       (long)s, (long)want);
                return 1;
            }
        }
    return 0;
}

static __attribute__((noinline)) void make_quant_table(int quality, int32_t qt[64])
{
    int scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
    for (int i = 0; i < 64; i++) {
        int q = (jpeg_luma[i] * scale + 50) / 100;
        qt[i] = q < 1 ? 1 : q > 255 ? 255 : q;
    }
}

static __attribute__((noinline)) void make_image(int frame, tally_rng *rng)
{
    int cx = 30 + (frame * 7) % 36, cy = 48 - (frame * 5) % 24;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int v = (x + 2 * y + frame * 3) / 2;                    /* gradient */
            int dx = x - cx, dy = y - cy;
            if (dx * dx + dy * dy < 18 * 18)
                v += 70;                                            /* disc */
            if (x > 60 && y > 54 && ((x + frame) / 3) % 2)
                v -= 50;                                            /* stripes */
            v += (int)(tally_rng_next(rng) & 7) - 4;               /* noise */
            image[y][x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
}

/* F = B f B^T for one block; in: level-shifted pixels, out: coefficients. */
static __attribute__((noinline)) void fdct_8x8(const int32_t in[64], int32_t out[64])
{
    int32_t tmp[64];
    for (int u = 0; u < 8; u++)             /* tmp = B f, 3 fraction bits kept */
        for (int y = 0; y < 8; y++) {
            int32_t s = 0;
            for (int x = 0; x < 8; x++)
                s += basis[u][x] * in[x * 8 + y];
            tmp[u * 8 + y] = (s + (1 << (BASIS_Q - 4))) >> (BASIS_Q - 3);
        }
    for (int u = 0; u < 8; u++)             /* out = tmp B^T */
        for (int v = 0; v < 8; v++) {
            int32_t s = 0;
            for (int y = 0; y < 8; y++)
                s += tmp[u * 8 + y] * basis[v][y];
            out[u * 8 + v] = (s + (1 << (BASIS_Q + 2))) >> (BASIS_Q + 3);
        }
}

/* f = B^T F B for one block. */
static __attribute__((noinline)) void idct_8x8(const int32_t in[64], int32_t out[64])
{
    int32_t tmp[64];
    for (int x = 0; x < 8; x++)             /* tmp = B^T F */
        for (int v = 0; v < 8; v++) {
            int32_t s = 0;
            for (int u = 0; u < 8; u++)
                s += basis[u][x] * in[u * 8 + v];
            tmp[x * 8 + v] = (s + (1 << (BASIS_Q - 4))) >> (BASIS_Q - 3);
        }
    for (int x = 0; x < 8; x++)             /* out = tmp B */
        for (int y = 0; y < 8; y++) {
            int32_t s = 0;
            for (int v = 0; v < 8; v++)
                s += tmp[x * 8 + v] * basis[v][y];
            out[x * 8 + y] = (s + (1 << (BASIS_Q + 2))) >> (BASIS_Q + 3);
        }
}

/* Rounds coef / qt to nearest, in place; returns the number of nonzeros. */
static __attribute__((noinline)) int quantize(int32_t c[64], const int32_t qt[64])
{
    int nz = 0;
    for (int i = 0; i < 64; i++) {
        int32_t v = c[i], q = qt[i];
        v = v >= 0 ? (v + q / 2) / q : -((-v + q / 2) / q);
        c[i] = v;
        nz += v != 0;
    }
    return nz;
}

static __attribute__((noinline)) void dequantize(int32_t c[64], const int32_t qt[64])
{
    for (int i = 0; i < 64; i++)
        c[i] *= qt[i];
}

typedef struct {
    uint32_t sq_err;            /* sum of squared pixel errors */
    int32_t max_err;
    uint32_t nonzero;           /* quantized coefficients that are not 0 */
    uint32_t hash;
    int dc_bad;                 /* blocks whose DC term is wrong */
} frame_stats_t;

static __attribute__((noinline)) void code_frame(const int32_t qt[64], frame_stats_t *st)
{
    int32_t blk[64], coef[64], back[64];
    for (int by = 0; by < H; by += 8)
        for (int bx = 0; bx < W; bx += 8) {
            int32_t sum = 0;
            for (int x = 0; x < 8; x++)     /* blk[x * 8 + y]: x = row, y = column */
                for (int y = 0; y < 8; y++) {
                    blk[x * 8 + y] = image[by + x][bx + y] - 128;
                    sum += blk[x * 8 + y];
                }
            fdct_8x8(blk, coef);
            /* DC = sum / 8, rounded like the transform */
            int32_t dc = sum >= 0 ? (sum + 4) / 8 : -((-sum + 4) / 8);
            if (coef[0] - dc > 1 || dc - coef[0] > 1)
                st->dc_bad++;
            st->nonzero += (uint32_t)quantize(coef, qt);
            for (int i = 0; i < 64; i++)
                st->hash = st->hash * 33u + (uint32_t)coef[i];
            dequantize(coef, qt);
            idct_8x8(coef, back);
            for (int x = 0; x < 8; x++)
                for (int y = 0; y < 8; y++) {
                    int32_t v = back[x * 8 + y] + 128;
                    v = v < 0 ? 0 : v > 255 ? 255 : v;
                    recon[by + x][bx + y] = (uint8_t)v;
                    int32_t d = v - image[by + x][bx + y];
                    if (d < 0)
                        d = -d;
                    if (d > st->max_err)
                        st->max_err = d;
                    st->sq_err += (uint32_t)(d * d);
                }
        }
}

int main(int argc, char **argv)
{
    unsigned long frames = TALLY_ITERS(5);
    if (frames > 100000ul) {
        printf("dct: at most 100000 frames\n");
        return 2;
    }
    make_basis();
    if (check_basis())
        return 1;
    tally_rng rng;
    tally_rng_seed(&rng, 0xdc7u);
    uint32_t check = 0;
    for (unsigned long f = 0; f < frames; f++) {
        int quality = qualities[f % (sizeof qualities / sizeof qualities[0])];
        int32_t qt[64];
        make_quant_table(quality, qt);
        make_image((int)f, &rng);
        frame_stats_t st = { 0, 0, 0, 0, 0 };
        code_frame(qt, &st);

        /* MSE bound: uniform quantizer noise step^2/12 per coefficient. */
        uint32_t q2 = 0;
        for (int i = 0; i < 64; i++)
            q2 += (uint32_t)(qt[i] * qt[i]);
        uint32_t mse_x64 = st.sq_err / (W * H / 64);        /* 64 * MSE */
        uint32_t bound_x64 = q2 / 12 + 2 * 64;
        if (st.dc_bad) {
            printf("dct: FAIL frame %lu: %d blocks with a wrong DC coefficient\n", f, st.dc_bad);
            return 1;
        }
        if (quality == 100 && st.max_err > 1) {
            printf("dct: FAIL frame %lu: lossless-step round trip off by %ld\n", f,
                   (long)st.max_err);
            return 1;
        }
        if (mse_x64 > bound_x64) {
            printf("dct: FAIL frame %lu: quality %d, 64*MSE %lu above bound %lu\n", f, quality,
                   (unsigned long)mse_x64, (unsigned long)bound_x64);
            return 1;
        }
        printf("dct: frame %lu quality %3d: %5lu nonzero coefficients, 64*MSE %5lu (bound %lu), max error %ld\n",
               f, quality, (unsigned long)st.nonzero, (unsigned long)mse_x64,
               (unsigned long)bound_x64, (long)st.max_err);
        check = tally_mix32(check ^ st.hash);
        for (int y = 0; y < H; y += 3)
            for (int x = 0; x < W; x += 5)
                check += recon[y][x];
    }
    printf("dct: checksum %08lx\n", (unsigned long)check);
    printf("dct: OK\n");
    return 0;
}
