/*
 * aes - AES-128 in CBC mode over several keys and thousands of blocks.
 *
 * A plain byte-oriented AES (FIPS-197), one function per round step so a
 * per-function profile shows SubBytes, ShiftRows, MixColumns, AddRoundKey
 * and KeyExpansion. The S-box is computed at start-up from its definition
 * (multiplicative inverse in GF(2^8) followed by the affine map), so no
 * table is trusted blindly.
 *
 * Self-check: the FIPS-197 known-answer vectors (appendix B and C.1) and
 * the SP 800-38A CBC-AES128 vector must match, and every CBC stream must
 * decrypt back to its plaintext.
 *
 * Size parameter: blocks per key (default 320); four keys.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define NK      4               /* key words */
#define NR      10              /* rounds */
#define NKEYS   4

typedef uint8_t state_t[4][4];  /* [column][row], column-major like FIPS-197 */

static uint8_t sbox[256];
static uint8_t inv_sbox[256];

static uint8_t xtime(uint8_t x)
{
    return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1b : 0));
}

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    while (b) {
        if (b & 1)
            p ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return p;
}

static uint8_t rotl8(uint8_t x, int s)
{
    return (uint8_t)((x << s) | (x >> (8 - s)));
}

/* S-box from its definition: b = inverse(x), then the affine map. */
static __attribute__((noinline)) void InitSbox(void)
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        if (x) {
            /* x^254 = x^-1 in GF(2^8) */
            uint8_t r = 1, base = (uint8_t)x;
            for (int e = 254; e; e >>= 1) {
                if (e & 1)
                    r = gmul(r, base);
                base = gmul(base, base);
            }
            inv = r;
        }
        uint8_t s = inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63;
        sbox[x] = s;
        inv_sbox[s] = (uint8_t)x;
    }
}

static __attribute__((noinline)) void KeyExpansion(uint8_t rk[4 * (NR + 1)][4], const uint8_t key[16])
{
    uint8_t rcon = 1;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < 4; j++)
            rk[i][j] = key[4 * i + j];
    for (int i = NK; i < 4 * (NR + 1); i++) {
        uint8_t t[4] = { rk[i - 1][0], rk[i - 1][1], rk[i - 1][2], rk[i - 1][3] };
        if (i % NK == 0) {
            uint8_t t0 = t[0];
            t[0] = sbox[t[1]] ^ rcon;
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[t0];
            rcon = xtime(rcon);
        }
        for (int j = 0; j < 4; j++)
            rk[i][j] = rk[i - NK][j] ^ t[j];
    }
}

static __attribute__((noinline)) void AddRoundKey(state_t s, const uint8_t rk[][4], int round)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            s[c][r] ^= rk[4 * round + c][r];
}

static __attribute__((noinline)) void SubBytes(state_t s)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            s[c][r] = sbox[s[c][r]];
}

static __attribute__((noinline)) void InvSubBytes(state_t s)
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            s[c][r] = inv_sbox[s[c][r]];
}

/* Row r is rotated left by r columns. */
static __attribute__((noinline)) void ShiftRows(state_t s)
{
    uint8_t t;
    t = s[0][1]; s[0][1] = s[1][1]; s[1][1] = s[2][1]; s[2][1] = s[3][1]; s[3][1] = t;
    t = s[0][2]; s[0][2] = s[2][2]; s[2][2] = t;
    t = s[1][2]; s[1][2] = s[3][2]; s[3][2] = t;
    t = s[3][3]; s[3][3] = s[2][3]; s[2][3] = s[1][3]; s[1][3] = s[0][3]; s[0][3] = t;
}

static __attribute__((noinline)) void InvShiftRows(state_t s)
{
    uint8_t t;
    t = s[3][1]; s[3][1] = s[2][1]; s[2][1] = s[1][1]; s[1][1] = s[0][1]; s[0][1] = t;
    t = s[0][2]; s[0][2] = s[2][2]; s[2][2] = t;
    t = s[1][2]; s[1][2] = s[3][2]; s[3][2] = t;
    t = s[0][3]; s[0][3] = s[1][3]; s[1][3] = s[2][3]; s[2][3] = s[3][3]; s[3][3] = t;
}

static __attribute__((noinline)) void MixColumns(state_t s)
{
    for (int c = 0; c < 4; c++) {
        uint8_t a0 = s[c][0], a1 = s[c][1], a2 = s[c][2], a3 = s[c][3];
        uint8_t all = a0 ^ a1 ^ a2 ^ a3;
        s[c][0] = a0 ^ all ^ xtime(a0 ^ a1);
        s[c][1] = a1 ^ all ^ xtime(a1 ^ a2);
        s[c][2] = a2 ^ all ^ xtime(a2 ^ a3);
        s[c][3] = a3 ^ all ^ xtime(a3 ^ a0);
    }
}

/* InvMixColumns = MixColumns after multiplying each column by
 * {04}x^2 + {05} (The Design of Rijndael, 4.1.3). */
static __attribute__((noinline)) void InvMixColumns(state_t s)
{
    for (int c = 0; c < 4; c++) {
        uint8_t u = xtime(xtime(s[c][0] ^ s[c][2]));
        uint8_t v = xtime(xtime(s[c][1] ^ s[c][3]));
        s[c][0] ^= u;
        s[c][1] ^= v;
        s[c][2] ^= u;
        s[c][3] ^= v;
    }
    MixColumns(s);
}

static __attribute__((noinline)) void Cipher(uint8_t out[16], const uint8_t in[16], const uint8_t rk[][4])
{
    state_t s;
    memcpy(s, in, 16);
    AddRoundKey(s, rk, 0);
    for (int round = 1; round < NR; round++) {
        SubBytes(s);
        ShiftRows(s);
        MixColumns(s);
        AddRoundKey(s, rk, round);
    }
    SubBytes(s);
    ShiftRows(s);
    AddRoundKey(s, rk, NR);
    memcpy(out, s, 16);
}

static __attribute__((noinline)) void InvCipher(uint8_t out[16], const uint8_t in[16], const uint8_t rk[][4])
{
    state_t s;
    memcpy(s, in, 16);
    AddRoundKey(s, rk, NR);
    for (int round = NR - 1; round > 0; round--) {
        InvShiftRows(s);
        InvSubBytes(s);
        AddRoundKey(s, rk, round);
        InvMixColumns(s);
    }
    InvShiftRows(s);
    InvSubBytes(s);
    AddRoundKey(s, rk, 0);
    memcpy(out, s, 16);
}

static __attribute__((noinline)) void CbcEncrypt(uint8_t *out, const uint8_t *in, size_t blocks,
                                                 const uint8_t iv[16], const uint8_t rk[][4])
{
    uint8_t chain[16];
    memcpy(chain, iv, 16);
    for (size_t b = 0; b < blocks; b++) {
        uint8_t x[16];
        for (int i = 0; i < 16; i++)
            x[i] = in[16 * b + i] ^ chain[i];
        Cipher(out + 16 * b, x, rk);
        memcpy(chain, out + 16 * b, 16);
    }
}

static __attribute__((noinline)) void CbcDecrypt(uint8_t *out, const uint8_t *in, size_t blocks,
                                                 const uint8_t iv[16], const uint8_t rk[][4])
{
    const uint8_t *chain = iv;
    for (size_t b = 0; b < blocks; b++) {
        uint8_t x[16];
        InvCipher(x, in + 16 * b, rk);
        for (int i = 0; i < 16; i++)
            out[16 * b + i] = x[i] ^ chain[i];
        chain = in + 16 * b;
    }
}

static int hexval(char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static void unhex(uint8_t *out, const char *hex)
{
    for (; hex[0] && hex[1]; hex += 2)
        *out++ = (uint8_t)(hexval(hex[0]) << 4 | hexval(hex[1]));
}

static int check_block(const char *what, const uint8_t got[16], const char *want_hex)
{
    uint8_t want[16];
    unhex(want, want_hex);
    if (memcmp(got, want, 16) == 0)
        return 0;
    printf("aes: FAIL %s: got ", what);
    for (int i = 0; i < 16; i++)
        printf("%02x", got[i]);
    printf(", want %s\n", want_hex);
    return 1;
}

/* Known-answer tests: FIPS-197 appendix B and C.1, SP 800-38A F.2.1. */
static int known_answers(void)
{
    static uint8_t rk[4 * (NR + 1)][4];
    uint8_t key[16], in[64], out[64], iv[16];
    int bad = 0;

    unhex(key, "2b7e151628aed2a6abf7158809cf4f3c");
    KeyExpansion(rk, key);
    unhex(in, "3243f6a8885a308d313198a2e0370734");
    Cipher(out, in, rk);
    bad += check_block("FIPS-197 B", out, "3925841d02dc09fbdc118597196a0b32");

    unhex(key, "000102030405060708090a0b0c0d0e0f");
    KeyExpansion(rk, key);
    unhex(in, "00112233445566778899aabbccddeeff");
    Cipher(out, in, rk);
    bad += check_block("FIPS-197 C.1 encrypt", out, "69c4e0d86a7b0430d8cdb78070b4c55a");
    InvCipher(in, out, rk);
    bad += check_block("FIPS-197 C.1 decrypt", in, "00112233445566778899aabbccddeeff");

    unhex(key, "2b7e151628aed2a6abf7158809cf4f3c");
    KeyExpansion(rk, key);
    unhex(iv, "000102030405060708090a0b0c0d0e0f");
    unhex(in, "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
              "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710");
    CbcEncrypt(out, in, 4, iv, rk);
    bad += check_block("SP 800-38A CBC block 1", out, "7649abac8119b246cee98e9b12e9197d");
    bad += check_block("SP 800-38A CBC block 2", out + 16, "5086cb9b507219ee95db113a917678b2");
    bad += check_block("SP 800-38A CBC block 3", out + 32, "73bed6b8e3c1743b7116e69e22229516");
    bad += check_block("SP 800-38A CBC block 4", out + 48, "3ff1caa1681fac09120eca307586e1a7");
    return bad;
}

int main(int argc, char **argv)
{
    unsigned long blocks = TALLY_ITERS(320);
    if (blocks > (1ul << 20)) {
        printf("aes: at most %lu blocks per key\n", 1ul << 20);
        return 2;
    }
    InitSbox();
    if (known_answers())
        return 1;

    size_t bytes = 16 * blocks;
    uint8_t *plain = malloc(bytes), *cipher = malloc(bytes), *back = malloc(bytes);
    if (!plain || !cipher || !back) {
        printf("aes: out of memory\n");
        return 1;
    }
    static uint8_t rk[4 * (NR + 1)][4];
    tally_rng rng;
    tally_rng_seed(&rng, 0x0ae5u);
    uint32_t sum = 0;
    for (int k = 0; k < NKEYS; k++) {
        uint8_t key[16], iv[16];
        for (int i = 0; i < 16; i++) {
            key[i] = (uint8_t)tally_rng_next(&rng);
            iv[i] = (uint8_t)tally_rng_next(&rng);
        }
        for (size_t i = 0; i < bytes; i++)
            plain[i] = (uint8_t)(tally_rng_next(&rng) >> 24);
        KeyExpansion(rk, key);
        CbcEncrypt(cipher, plain, blocks, iv, rk);
        CbcDecrypt(back, cipher, blocks, iv, rk);
        if (memcmp(back, plain, bytes) != 0) {
            printf("aes: FAIL key %d: CBC decryption does not give the plaintext back\n", k);
            return 1;
        }
        /* The last ciphertext block is a MAC of the whole stream. */
        const uint8_t *last = cipher + bytes - 16;
        for (int i = 0; i < 16; i += 4)
            sum = tally_mix32(sum ^ ((uint32_t)last[i] | (uint32_t)last[i + 1] << 8 |
                                     (uint32_t)last[i + 2] << 16 | (uint32_t)last[i + 3] << 24));
    }
    printf("aes: %d keys x %lu blocks CBC, known answers ok, round trip ok\n", NKEYS, blocks);
    printf("aes: checksum %08lx\n", (unsigned long)sum);
    printf("aes: OK\n");
    return 0;
}
