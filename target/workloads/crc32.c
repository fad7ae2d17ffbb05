/*
 * crc32 - CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of a
 * pseudo-random buffer, table-driven, one byte per step.
 *
 * Self-check: the known answer CRC-32("123456789") = 0xCBF43926; a slow
 * bit-at-a-time implementation must agree with the table on the first
 * 4 KiB; and, for each pass, appending the CRC (little-endian) to the data
 * must give the CRC-32 residue 0x2144DF1C, an algebraic property of the
 * code that does not depend on the table.
 *
 * Size parameter: KiB of data checksummed (default 1024), in passes over
 * one 64 KiB buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

#define POLY        0xedb88320u
#define RESIDUE     0x2144df1cu
#define BUF_BYTES   (64u * 1024u)

static uint32_t crc_table[256];
static uint8_t buf[BUF_BYTES + 4];

static __attribute__((noinline)) void crc32_make_table(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? POLY ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

/* Continues a CRC: crc32_update(0, ...) starts one. */
static __attribute__((noinline)) uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    while (n--)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static __attribute__((noinline)) uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (POLY & (0u - (crc & 1)));
    }
    return ~crc;
}

static __attribute__((noinline)) void fill_buffer(uint8_t *p, size_t n, tally_rng *rng)
{
    for (size_t i = 0; i + 4 <= n; i += 4) {
        uint32_t r = tally_rng_next(rng);
        memcpy(p + i, &r, 4);
    }
}

int main(int argc, char **argv)
{
    unsigned long kib = TALLY_ITERS(1024);
    if (kib > (1ul << 22)) {
        printf("crc32: at most %lu KiB\n", 1ul << 22);
        return 2;
    }
    crc32_make_table();

    uint32_t kat = crc32_update(0, (const uint8_t *)"123456789", 9);
    if (kat != 0xcbf43926u) {
        printf("crc32: FAIL CRC-32(\"123456789\") = %08lx, not cbf43926\n", (unsigned long)kat);
        return 1;
    }

    tally_rng rng;
    tally_rng_seed(&rng, 0xc0ffee);
    fill_buffer(buf, BUF_BYTES, &rng);
    uint32_t slow = crc32_bitwise(buf, 4096), fast = crc32_update(0, buf, 4096);
    if (slow != fast) {
        printf("crc32: FAIL table CRC %08lx != bitwise CRC %08lx\n", (unsigned long)fast,
               (unsigned long)slow);
        return 1;
    }

    uint32_t total = 0, check = 0;
    for (unsigned long done = 0, pass = 0; done < kib; pass++) {
        unsigned long chunk = kib - done < BUF_BYTES / 1024 ? kib - done : BUF_BYTES / 1024;
        size_t len = chunk * 1024;
        buf[pass % len] ^= (uint8_t)(pass + 1);      /* a different message each pass */
        uint32_t crc = crc32_update(0, buf, len);
        /* A message followed by its own CRC leaves the fixed residue. */
        uint8_t saved[4];
        memcpy(saved, buf + len, 4);
        for (int i = 0; i < 4; i++)
            buf[len + i] = (uint8_t)(crc >> (8 * i));
        uint32_t res = crc32_update(crc, buf + len, 4);
        memcpy(buf + len, saved, 4);
        if (res != RESIDUE) {
            printf("crc32: FAIL pass %lu: residue %08lx, not %08lx\n", pass, (unsigned long)res,
                   (unsigned long)RESIDUE);
            return 1;
        }
        total = crc32_update(total, (const uint8_t *)&crc, 4);
        check ^= crc;
        done += chunk;
    }
    printf("crc32: %lu KiB, known answer ok, bitwise ok, residue ok\n", kib);
    printf("crc32: checksum %08lx %08lx\n", (unsigned long)total, (unsigned long)check);
    printf("crc32: OK\n");
    return 0;
}
