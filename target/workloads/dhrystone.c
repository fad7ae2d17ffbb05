/*
 * dhrystone - a synthetic integer benchmark in the spirit of Dhrystone.
 *
 * Each pass does what "typical" integer code of the Dhrystone era does,
 * in roughly its proportions: many small procedure calls, assignments
 * through pointers, record (struct) copies and linked-record walks,
 * enumerations and switch statements, one- and two-dimensional arrays,
 * character tests, string copies and string compares, and a little
 * multiply/divide (which the rv32i flavour does in software).
 *
 * Self-check: like the original, every global ends in a state that
 * follows from the number of passes alone; main() compares each one with
 * its closed form (e.g. grid[8][7] == passes + 10) and fails on any
 * mismatch. The checksum line folds all of them together.
 *
 * Size parameter: passes (default 30000).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tally/target.h>

typedef enum { RED, AMBER, GREEN, BLUE, VIOLET } hue_t;

typedef struct record {
    struct record *link;
    hue_t hue;
    int count;
    int weight;
    char label[31];
} record_t;

/* Globals, as in the original: the benchmark is about memory traffic too. */
static record_t *head_rec, *spare_rec;
static int g_int;
static int g_flag;
static char g_ch1, g_ch2;
static int g_vec[50];
static int g_grid[50][50];
static char g_str1[31], g_str2[31];
static int g_total;

#define NOINLINE __attribute__((noinline))

NOINLINE static hue_t hue_of_chars(char a, char b)
{
    char c = a;
    if (c != b)
        return RED;
    g_ch1 = c;
    return AMBER;
}

NOINLINE static int hue_ok(hue_t h)
{
    return h == BLUE;
}

NOINLINE static void next_hue(hue_t in, hue_t *out)
{
    *out = in;
    if (!hue_ok(in))
        *out = GREEN;
    switch (in) {
    case RED:
        *out = RED;
        break;
    case AMBER:
        *out = g_int > 100 ? RED : BLUE;
        break;
    case GREEN:
        *out = AMBER;
        break;
    case BLUE:
        break;
    case VIOLET:
        *out = BLUE;
        break;
    }
}

NOINLINE static void add_two(int a, int b, int *out)
{
    int t = a + 2;
    *out = b + t;
}

NOINLINE static void bump(int *p)
{
    int v = *p + 10;
    for (;;) {
        if (g_ch1 == 'A') {
            v -= 1;
            *p = v - g_int;
            return;
        }
    }
}

NOINLINE static void link_of(record_t **p)
{
    if (head_rec != NULL)
        *p = head_rec->link;
    add_two(10, g_int, &head_rec->count);
}

NOINLINE static void fill_tables(int vec[50], int grid[50][50], int i, int v)
{
    int at = i + 5;
    vec[at] = v;
    vec[at + 1] = vec[at];
    vec[at + 30] = at;
    for (int j = at; j <= at + 1; j++)
        grid[at][j] = at;
    grid[at][at - 1] += 1;
    grid[at + 20][at] = vec[at];
    g_int = 5;
}

NOINLINE static void set_chars(void)
{
    int is_a = g_ch1 == 'A';
    g_flag = is_a | g_flag;
    g_ch2 = 'B';
}

NOINLINE static void clear_chars(void)
{
    g_ch1 = 'A';
    g_flag = 0;
}

NOINLINE static int strings_differ(const char *s1, const char *s2)
{
    int i = 2;
    char c = 0;
    while (i <= 2) {
        if (hue_of_chars(s1[i], s2[i + 1]) == RED) {
            c = 'A';
            i += 1;
        }
    }
    if (c >= 'W' && c < 'Z')
        i = 7;
    if (c == 'R')
        return 1;
    if (strcmp(s1, s2) > 0) {
        i += 7;
        g_int = i;
        return 1;
    }
    return 0;
}

/* Works on a record and the one it links to: copies, calls, a switch. */
NOINLINE static void visit_record(record_t *r)
{
    record_t *next = r->link;
    *next = *head_rec;                  /* record copy */
    r->count = 5;
    next->count = r->count;
    next->link = r->link;
    link_of(&next->link);
    if (next->hue == RED) {
        next->count = 6;
        next_hue(r->hue, &next->hue);
        next->link = head_rec->link;
        add_two(next->count, 10, &next->count);
    } else {
        *r = *next;                     /* record copy */
    }
}

/* Builds a label from a template and a number: string copy and char work. */
NOINLINE static void make_label(char *dst, const char *tmpl, unsigned n)
{
    strcpy(dst, tmpl);
    char *p = dst + strlen(dst);
    char digits[12];
    int k = 0;
    do {
        digits[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k)
        *p++ = digits[--k];
    *p = '\0';
}

static uint32_t fold(uint32_t h, uint32_t v)
{
    return tally_mix32(h ^ v) + 0x9e3779b9u;
}

int main(int argc, char **argv)
{
    unsigned long passes = TALLY_ITERS(30000);
    if (passes > 10000000ul) {
        printf("dhrystone: at most 10000000 passes\n");
        return 2;
    }

    static record_t rec_a, rec_b;
    spare_rec = &rec_b;
    head_rec = &rec_a;
    head_rec->link = spare_rec;
    head_rec->hue = RED;
    head_rec->count = 40;
    head_rec->weight = 3;
    strcpy(head_rec->label, "LEDGER ENTRY, FIRST RECORD");
    strcpy(g_str1, "SYNTHETIC TEST, FIRST STRING");
    g_grid[8][7] = 10;

    int i1 = 0, i2 = 0, i3 = 0;
    hue_t hue = RED;
    char label[31];
    for (unsigned long pass = 1; pass <= passes; pass++) {
        clear_chars();
        set_chars();
        i1 = 2;
        i2 = 3;
        strcpy(g_str2, "SYNTHETIC TEST, SECOND STRING");
        hue = AMBER;
        g_flag = !strings_differ(g_str1, g_str2);
        while (i1 < i2) {
            i3 = 5 * i1 - i2;
            add_two(i1, i2, &i3);
            i1 += 1;
        }
        fill_tables(g_vec, g_grid, i1, i3);
        visit_record(head_rec);
        for (char ch = 'A'; ch <= g_ch2; ch++) {
            if (hue == hue_of_chars(ch, 'C')) {
                next_hue(RED, &hue);
                strcpy(g_str2, "SYNTHETIC TEST, THIRD STRING");
                i2 = (int)pass;
                g_int = (int)pass;
            }
        }
        i2 = i2 * i1;
        i1 = i2 / i3;
        i2 = 7 * (i2 - i3) - i1;
        bump(&i1);
        if ((pass & 255) == 0) {
            make_label(label, "PASS ", (unsigned)pass);
            g_total += (int)strlen(label);
        }
    }

    /* Every value below follows from the program text alone. */
    struct { const char *name; long got, want; } checks[] = {
        { "g_int", g_int, 5 },
        { "g_flag", g_flag, 1 },
        { "g_ch1", g_ch1, 'A' },
        { "g_ch2", g_ch2, 'B' },
        { "g_vec[8]", g_vec[8], 7 },
        { "g_grid[8][7]", g_grid[8][7], (long)passes + 10 },
        { "head.hue", head_rec->hue, RED },
        { "head.count", head_rec->count, 17 },
        { "head.weight", head_rec->weight, 3 },
        { "spare.hue", spare_rec->hue, RED },
        { "spare.count", spare_rec->count, 18 },
        { "i1", i1, 5 },
        { "i2", i2, 13 },
        { "i3", i3, 7 },
        { "hue", hue, AMBER },
        { "label chars", g_total, 0 },
    };
    /* "PASS " + decimal digits, every 256th pass. */
    for (unsigned long p = 256; p <= passes; p += 256) {
        long digits = 0;
        for (unsigned long n = p; n; n /= 10)
            digits++;
        checks[15].want += 5 + digits;
    }

    int bad = 0;
    uint32_t sum = 0;
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) {
        sum = fold(sum, (uint32_t)checks[k].got);
        if (checks[k].got != checks[k].want) {
            printf("dhrystone: FAIL %s = %ld, should be %ld\n", checks[k].name, checks[k].got,
                   checks[k].want);
            bad = 1;
        }
    }
    if (strcmp(head_rec->label, "LEDGER ENTRY, FIRST RECORD") != 0 ||
        strcmp(spare_rec->label, "LEDGER ENTRY, FIRST RECORD") != 0 ||
        strcmp(g_str1, "SYNTHETIC TEST, FIRST STRING") != 0 ||
        strcmp(g_str2, "SYNTHETIC TEST, SECOND STRING") != 0) {
        printf("dhrystone: FAIL strings changed: '%s' '%s' '%s' '%s'\n", head_rec->label,
               spare_rec->label, g_str1, g_str2);
        bad = 1;
    }
    if (bad)
        return 1;
    printf("dhrystone: %lu passes, all globals as expected\n", passes);
    printf("dhrystone: checksum %08lx\n", (unsigned long)sum);
    printf("dhrystone: OK\n");
    return 0;
}
