/*
 * Long straight-line code: SHA-256's compression with its 64 rounds and
 * message schedule unrolled by macros (as nettle's sha256 compress is),
 * one basic block of some 1,500 instructions (several KiB), cut into
 * many blocks of the simulator's largest size that fall through into one
 * another. main checks the FIPS 180-2 known answer SHA-256("abc") =
 * ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad,
 * then chains BLOCKS compressions over a buffer and prints the state.
 * rotate() is the other kind of straight line nettle's code has (its
 * spilled registers): 64 word loads and stores in a row, a block of
 * memory accesses only, each looked up in the D-cache inline by the
 * translator (the largest translated code a block of this size gets).
 * Exit status 0 when the known answer holds and rotate() moved every word.
 */
#include <stdint.h>
#include <string.h>

#include "pstart.h"

#define BLOCKS 40

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define S0(x) (ROR(x, 2) ^ ROR(x, 13) ^ ROR(x, 22))
#define S1(x) (ROR(x, 6) ^ ROR(x, 11) ^ ROR(x, 25))
#define s0(x) (ROR(x, 7) ^ ROR(x, 18) ^ ((x) >> 3))
#define s1(x) (ROR(x, 17) ^ ROR(x, 19) ^ ((x) >> 10))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* round i's word: the block's own for i < 16, else the schedule, kept in
 * 16 words as nettle keeps it */
#define W0(i) (w[i])
#define WS(i) (w[(i) & 15] += s1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + s0(w[((i) - 15) & 15]))
#define ROUND(a, b, c, d, e, f, g, h, i, W)             \
  do {                                                  \
    uint32_t t1 = h + S1(e) + CH(e, f, g) + K[i] + W(i); \
    uint32_t t2 = S0(a) + MAJ(a, b, c);                 \
    d += t1;                                            \
    h = t1 + t2;                                        \
  } while (0)
#define EIGHT(i, W)                              \
  ROUND(a, b, c, d, e, f, g, h, (i) + 0, W);     \
  ROUND(h, a, b, c, d, e, f, g, (i) + 1, W);     \
  ROUND(g, h, a, b, c, d, e, f, (i) + 2, W);     \
  ROUND(f, g, h, a, b, c, d, e, (i) + 3, W);     \
  ROUND(e, f, g, h, a, b, c, d, (i) + 4, W);     \
  ROUND(d, e, f, g, h, a, b, c, (i) + 5, W);     \
  ROUND(c, d, e, f, g, h, a, b, (i) + 6, W);     \
  ROUND(b, c, d, e, f, g, h, a, (i) + 7, W)

/* noinline: one function holding the whole unrolled body */
__attribute__((noinline)) static void compress(uint32_t st[8], const uint8_t blk[64]) {
  uint32_t w[16];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 | (uint32_t)blk[4 * i + 2] << 8 |
           blk[4 * i + 3];
  uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
  EIGHT(0, W0);
  EIGHT(8, W0);
  EIGHT(16, WS);
  EIGHT(24, WS);
  EIGHT(32, WS);
  EIGHT(40, WS);
  EIGHT(48, WS);
  EIGHT(56, WS);
  st[0] += a, st[1] += b, st[2] += c, st[3] += d, st[4] += e, st[5] += f, st[6] += g, st[7] += h;
}

/* p[i] = p[i + 1], p[31] = p[0] before: 32 loads, then 32 stores (volatile:
 * neither merged nor reordered), unrolled */
#define LD4(i) uint32_t v##i = p[i], v##i##b = p[i + 1], v##i##c = p[i + 2], v##i##d = p[i + 3]
#define ST4(i, j) p[i] = v##j##b, p[i + 1] = v##j##c, p[i + 2] = v##j##d
__attribute__((noinline)) static void rotate(volatile uint32_t *p) {
  LD4(0); LD4(4); LD4(8); LD4(12); LD4(16); LD4(20); LD4(24); LD4(28);
  ST4(0, 0); p[3] = v4;
  ST4(4, 4); p[7] = v8;
  ST4(8, 8); p[11] = v12;
  ST4(12, 12); p[15] = v16;
  ST4(16, 16); p[19] = v20;
  ST4(20, 20); p[23] = v24;
  ST4(24, 24); p[27] = v28;
  ST4(28, 28); p[31] = v0;
}

static uint8_t buf[BLOCKS * 64];
static volatile uint32_t ring[32];

int main(void) {
  /* "abc" padded to one block: 0x80, zeros, the length 24 bits at the end */
  uint8_t abc[64] = {'a', 'b', 'c', 0x80};
  abc[63] = 24;
  static const uint32_t want[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                   0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
  uint32_t st[8];
  memcpy(st, H0, sizeof st);
  compress(st, abc);
  int ok = memcmp(st, want, sizeof st) == 0;
  for (unsigned i = 0; i < sizeof buf; i++)
    buf[i] = (uint8_t)(i * 13 + (i >> 8));
  for (int k = 0; k < BLOCKS; k++)
    compress(st, buf + 64 * k);
  for (uint32_t i = 0; i < 32; i++)
    ring[i] = i;
  for (int k = 0; k < 32 * BLOCKS + 3; k++) /* 3 places round, in all */
    rotate(ring);
  for (uint32_t i = 0; i < 32; i++)
    ok &= ring[i] == ((i + 3) & 31);
  printf("%s %08x %08x\n", ok ? "ok" : "WRONG", (unsigned)st[0], (unsigned)st[7]);
  return ok ? 0 : 1;
}
