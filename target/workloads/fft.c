/*
 * fft - fixed-point radix-2 FFT of 1024 points, forward and inverse.
 *
 * Samples and spectra are 32-bit integers, twiddle factors Q15. The
 * forward transform halves the data at every stage (scaling by 1/N
 * overall, so nothing overflows); the inverse transform does not scale.
 * The cosine table is generated at start-up by rotating a Q30 unit vector
 * by 2*pi/N in 64-bit integer arithmetic (no floating point anywhere).
 *
 * Each frame is three tones at pseudo-random bins with known amplitudes
 * plus low-level noise.
 *
 * Self-check, per frame: the three strongest bins of the spectrum must be
 * exactly the three tone bins, each with magnitude A/2 (the continuous
 * transform's value) within 2%; and the inverse transform of the spectrum
 * must give the signal back: the forward transform's rounding leaves each
 * spectrum component off by about 0.45 LSB (rms), which the unscaled
 * inverse sums over N bins into an error of about sqrt(2 * N * 0.2) = 20
 * LSB rms per sample (24 measured). The limits are 32 LSB rms and 160 LSB for
 * any one sample, out of a signal amplitude of up to 22500.
 *
 * Size parameter: frames (default 24).
 */
#include <stdint.h>
#include <stdio.h>
#include <tally/target.h>

#define LOG2N       10
#define N           (1 << LOG2N)
#define Q           15
#define MAX_ERR     160
#define MAX_RMS     32

/* cos(2*pi/N) and sin(2*pi/N) in Q30, rounded. */
#define ROT_COS_Q30 1073721611LL
#define ROT_SIN_Q30 6588356LL

static int32_t costab[N];       /* cos(2*pi*k/N), Q15 */
static int32_t sig[N], re[N], im[N];

static inline int32_t cos_at(uint32_t k)
{
    return costab[k & (N - 1)];
}

static inline int32_t sin_at(uint32_t k)
{
    return costab[(k - N / 4) & (N - 1)];
}

static __attribute__((noinline)) void make_costab(void)
{
    int64_t wr = 1LL << 30, wi = 0;
    for (int k = 0; k < N; k++) {
        costab[k] = (int32_t)((wr + (1 << (29 - Q))) >> (30 - Q));
        int64_t nr = (wr * ROT_COS_Q30 - wi * ROT_SIN_Q30 + (1LL << 29)) >> 30;
        int64_t ni = (wr * ROT_SIN_Q30 + wi * ROT_COS_Q30 + (1LL << 29)) >> 30;
        wr = nr;
        wi = ni;
    }
}

static __attribute__((noinline)) void bit_reverse(int32_t *xr, int32_t *xi)
{
    for (uint32_t i = 0, j = 0; i < N; i++) {
        if (i < j) {
            int32_t t = xr[i];
            xr[i] = xr[j];
            xr[j] = t;
            t = xi[i];
            xi[i] = xi[j];
            xi[j] = t;
        }
        uint32_t bit = N >> 1;          /* j = bit-reversed i + 1 */
        while (j & bit) {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
    }
}

/* v/2 rounded half to even: unbiased, so the forward transform's 1/2 per
 * stage does not pile up into a DC error (which the inverse would turn
 * into a spike of about N/4 at sample 0). */
static inline int32_t half_even(int32_t v)
{
    return (v + ((v >> 1) & 1)) >> 1;
}

/* In-place decimation-in-time FFT. Forward: e^(-i...), scaled by 1/2 per
 * stage. Inverse: e^(+i...), unscaled. */
static __attribute__((noinline)) void fft(int32_t *xr, int32_t *xi, int inverse)
{
    bit_reverse(xr, xi);
    for (int s = 1; s <= LOG2N; s++) {
        uint32_t half = 1u << (s - 1), step = N >> s;
        for (uint32_t k = 0; k < half; k++) {
            int32_t wr = cos_at(k * step);
            int32_t wi = inverse ? sin_at(k * step) : -sin_at(k * step);
            for (uint32_t i = k; i < N; i += 2 * half) {
                uint32_t j = i + half;
                int32_t tr = (wr * xr[j] - wi * xi[j] + (1 << (Q - 1))) >> Q;
                int32_t ti = (wr * xi[j] + wi * xr[j] + (1 << (Q - 1))) >> Q;
                int32_t ur = xr[i], ui = xi[i];
                if (inverse) {
                    xr[i] = ur + tr;
                    xi[i] = ui + ti;
                    xr[j] = ur - tr;
                    xi[j] = ui - ti;
                } else {
                    xr[i] = half_even(ur + tr);
                    xi[i] = half_even(ui + ti);
                    xr[j] = half_even(ur - tr);
                    xi[j] = half_even(ui - ti);
                }
            }
        }
    }
}

typedef struct {
    uint32_t bin[3];
    int32_t amp[3];
} tones_t;

static __attribute__((noinline)) void make_signal(int32_t *x, const tones_t *t, tally_rng *rng)
{
    for (uint32_t n = 0; n < N; n++) {
        int32_t v = (int32_t)(tally_rng_next(rng) & 127) - 64;     /* noise */
        v += (t->amp[0] * cos_at(t->bin[0] * n)) >> Q;
        v += (t->amp[1] * sin_at(t->bin[1] * n)) >> Q;
        v += (t->amp[2] * cos_at(t->bin[2] * n + N / 8)) >> Q;
        x[n] = v;
    }
}

/* The three bins of largest power in 1..N/2-1, strongest first. */
static __attribute__((noinline)) void find_peaks(const int32_t *xr, const int32_t *xi,
                                                 uint32_t peak[3], uint32_t power[3])
{
    for (int p = 0; p < 3; p++)
        peak[p] = power[p] = 0;
    for (uint32_t k = 1; k < N / 2; k++) {
        uint32_t pw = (uint32_t)(xr[k] * xr[k]) + (uint32_t)(xi[k] * xi[k]);
        for (int p = 0; p < 3; p++)
            if (pw > power[p]) {
                for (int q = 2; q > p; q--) {
                    power[q] = power[q - 1];
                    peak[q] = peak[q - 1];
                }
                power[p] = pw;
                peak[p] = k;
                break;
            }
    }
}

/* Largest and mean squared difference between a and b. */
static __attribute__((noinline)) void compare(const int32_t *a, const int32_t *b, int32_t *max,
                                              uint32_t *mean_sq)
{
    int32_t m = 0;
    uint32_t sq = 0;
    for (int i = 0; i < N; i++) {
        int32_t d = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
        if (d > m)
            m = d;
        sq += (uint32_t)(d * d);
    }
    *max = m;
    *mean_sq = sq / N;
}

static int check_tables(void)
{
    /* cos 0 = 1, cos 45 deg = 0.7071..., cos 90 deg = 0, cos 180 deg = -1 */
    struct { uint32_t k; int32_t want; } pts[] = {
        { 0, 32768 }, { N / 8, 23170 }, { N / 4, 0 }, { N / 2, -32768 }, { 3 * N / 4, 0 },
    };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        int32_t d = cos_at(pts[i].k) - pts[i].want;
        if (d < -1 || d > 1) {
            printf("fft: FAIL cos table[%lu] = %ld, want %ld\n", (unsigned long)pts[i].k,
                   (long)cos_at(pts[i].k), (long)pts[i].want);
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long frames = TALLY_ITERS(24);
    if (frames > 1000000ul) {
        printf("fft: at most 1000000 frames\n");
        return 2;
    }
    make_costab();
    if (check_tables())
        return 1;

    tally_rng rng;
    tally_rng_seed(&rng, 0xff7u);
    uint32_t check = 0;
    int32_t worst = 0;
    uint32_t worst_msq = 0;
    for (unsigned long f = 0; f < frames; f++) {
        tones_t t = { { 0, 0, 0 }, { 12000, 7000, 3500 } };
        for (int p = 0; p < 3; p++) {
            uint32_t b;
            do
                b = 1 + tally_rng_next(&rng) % (N / 2 - 1);
            while ((p > 0 && b == t.bin[0]) || (p > 1 && b == t.bin[1]));
            t.bin[p] = b;
        }
        make_signal(sig, &t, &rng);
        for (int i = 0; i < N; i++) {
            re[i] = sig[i];
            im[i] = 0;
        }

        fft(re, im, 0);

        uint32_t peak[3], power[3];
        find_peaks(re, im, peak, power);
        for (int p = 0; p < 3; p++) {
            /* A tone of amplitude A gives |X[b]| = A/2 after the 1/N scaling. */
            uint32_t want = (uint32_t)(t.amp[p] / 2) * (uint32_t)(t.amp[p] / 2);
            if (peak[p] != t.bin[p] || power[p] < want / 100 * 96 || power[p] > want / 100 * 104) {
                printf("fft: FAIL frame %lu: peak %d at bin %lu power %lu, tone at bin %lu power %lu\n",
                       f, p, (unsigned long)peak[p], (unsigned long)power[p],
                       (unsigned long)t.bin[p], (unsigned long)want);
                return 1;
            }
        }
        for (int k = 0; k < N; k++)
            check = tally_mix32(check ^ (uint32_t)re[k]) + (uint32_t)im[k];

        fft(re, im, 1);

        int32_t err;
        uint32_t msq;
        compare(re, sig, &err, &msq);
        if (err > worst)
            worst = err;
        if (msq > worst_msq)
            worst_msq = msq;
        if (err > MAX_ERR || msq > MAX_RMS * MAX_RMS) {
            printf("fft: FAIL frame %lu: inverse transform off by up to %ld LSB, mean square %lu"
                   " (limits %d, %d)\n", f, (long)err, (unsigned long)msq, MAX_ERR,
                   MAX_RMS * MAX_RMS);
            return 1;
        }
    }
    printf("fft: %lu frames of %d points, tones found, round trip within %ld LSB (mean square %lu)\n",
           frames, N, (long)worst, (unsigned long)worst_msq);
    printf("fft: checksum %08lx\n", (unsigned long)check);
    printf("fft: OK\n");
    return 0;
}
